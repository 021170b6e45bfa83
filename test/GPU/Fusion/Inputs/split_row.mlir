// Too few rows to fill the GPU: each row is split across blocks that meet at
// grid-wide barriers (cooperative launch).

func.func @layer_norm_f32_4x1000003(%x: tensor<4x1000003xf32>, %g: tensor<1000003xf32>, %b: tensor<1000003xf32>) -> tensor<4x1000003xf32> {
  %y = sopt.layer_norm %x scale(%g : tensor<1000003xf32>) bias(%b : tensor<1000003xf32>) epsilon = 1.0e-05 : tensor<4x1000003xf32>
  return %y : tensor<4x1000003xf32>
}

func.func @softmax_bf16_2x65536(%x: tensor<2x65536xbf16>) -> tensor<2x65536xbf16> {
  %y = sopt.softmax %x dim = 1 : tensor<2x65536xbf16>
  return %y : tensor<2x65536xbf16>
}

func.func @sum_f32_1048576(%x: tensor<1048576xf32>) -> tensor<f32> {
  %y = sopt.reduce sum %x dims = [0] : tensor<1048576xf32> -> tensor<f32>
  return %y : tensor<f32>
}
