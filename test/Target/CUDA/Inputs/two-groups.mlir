func.func @f(%x: tensor<256x128xf32>) -> tensor<f32> {
  %r = sopt.reduce sum %x dims = [1] : tensor<256x128xf32> -> tensor<256xf32>
  %m = sopt.reduce max %r dims = [0] : tensor<256xf32> -> tensor<f32>
  return %m : tensor<f32>
}
