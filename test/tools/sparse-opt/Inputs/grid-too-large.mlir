// 2^40 rows of one element: a legal tensor (2 TiB), but its row mapping
// needs 2^32 blocks.
func.func @g(%a: tensor<1099511627776x1xf16>) -> tensor<1099511627776x1xf16> {
  %0 = sopt.softmax %a dim = 1 : tensor<1099511627776x1xf16>
  return %0 : tensor<1099511627776x1xf16>
}
