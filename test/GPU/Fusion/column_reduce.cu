// Column reductions: a sum over 16384 rows (rows split across blocks), a
// broadcast after a column max on an odd width, and a bf16 column mean.
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/column_reduce | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "Harness.h"
#include "column_reduce.h"

using namespace harness;

int main() {
  Report report;
  {
    const int rows = 16384, cols = 768;
    Tensor<float> x(size_t(rows) * cols), y(cols);
    x.randomize(-1, 1);
    y.poison();
    launch(column_sum_f32_16384x768, x.device, y.device);
    y.download();
    std::vector<double> ref(cols, 0.0);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        ref[c] += x.values[size_t(r) * cols + c];
    report.check("column_sum_f32_16384x768", relativeError(y.values, ref), 1e-5);
  }
  {
    const int rows = 1000, cols = 37;
    Tensor<float> x(size_t(rows) * cols), y(size_t(rows) * cols);
    x.randomize(0.5, 2);
    y.poison();
    launch(column_scale_f32_1000x37, x.device, y.device);
    y.download();
    std::vector<double> max(cols, -INFINITY), ref(y.size);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        max[c] = std::max(max[c], x.values[size_t(r) * cols + c]);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        ref[size_t(r) * cols + c] = x.values[size_t(r) * cols + c] / max[c];
    report.check("column_scale_f32_1000x37", relativeError(y.values, ref), 1e-6);
  }
  {
    const int rows = 4096, cols = 1000;
    Tensor<__nv_bfloat16> x(size_t(rows) * cols), y(cols);
    x.randomize(-1, 3);
    y.poison();
    launch(column_mean_bf16_4096x1000, x.device, y.device);
    y.download();
    std::vector<double> ref(cols, 0.0);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        ref[c] += x.values[size_t(r) * cols + c] / rows;
    report.check("column_mean_bf16_4096x1000", relativeError(y.values, ref),
                 tolerance<__nv_bfloat16>());
  }
  return report.exitCode();
}
