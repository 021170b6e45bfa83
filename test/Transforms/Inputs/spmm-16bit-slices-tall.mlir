// Input of sopt-schedule-sparse-staged-slices.mlir: an f16 SpMM of a known
// 2048 x 512 pattern at n = 256.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @half_slices_tall(%a: tensor<2048x512xf16, #CSR> {sopt.sparsity_pattern = "@PATTERN@"},
                            %b: tensor<512x256xf16>) -> tensor<2048x256xf16> {
  %c = sopt.spmm %a, %b : tensor<2048x512xf16, #CSR>, tensor<512x256xf16> -> tensor<2048x256xf16>
  return %c : tensor<2048x256xf16>
}
