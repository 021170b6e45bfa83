// Graphs for test/GPU/Sparse/sddmm_epilogues.cu: elementwise ops on the
// stored entries of an SDDMM, fused into its kernel (both tilings, f32 and
// f16), and not fused (the product is also returned) with a kernel over the
// stored entries of their own.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// (0.125 Q · Kᵀ ⊙ S) · scale, exp, + bias, · mask: the scale prologue and
// four epilogue ops in the SDDMM kernel (nonzeros).
func.func @attn_f32_nonzeros(%q: tensor<130x33xf32>, %k: tensor<200x33xf32>, %s: tensor<130x200xf32, #CSR>,
    %scale: tensor<f32>, %bias: tensor<130x200xf32>, %mask: tensor<130x200xf32>) -> tensor<130x200xf32, #CSR> {
  %eighth = sopt.constant dense<0.125> : tensor<130x33xf32>
  %qs = sopt.mul %q, %eighth : tensor<130x33xf32>
  %d = sopt.sddmm %qs, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 8, threads_per_nonzero = 4, tiles_per_block = 4, vector_width = 1, row_order = natural>}
      : tensor<130x33xf32>, tensor<200x33xf32>, tensor<130x200xf32, #CSR> -> tensor<130x200xf32, #CSR>
  %sb = sopt.broadcast %scale dims = [] : tensor<f32> -> tensor<130x200xf32>
  %x = sopt.mul %d, %sb : tensor<130x200xf32, #CSR>, tensor<130x200xf32> -> tensor<130x200xf32, #CSR>
  %e = sopt.exp %x : tensor<130x200xf32, #CSR>
  %b = sopt.add %e, %bias : tensor<130x200xf32, #CSR>, tensor<130x200xf32> -> tensor<130x200xf32, #CSR>
  %y = sopt.mul %mask, %b : tensor<130x200xf32>, tensor<130x200xf32, #CSR> -> tensor<130x200xf32, #CSR>
  return %y : tensor<130x200xf32, #CSR>
}

// (0.125 Q · Kᵀ ⊙ S) · scale, exp, + bias, · mask: the scale prologue and
// four epilogue ops in the SDDMM kernel (blocks of 32 x 32: 5 x 7 of them,
// the last ones partial).
func.func @attn_f32_blocks(%q: tensor<130x33xf32>, %k: tensor<200x33xf32>, %s: tensor<130x200xf32, #CSR>,
    %scale: tensor<f32>, %bias: tensor<130x200xf32>, %mask: tensor<130x200xf32>) -> tensor<130x200xf32, #CSR> {
  %eighth = sopt.constant dense<0.125> : tensor<130x33xf32>
  %qs = sopt.mul %q, %eighth : tensor<130x33xf32>
  %d = sopt.sddmm %qs, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 1, row_order = natural, block_size = 32>}
      : tensor<130x33xf32>, tensor<200x33xf32>, tensor<130x200xf32, #CSR> -> tensor<130x200xf32, #CSR>
  %sb = sopt.broadcast %scale dims = [] : tensor<f32> -> tensor<130x200xf32>
  %x = sopt.mul %d, %sb : tensor<130x200xf32, #CSR>, tensor<130x200xf32> -> tensor<130x200xf32, #CSR>
  %e = sopt.exp %x : tensor<130x200xf32, #CSR>
  %b = sopt.add %e, %bias : tensor<130x200xf32, #CSR>, tensor<130x200xf32> -> tensor<130x200xf32, #CSR>
  %y = sopt.mul %mask, %b : tensor<130x200xf32>, tensor<130x200xf32, #CSR> -> tensor<130x200xf32, #CSR>
  return %y : tensor<130x200xf32, #CSR>
}

// (0.125 Q · Kᵀ ⊙ S) · scale, exp, + bias, · mask: the scale prologue and
// four epilogue ops in the SDDMM kernel (blocks of 64 x 64: 3 x 4 of them,
// the last ones partial; on sm_90a multiplied by wgmma).
func.func @attn_f32_blocks64(%q: tensor<130x33xf32>, %k: tensor<200x33xf32>, %s: tensor<130x200xf32, #CSR>,
    %scale: tensor<f32>, %bias: tensor<130x200xf32>, %mask: tensor<130x200xf32>) -> tensor<130x200xf32, #CSR> {
  %eighth = sopt.constant dense<0.125> : tensor<130x33xf32>
  %qs = sopt.mul %q, %eighth : tensor<130x33xf32>
  %d = sopt.sddmm %qs, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 1, row_order = natural>}
      : tensor<130x33xf32>, tensor<200x33xf32>, tensor<130x200xf32, #CSR> -> tensor<130x200xf32, #CSR>
  %sb = sopt.broadcast %scale dims = [] : tensor<f32> -> tensor<130x200xf32>
  %x = sopt.mul %d, %sb : tensor<130x200xf32, #CSR>, tensor<130x200xf32> -> tensor<130x200xf32, #CSR>
  %e = sopt.exp %x : tensor<130x200xf32, #CSR>
  %b = sopt.add %e, %bias : tensor<130x200xf32, #CSR>, tensor<130x200xf32> -> tensor<130x200xf32, #CSR>
  %y = sopt.mul %mask, %b : tensor<130x200xf32>, tensor<130x200xf32, #CSR> -> tensor<130x200xf32, #CSR>
  return %y : tensor<130x200xf32, #CSR>
}

// (0.125 Q · Kᵀ ⊙ S) · scale, exp, + bias, · mask: the scale prologue and
// four epilogue ops in the SDDMM kernel, blocks of 64 x 64 with k split in
// two (k = 33: two chunks, one per block of each cluster of two).
func.func @attn_f32_blocks64_split(%q: tensor<130x33xf32>, %k: tensor<200x33xf32>, %s: tensor<130x200xf32, #CSR>,
    %scale: tensor<f32>, %bias: tensor<130x200xf32>, %mask: tensor<130x200xf32>) -> tensor<130x200xf32, #CSR> {
  %eighth = sopt.constant dense<0.125> : tensor<130x33xf32>
  %qs = sopt.mul %q, %eighth : tensor<130x33xf32>
  %d = sopt.sddmm %qs, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 1, row_order = natural, k_splits = 2>}
      : tensor<130x33xf32>, tensor<200x33xf32>, tensor<130x200xf32, #CSR> -> tensor<130x200xf32, #CSR>
  %sb = sopt.broadcast %scale dims = [] : tensor<f32> -> tensor<130x200xf32>
  %x = sopt.mul %d, %sb : tensor<130x200xf32, #CSR>, tensor<130x200xf32> -> tensor<130x200xf32, #CSR>
  %e = sopt.exp %x : tensor<130x200xf32, #CSR>
  %b = sopt.add %e, %bias : tensor<130x200xf32, #CSR>, tensor<130x200xf32> -> tensor<130x200xf32, #CSR>
  %y = sopt.mul %mask, %b : tensor<130x200xf32>, tensor<130x200xf32, #CSR> -> tensor<130x200xf32, #CSR>
  return %y : tensor<130x200xf32, #CSR>
}

// (0.125 Q · Kᵀ ⊙ S) · scale, exp, + bias, · mask: the scale prologue and
// four epilogue ops in the SDDMM kernel (nonzeros).
func.func @attn_f16_nonzeros(%q: tensor<130x33xf16>, %k: tensor<200x33xf16>, %s: tensor<130x200xf16, #CSR>,
    %scale: tensor<f16>, %bias: tensor<130x200xf16>, %mask: tensor<130x200xf16>) -> tensor<130x200xf16, #CSR> {
  %eighth = sopt.constant dense<0.125> : tensor<130x33xf16>
  %qs = sopt.mul %q, %eighth : tensor<130x33xf16>
  %d = sopt.sddmm %qs, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 8, threads_per_nonzero = 4, tiles_per_block = 4, vector_width = 1, row_order = natural>}
      : tensor<130x33xf16>, tensor<200x33xf16>, tensor<130x200xf16, #CSR> -> tensor<130x200xf16, #CSR>
  %sb = sopt.broadcast %scale dims = [] : tensor<f16> -> tensor<130x200xf16>
  %x = sopt.mul %d, %sb : tensor<130x200xf16, #CSR>, tensor<130x200xf16> -> tensor<130x200xf16, #CSR>
  %e = sopt.exp %x : tensor<130x200xf16, #CSR>
  %b = sopt.add %e, %bias : tensor<130x200xf16, #CSR>, tensor<130x200xf16> -> tensor<130x200xf16, #CSR>
  %y = sopt.mul %mask, %b : tensor<130x200xf16>, tensor<130x200xf16, #CSR> -> tensor<130x200xf16, #CSR>
  return %y : tensor<130x200xf16, #CSR>
}

// (0.125 Q · Kᵀ ⊙ S) · scale, exp, + bias, · mask: the scale prologue and
// four epilogue ops in the SDDMM kernel (blocks).
func.func @attn_f16_blocks(%q: tensor<130x33xf16>, %k: tensor<200x33xf16>, %s: tensor<130x200xf16, #CSR>,
    %scale: tensor<f16>, %bias: tensor<130x200xf16>, %mask: tensor<130x200xf16>) -> tensor<130x200xf16, #CSR> {
  %eighth = sopt.constant dense<0.125> : tensor<130x33xf16>
  %qs = sopt.mul %q, %eighth : tensor<130x33xf16>
  %d = sopt.sddmm %qs, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 1, row_order = natural>}
      : tensor<130x33xf16>, tensor<200x33xf16>, tensor<130x200xf16, #CSR> -> tensor<130x200xf16, #CSR>
  %sb = sopt.broadcast %scale dims = [] : tensor<f16> -> tensor<130x200xf16>
  %x = sopt.mul %d, %sb : tensor<130x200xf16, #CSR>, tensor<130x200xf16> -> tensor<130x200xf16, #CSR>
  %e = sopt.exp %x : tensor<130x200xf16, #CSR>
  %b = sopt.add %e, %bias : tensor<130x200xf16, #CSR>, tensor<130x200xf16> -> tensor<130x200xf16, #CSR>
  %y = sopt.mul %mask, %b : tensor<130x200xf16>, tensor<130x200xf16, #CSR> -> tensor<130x200xf16, #CSR>
  return %y : tensor<130x200xf16, #CSR>
}

// The product is returned too, so it is stored; exp and the bias run as a
// kernel over the stored entries. One row, k = 5.
func.func @stored_and_exp_bf16(%q: tensor<1x5xbf16>, %k: tensor<7x5xbf16>, %s: tensor<1x7xbf16, #CSR>,
    %bias: tensor<1x7xbf16>) -> (tensor<1x7xbf16, #CSR>, tensor<1x7xbf16, #CSR>) {
  %d = sopt.sddmm %q, %k, %s transpose_rhs
      : tensor<1x5xbf16>, tensor<7x5xbf16>, tensor<1x7xbf16, #CSR> -> tensor<1x7xbf16, #CSR>
  %e = sopt.exp %d : tensor<1x7xbf16, #CSR>
  %b = sopt.add %e, %bias : tensor<1x7xbf16, #CSR>, tensor<1x7xbf16> -> tensor<1x7xbf16, #CSR>
  return %d, %b : tensor<1x7xbf16, #CSR>, tensor<1x7xbf16, #CSR>
}
