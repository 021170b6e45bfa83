// Sizes at the edges (docs/Fuzzing.md), run on the GPU: a splat operand of a
// matmul is filled on the device, k = 0 writes zeros, empty results launch
// nothing or an idle block; sparse products over zero-sized operands.

func.func @splat_matmul_f32(%b: tensor<32x48xf32>) -> tensor<64x48xf32> {
  %a = sopt.constant dense<1.5> : tensor<64x32xf32>
  %0 = sopt.matmul %a, %b : tensor<64x32xf32>, tensor<32x48xf32> -> tensor<64x48xf32>
  return %0 : tensor<64x48xf32>
}

func.func @zero_k_f32(%a: tensor<16x0xf32>, %b: tensor<0x24xf32>) -> tensor<16x24xf32> {
  %0 = sopt.matmul %a, %b : tensor<16x0xf32>, tensor<0x24xf32> -> tensor<16x24xf32>
  return %0 : tensor<16x24xf32>
}

func.func @softmax_no_rows_f32(%x: tensor<0x8xf32>) -> tensor<0x8xf32> {
  %0 = sopt.softmax %x dim = 1 : tensor<0x8xf32>
  return %0 : tensor<0x8xf32>
}

func.func @column_sums_no_columns_f32(%x: tensor<8x0xf32>) -> tensor<0xf32> {
  %0 = sopt.reduce sum %x dims = [0] : tensor<8x0xf32> -> tensor<0xf32>
  return %0 : tensor<0xf32>
}

func.func @empty_matmul_f32(%a: tensor<0x8xf32>, %b: tensor<8x16xf32>) -> tensor<0x16xf32> {
  %0 = sopt.matmul %a, %b : tensor<0x8xf32>, tensor<8x16xf32> -> tensor<0x16xf32>
  return %0 : tensor<0x16xf32>
}

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// Zero-sized operands: the project's SpMM kernel and the SpMV call
// are checked here, cuSPARSE's in sparse_cusparse.mlir (an empty result, or zeros when the sum is over nothing).
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
