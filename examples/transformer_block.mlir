// A BERT-base encoder block on 128 tokens (hidden 768, 12 heads of 64,
// MLP 3072): self-attention with the scores' softmax between two batched
// matmuls, then matmul -> bias + GELU -> matmul -> residual add -> LayerNorm.
//
//   sparse-opt examples/transformer_block.mlir --sopt-pipeline

func.func @transformer_block(
    %x: tensor<128x768xf32>,
    %wq: tensor<768x768xf32>, %wk: tensor<768x768xf32>,
    %wv: tensor<768x768xf32>, %wo: tensor<768x768xf32>,
    %ln1_scale: tensor<768xf32>, %ln1_bias: tensor<768xf32>,
    %w1: tensor<768x3072xf32>, %b1: tensor<3072xf32>,
    %w2: tensor<3072x768xf32>, %b2: tensor<768xf32>,
    %ln2_scale: tensor<768xf32>, %ln2_bias: tensor<768xf32>)
    -> tensor<128x768xf32> {
  // Projections, split into heads: [128, 768] -> [12, 128, 64].
  %q2 = sopt.matmul %x, %wq : tensor<128x768xf32>, tensor<768x768xf32> -> tensor<128x768xf32>
  %k2 = sopt.matmul %x, %wk : tensor<128x768xf32>, tensor<768x768xf32> -> tensor<128x768xf32>
  %v2 = sopt.matmul %x, %wv : tensor<128x768xf32>, tensor<768x768xf32> -> tensor<128x768xf32>
  %q3 = sopt.reshape %q2 : tensor<128x768xf32> -> tensor<128x12x64xf32>
  %k3 = sopt.reshape %k2 : tensor<128x768xf32> -> tensor<128x12x64xf32>
  %v3 = sopt.reshape %v2 : tensor<128x768xf32> -> tensor<128x12x64xf32>
  %q = sopt.transpose %q3 permutation = [1, 0, 2] : tensor<128x12x64xf32> -> tensor<12x128x64xf32>
  %k = sopt.transpose %k3 permutation = [1, 0, 2] : tensor<128x12x64xf32> -> tensor<12x128x64xf32>
  %v = sopt.transpose %v3 permutation = [1, 0, 2] : tensor<128x12x64xf32> -> tensor<12x128x64xf32>

  // Attention: softmax(Q·Kᵀ / 8) · V.
  %s = sopt.matmul %q, %k transpose_rhs : tensor<12x128x64xf32>, tensor<12x128x64xf32> -> tensor<12x128x128xf32>
  %inv_sqrt_d = sopt.constant dense<0.125> : tensor<12x128x128xf32>
  %scaled = sopt.mul %s, %inv_sqrt_d : tensor<12x128x128xf32>
  %p = sopt.softmax %scaled dim = 2 : tensor<12x128x128xf32>
  %o = sopt.matmul %p, %v : tensor<12x128x128xf32>, tensor<12x128x64xf32> -> tensor<12x128x64xf32>
  %o3 = sopt.transpose %o permutation = [1, 0, 2] : tensor<12x128x64xf32> -> tensor<128x12x64xf32>
  %o2 = sopt.reshape %o3 : tensor<128x12x64xf32> -> tensor<128x768xf32>
  %proj = sopt.matmul %o2, %wo : tensor<128x768xf32>, tensor<768x768xf32> -> tensor<128x768xf32>
  %res1 = sopt.add %proj, %x : tensor<128x768xf32>
  %h = sopt.layer_norm %res1 scale(%ln1_scale : tensor<768xf32>)
      bias(%ln1_bias : tensor<768xf32>) epsilon = 1.0e-12 : tensor<128x768xf32>

  // MLP: matmul -> bias + GELU -> matmul -> bias + residual -> LayerNorm.
  %up = sopt.matmul %h, %w1 : tensor<128x768xf32>, tensor<768x3072xf32> -> tensor<128x3072xf32>
  %b1b = sopt.broadcast %b1 dims = [1] : tensor<3072xf32> -> tensor<128x3072xf32>
  %up_b = sopt.add %up, %b1b : tensor<128x3072xf32>
  %act = sopt.gelu %up_b : tensor<128x3072xf32>
  %down = sopt.matmul %act, %w2 : tensor<128x3072xf32>, tensor<3072x768xf32> -> tensor<128x768xf32>
  %b2b = sopt.broadcast %b2 dims = [1] : tensor<768xf32> -> tensor<128x768xf32>
  %down_b = sopt.add %down, %b2b : tensor<128x768xf32>
  %res2 = sopt.add %down_b, %h : tensor<128x768xf32>
  %y = sopt.layer_norm %res2 scale(%ln2_scale : tensor<768xf32>)
      bias(%ln2_bias : tensor<768xf32>) epsilon = 1.0e-12 : tensor<128x768xf32>
  return %y : tensor<128x768xf32>
}
