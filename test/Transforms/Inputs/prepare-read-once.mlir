// Two arguments with one pattern file, three products scheduled from it.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
func.func @twice(%w: tensor<4x6xf32, #CSR> {sopt.sparsity_pattern = "prepare-tiny.smtx"},
                 %v: tensor<4x6xf32, #CSR> {sopt.sparsity_pattern = "prepare-tiny.smtx"},
                 %x: tensor<6x16xf32>, %q: tensor<4x64xf32>, %k: tensor<6x64xf32>)
    -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x6xf32, #CSR>) {
  %0 = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 16, threads_per_tile = 16, tiles_per_block = 4, vector_width = 1, row_order = by_length>} : tensor<4x6xf32, #CSR>, tensor<6x16xf32> -> tensor<4x16xf32>
  %1 = sopt.spmm %v, %x : tensor<4x6xf32, #CSR>, tensor<6x16xf32> -> tensor<4x16xf32>
  %2 = sopt.sddmm %q, %k, %w transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural>} : tensor<4x64xf32>, tensor<6x64xf32>, tensor<4x6xf32, #CSR> -> tensor<4x6xf32, #CSR>
  return %0, %1, %2 : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x6xf32, #CSR>
}
