// Regions of several groups joined by grid-wide barriers, each one
// cooperative kernel (Inputs/grid_barrier.mlir; test/Target/CUDA/
// emit-grid-barrier.mlir checks the kernels' structure): row sums then their
// maximum, a third elementwise group behind a second barrier, a softmax over
// bf16 row sums (two reductions in the second group), column sums, and a
// split second group in the largest one-wave grid. Float64 references,
// fresh inputs, outputs poisoned.
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/grid_barrier | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "Harness.h"
#include "References.h"
#include "grid_barrier.h"

#include <algorithm>

using namespace harness;
using reference::rowSums;

namespace {

double largest(const std::vector<double> &v) {
  return *std::max_element(v.begin(), v.end());
}

} // namespace

int main() {
  Report report;
  {
    const int rows = 1000, cols = 1003;
    Tensor<float> x(size_t(rows) * cols), max(1), sums(rows);
    x.randomize(-1, 1);
    max.poison();
    sums.poison();
    launch(row_sum_max_f32_1000x1003, x.device, max.device, sums.device);
    max.download();
    sums.download();
    std::vector<double> ref = rowSums(x.values, rows, cols);
    report.check("row_sum_max_f32_1000x1003 sums", relativeError(sums.values, ref),
                 tolerance<float>());
    report.check("row_sum_max_f32_1000x1003 max",
                 relativeError(max.values, {largest(ref)}), tolerance<float>());
  }
  {
    Tensor<float> x(1), max(1);
    x.randomize(-1, 1);
    max.poison();
    launch(row_sum_max_f32_1x1, x.device, max.device);
    max.download();
    report.check("row_sum_max_f32_1x1", relativeError(max.values, x.values),
                 tolerance<float>());
  }
  {
    const int rows = 777, cols = 37;
    Tensor<float> x(size_t(rows) * cols), y(size_t(rows) * cols);
    x.randomize(0, 1);
    y.poison();
    launch(scale_by_max_row_sum_f32_777x37, x.device, y.device);
    y.download();
    double max = largest(rowSums(x.values, rows, cols));
    std::vector<double> ref(x.values);
    for (double &v : ref)
      v /= max;
    report.check("scale_by_max_row_sum_f32_777x37", relativeError(y.values, ref),
                 tolerance<float>());
  }
  {
    const int rows = 513, cols = 77;
    Tensor<__nv_bfloat16> x(size_t(rows) * cols), y(rows);
    x.randomize(-0.25, 0.25);
    y.poison();
    launch(softmax_of_row_sums_bf16_513x77, x.device, y.device);
    y.download();
    // The row sums are a bf16 tensor of the graph: round them as it does.
    std::vector<double> sums = rowSums(x.values, rows, cols);
    for (double &s : sums)
      s = toDouble(fromDouble<__nv_bfloat16>(s));
    report.check("softmax_of_row_sums_bf16_513x77",
                 relativeError(y.values, reference::softmax(sums, 1, rows)),
                 tolerance<__nv_bfloat16>());
  }
  {
    const int rows = 1000, cols = 37;
    Tensor<float> x(size_t(rows) * cols), max(1);
    x.randomize(-1, 1);
    max.poison();
    launch(column_sum_max_f32_1000x37, x.device, max.device);
    max.download();
    std::vector<double> sums(cols, 0.0);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        sums[c] += x.values[size_t(r) * cols + c];
    report.check("column_sum_max_f32_1000x37", relativeError(max.values, {largest(sums)}),
                 tolerance<float>());
  }
  {
    const int rows = 16896, cols = 128;
    Tensor<float> x(size_t(rows) * cols), total(1);
    x.randomize(-1, 1);
    total.poison();
    launch(log_sum_exp_sum_f32_16896x128, x.device, total.device);
    total.download();
    double ref = 0;
    for (int r = 0; r < rows; ++r) {
      double sum = 0;
      for (int c = 0; c < cols; ++c)
        sum += std::exp(x.values[size_t(r) * cols + c]);
      ref += std::log(sum);
    }
    report.check("log_sum_exp_sum_f32_16896x128", relativeError(total.values, {ref}),
                 tolerance<float>());
  }
  return report.exitCode();
}
