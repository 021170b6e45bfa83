// spmv_emitted.cu: sopt.spmv on a matrix argument whose pattern file is
// known at compile time runs the prepared SpMV from generated host code.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
#CSR64 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 64, crdWidth = 64 }>

func.func @spmv_pruned_f32(%a: tensor<300x257xf32, #CSR> {sopt.sparsity_pattern = "../../Sparse/Inputs/pruned_300x257.smtx"},
                           %x: tensor<257xf32>) -> tensor<300xf32> {
  %y = sopt.spmv %a, %x : tensor<300x257xf32, #CSR>, tensor<257xf32> -> tensor<300xf32>
  return %y : tensor<300xf32>
}

func.func @spmv_pruned_f64(%a: tensor<300x257xf64, #CSR64> {sopt.sparsity_pattern = "../../Sparse/Inputs/pruned_300x257.smtx"},
                           %x: tensor<257xf64>) -> tensor<300xf64> {
  %y = sopt.spmv %a, %x : tensor<300x257xf64, #CSR64>, tensor<257xf64> -> tensor<300xf64>
  return %y : tensor<300xf64>
}
