// Softmax over rows: sub-warp rows of odd width, block rows, a single row of
// 7, bf16 storage, and f16 rows kept in shared memory between reductions.
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/softmax | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "Harness.h"
#include "References.h"
#include "softmax.h"

using namespace harness;

template <typename T, typename Fn>
void run(Report &report, const char *name, Fn fn, int rows, int cols) {
  Tensor<T> x(size_t(rows) * cols), y(size_t(rows) * cols);
  x.randomize(-8, 8);
  y.poison();
  launch(fn, x.device, y.device);
  y.download();
  std::vector<double> ref = reference::softmax(x.values, rows, cols);
  report.check(name, relativeError(y.values, ref), tolerance<T>());
}

int main() {
  Report report;
  run<float>(report, "softmax_f32_4096x333", softmax_f32_4096x333, 4096, 333);
  run<float>(report, "softmax_f32_200x4096", softmax_f32_200x4096, 200, 4096);
  run<float>(report, "softmax_f32_1x7", softmax_f32_1x7, 1, 7);
  run<__nv_bfloat16>(report, "softmax_bf16_1000x512", softmax_bf16_1000x512, 1000, 512);
  run<__half>(report, "softmax_f16_256x49152", softmax_f16_256x49152, 256, 49152);
  return report.exitCode();
}
