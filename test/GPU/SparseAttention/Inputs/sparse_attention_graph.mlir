// Sparse attention as a user writes it, compiled by sparse-opt: the chain
// SDDMM (Q·Kᵀ sampled at S, times S's values) -> scale -> softmax over each
// row's stored entries -> SpMM with V becomes one launch of the fused kernel
// (sopt-fuse-sparse-attention); sopt.sparse_attention itself over batch
// x heads in bf16; and over a pattern known at compile time with hub rows
// (hub_rows.smtx), whose long rows the compiled plan splits. Run by
// ../sparse_attention_graph.cu.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

func.func @chain_f32(%q: tensor<101x64xf32>, %k: tensor<299x64xf32>, %s: tensor<101x299xf32, #CSR>,
                     %v: tensor<299x32xf32>) -> tensor<101x32xf32> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs
      : tensor<101x64xf32>, tensor<299x64xf32>, tensor<101x299xf32, #CSR> -> tensor<101x299xf32, #CSR>
  %c = sopt.constant dense<0.125> : tensor<101x299xf32>
  %x = sopt.mul %d, %c : tensor<101x299xf32, #CSR>, tensor<101x299xf32> -> tensor<101x299xf32, #CSR>
  %p = sopt.softmax %x dim = 1 : tensor<101x299xf32, #CSR>
  %o = sopt.spmm %p, %v : tensor<101x299xf32, #CSR>, tensor<299x32xf32> -> tensor<101x32xf32>
  return %o : tensor<101x32xf32>
}

func.func @heads_bf16(%q: tensor<2x4x256x64xbf16>, %k: tensor<2x4x256x64xbf16>,
                      %v: tensor<2x4x256x64xbf16>, %s: tensor<256x256xbf16, #CSR>)
    -> tensor<2x4x256x64xbf16> {
  %o = sopt.sparse_attention %q, %k, %v, %s scale = 0.125
      : tensor<2x4x256x64xbf16>, tensor<2x4x256x64xbf16>, tensor<2x4x256x64xbf16>,
        tensor<256x256xbf16, #CSR> -> tensor<2x4x256x64xbf16>
  return %o : tensor<2x4x256x64xbf16>
}

// hub_rows.smtx: 517 x 389, 2797 entries, row lengths of a power law (mean
// 5.4, 13 rows empty) and hub rows of 389 (full), 301, 150, 97 and 65
// entries, which the plan splits (over 64 entries), and one of exactly 64,
// which it does not.
func.func @hubs_f32(%q: tensor<3x517x64xf32>, %k: tensor<3x389x64xf32>,
                    %v: tensor<3x389x32xf32>,
                    %s: tensor<517x389xf32, #CSR> {sopt.sparsity_pattern = "hub_rows.smtx"})
    -> tensor<3x517x32xf32> {
  %o = sopt.sparse_attention %q, %k, %v, %s scale = 0.125
      : tensor<3x517x64xf32>, tensor<3x389x64xf32>, tensor<3x389x32xf32>,
        tensor<517x389xf32, #CSR> -> tensor<3x517x32xf32>
  return %o : tensor<3x517x32xf32>
}
