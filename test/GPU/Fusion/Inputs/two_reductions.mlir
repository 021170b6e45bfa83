// Two reductions of different shapes in one memory-bound subgraph: row sums,
// then the largest of them. The row-sum grid does not fit in one wave, so
// sopt-plan-reuse splits the region into two kernels there.

func.func @row_sum_max_f32_65536x1024(%x: tensor<65536x1024xf32>) -> (tensor<f32>, tensor<65536xf32>) {
  %r = sopt.reduce sum %x dims = [1] : tensor<65536x1024xf32> -> tensor<65536xf32>
  %m = sopt.reduce max %r dims = [0] : tensor<65536xf32> -> tensor<f32>
  return %m, %r : tensor<f32>, tensor<65536xf32>
}
