// The shipped example end to end: cuBLAS matmuls, fused head split and merge
// (reshape + transpose), the attention softmax and two fused LayerNorm
// epilogues, against a float64 reference of the whole block.
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/transformer_block | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "BlockInputs.h"
#include "References.h"

using namespace harness;

namespace {
constexpr int kTokens = 128, kHidden = 768, kHeads = 12, kHeadDim = 64,
              kMlp = 3072;
using Matrix = std::vector<double>;

Matrix matmul(const Matrix &a, const Matrix &b, int m, int k, int n) {
  Matrix c(size_t(m) * n, 0.0);
  for (int i = 0; i < m; ++i)
    for (int p = 0; p < k; ++p) {
      double aip = a[size_t(i) * k + p];
      for (int j = 0; j < n; ++j)
        c[size_t(i) * n + j] += aip * b[size_t(p) * n + j];
    }
  return c;
}

Matrix blockReference(const std::vector<const Matrix *> &in) {
  const Matrix &x = *in[0];
  Matrix q = matmul(x, *in[1], kTokens, kHidden, kHidden);
  Matrix k = matmul(x, *in[2], kTokens, kHidden, kHidden);
  Matrix v = matmul(x, *in[3], kTokens, kHidden, kHidden);
  Matrix attended(size_t(kTokens) * kHidden, 0.0);
  for (int h = 0; h < kHeads; ++h)
    for (int i = 0; i < kTokens; ++i) {
      std::vector<double> p(kTokens);
      double max = -INFINITY, sum = 0;
      for (int j = 0; j < kTokens; ++j) {
        double s = 0;
        for (int d = 0; d < kHeadDim; ++d)
          s += q[size_t(i) * kHidden + h * kHeadDim + d] *
               k[size_t(j) * kHidden + h * kHeadDim + d];
        p[j] = s * 0.125;
        max = std::max(max, p[j]);
      }
      for (int j = 0; j < kTokens; ++j)
        sum += p[j] = std::exp(p[j] - max);
      for (int j = 0; j < kTokens; ++j)
        for (int d = 0; d < kHeadDim; ++d)
          attended[size_t(i) * kHidden + h * kHeadDim + d] +=
              p[j] / sum * v[size_t(j) * kHidden + h * kHeadDim + d];
    }
  Matrix h1 = matmul(attended, *in[4], kTokens, kHidden, kHidden);
  for (size_t i = 0; i < h1.size(); ++i)
    h1[i] += x[i];
  h1 = reference::layerNorm(h1, *in[5], *in[6], kTokens, kHidden, 1e-12);
  Matrix up = matmul(h1, *in[7], kTokens, kHidden, kMlp);
  for (size_t i = 0; i < up.size(); ++i) {
    double s = up[i] + (*in[8])[i % kMlp];
    up[i] = reference::gelu(s);
  }
  Matrix y = matmul(up, *in[9], kTokens, kMlp, kHidden);
  for (size_t i = 0; i < y.size(); ++i)
    y[i] += (*in[10])[i % kHidden] + h1[i];
  return reference::layerNorm(y, *in[11], *in[12], kTokens, kHidden, 1e-12);
}
} // namespace

int main() {
  Report report;
  const BlockInputs in; // weights scaled like a trained layer: activations stay O(1)
  Tensor<float> y(BlockInputs::kOutput);
  y.poison();
  CHECK_CUDA(in.call(y.device, cudaStream_t(0)));
  CHECK_CUDA(cudaDeviceSynchronize());
  y.download();
  Matrix ref = blockReference({&in.x.values, &in.wq.values, &in.wk.values, &in.wv.values,
                               &in.wo.values, &in.g1.values, &in.b1.values, &in.w1.values,
                               &in.bias1.values, &in.w2.values, &in.bias2.values,
                               &in.g2.values, &in.b2.values});
  // Eight f32 GEMMs with K up to 3072 and two normalisations.
  report.check("transformer_block_f32", relativeError(y.values, ref), 1e-4);
  return report.exitCode();
}
