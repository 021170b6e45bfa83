// Sizes at the edges (Inputs/edge_sizes.mlir): a matmul with a splat operand
// (sopt::launchFill), one with k = 0 (a zero fill), and graphs with empty
// results, which must return cudaSuccess and write nothing.
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/edge_sizes | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "Harness.h"
#include "edge_sizes.h"
#include "ZeroSizedProducts.h"

using namespace harness;

int main() {
  Report report;
  const int m = 64, k = 32, n = 48;
  Tensor<float> b(size_t(k) * n), c(size_t(m) * n);
  b.randomize(-1, 1);
  c.poison();
  launch(splat_matmul_f32, b.device, c.device);
  c.download();
  // Every row of the product is 1.5 times the column sums of b.
  std::vector<double> reference(size_t(m) * n);
  for (int j = 0; j < n; ++j) {
    double sum = 0;
    for (int i = 0; i < k; ++i)
      sum += b.values[size_t(i) * n + j];
    for (int r = 0; r < m; ++r)
      reference[size_t(r) * n + j] = 1.5 * sum;
  }
  report.check("splat_matmul_f32", relativeError(c.values, reference), 1e-5);

  Tensor<float> empty(0), zeros(16 * 24);
  zeros.poison();
  launch(zero_k_f32, empty.device, empty.device, zeros.device);
  zeros.download();
  report.check("zero_k_f32", relativeError(zeros.values, std::vector<double>(16 * 24, 0.0)),
               0.0);

  // Empty results: the calls succeed (launch checks) and write nothing.
  Tensor<float> rows(0), columns(0), sums(0), lhs(0), rhs(8 * 16), product(0);
  launch(softmax_no_rows_f32, rows.device, rows.device);
  launch(column_sums_no_columns_f32, columns.device, sums.device);
  launch(empty_matmul_f32, lhs.device, rhs.device, product.device);
  report.check("empty results return cudaSuccess", 0.0, 0.0);
  checkZeroSizedProducts(report, "own kernels");
  return report.exitCode();
}
