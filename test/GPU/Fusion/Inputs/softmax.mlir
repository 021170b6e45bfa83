// Softmax over the last dim.

func.func @softmax_f32_4096x333(%x: tensor<4096x333xf32>) -> tensor<4096x333xf32> {
  %y = sopt.softmax %x dim = 1 : tensor<4096x333xf32>
  return %y : tensor<4096x333xf32>
}

func.func @softmax_f32_200x4096(%x: tensor<200x4096xf32>) -> tensor<200x4096xf32> {
  %y = sopt.softmax %x dim = 1 : tensor<200x4096xf32>
  return %y : tensor<200x4096xf32>
}

func.func @softmax_f32_1x7(%x: tensor<1x7xf32>) -> tensor<1x7xf32> {
  %y = sopt.softmax %x dim = 1 : tensor<1x7xf32>
  return %y : tensor<1x7xf32>
}

func.func @softmax_bf16_1000x512(%x: tensor<1000x512xbf16>) -> tensor<1000x512xbf16> {
  %y = sopt.softmax %x dim = 1 : tensor<1000x512xbf16>
  return %y : tensor<1000x512xbf16>
}

// Rows too long for registers (48 f16 elements per thread): the exponentials
// wait in shared memory between the two reductions.
func.func @softmax_f16_256x49152(%x: tensor<256x49152xf16>) -> tensor<256x49152xf16> {
  %y = sopt.softmax %x dim = 1 : tensor<256x49152xf16>
  return %y : tensor<256x49152xf16>
}
