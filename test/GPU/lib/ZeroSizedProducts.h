//===- ZeroSizedProducts.h - sparse products over zero-sized operands ----===//
//
// Checks the generated functions spmm_k0, spmm_n0, spmv_k0 and spmv_m0
// (in Fusion/Inputs/edge_sizes.mlir for the project's kernels and
// sparse_cusparse.mlir for cuSPARSE): a sum
// over no columns gives zeros over the poisoned result, an empty result is
// left alone, and no call fails. Include after the generated header.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_TEST_GPU_ZERO_SIZED_PRODUCTS_H
#define SPARSE_OPT_TEST_GPU_ZERO_SIZED_PRODUCTS_H

#include "Harness.h"

#include <string>
#include <vector>

namespace harness {

inline void checkZeroSizedProducts(Report &report, const std::string &route) {
  // Five rows without entries (k = 0), or no rows at all: positions only.
  int32_t *positions = nullptr, *coordinates = nullptr;
  float *values = nullptr;
  CHECK_CUDA(cudaMalloc(&positions, 6 * sizeof(int32_t)));
  CHECK_CUDA(cudaMemset(positions, 0, 6 * sizeof(int32_t)));
  CHECK_CUDA(cudaMalloc(&coordinates, sizeof(int32_t)));
  CHECK_CUDA(cudaMalloc(&values, sizeof(float)));
  Tensor<float> x(9), y(5 * 7);
  x.randomize();
  const std::vector<double> zeros(y.size, 0.0);

  y.poison();
  launch(spmm_k0, positions, coordinates, values, int64_t(0), x.device, y.device);
  y.download();
  report.check(route + " spmm 5x0 x 0x7 (zeros)", relativeError(y.values, zeros), 0.0);

  y.poison();
  launch(spmv_k0, positions, coordinates, values, int64_t(0), x.device, y.device);
  y.download();
  std::vector<double> first(y.values.begin(), y.values.begin() + 5);
  report.check(route + " spmv 5x0 x 0 (zeros)", relativeError(first, std::vector<double>(5, 0.0)),
               0.0);

  // Empty results: the calls succeed (launch checks) and write nothing.
  y.poison();
  launch(spmm_n0, positions, coordinates, values, int64_t(0), x.device, y.device);
  launch(spmv_m0, positions, coordinates, values, int64_t(0), x.device, y.device);
  y.download();
  bool untouched = true;
  for (float v : y.host)
    untouched = untouched && v != v; // still the NaN poison
  report.check(route + " spmm 5x9 x 9x0 and spmv 0x9 x 9 write nothing", untouched ? 0.0 : 1.0,
               0.0);

  cudaFree(positions);
  cudaFree(coordinates);
  cudaFree(values);
}

} // namespace harness

#endif // SPARSE_OPT_TEST_GPU_ZERO_SIZED_PRODUCTS_H
