// Row sums, then their maximum: the row-sum grid does not fit in one wave,
// so sopt-plan-reuse splits the region in two. The split used to read the
// ops it had just erased (ASan: heap-use-after-free; found by
// sopt-fuzz-compile on the seed test/GPU/Fusion/Inputs/two_reductions.mlir).
func.func @row_sum_max(%x: tensor<65536x1024xf32>) -> (tensor<f32>, tensor<65536xf32>) {
  %r = sopt.reduce sum %x dims = [1] : tensor<65536x1024xf32> -> tensor<65536xf32>
  %m = sopt.reduce max %r dims = [0] : tensor<65536xf32> -> tensor<f32>
  return %m, %r : tensor<f32>, tensor<65536xf32>
}
