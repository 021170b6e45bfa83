// Sizes at the edges (docs/Fuzzing.md), run on the GPU: a splat operand of a
// matmul is filled on the device, k = 0 writes zeros, empty results launch
// nothing or an idle block.

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
