// The example transformer block's thirteen inputs (transformer_block.h's
// argument order) on the current device, drawn like a trained layer's so
// that activations stay O(1): weights within ±1/sqrt(768) (the second MLP
// weight half that), LayerNorm gains in [0.5, 1.5), biases in [-0.5, 0.5),
// the input in [-1, 1). For the tests that run the generated block.
#ifndef SPARSE_OPT_TEST_GPU_FUSION_BLOCKINPUTS_H
#define SPARSE_OPT_TEST_GPU_FUSION_BLOCKINPUTS_H

#include "Harness.h"
#include "transformer_block.h"

#include <cmath>

struct BlockInputs {
  static constexpr int kTokens = 128, kHidden = 768, kMlp = 3072;
  static constexpr size_t kOutput = size_t(kTokens) * kHidden;
  harness::Tensor<float> x{kOutput}, wq{size_t(kHidden) * kHidden},
      wk{size_t(kHidden) * kHidden}, wv{size_t(kHidden) * kHidden},
      wo{size_t(kHidden) * kHidden}, g1{kHidden}, b1{kHidden}, w1{size_t(kHidden) * kMlp},
      bias1{kMlp}, w2{size_t(kHidden) * kMlp}, bias2{kHidden}, g2{kHidden}, b2{kHidden};

  /// Fresh random inputs.
  BlockInputs() {
    const double scale = 1.0 / std::sqrt(double(kHidden));
    x.randomize(-1, 1);
    for (harness::Tensor<float> *w : {&wq, &wk, &wv, &wo, &w1})
      w->randomize(-scale, scale);
    w2.randomize(-0.5 * scale, 0.5 * scale);
    for (harness::Tensor<float> *t : {&g1, &g2})
      t->randomize(0.5, 1.5);
    for (harness::Tensor<float> *t : {&b1, &b2, &bias1, &bias2})
      t->randomize(-0.5, 0.5);
  }

  /// The values of `other` (made on another device), on the current one.
  explicit BlockInputs(BlockInputs &other) {
    harness::Tensor<float> *mine[] = {&x, &wq, &wk, &wv, &wo, &g1, &b1,
                                      &w1, &bias1, &w2, &bias2, &g2, &b2};
    harness::Tensor<float> *theirs[] = {&other.x,  &other.wq,    &other.wk, &other.wv,
                                        &other.wo, &other.g1,    &other.b1, &other.w1,
                                        &other.bias1, &other.w2, &other.bias2, &other.g2,
                                        &other.b2};
    for (int i = 0; i < 13; ++i) {
      mine[i]->host = theirs[i]->host;
      mine[i]->values = theirs[i]->values;
      CHECK_CUDA(cudaMemcpy(mine[i]->device, mine[i]->host.data(),
                            mine[i]->size * sizeof(float), cudaMemcpyHostToDevice));
    }
  }

  /// The generated block on these inputs into `out` (kOutput floats).
  cudaError_t call(float *out, cudaStream_t stream) const {
    return transformer_block(x.device, wq.device, wk.device, wv.device, wo.device, g1.device,
                             b1.device, w1.device, bias1.device, w2.device, bias2.device,
                             g2.device, b2.device, out, stream);
  }
};

#endif // SPARSE_OPT_TEST_GPU_FUSION_BLOCKINPUTS_H
