// RMSNorm with scale: block rows of 8192, bf16 warp rows, and 3x5.
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/rms_norm | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "Harness.h"
#include "References.h"
#include "rms_norm.h"

using namespace harness;

template <typename T, typename Fn>
void run(Report &report, const char *name, Fn fn, int rows, int cols) {
  Tensor<T> x(size_t(rows) * cols), g(cols), y(size_t(rows) * cols);
  x.randomize(-2, 2);
  g.randomize(0.5, 1.5);
  y.poison();
  launch(fn, x.device, g.device, y.device);
  y.download();
  std::vector<double> ref = reference::rmsNorm(x.values, g.values, rows, cols, 1e-6);
  report.check(name, relativeError(y.values, ref), tolerance<T>());
}

int main() {
  Report report;
  run<float>(report, "rms_norm_f32_513x8192", rms_norm_f32_513x8192, 513, 8192);
  run<__nv_bfloat16>(report, "rms_norm_bf16_100x1024", rms_norm_bf16_100x1024, 100, 1024);
  run<float>(report, "rms_norm_f32_3x5", rms_norm_f32_3x5, 3, 5);
  return report.exitCode();
}
