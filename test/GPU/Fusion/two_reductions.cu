// Two reductions of different shapes in one subgraph (row sums, then their
// maximum), split into two kernels because the first grid exceeds one wave.
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/two_reductions | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "Harness.h"
#include "References.h"
#include "two_reductions.h"

using namespace harness;

int main() {
  Report report;
  const int rows = 65536, cols = 1024;
  Tensor<float> x(size_t(rows) * cols), max(1), sums(rows);
  x.randomize(-1, 1);
  max.poison();
  sums.poison();
  launch(row_sum_max_f32_65536x1024, x.device, max.device, sums.device);
  max.download();
  sums.download();
  const std::vector<double> refSums = reference::rowSums(x.values, rows, cols);
  const double refMax = *std::max_element(refSums.begin(), refSums.end());
  report.check("row_sum_max_f32 sums", relativeError(sums.values, refSums), 1e-5);
  report.check("row_sum_max_f32 max", relativeError(max.values, {refMax}), 1e-5);
  return report.exitCode();
}
