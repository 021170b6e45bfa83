// Regions of several groups of different shapes that fit in one wave: each
// becomes ONE cooperative kernel, its groups separated by grid-wide barriers
// and the values between them passed through global memory.

// Row sums, then their maximum (two groups, one barrier); both returned.
func.func @row_sum_max_f32_1000x1003(%x: tensor<1000x1003xf32>) -> (tensor<f32>, tensor<1000xf32>) {
  %r = sopt.reduce sum %x dims = [1] : tensor<1000x1003xf32> -> tensor<1000xf32>
  %m = sopt.reduce max %r dims = [0] : tensor<1000xf32> -> tensor<f32>
  return %m, %r : tensor<f32>, tensor<1000xf32>
}

// One row of one element: every group is a single thread's work.
func.func @row_sum_max_f32_1x1(%x: tensor<1x1xf32>) -> tensor<f32> {
  %r = sopt.reduce sum %x dims = [1] : tensor<1x1xf32> -> tensor<1xf32>
  %m = sopt.reduce max %r dims = [0] : tensor<1xf32> -> tensor<f32>
  return %m : tensor<f32>
}

// x / max(row sums): the quotient is a third, elementwise group behind a
// second barrier that reads the scalar back.
func.func @scale_by_max_row_sum_f32_777x37(%x: tensor<777x37xf32>) -> tensor<777x37xf32> {
  %r = sopt.reduce sum %x dims = [1] : tensor<777x37xf32> -> tensor<777xf32>
  %m = sopt.reduce max %r dims = [0] : tensor<777xf32> -> tensor<f32>
  %b = sopt.broadcast %m dims = [] : tensor<f32> -> tensor<777x37xf32>
  %y = sopt.div %x, %b : tensor<777x37xf32>
  return %y : tensor<777x37xf32>
}

// softmax over the row sums of a bf16 matrix: the second group has two
// reductions (max, then sum) over a bf16 value exchanged in global memory.
func.func @softmax_of_row_sums_bf16_513x77(%x: tensor<513x77xbf16>) -> tensor<513xbf16> {
  %r = sopt.reduce sum %x dims = [1] : tensor<513x77xbf16> -> tensor<513xbf16>
  %s = sopt.softmax %r dim = 0 : tensor<513xbf16>
  return %s : tensor<513xbf16>
}

// Column sums (a column mapping), then their largest: the second group runs
// at the column group's block size.
func.func @column_sum_max_f32_1000x37(%x: tensor<1000x37xf32>) -> tensor<f32> {
  %c = sopt.reduce sum %x dims = [0] : tensor<1000x37xf32> -> tensor<37xf32>
  %m = sopt.reduce max %c dims = [0] : tensor<37xf32> -> tensor<f32>
  return %m : tensor<f32>
}

// The largest grid one wave allows (132 blocks of 1024 threads at 64
// registers each, 128 rows of 8 threads per block); the second group splits
// its one row of 16896 over 5 blocks and meets their partials at a barrier
// of its own, while the other 127 blocks only pass the barriers.
func.func @log_sum_exp_sum_f32_16896x128(%x: tensor<16896x128xf32>) -> tensor<f32> {
  %e = sopt.exp %x : tensor<16896x128xf32>
  %r = sopt.reduce sum %e dims = [1] : tensor<16896x128xf32> -> tensor<16896xf32>
  %l = sopt.log %r : tensor<16896xf32>
  %t = sopt.reduce sum %l dims = [0] : tensor<16896xf32> -> tensor<f32>
  return %t : tensor<f32>
}
