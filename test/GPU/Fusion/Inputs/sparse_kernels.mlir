// The project's SpMM and SDDMM kernels from generated host code: a pruned
// linear layer whose pattern is known at compile time (rows visited longest
// first, bias + GELU + residual fused as the SpMM epilogue), one without a
// pattern (bf16, odd width, ReLU + scale epilogue), SDDMM in both forms
// (B[k, n] transposed first, also into the f32 blocks' TMA-fed planes),
// SDDMM feeding SpMM (sparse attention), SpMM by dense tensor-core blocks
// (bias + ReLU epilogue; f32 and bf16 at an odd width, f16 at n = 64, f16
// over a band's windows of k), SpMM from staged slices of B (the
// compile-time pattern's row order, bias + ReLU epilogue, odd width), and
// row tiles with the pattern's long rows cut into segments (bias + ReLU
// epilogue applied by the second kernel to those rows).
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

func.func @pruned_linear(%w: tensor<300x257xf32, #CSR> {sopt.sparsity_pattern = "pruned_300x257.smtx"},
                         %x: tensor<257x100xf32>, %b: tensor<300xf32>, %res: tensor<300x100xf32>) -> tensor<300x100xf32> {
  %y = sopt.spmm %w, %x : tensor<300x257xf32, #CSR>, tensor<257x100xf32> -> tensor<300x100xf32>
  %bb = sopt.broadcast %b dims = [0] : tensor<300xf32> -> tensor<300x100xf32>
  %z = sopt.add %y, %bb : tensor<300x100xf32>
  %g = sopt.gelu %z : tensor<300x100xf32>
  %r = sopt.add %g, %res : tensor<300x100xf32>
  return %r : tensor<300x100xf32>
}

func.func @pruned_relu_bf16(%w: tensor<1000x999xbf16, #CSR>, %x: tensor<999x37xbf16>) -> tensor<1000x37xbf16> {
  %y = sopt.spmm %w, %x : tensor<1000x999xbf16, #CSR>, tensor<999x37xbf16> -> tensor<1000x37xbf16>
  %half = sopt.constant dense<0.5> : tensor<1000x37xbf16>
  %s = sopt.mul %y, %half : tensor<1000x37xbf16>
  %r = sopt.relu %s : tensor<1000x37xbf16>
  return %r : tensor<1000x37xbf16>
}

func.func @scores(%q: tensor<300x64xf32>, %k: tensor<257x64xf32>,
                  %s: tensor<300x257xf32, #CSR> {sopt.sparsity_pattern = "pruned_300x257.smtx"}) -> tensor<300x257xf32, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs : tensor<300x64xf32>, tensor<257x64xf32>, tensor<300x257xf32, #CSR> -> tensor<300x257xf32, #CSR>
  return %d : tensor<300x257xf32, #CSR>
}

func.func @scores_blocks_f16(%q: tensor<300x80xf16>, %k: tensor<257x80xf16>, %s: tensor<300x257xf16, #CSR>) -> tensor<300x257xf16, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural>}
      : tensor<300x80xf16>, tensor<257x80xf16>, tensor<300x257xf16, #CSR> -> tensor<300x257xf16, #CSR>
  return %d : tensor<300x257xf16, #CSR>
}

// Dense tensor-core blocks over the known pattern: the generated code
// carries its rows' column windows (no search in the kernel), and a
// scale epilogue is fused.
func.func @scores_blocks_known(%q: tensor<300x40xf32>, %k: tensor<257x40xf32>,
                               %s: tensor<300x257xf32, #CSR> {sopt.sparsity_pattern = "pruned_300x257.smtx"},
                               %scale: tensor<f32>) -> tensor<300x257xf32, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural, block_size = 32>}
      : tensor<300x40xf32>, tensor<257x40xf32>, tensor<300x257xf32, #CSR> -> tensor<300x257xf32, #CSR>
  %sb = sopt.broadcast %scale dims = [] : tensor<f32> -> tensor<300x257xf32>
  %e = sopt.mul %d, %sb : tensor<300x257xf32, #CSR>, tensor<300x257xf32> -> tensor<300x257xf32, #CSR>
  return %e : tensor<300x257xf32, #CSR>
}

// Tiles of 32 nonzeros taken by column panels of 64 columns (set by hand:
// the pass gives them to larger patterns), with the scale fused: the
// generated code makes the entries' panel order on its first call, from the
// caller's columns.
func.func @scores_panels_known(%q: tensor<300x40xf32>, %k: tensor<257x40xf32>,
                               %s: tensor<300x257xf32, #CSR> {sopt.sparsity_pattern = "pruned_300x257.smtx"},
                               %scale: tensor<f32>) -> tensor<300x257xf32, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 32, vector_width = 4, row_order = natural, column_panel = 64>}
      : tensor<300x40xf32>, tensor<257x40xf32>, tensor<300x257xf32, #CSR> -> tensor<300x257xf32, #CSR>
  %sb = sopt.broadcast %scale dims = [] : tensor<f32> -> tensor<300x257xf32>
  %e = sopt.mul %d, %sb : tensor<300x257xf32, #CSR>, tensor<300x257xf32> -> tensor<300x257xf32, #CSR>
  return %e : tensor<300x257xf32, #CSR>
}

// The same in f32 64 x 64 blocks (k a multiple of 4): the generated code
// also allocates B's TF32 planes, and the runtime feeds the blocks by TMA.
func.func @scores_planes_known(%q: tensor<300x40xf32>, %k: tensor<257x40xf32>,
                               %s: tensor<300x257xf32, #CSR> {sopt.sparsity_pattern = "pruned_300x257.smtx"},
                               %scale: tensor<f32>) -> tensor<300x257xf32, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural>}
      : tensor<300x40xf32>, tensor<257x40xf32>, tensor<300x257xf32, #CSR> -> tensor<300x257xf32, #CSR>
  %sb = sopt.broadcast %scale dims = [] : tensor<f32> -> tensor<300x257xf32>
  %e = sopt.mul %d, %sb : tensor<300x257xf32, #CSR>, tensor<300x257xf32> -> tensor<300x257xf32, #CSR>
  return %e : tensor<300x257xf32, #CSR>
}

// The same over a banded pattern (band_300x257.smtx: 13 entries a row
// along the diagonal): 22 of the 90 blocks of 32 x 32 and 9 of the 25 of
// 64 x 64 hold entries, and only they are launched.
func.func @scores_band_known(%q: tensor<300x40xf32>, %k: tensor<257x40xf32>,
                             %s: tensor<300x257xf32, #CSR> {sopt.sparsity_pattern = "band_300x257.smtx"},
                             %scale: tensor<f32>) -> tensor<300x257xf32, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural, block_size = 32>}
      : tensor<300x40xf32>, tensor<257x40xf32>, tensor<300x257xf32, #CSR> -> tensor<300x257xf32, #CSR>
  %sb = sopt.broadcast %scale dims = [] : tensor<f32> -> tensor<300x257xf32>
  %e = sopt.mul %d, %sb : tensor<300x257xf32, #CSR>, tensor<300x257xf32> -> tensor<300x257xf32, #CSR>
  return %e : tensor<300x257xf32, #CSR>
}

func.func @scores_band_planes(%q: tensor<300x40xf32>, %k: tensor<257x40xf32>,
                              %s: tensor<300x257xf32, #CSR> {sopt.sparsity_pattern = "band_300x257.smtx"},
                              %scale: tensor<f32>) -> tensor<300x257xf32, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural>}
      : tensor<300x40xf32>, tensor<257x40xf32>, tensor<300x257xf32, #CSR> -> tensor<300x257xf32, #CSR>
  %sb = sopt.broadcast %scale dims = [] : tensor<f32> -> tensor<300x257xf32>
  %e = sopt.mul %d, %sb : tensor<300x257xf32, #CSR>, tensor<300x257xf32> -> tensor<300x257xf32, #CSR>
  return %e : tensor<300x257xf32, #CSR>
}

// (A · B) ⊙ S, B[k, n] (a pruned weight's gradient: dYᵀ · X at W's
// entries) over the known pattern: B is transposed into a temporary first,
// then the tiles of the transposed form run with the entries' rows from the
// compile-time pattern; a scale epilogue is fused.
func.func @weight_grad_known(%a: tensor<300x40xf32>, %b: tensor<40x257xf32>,
                             %s: tensor<300x257xf32, #CSR> {sopt.sparsity_pattern = "pruned_300x257.smtx"},
                             %scale: tensor<f32>) -> tensor<300x257xf32, #CSR> {
  %d = sopt.sddmm %a, %b, %s : tensor<300x40xf32>, tensor<40x257xf32>, tensor<300x257xf32, #CSR> -> tensor<300x257xf32, #CSR>
  %sb = sopt.broadcast %scale dims = [] : tensor<f32> -> tensor<300x257xf32>
  %e = sopt.mul %d, %sb : tensor<300x257xf32, #CSR>, tensor<300x257xf32> -> tensor<300x257xf32, #CSR>
  return %e : tensor<300x257xf32, #CSR>
}

// The same in f32 64 x 64 blocks: Bᵀ, then B's TF32 planes after it in the
// workspace, and the TMA-fed blocks.
func.func @weight_grad_planes_known(%a: tensor<300x40xf32>, %b: tensor<40x257xf32>,
                                    %s: tensor<300x257xf32, #CSR> {sopt.sparsity_pattern = "pruned_300x257.smtx"},
                                    %scale: tensor<f32>) -> tensor<300x257xf32, #CSR> {
  %d = sopt.sddmm %a, %b, %s {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural, transpose_rhs_first = true>}
      : tensor<300x40xf32>, tensor<40x257xf32>, tensor<300x257xf32, #CSR> -> tensor<300x257xf32, #CSR>
  %sb = sopt.broadcast %scale dims = [] : tensor<f32> -> tensor<300x257xf32>
  %e = sopt.mul %d, %sb : tensor<300x257xf32, #CSR>, tensor<300x257xf32> -> tensor<300x257xf32, #CSR>
  return %e : tensor<300x257xf32, #CSR>
}

func.func @sampled_f16(%a: tensor<1000x33xf16>, %b: tensor<33x999xf16>, %s: tensor<1000x999xf16, #CSR>) -> tensor<1000x999xf16, #CSR> {
  %d = sopt.sddmm %a, %b, %s : tensor<1000x33xf16>, tensor<33x999xf16>, tensor<1000x999xf16, #CSR> -> tensor<1000x999xf16, #CSR>
  return %d : tensor<1000x999xf16, #CSR>
}

func.func @sparse_attention(%q: tensor<300x64xf32>, %k: tensor<257x64xf32>, %v: tensor<257x64xf32>,
                            %s: tensor<300x257xf32, #CSR>) -> tensor<300x64xf32> {
  %p = sopt.sddmm %q, %k, %s transpose_rhs : tensor<300x64xf32>, tensor<257x64xf32>, tensor<300x257xf32, #CSR> -> tensor<300x257xf32, #CSR>
  %o = sopt.spmm %p, %v : tensor<300x257xf32, #CSR>, tensor<257x64xf32> -> tensor<300x64xf32>
  return %o : tensor<300x64xf32>
}

func.func @pruned_linear_blocks(%w: tensor<300x257xf32, #CSR>, %x: tensor<257x50xf32>, %b: tensor<300xf32>) -> tensor<300x50xf32> {
  %y = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 32, tiles_per_block = 1, vector_width = 1, row_order = natural, tiling = dense_blocks, block_rows = 32>}
      : tensor<300x257xf32, #CSR>, tensor<257x50xf32> -> tensor<300x50xf32>
  %bb = sopt.broadcast %b dims = [0] : tensor<300xf32> -> tensor<300x50xf32>
  %z = sopt.add %y, %bb : tensor<300x50xf32>
  %r = sopt.relu %z : tensor<300x50xf32>
  return %r : tensor<300x50xf32>
}

func.func @pruned_linear_blocks_bf16(%w: tensor<300x257xbf16, #CSR>, %x: tensor<257x50xbf16>, %b: tensor<300xbf16>) -> tensor<300x50xbf16> {
  %y = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 32, tiles_per_block = 1, vector_width = 1, row_order = natural, tiling = dense_blocks, block_rows = 32>}
      : tensor<300x257xbf16, #CSR>, tensor<257x50xbf16> -> tensor<300x50xbf16>
  %bb = sopt.broadcast %b dims = [0] : tensor<300xbf16> -> tensor<300x50xbf16>
  %z = sopt.add %y, %bb : tensor<300x50xbf16>
  %r = sopt.relu %z : tensor<300x50xbf16>
  return %r : tensor<300x50xbf16>
}

func.func @pruned_linear_blocks_f16(%w: tensor<300x257xf16, #CSR>, %x: tensor<257x64xf16>, %b: tensor<300xf16>) -> tensor<300x64xf16> {
  %y = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 32, tiles_per_block = 1, vector_width = 1, row_order = natural, tiling = dense_blocks>}
      : tensor<300x257xf16, #CSR>, tensor<257x64xf16> -> tensor<300x64xf16>
  %bb = sopt.broadcast %b dims = [0] : tensor<300xf16> -> tensor<300x64xf16>
  %z = sopt.add %y, %bb : tensor<300x64xf16>
  %r = sopt.relu %z : tensor<300x64xf16>
  return %r : tensor<300x64xf16>
}

func.func @band_linear_blocks_f16(%w: tensor<1000x1003xf16, #CSR>, %x: tensor<1003x64xf16>, %b: tensor<1000xf16>) -> tensor<1000x64xf16> {
  %y = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 32, tiles_per_block = 1, vector_width = 1, row_order = natural, tiling = dense_blocks, block_rows = 32>}
      : tensor<1000x1003xf16, #CSR>, tensor<1003x64xf16> -> tensor<1000x64xf16>
  %bb = sopt.broadcast %b dims = [0] : tensor<1000xf16> -> tensor<1000x64xf16>
  %z = sopt.add %y, %bb : tensor<1000x64xf16>
  %r = sopt.relu %z : tensor<1000x64xf16>
  return %r : tensor<1000x64xf16>
}


func.func @pruned_linear_slices(%w: tensor<300x257xf32, #CSR> {sopt.sparsity_pattern = "pruned_300x257.smtx"},
                                %x: tensor<257x50xf32>, %b: tensor<300xf32>) -> tensor<300x50xf32> {
  %y = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 32, tiles_per_block = 32, vector_width = 2, row_order = by_length, tiling = staged_slices>}
      : tensor<300x257xf32, #CSR>, tensor<257x50xf32> -> tensor<300x50xf32>
  %bb = sopt.broadcast %b dims = [0] : tensor<300xf32> -> tensor<300x50xf32>
  %z = sopt.add %y, %bb : tensor<300x50xf32>
  %r = sopt.relu %z : tensor<300x50xf32>
  return %r : tensor<300x50xf32>
}

func.func @pruned_linear_segments(%w: tensor<300x257xf32, #CSR> {sopt.sparsity_pattern = "pruned_300x257.smtx"},
                                  %x: tensor<257x50xf32>, %b: tensor<300xf32>) -> tensor<300x50xf32> {
  %y = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 16, threads_per_tile = 8, tiles_per_block = 4, vector_width = 2, row_order = by_length, row_splits = 2, row_segment = 13>}
      : tensor<300x257xf32, #CSR>, tensor<257x50xf32> -> tensor<300x50xf32>
  %bb = sopt.broadcast %b dims = [0] : tensor<300xf32> -> tensor<300x50xf32>
  %z = sopt.add %y, %bb : tensor<300x50xf32>
  %r = sopt.relu %z : tensor<300x50xf32>
  return %r : tensor<300x50xf32>
}
