// sparse-opt-flags: --cusparse
// Sparse products lowered to cuSPARSE, with a fused epilogue kernel.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

func.func @pruned_linear_gelu(%w: tensor<1000x999xf32, #CSR>, %x: tensor<999x37xf32>, %b: tensor<1000xf32>) -> tensor<1000x37xf32> {
  %y = sopt.spmm %w, %x : tensor<1000x999xf32, #CSR>, tensor<999x37xf32> -> tensor<1000x37xf32>
  %bb = sopt.broadcast %b dims = [0] : tensor<1000xf32> -> tensor<1000x37xf32>
  %z = sopt.add %y, %bb : tensor<1000x37xf32>
  %r = sopt.gelu %z : tensor<1000x37xf32>
  return %r : tensor<1000x37xf32>
}

func.func @spmv_f32_777x1234(%a: tensor<777x1234xf32, #CSR>, %x: tensor<1234xf32>) -> tensor<777xf32> {
  %y = sopt.spmv %a, %x : tensor<777x1234xf32, #CSR>, tensor<1234xf32> -> tensor<777xf32>
  return %y : tensor<777xf32>
}
