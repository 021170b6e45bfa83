// For compile-sddmm-windows.test: dense-block SDDMMs of a pattern known at
// compile time (tiny.smtx), so that the generated code carries the rows'
// column windows; with and without a fused epilogue.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
func.func @known(%q: tensor<4x64xf16>, %k: tensor<6x64xf16>,
                 %s: tensor<4x6xf16, #CSR> {sopt.sparsity_pattern = "tiny.smtx"}) -> tensor<4x6xf16, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural, block_size = 32>}
      : tensor<4x64xf16>, tensor<6x64xf16>, tensor<4x6xf16, #CSR> -> tensor<4x6xf16, #CSR>
  return %d : tensor<4x6xf16, #CSR>
}

func.func @known_scaled(%q: tensor<4x33xf32>, %k: tensor<6x33xf32>,
                        %s: tensor<4x6xf32, #CSR> {sopt.sparsity_pattern = "tiny.smtx"},
                        %scale: tensor<f32>) -> tensor<4x6xf32, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 1, row_order = natural>}
      : tensor<4x33xf32>, tensor<6x33xf32>, tensor<4x6xf32, #CSR> -> tensor<4x6xf32, #CSR>
  %sb = sopt.broadcast %scale dims = [] : tensor<f32> -> tensor<4x6xf32>
  %e = sopt.mul %d, %sb : tensor<4x6xf32, #CSR>, tensor<4x6xf32> -> tensor<4x6xf32, #CSR>
  return %e : tensor<4x6xf32, #CSR>
}

// k split among clusters of two blocks, with the fused scale.
func.func @known_split(%q: tensor<4x64xf32>, %k: tensor<6x64xf32>,
                       %s: tensor<4x6xf32, #CSR> {sopt.sparsity_pattern = "tiny.smtx"},
                       %scale: tensor<f32>) -> tensor<4x6xf32, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural, k_splits = 2>}
      : tensor<4x64xf32>, tensor<6x64xf32>, tensor<4x6xf32, #CSR> -> tensor<4x6xf32, #CSR>
  %sb = sopt.broadcast %scale dims = [] : tensor<f32> -> tensor<4x6xf32>
  %e = sopt.mul %d, %sb : tensor<4x6xf32, #CSR>, tensor<4x6xf32> -> tensor<4x6xf32, #CSR>
  return %e : tensor<4x6xf32, #CSR>
}

// f32 64 x 64 blocks, k a multiple of 4, with the fused scale: B's TF32
// planes go to a temporary the launch takes last (the TMA-fed kernel).
func.func @known_planes(%q: tensor<4x64xf32>, %k: tensor<6x64xf32>,
                        %s: tensor<4x6xf32, #CSR> {sopt.sparsity_pattern = "tiny.smtx"},
                        %scale: tensor<f32>) -> tensor<4x6xf32, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural>}
      : tensor<4x64xf32>, tensor<6x64xf32>, tensor<4x6xf32, #CSR> -> tensor<4x6xf32, #CSR>
  %sb = sopt.broadcast %scale dims = [] : tensor<f32> -> tensor<4x6xf32>
  %e = sopt.mul %d, %sb : tensor<4x6xf32, #CSR>, tensor<4x6xf32> -> tensor<4x6xf32, #CSR>
  return %e : tensor<4x6xf32, #CSR>
}

// Tiles of nonzeros (tile_nonzeros = 32: one output per lane) with the fused
// scale: the generated code expands each entry's row on its first call.
func.func @known_tiles(%q: tensor<4x64xf32>, %k: tensor<6x64xf32>,
                       %s: tensor<4x6xf32, #CSR> {sopt.sparsity_pattern = "tiny.smtx"},
                       %scale: tensor<f32>) -> tensor<4x6xf32, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural>}
      : tensor<4x64xf32>, tensor<6x64xf32>, tensor<4x6xf32, #CSR> -> tensor<4x6xf32, #CSR>
  %sb = sopt.broadcast %scale dims = [] : tensor<f32> -> tensor<4x6xf32>
  %e = sopt.mul %d, %sb : tensor<4x6xf32, #CSR>, tensor<4x6xf32> -> tensor<4x6xf32, #CSR>
  return %e : tensor<4x6xf32, #CSR>
}

// The same tiles taken by column panels of 2 columns (set by hand; the pass
// gives them to large f32 patterns): the generated code also makes the
// entries' panel order on its first call, from the caller's columns.
func.func @known_panels(%q: tensor<4x64xf32>, %k: tensor<6x64xf32>,
                        %s: tensor<4x6xf32, #CSR> {sopt.sparsity_pattern = "tiny.smtx"},
                        %scale: tensor<f32>) -> tensor<4x6xf32, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 32, vector_width = 4, row_order = natural, column_panel = 2>}
      : tensor<4x64xf32>, tensor<6x64xf32>, tensor<4x6xf32, #CSR> -> tensor<4x6xf32, #CSR>
  %sb = sopt.broadcast %scale dims = [] : tensor<f32> -> tensor<4x6xf32>
  %e = sopt.mul %d, %sb : tensor<4x6xf32, #CSR>, tensor<4x6xf32> -> tensor<4x6xf32, #CSR>
  return %e : tensor<4x6xf32, #CSR>
}

// A banded pattern (band.smtx: 200 x 200, |i - j| <= 2) fills 19 of 49
// blocks of 32 x 32 and 10 of 16 of 64 x 64: the generated code lists the
// occupied ones and launches only those, in f16 32 x 32 blocks, f32 64 x 64
// blocks with B's planes, and 64 x 64 blocks with k split.
func.func @band(%q: tensor<200x64xf16>, %k: tensor<200x64xf16>,
                %s: tensor<200x200xf16, #CSR> {sopt.sparsity_pattern = "band.smtx"}) -> tensor<200x200xf16, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural, block_size = 32>}
      : tensor<200x64xf16>, tensor<200x64xf16>, tensor<200x200xf16, #CSR> -> tensor<200x200xf16, #CSR>
  return %d : tensor<200x200xf16, #CSR>
}

func.func @band_planes(%q: tensor<200x64xf32>, %k: tensor<200x64xf32>,
                       %s: tensor<200x200xf32, #CSR> {sopt.sparsity_pattern = "band.smtx"}) -> tensor<200x200xf32, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural>}
      : tensor<200x64xf32>, tensor<200x64xf32>, tensor<200x200xf32, #CSR> -> tensor<200x200xf32, #CSR>
  return %d : tensor<200x200xf32, #CSR>
}

func.func @band_split(%q: tensor<200x1024xf16>, %k: tensor<200x1024xf16>,
                      %s: tensor<200x200xf16, #CSR> {sopt.sparsity_pattern = "band.smtx"}) -> tensor<200x200xf16, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural, k_splits = 2>}
      : tensor<200x1024xf16>, tensor<200x1024xf16>, tensor<200x200xf16, #CSR> -> tensor<200x200xf16, #CSR>
  return %d : tensor<200x200xf16, #CSR>
}
