// The template of tool-schedules.test: an SpMM and an SDDMM of the pattern
// @PATTERN@, whose @SPMM@ / @SDDMM@ lines the test replaces with the
// schedules sopt-sparse-info printed, or deletes (the pass then chooses).
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @f(%w: tensor<4x6xf32, #CSR> {sopt.sparsity_pattern = "@PATTERN@"},
             %x: tensor<6x64xf32>, %a: tensor<4x64xf32>, %b: tensor<6x64xf32>)
    -> (tensor<4x64xf32>, tensor<4x6xf32, #CSR>) {
  %y = sopt.spmm %w, %x
@SPMM@
      : tensor<4x6xf32, #CSR>, tensor<6x64xf32> -> tensor<4x64xf32>
  %d = sopt.sddmm %a, %b, %w transpose_rhs
@SDDMM@
      : tensor<4x64xf32>, tensor<6x64xf32>, tensor<4x6xf32, #CSR> -> tensor<4x6xf32, #CSR>
  return %y, %d : tensor<4x64xf32>, tensor<4x6xf32, #CSR>
}
