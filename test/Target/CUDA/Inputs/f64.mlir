func.func @f(%x: tensor<4x8xf64>) -> tensor<4x8xf64> {
  %y = sopt.exp %x : tensor<4x8xf64>
  return %y : tensor<4x8xf64>
}
