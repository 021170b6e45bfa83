// bias + GELU + residual: an elementwise-only group.

func.func @bias_gelu_residual_f32_1000x1003(%x: tensor<1000x1003xf32>, %b: tensor<1003xf32>, %r: tensor<1000x1003xf32>) -> tensor<1000x1003xf32> {
  %bb = sopt.broadcast %b dims = [1] : tensor<1003xf32> -> tensor<1000x1003xf32>
  %s = sopt.add %x, %bb : tensor<1000x1003xf32>
  %g = sopt.gelu %s : tensor<1000x1003xf32>
  %y = sopt.add %g, %r : tensor<1000x1003xf32>
  return %y : tensor<1000x1003xf32>
}

func.func @bias_gelu_residual_bf16_128x3072(%x: tensor<128x3072xbf16>, %b: tensor<3072xbf16>, %r: tensor<128x3072xbf16>) -> tensor<128x3072xbf16> {
  %bb = sopt.broadcast %b dims = [1] : tensor<3072xbf16> -> tensor<128x3072xbf16>
  %s = sopt.add %x, %bb : tensor<128x3072xbf16>
  %g = sopt.gelu %s : tensor<128x3072xbf16>
  %y = sopt.add %g, %r : tensor<128x3072xbf16>
  return %y : tensor<128x3072xbf16>
}

func.func @bias_gelu_residual_f32_1x1(%x: tensor<1x1xf32>, %b: tensor<1xf32>, %r: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %bb = sopt.broadcast %b dims = [1] : tensor<1xf32> -> tensor<1x1xf32>
  %s = sopt.add %x, %bb : tensor<1x1xf32>
  %g = sopt.gelu %s : tensor<1x1xf32>
  %y = sopt.add %g, %r : tensor<1x1xf32>
  return %y : tensor<1x1xf32>
}

