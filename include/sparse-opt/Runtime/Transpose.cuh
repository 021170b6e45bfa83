//===- Transpose.cuh - dense transposes and CSR value permutations -*- CUDA -*-===//
//
// The data movement of a dense x sparse product run as (Sᵀ · Xᵀ)ᵀ on the
// CSR SpMM kernel (Spmm.cuh):
//
//   launchTranspose         Xᵀ from X: 32 x 32 tiles through shared memory,
//                           so that both the reads of X's rows and the writes
//                           of Xᵀ's rows are coalesced.
//   launchPermuteValues     the values of Sᵀ in CSR from those of S, through
//                           the permutation the compiler computed from S's
//                           pattern (sopt_csr_transpose): out[q] = in[perm[q]].
//
// Both copy elements without converting them.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_TRANSPOSE_CUH
#define SPARSE_OPT_RUNTIME_TRANSPOSE_CUH

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cuda_runtime.h>

namespace sopt {

namespace transpose {
/// A tile is 32 x 32 elements: one warp reads or writes a tile row of 32
/// consecutive elements.
constexpr int kTile = 32;
/// Rows of the tile each warp of the 32 x 8 block moves per step.
constexpr int kBlockRows = 8;
} // namespace transpose

template <typename T>
__global__ void __launch_bounds__(transpose::kTile * transpose::kBlockRows)
    transposeKernel(const T *__restrict__ in, int64_t rows, int64_t cols, T *__restrict__ out) {
  using namespace transpose;
  // One padding column: a column of the tile spans all 32 banks (for 4-byte
  // elements), so the transposed reads below do not conflict.
  __shared__ T tile[kTile][kTile + 1];
  const int64_t tileRow = int64_t(blockIdx.y) * kTile, tileCol = int64_t(blockIdx.x) * kTile;
  const int x = threadIdx.x;
  for (int y = threadIdx.y; y < kTile; y += kBlockRows) {
    const int64_t r = tileRow + y, c = tileCol + x;
    if (r < rows && c < cols)
      tile[y][x] = in[r * cols + c];
  }
  __syncthreads();
  // out is cols x rows: its row tileCol + y holds column tileCol + y of in.
  for (int y = threadIdx.y; y < kTile; y += kBlockRows) {
    const int64_t r = tileCol + y, c = tileRow + x;
    if (r < cols && c < rows)
      out[r * rows + c] = tile[x][y];
  }
}

/// out[cols, rows] = in[rows, cols]ᵀ, both row-major. Returns
/// cudaErrorInvalidValue for negative sizes or more than 65535 tile rows.
template <typename T>
cudaError_t launchTranspose(const T *in, int64_t rows, int64_t cols, T *out,
                            cudaStream_t stream) {
  using namespace transpose;
  if (rows < 0 || cols < 0)
    return cudaErrorInvalidValue;
  if (rows == 0 || cols == 0)
    return cudaSuccess;
  const int64_t tilesX = (cols + kTile - 1) / kTile, tilesY = (rows + kTile - 1) / kTile;
  if (tilesY > 65535 || tilesX > INT32_MAX)
    return cudaErrorInvalidValue;
  transposeKernel<T><<<dim3(unsigned(tilesX), unsigned(tilesY)), dim3(kTile, kBlockRows), 0,
                       stream>>>(in, rows, cols, out);
  return cudaGetLastError();
}

template <typename T>
__global__ void permuteValuesKernel(const T *__restrict__ in,
                                    const int32_t *__restrict__ permutation, int64_t count,
                                    T *__restrict__ out) {
  for (int64_t q = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; q < count;
       q += int64_t(gridDim.x) * blockDim.x)
    out[q] = in[permutation[q]];
}

/// out[q] = in[permutation[q]] for q < count.
template <typename T>
cudaError_t launchPermuteValues(const T *in, const int32_t *permutation, int64_t count,
                                T *out, cudaStream_t stream) {
  if (count < 0)
    return cudaErrorInvalidValue;
  if (count == 0)
    return cudaSuccess;
  constexpr int kThreads = 256;
  // Enough blocks to fill any current GPU; the loop covers the rest.
  const int64_t blocks = std::min<int64_t>((count + kThreads - 1) / kThreads, 4096);
  permuteValuesKernel<T><<<unsigned(blocks), kThreads, 0, stream>>>(in, permutation, count, out);
  return cudaGetLastError();
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_TRANSPOSE_CUH
