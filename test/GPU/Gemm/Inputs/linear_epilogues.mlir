// sparse-opt-flags: --gemm-kernel
// Linear layers on the project's GEMM with their elementwise consumers as
// the GEMM's epilogue (sopt-schedule-gemm, sopt-fuse-sparse-epilogues),
// plus the cases that stay apart: a split-K product, a batched one.

// Linear + bias + GELU + residual at odd sizes: 8 x 17 tiles of 128 x 128
// fill the 132 SMs, so one K slice and a fused epilogue.
func.func @linear_bias_gelu_residual(%x: tensor<1000x333xf32>, %w: tensor<333x2051xf32>, %b: tensor<2051xf32>, %r: tensor<1000x2051xf32>) -> tensor<1000x2051xf32> {
  %y = sopt.matmul %x, %w : tensor<1000x333xf32>, tensor<333x2051xf32> -> tensor<1000x2051xf32>
  %bb = sopt.broadcast %b dims = [1] : tensor<2051xf32> -> tensor<1000x2051xf32>
  %s = sopt.add %y, %bb : tensor<1000x2051xf32>
  %g = sopt.gelu %s : tensor<1000x2051xf32>
  %o = sopt.add %g, %r : tensor<1000x2051xf32>
  return %o : tensor<1000x2051xf32>
}

// x · Wᵀ (W stored [N, K], as PyTorch keeps it) + bias, GELU, cast to bf16
// in the epilogue.
func.func @linear_t_bias_gelu_bf16(%x: tensor<515x77xf32>, %w: tensor<4099x77xf32>, %b: tensor<4099xf32>) -> tensor<515x4099xbf16> {
  %y = sopt.matmul %x, %w transpose_rhs : tensor<515x77xf32>, tensor<4099x77xf32> -> tensor<515x4099xf32>
  %bb = sopt.broadcast %b dims = [1] : tensor<4099xf32> -> tensor<515x4099xf32>
  %s = sopt.add %y, %bb : tensor<515x4099xf32>
  %g = sopt.gelu %s : tensor<515x4099xf32>
  %c = sopt.cast %g : tensor<515x4099xf32> to tensor<515x4099xbf16>
  return %c : tensor<515x4099xbf16>
}

// One row, a schedule set by hand (one slice): scale, bias and ReLU fused.
func.func @row_scale_bias_relu(%x: tensor<1x5xf32>, %w: tensor<5x37xf32>, %b: tensor<37xf32>) -> tensor<1x37xf32> {
  %y = sopt.matmul %x, %w {schedule = #sopt.gemm_schedule<block_m = 32, block_n = 128, k_step = 8>} : tensor<1x5xf32>, tensor<5x37xf32> -> tensor<1x37xf32>
  %h = sopt.constant dense<0.125> : tensor<1x37xf32>
  %m = sopt.mul %y, %h : tensor<1x37xf32>
  %bb = sopt.broadcast %b dims = [1] : tensor<37xf32> -> tensor<1x37xf32>
  %s = sopt.add %m, %bb : tensor<1x37xf32>
  %o = sopt.relu %s : tensor<1x37xf32>
  return %o : tensor<1x37xf32>
}

// Aᵀ · B with K = 1: one column, one slice, residual fused.
func.func @outer_residual(%a: tensor<1x129xf32>, %b: tensor<1x131xf32>, %r: tensor<129x131xf32>) -> tensor<129x131xf32> {
  %y = sopt.matmul %a, %b transpose_lhs : tensor<1x129xf32>, tensor<1x131xf32> -> tensor<129x131xf32>
  %o = sopt.add %y, %r : tensor<129x131xf32>
  return %o : tensor<129x131xf32>
}

// BERT's FFN at 128 tokens: the rule splits K, so bias + GELU stay a
// kernel of their own after the atomically summed product.
func.func @split_k_bias_gelu(%x: tensor<128x768xf32>, %w: tensor<768x3072xf32>, %b: tensor<3072xf32>) -> tensor<128x3072xf32> {
  %y = sopt.matmul %x, %w : tensor<128x768xf32>, tensor<768x3072xf32> -> tensor<128x3072xf32>
  %bb = sopt.broadcast %b dims = [1] : tensor<3072xf32> -> tensor<128x3072xf32>
  %s = sopt.add %y, %bb : tensor<128x3072xf32>
  %g = sopt.gelu %s : tensor<128x3072xf32>
  return %g : tensor<128x3072xf32>
}

// Batched, both operands transposed, odd sizes.
func.func @batched_tt(%a: tensor<3x45x67xf32>, %b: tensor<3x33x45xf32>) -> tensor<3x67x33xf32> {
  %y = sopt.matmul %a, %b transpose_lhs transpose_rhs : tensor<3x45x67xf32>, tensor<3x33x45xf32> -> tensor<3x67x33xf32>
  return %y : tensor<3x67x33xf32>
}
