// B holds 2^32 elements: the project's SpMM kernel indexes it in int32.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
func.func @s(%a: tensor<64x65536xf32, #CSR>, %b: tensor<65536x65536xf32>) -> tensor<64x65536xf32> {
  %0 = sopt.spmm %a, %b : tensor<64x65536xf32, #CSR>, tensor<65536x65536xf32> -> tensor<64x65536xf32>
  return %0 : tensor<64x65536xf32>
}
