// bias + GELU (erf) + residual, an elementwise-only kernel: an odd width with
// scalar accesses, bf16 with 4-wide vectors, and a single element.
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/bias_gelu_residual | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "Harness.h"
#include "References.h"
#include "bias_gelu_residual.h"

using namespace harness;

template <typename T, typename Fn>
void run(Report &report, const char *name, Fn fn, int rows, int cols) {
  Tensor<T> x(size_t(rows) * cols), b(cols), res(size_t(rows) * cols),
      y(size_t(rows) * cols);
  x.randomize(-3, 3);
  b.randomize(-1, 1);
  res.randomize(-1, 1);
  y.poison();
  launch(fn, x.device, b.device, res.device, y.device);
  y.download();
  std::vector<double> ref(y.size);
  for (size_t i = 0; i < y.size; ++i) {
    double s = x.values[i] + b.values[i % cols];
    ref[i] = reference::gelu(s) + res.values[i];
  }
  report.check(name, relativeError(y.values, ref), tolerance<T>());
}

int main() {
  Report report;
  run<float>(report, "bias_gelu_residual_f32_1000x1003", bias_gelu_residual_f32_1000x1003, 1000, 1003);
  run<__nv_bfloat16>(report, "bias_gelu_residual_bf16_128x3072", bias_gelu_residual_bf16_128x3072, 128, 3072);
  run<float>(report, "bias_gelu_residual_f32_1x1", bias_gelu_residual_f32_1x1, 1, 1);
  return report.exitCode();
}
