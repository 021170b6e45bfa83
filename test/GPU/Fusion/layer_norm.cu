// LayerNorm with scale and bias: one row, 100 000 rows of width 37, block
// rows of 4096, and 16-bit storage.
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/layer_norm | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "Harness.h"
#include "References.h"
#include "layer_norm.h"

using namespace harness;

template <typename T, typename Fn>
void run(Report &report, const char *name, Fn fn, int rows, int cols) {
  Tensor<T> x(size_t(rows) * cols), g(cols), b(cols), y(size_t(rows) * cols);
  x.randomize(-2, 3);
  g.randomize(0.5, 1.5);
  b.randomize(-0.5, 0.5);
  y.poison();
  launch(fn, x.device, g.device, b.device, y.device);
  y.download();
  std::vector<double> ref =
      reference::layerNorm(x.values, g.values, b.values, rows, cols, 1e-5);
  report.check(name, relativeError(y.values, ref), tolerance<T>());
}

int main() {
  Report report;
  run<float>(report, "layer_norm_f32_1x1000", layer_norm_f32_1x1000, 1, 1000);
  run<float>(report, "layer_norm_f32_100000x37", layer_norm_f32_100000x37, 100000, 37);
  run<float>(report, "layer_norm_f32_300x4096", layer_norm_f32_300x4096, 300, 4096);
  run<float>(report, "layer_norm_f32_2048x1024", layer_norm_f32_2048x1024, 2048, 1024);
  run<__nv_bfloat16>(report, "layer_norm_bf16_2048x1024", layer_norm_bf16_2048x1024, 2048, 1024);
  run<__half>(report, "layer_norm_f16_777x768", layer_norm_f16_777x768, 777, 768);
  return report.exitCode();
}
