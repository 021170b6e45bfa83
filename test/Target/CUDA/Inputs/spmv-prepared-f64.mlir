// emit-spmv-prepared.mlir: a prepared sopt.spmv in f64 with 64-bit indices.

#CSR64 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 64, crdWidth = 64 }>

func.func @step_f64(%a: tensor<4x6xf64, #CSR64> {sopt.sparsity_pattern = "tiny.smtx"},
                    %x: tensor<6xf64>) -> tensor<4xf64> {
  %y = sopt.spmv %a, %x : tensor<4x6xf64, #CSR64>, tensor<6xf64> -> tensor<4xf64>
  return %y : tensor<4xf64>
}
