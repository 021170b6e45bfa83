func.func @f(%x: tensor<4x8xf32>, %y: tensor<4x7xf32>) -> tensor<4x8xf32> {
  %z = "sopt.add"(%x, %y) : (tensor<4x8xf32>, tensor<4x7xf32>) -> tensor<4x8xf32>
  return %z : tensor<4x8xf32>
}
