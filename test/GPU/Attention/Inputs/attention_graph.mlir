// Attention graphs that sparse-opt compiles for attention_graph.cu: three
// on the fused attention kernel (causal with sq != sk, one query row with a
// scale of its own, an attention whose result a residual fusion kernel
// reads) and one in f32, which stays decomposed (cuBLAS and a softmax
// kernel).
func.func @causal_bf16_d64(%q: tensor<2x3x200x64xbf16>, %k: tensor<2x3x300x64xbf16>, %v: tensor<2x3x300x64xbf16>) -> tensor<2x3x200x64xbf16> {
  %0 = sopt.attention %q, %k, %v causal : tensor<2x3x200x64xbf16>, tensor<2x3x300x64xbf16>, tensor<2x3x300x64xbf16> -> tensor<2x3x200x64xbf16>
  return %0 : tensor<2x3x200x64xbf16>
}

func.func @one_query_f16_d128(%q: tensor<3x1x128xf16>, %k: tensor<3x77x128xf16>, %v: tensor<3x77x128xf16>) -> tensor<3x1x128xf16> {
  %0 = sopt.attention %q, %k, %v scale = 0.2 : tensor<3x1x128xf16>, tensor<3x77x128xf16>, tensor<3x77x128xf16> -> tensor<3x1x128xf16>
  return %0 : tensor<3x1x128xf16>
}

func.func @residual_bf16_d96(%q: tensor<4x33x96xbf16>, %r: tensor<4x33x96xbf16>) -> tensor<4x33x96xbf16> {
  %0 = sopt.attention %q, %q, %q causal : tensor<4x33x96xbf16>, tensor<4x33x96xbf16>, tensor<4x33x96xbf16> -> tensor<4x33x96xbf16>
  %1 = sopt.add %0, %r : tensor<4x33x96xbf16>
  return %1 : tensor<4x33x96xbf16>
}

func.func @decomposed_f32(%q: tensor<2x50x64xf32>, %k: tensor<2x70x64xf32>, %v: tensor<2x70x64xf32>) -> tensor<2x50x64xf32> {
  %0 = sopt.attention %q, %k, %v causal : tensor<2x50x64xf32>, tensor<2x70x64xf32>, tensor<2x70x64xf32> -> tensor<2x50x64xf32>
  return %0 : tensor<2x50x64xf32>
}
