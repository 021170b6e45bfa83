// A GEMM schedule whose tile rows the grid cannot hold (emit-gemm.mlir).
func.func @bad(%x: tensor<4194304x1xf32>, %w: tensor<1x1xf32>) -> tensor<4194304x1xf32> {
  %y = sopt.matmul %x, %w {schedule = #sopt.gemm_schedule<block_m = 32, block_n = 128, k_step = 8>} : tensor<4194304x1xf32>, tensor<1x1xf32> -> tensor<4194304x1xf32>
  return %y : tensor<4194304x1xf32>
}
