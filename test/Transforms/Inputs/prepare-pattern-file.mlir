// A product whose pattern file is @PATTERN@ (substituted by the test).
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
func.func @weights(%w: tensor<4x6xf32, #CSR> {sopt.sparsity_pattern = "@PATTERN@"},
                   %x: tensor<6x16xf32>) -> tensor<4x16xf32> {
  %y = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 16, threads_per_tile = 16, tiles_per_block = 4, vector_width = 1, row_order = by_length>} : tensor<4x6xf32, #CSR>, tensor<6x16xf32> -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

func.func @scheduled_here(%w: tensor<4x6xf32, #CSR> {sopt.sparsity_pattern = "@PATTERN@"},
                          %x: tensor<6x16xf32>) -> tensor<4x16xf32> {
  %y = sopt.spmm %w, %x : tensor<4x6xf32, #CSR>, tensor<6x16xf32> -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
