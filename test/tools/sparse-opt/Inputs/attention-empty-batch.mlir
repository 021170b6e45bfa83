// Found by fuzz/extreme-shapes.py (UBSan: signed overflow in the index-map
// strides of the decomposed Q·Kᵀ, whose batch of 0 made its element count 0).
func.func @f(%q: tensor<0x9223372036854775807x1xbf16>, %k: tensor<0x140737488355328x1xbf16>) -> tensor<0x9223372036854775807x1xbf16> {
  %0 = sopt.attention %q, %k, %k : tensor<0x9223372036854775807x1xbf16>, tensor<0x140737488355328x1xbf16>, tensor<0x140737488355328x1xbf16> -> tensor<0x9223372036854775807x1xbf16>
  return %0 : tensor<0x9223372036854775807x1xbf16>
}
