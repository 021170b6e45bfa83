#CSR64 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @wide(%q: tensor<7x16xf32>, %k: tensor<5x16xf32>, %v: tensor<5x16xf32>, %s: tensor<7x5xf32, #CSR64>) -> tensor<7x16xf32> {
  %o = sopt.sparse_attention %q, %k, %v, %s scale = 1.0 : tensor<7x16xf32>, tensor<5x16xf32>, tensor<5x16xf32>, tensor<7x5xf32, #CSR64> -> tensor<7x16xf32>
  return %o : tensor<7x16xf32>
}
