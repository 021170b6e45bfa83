//===- Transpose.cuh - dense transposes and CSR value permutations -*- CUDA -*-===//
//
// The data movement of a dense x sparse product run as (Sᵀ · Xᵀ)ᵀ on the
// CSR SpMM kernel (Spmm.cuh):
//
//   launchTranspose         Xᵀ from X: 64 x 64 tiles through shared memory,
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

#include "sparse-opt/Runtime/Host/Launch.cuh"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cuda_runtime.h>

namespace sopt {

namespace transpose {
/// A tile is 64 x 64 elements, moved by a block of 8 warps: each thread
/// holds 16 of them (rows y + 8i, columns x and x + 32), all loaded before
/// any is stored: more loads in flight per thread than 32 x 32 tiles of 4
/// elements a thread, which is what a transpose is bound by.
constexpr int kTile = 64;
constexpr int kThreads = 256;
constexpr int kRowsPerThread = kTile / (kThreads / 32), kColsPerThread = kTile / 32;
} // namespace transpose

template <typename T>
__global__ void __launch_bounds__(transpose::kThreads)
    transposeKernel(const T *__restrict__ in, int64_t rows, int64_t cols, T *__restrict__ out) {
  awaitPrecedingKernels();
  using namespace transpose;
  // Padding: a column of the tile then spans all 32 banks (one column of
  // 4-byte elements, two of 2-byte ones), so the transposed reads below do
  // not conflict.
  constexpr int kPad = sizeof(T) >= 4 ? 1 : 4 / int(sizeof(T));
  __shared__ T tile[kTile][kTile + kPad];
  const int64_t tileRow = int64_t(blockIdx.y) * kTile, tileCol = int64_t(blockIdx.x) * kTile;
  const int x = threadIdx.x % 32, y = threadIdx.x / 32;
  // The three passes over a thread's 16 places are written out: one
  // visitor lambda shared by them makes ptxas order the loads and stores
  // differently, and slower.
  T held[kRowsPerThread][kColsPerThread];
#pragma unroll
  for (int i = 0; i < kRowsPerThread; ++i)
#pragma unroll
    for (int j = 0; j < kColsPerThread; ++j) {
      const int64_t r = tileRow + y + 8 * i, c = tileCol + x + 32 * j;
      if (r < rows && c < cols)
        held[i][j] = in[r * cols + c];
    }
#pragma unroll
  for (int i = 0; i < kRowsPerThread; ++i)
#pragma unroll
    for (int j = 0; j < kColsPerThread; ++j)
      tile[y + 8 * i][x + 32 * j] = held[i][j];
  __syncthreads();
  // out is cols x rows: its row tileCol + t holds column tileCol + t of in.
#pragma unroll
  for (int i = 0; i < kRowsPerThread; ++i)
#pragma unroll
    for (int j = 0; j < kColsPerThread; ++j) {
      const int64_t r = tileCol + y + 8 * i, c = tileRow + x + 32 * j;
      if (r < cols && c < rows)
        out[r * rows + c] = tile[x + 32 * j][y + 8 * i];
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
  return launchKernel(transposeKernel<T>, dim3(unsigned(tilesX), unsigned(tilesY)), kThreads, 0,
                      stream, in, rows, cols, out);
}

template <typename T>
__global__ void permuteValuesKernel(const T *__restrict__ in,
                                    const int32_t *__restrict__ permutation, int64_t count,
                                    T *__restrict__ out) {
  awaitPrecedingKernels();
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
  return launchKernel(permuteValuesKernel<T>, unsigned(blocks), kThreads, 0, stream, in,
                      permutation, count, out);
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_TRANSPOSE_CUH
