//===- SpmvRowVector.cuh - SpMV with a lane group per row ----------*- CUDA -*-===//
//
// The simple kernel for short rows of similar length: every row gets the
// same power-of-two group of lanes (about its mean length), groups stride
// over the rows, x is read through L2. No preprocessing beyond the mean.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_KERNELS_SPMVROWVECTOR_CUH
#define SPARSE_OPT_RUNTIME_KERNELS_SPMVROWVECTOR_CUH

#include "sparse-opt/Runtime/Host/Launch.cuh"
#include "sparse-opt/Runtime/Kernels/SpmvHbp.cuh"

#include <cmath>
#include <cstdint>

namespace sopt::spmv {

/// lanesLog2 (0..5): each row's lane group has 2^lanesLog2 lanes.
template <typename T, typename Index>
__global__ void spmvRowVectorKernel(int64_t rows, int lanesLog2, const Index *positions,
                                    const Index *coordinates, const T *values, const T *x,
                                    T alpha, T beta, T *y) {
  awaitPrecedingKernels();
  const int laneInGroup = threadIdx.x & ((1 << lanesLog2) - 1);
  const int64_t groups = (int64_t(gridDim.x) * blockDim.x) >> lanesLog2;
  // Every lane runs the same number of iterations (the shuffles need the
  // whole warp): rows past the end compute an empty sum.
  const int64_t firstGroup = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) >> lanesLog2;
  const int64_t warpFirstGroup =
      ((int64_t(blockIdx.x) * blockDim.x + (threadIdx.x & ~(kWarpSize - 1))) >> lanesLog2);
  for (int64_t base = warpFirstGroup; base < rows; base += groups) {
    const int64_t row = firstGroup + (base - warpFirstGroup);
    T sum = T(0);
    if (row < rows)
      sum = laneDot(values, coordinates, positions[row] + laneInGroup, positions[row + 1],
                    Index(1) << lanesLog2, [&](Index c) { return __ldg(&x[c]); });
    sum = sumLaneGroup(sum, lanesLog2);
    if (row < rows && laneInGroup == 0)
      writeScaled(y, row, sum, alpha, beta);
  }
}

/// The lane group for rows of `meanLength` entries on average, each lane
/// taking about 2^entriesLog2 of them (as the HBP kernel's classes).
inline int rowVectorLanesLog2(double meanLength, int entriesLog2) {
  return lanesLog2ForClass(lengthClass(int64_t(std::ceil(meanLength))), entriesLog2);
}

} // namespace sopt::spmv

#endif // SPARSE_OPT_RUNTIME_KERNELS_SPMVROWVECTOR_CUH
