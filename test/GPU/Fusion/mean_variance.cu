// Row mean and variance as outputs of their own (row scalars stored once per
// row) beside the centred rows (a broadcast after a reduce).
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/mean_variance | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "Harness.h"
#include "mean_variance.h"

using namespace harness;

template <typename T, typename Fn>
void run(Report &report, const std::string &name, Fn fn, int rows, int cols) {
  Tensor<T> x(size_t(rows) * cols), mean(rows), var(rows), centred(size_t(rows) * cols);
  x.randomize(-1, 5);
  mean.poison();
  var.poison();
  centred.poison();
  launch(fn, x.device, mean.device, var.device, centred.device);
  mean.download();
  var.download();
  centred.download();
  std::vector<double> refMean(rows), refVar(rows), refCentred(centred.size);
  for (int r = 0; r < rows; ++r) {
    const double *row = &x.values[size_t(r) * cols];
    double m = 0, v = 0;
    for (int c = 0; c < cols; ++c)
      m += row[c];
    m /= cols;
    for (int c = 0; c < cols; ++c) {
      refCentred[size_t(r) * cols + c] = row[c] - m;
      v += (row[c] - m) * (row[c] - m);
    }
    refMean[r] = m;
    refVar[r] = v / cols;
  }
  report.check(name + " mean", relativeError(mean.values, refMean), tolerance<T>());
  report.check(name + " variance", relativeError(var.values, refVar), tolerance<T>());
  report.check(name + " centred", relativeError(centred.values, refCentred),
               // x - mean rounds to 16 bits from an f32 mean: one more rounding.
               2 * tolerance<T>());
}

int main() {
  Report report;
  run<float>(report, "mean_variance_f32_1000x100", mean_variance_f32_1000x100, 1000, 100);
  run<float>(report, "mean_variance_f32_5000x64", mean_variance_f32_5000x64, 5000, 64);
  run<__nv_bfloat16>(report, "mean_variance_bf16_640x2000", mean_variance_bf16_640x2000, 640, 2000);
  return report.exitCode();
}
