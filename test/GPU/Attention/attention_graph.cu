// The CUDA sparse-opt emits for sopt.attention (Inputs/attention_graph.mlir)
// against a float64 CPU reference: the fused kernel's launches (causal at
// the top left with sq != sk, one query row, a residual fused after it)
// and the decomposed f32 path. Fresh random inputs, NaN-poisoned outputs.
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/attention_graph | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "AttentionReference.h"
#include "Harness.h"
#include "attention_graph.h"

using namespace harness;

namespace {

/// The reference of attention over [heads][s][d] operands (top-left causal
/// when `causal`), plus `residual` where given.
std::vector<double> reference(const std::vector<double> &q, const std::vector<double> &k,
                              const std::vector<double> &v, int heads, int sq, int sk, int d,
                              bool causal, double scale,
                              const std::vector<double> *residual = nullptr) {
  std::vector<double> out(size_t(heads) * sq * d);
  for (int h = 0; h < heads; ++h)
    for (int i = 0; i < sq; ++i) {
      const int visible = causal ? std::min(i + 1, sk) : sk;
      double *row = &out[(size_t(h) * sq + i) * d];
      attention_reference::row(&q[(size_t(h) * sq + i) * d], &k[size_t(h) * sk * d], d,
                               &v[size_t(h) * sk * d], d, visible, d, scale, row);
      if (residual)
        for (int x = 0; x < d; ++x)
          row[x] += (*residual)[(size_t(h) * sq + i) * d + x];
    }
  return out;
}

/// Calls `fn(q, k, v, o)` on [heads][s][d] operands of fresh random values
/// (Q and K wider than V: peaked rows) over a poisoned O and checks O.
template <typename T, typename Fn>
void checkAttention(Report &report, const char *name, Fn fn, int heads, int sq, int sk, int d,
                    bool causal, float scale, double tol) {
  Tensor<T> q(size_t(heads) * sq * d), k(size_t(heads) * sk * d), v(size_t(heads) * sk * d),
      o(size_t(heads) * sq * d);
  q.randomize(-2, 2), k.randomize(-2, 2), v.randomize();
  o.poison();
  launch(fn, q.device, k.device, v.device, o.device);
  o.download();
  report.check(name,
               relativeError(o.values, reference(q.values, k.values, v.values, heads, sq, sk, d,
                                                 causal, double(scale))),
               tol);
}

} // namespace

int main() {
  Report report;
  checkAttention<__nv_bfloat16>(report, "causal_bf16_d64 (fused, sq < sk)", causal_bf16_d64,
                                2 * 3, 200, 300, 64, true, 0.125f, 1.6e-2);
  checkAttention<__half>(report, "one_query_f16_d128 (fused, scale 0.2)", one_query_f16_d128, 3,
                         1, 77, 128, false, 0.2f, 2e-3);
  {
    const int heads = 4, s = 33, d = 96;
    Tensor<__nv_bfloat16> q(heads * s * d), r(heads * s * d), o(heads * s * d);
    q.randomize(-2, 2), r.randomize();
    o.poison();
    launch(residual_bf16_d96, q.device, r.device, o.device);
    o.download();
    // The sum is rounded to bf16 once more.
    report.check("residual_bf16_d96 (fused, then a fusion kernel)",
                 relativeError(o.values, reference(q.values, q.values, q.values, heads, s, s, d,
                                                   true, double(float(1 / std::sqrt(96.0))),
                                                   &r.values)),
                 1.6e-2);
  }
  // f32 stays decomposed: SGEMM and the softmax kernel, f32 throughout.
  checkAttention<float>(report, "decomposed_f32 (cuBLAS, softmax kernel)", decomposed_f32, 2,
                        50, 70, 64, true, 0.125f, 1e-4);
  return report.exitCode();
}
