func.func @softmax(%x: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %y = sopt.softmax %x dim = 1 : tensor<4x10xf32>
  return %y : tensor<4x10xf32>
}
