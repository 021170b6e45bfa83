// Memory-bound benchmark graphs, one function per case, dtype and shape,
// named <case>_<dtype>_<rows>x<cols>. bench.py calls the generated host
// functions by these names with the arguments in this order (its CASES and
// KINDS must match this file). Vectors ([cols]) broadcast along the rows;
// every normalisation is over the last dim.
//
//   benchmarks/fusion/prepare.sh      compiles this file to CUDA in .carry/bench

// y = LayerNorm(gelu(x + bias) + residual) * gamma + beta  (GELU: erf form)

func.func @ln_bias_gelu_residual_f32_16384x1024(%x: tensor<16384x1024xf32>, %bias: tensor<1024xf32>, %residual: tensor<16384x1024xf32>, %gamma: tensor<1024xf32>, %beta: tensor<1024xf32>) -> tensor<16384x1024xf32> {
  %bb = sopt.broadcast %bias dims = [1] : tensor<1024xf32> -> tensor<16384x1024xf32>
  %s = sopt.add %x, %bb : tensor<16384x1024xf32>
  %g = sopt.gelu %s : tensor<16384x1024xf32>
  %h = sopt.add %g, %residual : tensor<16384x1024xf32>
  %y = sopt.layer_norm %h scale(%gamma : tensor<1024xf32>) bias(%beta : tensor<1024xf32>) epsilon = 1.0e-05 : tensor<16384x1024xf32>
  return %y : tensor<16384x1024xf32>
}

func.func @ln_bias_gelu_residual_f32_65536x768(%x: tensor<65536x768xf32>, %bias: tensor<768xf32>, %residual: tensor<65536x768xf32>, %gamma: tensor<768xf32>, %beta: tensor<768xf32>) -> tensor<65536x768xf32> {
  %bb = sopt.broadcast %bias dims = [1] : tensor<768xf32> -> tensor<65536x768xf32>
  %s = sopt.add %x, %bb : tensor<65536x768xf32>
  %g = sopt.gelu %s : tensor<65536x768xf32>
  %h = sopt.add %g, %residual : tensor<65536x768xf32>
  %y = sopt.layer_norm %h scale(%gamma : tensor<768xf32>) bias(%beta : tensor<768xf32>) epsilon = 1.0e-05 : tensor<65536x768xf32>
  return %y : tensor<65536x768xf32>
}

func.func @ln_bias_gelu_residual_bf16_16384x1024(%x: tensor<16384x1024xbf16>, %bias: tensor<1024xbf16>, %residual: tensor<16384x1024xbf16>, %gamma: tensor<1024xbf16>, %beta: tensor<1024xbf16>) -> tensor<16384x1024xbf16> {
  %bb = sopt.broadcast %bias dims = [1] : tensor<1024xbf16> -> tensor<16384x1024xbf16>
  %s = sopt.add %x, %bb : tensor<16384x1024xbf16>
  %g = sopt.gelu %s : tensor<16384x1024xbf16>
  %h = sopt.add %g, %residual : tensor<16384x1024xbf16>
  %y = sopt.layer_norm %h scale(%gamma : tensor<1024xbf16>) bias(%beta : tensor<1024xbf16>) epsilon = 1.0e-05 : tensor<16384x1024xbf16>
  return %y : tensor<16384x1024xbf16>
}

func.func @ln_bias_gelu_residual_bf16_65536x768(%x: tensor<65536x768xbf16>, %bias: tensor<768xbf16>, %residual: tensor<65536x768xbf16>, %gamma: tensor<768xbf16>, %beta: tensor<768xbf16>) -> tensor<65536x768xbf16> {
  %bb = sopt.broadcast %bias dims = [1] : tensor<768xbf16> -> tensor<65536x768xbf16>
  %s = sopt.add %x, %bb : tensor<65536x768xbf16>
  %g = sopt.gelu %s : tensor<65536x768xbf16>
  %h = sopt.add %g, %residual : tensor<65536x768xbf16>
  %y = sopt.layer_norm %h scale(%gamma : tensor<768xbf16>) bias(%beta : tensor<768xbf16>) epsilon = 1.0e-05 : tensor<65536x768xbf16>
  return %y : tensor<65536x768xbf16>
}

// y = softmax(x) over the last dim

func.func @softmax_f32_16384x4096(%x: tensor<16384x4096xf32>) -> tensor<16384x4096xf32> {
  %y = sopt.softmax %x dim = 1 : tensor<16384x4096xf32>
  return %y : tensor<16384x4096xf32>
}

func.func @softmax_f32_65536x512(%x: tensor<65536x512xf32>) -> tensor<65536x512xf32> {
  %y = sopt.softmax %x dim = 1 : tensor<65536x512xf32>
  return %y : tensor<65536x512xf32>
}

func.func @softmax_bf16_16384x4096(%x: tensor<16384x4096xbf16>) -> tensor<16384x4096xbf16> {
  %y = sopt.softmax %x dim = 1 : tensor<16384x4096xbf16>
  return %y : tensor<16384x4096xbf16>
}

func.func @softmax_bf16_65536x512(%x: tensor<65536x512xbf16>) -> tensor<65536x512xbf16> {
  %y = sopt.softmax %x dim = 1 : tensor<65536x512xbf16>
  return %y : tensor<65536x512xbf16>
}

// y = RMSNorm(x) * gamma

func.func @rms_norm_f32_8192x8192(%x: tensor<8192x8192xf32>, %gamma: tensor<8192xf32>) -> tensor<8192x8192xf32> {
  %y = sopt.rms_norm %x scale(%gamma : tensor<8192xf32>) epsilon = 1.0e-06 : tensor<8192x8192xf32>
  return %y : tensor<8192x8192xf32>
}

func.func @rms_norm_bf16_8192x8192(%x: tensor<8192x8192xbf16>, %gamma: tensor<8192xbf16>) -> tensor<8192x8192xbf16> {
  %y = sopt.rms_norm %x scale(%gamma : tensor<8192xbf16>) epsilon = 1.0e-06 : tensor<8192x8192xbf16>
  return %y : tensor<8192x8192xbf16>
}

// y = LayerNorm(x + residual) * gamma + beta

func.func @residual_layer_norm_f32_2048x1024(%x: tensor<2048x1024xf32>, %residual: tensor<2048x1024xf32>, %gamma: tensor<1024xf32>, %beta: tensor<1024xf32>) -> tensor<2048x1024xf32> {
  %h = sopt.add %x, %residual : tensor<2048x1024xf32>
  %y = sopt.layer_norm %h scale(%gamma : tensor<1024xf32>) bias(%beta : tensor<1024xf32>) epsilon = 1.0e-05 : tensor<2048x1024xf32>
  return %y : tensor<2048x1024xf32>
}

func.func @residual_layer_norm_bf16_2048x1024(%x: tensor<2048x1024xbf16>, %residual: tensor<2048x1024xbf16>, %gamma: tensor<1024xbf16>, %beta: tensor<1024xbf16>) -> tensor<2048x1024xbf16> {
  %h = sopt.add %x, %residual : tensor<2048x1024xbf16>
  %y = sopt.layer_norm %h scale(%gamma : tensor<1024xbf16>) bias(%beta : tensor<1024xbf16>) epsilon = 1.0e-05 : tensor<2048x1024xbf16>
  return %y : tensor<2048x1024xbf16>
}
