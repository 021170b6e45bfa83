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

// Zero-sized operands: cuSPARSE refuses such descriptors, so the generated
// code calls none (an empty result, or zeros when the sum is over nothing).
func.func @spmm_k0(%a: tensor<5x0xf32, #CSR>, %x: tensor<0x7xf32>) -> tensor<5x7xf32> {
  %y = sopt.spmm %a, %x : tensor<5x0xf32, #CSR>, tensor<0x7xf32> -> tensor<5x7xf32>
  return %y : tensor<5x7xf32>
}

func.func @spmm_n0(%a: tensor<5x9xf32, #CSR>, %x: tensor<9x0xf32>) -> tensor<5x0xf32> {
  %y = sopt.spmm %a, %x : tensor<5x9xf32, #CSR>, tensor<9x0xf32> -> tensor<5x0xf32>
  return %y : tensor<5x0xf32>
}

func.func @spmv_k0(%a: tensor<5x0xf32, #CSR>, %x: tensor<0xf32>) -> tensor<5xf32> {
  %y = sopt.spmv %a, %x : tensor<5x0xf32, #CSR>, tensor<0xf32> -> tensor<5xf32>
  return %y : tensor<5xf32>
}

func.func @spmv_m0(%a: tensor<0x9xf32, #CSR>, %x: tensor<9xf32>) -> tensor<0xf32> {
  %y = sopt.spmv %a, %x : tensor<0x9xf32, #CSR>, tensor<9xf32> -> tensor<0xf32>
  return %y : tensor<0xf32>
}
