// Input of sopt-schedule-sparse-staged-slices.mlir: an f32 SpMM whose k
// (1024) is too long for a staged slice of B.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @wide_k(%a: tensor<2048x1024xf32, #CSR> {sopt.sparsity_pattern = "@PATTERN@"},
                  %b: tensor<1024x1024xf32>) -> tensor<2048x1024xf32> {
  %c = sopt.spmm %a, %b : tensor<2048x1024xf32, #CSR>, tensor<1024x1024xf32> -> tensor<2048x1024xf32>
  return %c : tensor<2048x1024xf32>
}
