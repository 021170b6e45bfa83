// Two sparse layers of the same shape and schedule, each with a ReLU epilogue
// (emit-shared-kernels.mlir).
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
func.func @layers(%w1: tensor<32x32xf32, #CSR>, %w2: tensor<32x32xf32, #CSR>, %x: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %y1 = sopt.spmm %w1, %x : tensor<32x32xf32, #CSR>, tensor<32x16xf32> -> tensor<32x16xf32>
  %a1 = sopt.relu %y1 : tensor<32x16xf32>
  %y2 = sopt.spmm %w2, %a1 : tensor<32x32xf32, #CSR>, tensor<32x16xf32> -> tensor<32x16xf32>
  %a2 = sopt.relu %y2 : tensor<32x16xf32>
  return %a2 : tensor<32x16xf32>
}
