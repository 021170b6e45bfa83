// Reductions over the leading dimension: threads own columns, slices of a
// block walk the rows, and blocks split the rows when the columns are few.

func.func @column_sum_f32_16384x768(%x: tensor<16384x768xf32>) -> tensor<768xf32> {
  %y = sopt.reduce sum %x dims = [0] : tensor<16384x768xf32> -> tensor<768xf32>
  return %y : tensor<768xf32>
}

// Broadcast after a column reduce: every element over its column's maximum.
func.func @column_scale_f32_1000x37(%x: tensor<1000x37xf32>) -> tensor<1000x37xf32> {
  %m = sopt.reduce max %x dims = [0] keep_dims : tensor<1000x37xf32> -> tensor<1x37xf32>
  %mb = sopt.broadcast %m dims = [0, 1] : tensor<1x37xf32> -> tensor<1000x37xf32>
  %y = sopt.div %x, %mb : tensor<1000x37xf32>
  return %y : tensor<1000x37xf32>
}

func.func @column_mean_bf16_4096x1000(%x: tensor<4096x1000xbf16>) -> tensor<1000xbf16> {
  %y = sopt.reduce mean %x dims = [0] : tensor<4096x1000xbf16> -> tensor<1000xbf16>
  return %y : tensor<1000xbf16>
}
