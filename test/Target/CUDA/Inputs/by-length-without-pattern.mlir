#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
// A hand-set schedule asks for rows longest first, but no pattern is known.
func.func @f(%w: tensor<64x32xf32, #CSR>, %x: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %y = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 16, threads_per_tile = 4, tiles_per_block = 8, vector_width = 4, row_order = by_length>} : tensor<64x32xf32, #CSR>, tensor<32x16xf32> -> tensor<64x16xf32>
  return %y : tensor<64x16xf32>
}
