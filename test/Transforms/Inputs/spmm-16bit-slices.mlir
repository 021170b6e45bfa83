// Input of sopt-schedule-sparse-staged-slices.mlir: 16-bit SpMMs of a known
// 1024 x 512 pattern at n = 1024 and 256 (f16) and 1024 (bf16).
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @half_slices(%a: tensor<1024x512xf16, #CSR> {sopt.sparsity_pattern = "@PATTERN@"},
                       %b: tensor<512x1024xf16>, %b256: tensor<512x256xf16>,
                       %ab: tensor<1024x512xbf16, #CSR> {sopt.sparsity_pattern = "@PATTERN@"},
                       %bb: tensor<512x1024xbf16>)
    -> (tensor<1024x1024xf16>, tensor<1024x256xf16>, tensor<1024x1024xbf16>) {
  %c = sopt.spmm %a, %b : tensor<1024x512xf16, #CSR>, tensor<512x1024xf16> -> tensor<1024x1024xf16>
  %c256 = sopt.spmm %a, %b256 : tensor<1024x512xf16, #CSR>, tensor<512x256xf16> -> tensor<1024x256xf16>
  %cb = sopt.spmm %ab, %bb : tensor<1024x512xbf16, #CSR>, tensor<512x1024xbf16> -> tensor<1024x1024xbf16>
  return %c, %c256, %cb : tensor<1024x1024xf16>, tensor<1024x256xf16>, tensor<1024x1024xbf16>
}
