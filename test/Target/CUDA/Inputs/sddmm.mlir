#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @f(%a: tensor<8x4xf32>, %b: tensor<8x4xf32>, %s: tensor<8x8xf32, #CSR>) -> tensor<8x8xf32, #CSR> {
  %d = sopt.sddmm %a, %b, %s transpose_rhs : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x8xf32, #CSR> -> tensor<8x8xf32, #CSR>
  return %d : tensor<8x8xf32, #CSR>
}
