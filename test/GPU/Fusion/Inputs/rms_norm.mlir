// RMSNorm with scale over the last dim.

func.func @rms_norm_f32_513x8192(%x: tensor<513x8192xf32>, %g: tensor<8192xf32>) -> tensor<513x8192xf32> {
  %y = sopt.rms_norm %x scale(%g : tensor<8192xf32>) epsilon = 1.0e-06 : tensor<513x8192xf32>
  return %y : tensor<513x8192xf32>
}

func.func @rms_norm_bf16_100x1024(%x: tensor<100x1024xbf16>, %g: tensor<1024xbf16>) -> tensor<100x1024xbf16> {
  %y = sopt.rms_norm %x scale(%g : tensor<1024xbf16>) epsilon = 1.0e-06 : tensor<100x1024xbf16>
  return %y : tensor<100x1024xbf16>
}

func.func @rms_norm_f32_3x5(%x: tensor<3x5xf32>, %g: tensor<5xf32>) -> tensor<3x5xf32> {
  %y = sopt.rms_norm %x scale(%g : tensor<5xf32>) epsilon = 1.0e-06 : tensor<3x5xf32>
  return %y : tensor<3x5xf32>
}

