// For compile-spmm-slices.test: SpMMs from staged slices of B, set by hand:
// f32 with a fused bias + ReLU and the pattern's row order, and a dense x
// sparse f16 product whose kernel stores Y transposed (vectors of 1).
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
func.func @linear(%w: tensor<4x6xf32, #CSR> {sopt.sparsity_pattern = "tiny.smtx"},
                  %x: tensor<6x64xf32>, %b: tensor<4xf32>) -> tensor<4x64xf32> {
  %y = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 16, tiles_per_block = 64, vector_width = 4, row_order = by_length, tiling = staged_slices>}
      : tensor<4x6xf32, #CSR>, tensor<6x64xf32> -> tensor<4x64xf32>
  %bb = sopt.broadcast %b dims = [0] : tensor<4xf32> -> tensor<4x64xf32>
  %z = sopt.add %y, %bb : tensor<4x64xf32>
  %r = sopt.relu %z : tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}

func.func @dense_times_sparse(%x: tensor<5x4xf16>, %s: tensor<4x6xf16, #CSR>) -> tensor<5x6xf16> {
  %y = sopt.spmm %x, %s {schedule = #sopt.spmm_schedule<tile_columns = 32, threads_per_tile = 32, tiles_per_block = 4, vector_width = 1, row_order = natural, tiling = staged_slices>}
      : tensor<5x4xf16>, tensor<4x6xf16, #CSR> -> tensor<5x6xf16>
  return %y : tensor<5x6xf16>
}
