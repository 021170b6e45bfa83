// LayerNorm (scale, bias) over rows of awkward widths and counts.

func.func @layer_norm_f32_1x1000(%x: tensor<1x1000xf32>, %g: tensor<1000xf32>, %b: tensor<1000xf32>) -> tensor<1x1000xf32> {
  %y = sopt.layer_norm %x scale(%g : tensor<1000xf32>) bias(%b : tensor<1000xf32>) epsilon = 1.0e-05 : tensor<1x1000xf32>
  return %y : tensor<1x1000xf32>
}

func.func @layer_norm_f32_100000x37(%x: tensor<100000x37xf32>, %g: tensor<37xf32>, %b: tensor<37xf32>) -> tensor<100000x37xf32> {
  %y = sopt.layer_norm %x scale(%g : tensor<37xf32>) bias(%b : tensor<37xf32>) epsilon = 1.0e-05 : tensor<100000x37xf32>
  return %y : tensor<100000x37xf32>
}

func.func @layer_norm_f32_300x4096(%x: tensor<300x4096xf32>, %g: tensor<4096xf32>, %b: tensor<4096xf32>) -> tensor<300x4096xf32> {
  %y = sopt.layer_norm %x scale(%g : tensor<4096xf32>) bias(%b : tensor<4096xf32>) epsilon = 1.0e-05 : tensor<300x4096xf32>
  return %y : tensor<300x4096xf32>
}

func.func @layer_norm_f32_2048x1024(%x: tensor<2048x1024xf32>, %g: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<2048x1024xf32> {
  %y = sopt.layer_norm %x scale(%g : tensor<1024xf32>) bias(%b : tensor<1024xf32>) epsilon = 1.0e-05 : tensor<2048x1024xf32>
  return %y : tensor<2048x1024xf32>
}

func.func @layer_norm_bf16_2048x1024(%x: tensor<2048x1024xbf16>, %g: tensor<1024xbf16>, %b: tensor<1024xbf16>) -> tensor<2048x1024xbf16> {
  %y = sopt.layer_norm %x scale(%g : tensor<1024xbf16>) bias(%b : tensor<1024xbf16>) epsilon = 1.0e-05 : tensor<2048x1024xbf16>
  return %y : tensor<2048x1024xbf16>
}

func.func @layer_norm_f16_777x768(%x: tensor<777x768xf16>, %g: tensor<768xf16>, %b: tensor<768xf16>) -> tensor<777x768xf16> {
  %y = sopt.layer_norm %x scale(%g : tensor<768xf16>) bias(%b : tensor<768xf16>) epsilon = 1.0e-05 : tensor<777x768xf16>
  return %y : tensor<777x768xf16>
}

