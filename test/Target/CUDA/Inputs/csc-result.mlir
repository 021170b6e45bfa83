#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed), posWidth = 32, crdWidth = 32 }>
// Only CSR results (the values of a pattern) are returned.
func.func @f(%a: tensor<8x4xf32>, %b: tensor<8x4xf32>, %s: tensor<8x8xf32, #CSR>) -> tensor<8x8xf32, #CSC> {
  %c = sparse_tensor.convert %s : tensor<8x8xf32, #CSR> to tensor<8x8xf32, #CSC>
  return %c : tensor<8x8xf32, #CSC>
}
