#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @f(%x: tensor<4x8xf32>, %w: tensor<8x8xf32, #CSR>) -> tensor<4x8xf32> {
  %y = sopt.spmm %x, %w : tensor<4x8xf32>, tensor<8x8xf32, #CSR> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
