// Linear layers compiled with --emit=cuda onto the project's GEMM, their
// elementwise consumers fused as its epilogue (bias, GELU, residual, scale,
// ReLU, a cast to bf16), against float64 references on fresh inputs with
// poisoned outputs; plus a split-K product whose consumers stay a kernel of
// their own, and a batched product with both operands transposed.
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/linear_epilogues | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "Harness.h"
#include "References.h"
#include "linear_epilogues.h"

using namespace harness;

namespace {

/// Row-major op(A)·op(B) per batch in float64: A stored [k, m] when
/// transposeA, B stored [n, k] when transposeB.
std::vector<double> product(const std::vector<double> &a, const std::vector<double> &b,
                            int batch, int m, int n, int k, bool transposeA, bool transposeB) {
  std::vector<double> c(size_t(batch) * m * n, 0.0);
  for (int p = 0; p < batch; ++p) {
    const double *pa = a.data() + size_t(p) * m * k, *pb = b.data() + size_t(p) * k * n;
    double *pc = c.data() + size_t(p) * m * n;
    for (int i = 0; i < m; ++i)
      for (int kk = 0; kk < k; ++kk) {
        const double x = transposeA ? pa[size_t(kk) * m + i] : pa[size_t(i) * k + kk];
        for (int j = 0; j < n; ++j)
          pc[size_t(i) * n + j] += x * (transposeB ? pb[size_t(j) * k + kk] : pb[size_t(kk) * n + j]);
      }
  }
  return c;
}

/// GELU(p + bias) per element of the [rows, n] product p.
std::vector<double> biasGelu(std::vector<double> p, const std::vector<double> &bias, int n) {
  for (size_t i = 0; i < p.size(); ++i)
    p[i] = reference::gelu(p[i] + bias[i % n]);
  return p;
}

} // namespace

int main() {
  Report report;
  { // (x·W + b) → GELU → + residual, 1000 x 2051 x 333
    const int m = 1000, n = 2051, k = 333;
    Tensor<float> x(size_t(m) * k), w(size_t(k) * n), b(n), r(size_t(m) * n), y(size_t(m) * n);
    x.randomize(), w.randomize(-0.1, 0.1), b.randomize(), r.randomize();
    y.poison();
    launch(linear_bias_gelu_residual, x.device, w.device, b.device, r.device, y.device);
    y.download();
    std::vector<double> ref =
        biasGelu(product(x.values, w.values, 1, m, n, k, false, false), b.values, n);
    for (size_t i = 0; i < ref.size(); ++i)
      ref[i] += r.values[i];
    report.check("linear_bias_gelu_residual 1000x2051x333", relativeError(y.values, ref),
                 tolerance<float>());
  }
  { // x·Wᵀ + b → GELU → bf16, 515 x 4099 x 77
    const int m = 515, n = 4099, k = 77;
    Tensor<float> x(size_t(m) * k), w(size_t(n) * k), b(n);
    Tensor<__nv_bfloat16> y(size_t(m) * n);
    x.randomize(), w.randomize(-0.3, 0.3), b.randomize();
    y.poison();
    launch(linear_t_bias_gelu_bf16, x.device, w.device, b.device, y.device);
    y.download();
    report.check("linear_t_bias_gelu_bf16 515x4099x77",
                 relativeError(y.values, biasGelu(product(x.values, w.values, 1, m, n, k, false,
                                                          true),
                                                  b.values, n)),
                 tolerance<__nv_bfloat16>());
  }
  { // relu(x·W / 8 + b), one row, 1 x 37 x 5, hand-set schedule
    const int m = 1, n = 37, k = 5;
    Tensor<float> x(k), w(size_t(k) * n), b(n), y(n);
    x.randomize(), w.randomize(), b.randomize(-0.5, 0.5);
    y.poison();
    launch(row_scale_bias_relu, x.device, w.device, b.device, y.device);
    y.download();
    std::vector<double> ref = product(x.values, w.values, 1, m, n, k, false, false);
    for (int j = 0; j < n; ++j)
      ref[j] = std::max(ref[j] * 0.125 + b.values[j], 0.0);
    report.check("row_scale_bias_relu 1x37x5", relativeError(y.values, ref), tolerance<float>());
  }
  { // aᵀ·b + r with K = 1, 129 x 131
    const int m = 129, n = 131, k = 1;
    Tensor<float> a(m), b(n), r(size_t(m) * n), y(size_t(m) * n);
    a.randomize(), b.randomize(), r.randomize();
    y.poison();
    launch(outer_residual, a.device, b.device, r.device, y.device);
    y.download();
    std::vector<double> ref = product(a.values, b.values, 1, m, n, k, true, false);
    for (size_t i = 0; i < ref.size(); ++i)
      ref[i] += r.values[i];
    report.check("outer_residual 129x131x1", relativeError(y.values, ref), tolerance<float>());
  }
  { // split K: the product summed atomically, bias + GELU a kernel after it
    const int m = 128, n = 3072, k = 768;
    Tensor<float> x(size_t(m) * k), w(size_t(k) * n), b(n), y(size_t(m) * n);
    x.randomize(), w.randomize(-0.1, 0.1), b.randomize();
    y.poison();
    launch(split_k_bias_gelu, x.device, w.device, b.device, y.device);
    y.download();
    report.check("split_k_bias_gelu 128x3072x768",
                 relativeError(y.values, biasGelu(product(x.values, w.values, 1, m, n, k, false,
                                                          false),
                                                  b.values, n)),
                 tolerance<float>());
  }
  { // batched Aᵀ·Bᵀ, 3 x 67 x 33 x 45
    const int batch = 3, m = 67, n = 33, k = 45;
    Tensor<float> a(size_t(batch) * k * m), b(size_t(batch) * n * k), y(size_t(batch) * m * n);
    a.randomize(), b.randomize();
    y.poison();
    launch(batched_tt, a.device, b.device, y.device);
    y.download();
    report.check("batched_tt 3x67x33x45",
                 relativeError(y.values, product(a.values, b.values, batch, m, n, k, true, true)),
                 tolerance<float>());
  }
  return report.exitCode();
}
