//===- Sddmm.cuh - sampled dense-dense products over CSR rows ---*- CUDA -*-===//
//
// D = epilogue((A · Bᵀ) ⊙ S) at the nonzeros of S (CSR, m x n), A[m, k] and
// B[n, k] row-major; or (A · B) ⊙ S with B[k, n]. D's values are laid out
// like S's.
//
// With B transposed (the attention and weight-gradient case) the entries of
// S are cut into 1-D tiles of `TileNonzeros` consecutive nonzeros, one tile
// per warp, across row boundaries: the split is even however the rows vary,
// and a matrix of few rows still fills the GPU. `ThreadsPerNonzero` lanes
// share each output: lane p of a group holds elements `(i *
// ThreadsPerNonzero + p) * VectorWidth + [0, VectorWidth)` of A's row in
// registers (reloaded only when the row changes), loads the same slice of
// B's row, and the partial dot products meet through butterfly shuffles.
// Each group computes `TileNonzeros / (32 / ThreadsPerNonzero)` outputs, so
// that many independent loads are in flight.
//
// With B not transposed, B's columns are gathered: one lane per output, A's
// row read as broadcasts.
//
// Requirements (checked by launchSddmm): k is a multiple of VectorWidth and
// at most `ThreadsPerNonzero * VectorWidth * VectorsPerLane`; arrays aligned
// to their vector width.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_SDDMM_CUH
#define SPARSE_OPT_RUNTIME_SDDMM_CUH

#include "sparse-opt/Runtime/Convert.cuh"
#include "sparse-opt/Runtime/SparseRow.cuh"
#include "sparse-opt/Runtime/SparseSchedule.h"

#include <cuda_runtime.h>

namespace sopt {

/// The default SDDMM epilogue: the product scaled by the pattern's value.
struct ScaleByPattern {
  __device__ __forceinline__ float operator()(int64_t /*row*/, int64_t /*column*/,
                                              int64_t /*entry*/, float product,
                                              float pattern) const {
    return product * pattern;
  }
};

/// The row holding entry `entry`: the last row whose first entry is at or
/// before it, searched from `row` forward (entries of one tile are
/// consecutive, so later entries move a few rows at most).
__device__ __forceinline__ int64_t rowOfEntry(const int32_t *__restrict__ positions,
                                              int64_t row, int32_t entry) {
  while (positions[row + 1] <= entry)
    ++row;
  return row;
}

template <typename T, int ThreadsPerNonzero, int VectorWidth, int VectorsPerLane,
          int TileNonzeros, typename Epilogue>
__global__ void __launch_bounds__(kMaxSparseThreadsPerBlock)
    sddmmKernel(CsrMatrix<T> s, const T *__restrict__ lhs, const T *__restrict__ rhs,
                int32_t k, T *__restrict__ out, Epilogue epilogue) {
  static_assert(ThreadsPerNonzero >= 1 && ThreadsPerNonzero <= 32 &&
                    (ThreadsPerNonzero & (ThreadsPerNonzero - 1)) == 0,
                "lanes per output: a power of two up to a warp");
  constexpr int kGroups = 32 / ThreadsPerNonzero;
  static_assert(TileNonzeros % kGroups == 0, "whole rounds of outputs per group");
  constexpr int kOutputsPerGroup = TileNonzeros / kGroups;

  const int lane = threadIdx.x % 32;
  const int group = lane / ThreadsPerNonzero, part = lane % ThreadsPerNonzero;
  // Every warp takes the next TileNonzeros entries, whatever rows they are
  // in: the work is split evenly however the row lengths vary.
  const int64_t tile = int64_t(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  const int64_t first = tile * TileNonzeros;
  if (first >= s.nnz)
    return; // the whole warp leaves: no shuffle below waits for it
  int64_t row = findRow(s.positions, s.rows, int32_t(first));

  float dot[kOutputsPerGroup] = {};
  int32_t column[kOutputsPerGroup];
  int64_t rowOf[kOutputsPerGroup];
  // A's slice for the row of the group's current output, reloaded when the
  // row changes.
  float a[VectorsPerLane][VectorWidth];
  int64_t loadedRow = -1;
#pragma unroll
  for (int o = 0; o < kOutputsPerGroup; ++o) {
    const int64_t entry = first + o * kGroups + group;
    rowOf[o] = -1;
    if (entry >= s.nnz)
      continue;
    row = rowOfEntry(s.positions, row, int32_t(entry));
    rowOf[o] = row;
    column[o] = s.coordinates[entry];
    if (row != loadedRow) {
#pragma unroll
      for (int i = 0; i < VectorsPerLane; ++i) {
        const int32_t col = (i * ThreadsPerNonzero + part) * VectorWidth;
        if (col < k)
          loadVector<VectorWidth>(lhs + row * k + col, a[i]);
      }
      loadedRow = row;
    }
#pragma unroll
    for (int i = 0; i < VectorsPerLane; ++i) {
      const int32_t col = (i * ThreadsPerNonzero + part) * VectorWidth;
      if (col >= k)
        break;
      float x[VectorWidth];
      loadVector<VectorWidth>(rhs + int64_t(column[o]) * k + col, x);
#pragma unroll
      for (int v = 0; v < VectorWidth; ++v)
        dot[o] = fmaf(a[i][v], x[v], dot[o]);
    }
  }
#pragma unroll
  for (int o = 0; o < kOutputsPerGroup; ++o) {
#pragma unroll
    for (int width = ThreadsPerNonzero / 2; width > 0; width /= 2)
      dot[o] += __shfl_xor_sync(0xffffffffu, dot[o], width);
    const int64_t entry = first + o * kGroups + group;
    if (part == 0 && rowOf[o] >= 0)
      out[entry] = fromFloat<T>(
          epilogue(rowOf[o], column[o], entry, dot[o], toFloat(s.values[entry])));
  }
}

/// (A · B) ⊙ S with B[k, n] row-major: lane j of a warp owns entry
/// `first + j`, gathers B's column, reads A's row as broadcasts.
template <typename T, typename Epilogue>
__global__ void __launch_bounds__(kMaxSparseThreadsPerBlock)
    sddmmGatherKernel(CsrMatrix<T> s, const T *__restrict__ lhs, const T *__restrict__ rhs,
                      int32_t k, T *__restrict__ out, const int32_t *__restrict__ rowOrder,
                      Epilogue epilogue) {
  const int lane = threadIdx.x % 32;
  const int64_t warps = int64_t(gridDim.x) * (blockDim.x / 32);
  const int32_t n = int32_t(s.cols);
  for (int64_t slot = int64_t(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
       slot < s.rows; slot += warps) {
    const int64_t row = rowOfSlot(rowOrder, slot);
    const int32_t begin = s.positions[row], end = s.positions[row + 1];
    for (int32_t entry = begin + lane; entry < end; entry += 32) {
      const int32_t column = s.coordinates[entry];
      float dot = 0.f;
      for (int32_t i = 0; i < k; ++i)
        dot = fmaf(toFloat(lhs[row * k + i]), toFloat(rhs[int64_t(i) * n + column]), dot);
      out[entry] = fromFloat<T>(epilogue(row, column, entry, dot, toFloat(s.values[entry])));
    }
  }
}

/// Blocks enough for every row a warp, capped at a few waves: warps stride
/// over the rows beyond that (the gather kernel).
inline int64_t sddmmBlocks(int64_t rows, int warpsPerBlock) {
  const int64_t blocks = (rows + warpsPerBlock - 1) / warpsPerBlock;
  return blocks < 65535 ? blocks : 65535;
}

/// Launches (A · Bᵀ) ⊙ S: one warp per `TileNonzeros` consecutive entries,
/// `warpsPerBlock` warps per block. (The tiles split the entries evenly, so
/// no row order is needed.)
template <typename T, int ThreadsPerNonzero, int VectorWidth, int VectorsPerLane,
          int TileNonzeros, typename Epilogue = ScaleByPattern>
cudaError_t launchSddmm(const CsrMatrix<T> &s, const T *lhs, const T *rhs, int64_t k,
                        T *out, int warpsPerBlock, cudaStream_t stream,
                        Epilogue epilogue = {}) {
  if (k % VectorWidth != 0 || k > int64_t(ThreadsPerNonzero) * VectorWidth * VectorsPerLane ||
      warpsPerBlock < 1 || warpsPerBlock * 32 > kMaxSparseThreadsPerBlock || s.rows < 0 ||
      s.nnz > INT32_MAX)
    return cudaErrorInvalidValue;
  if (s.rows == 0 || s.nnz == 0)
    return cudaSuccess;
  const int64_t tiles = (s.nnz + TileNonzeros - 1) / TileNonzeros;
  const int64_t blocks = (tiles + warpsPerBlock - 1) / warpsPerBlock;
  if (blocks > INT32_MAX)
    return cudaErrorInvalidValue;
  sddmmKernel<T, ThreadsPerNonzero, VectorWidth, VectorsPerLane, TileNonzeros, Epilogue>
      <<<unsigned(blocks), warpsPerBlock * 32, 0, stream>>>(s, lhs, rhs, int32_t(k), out,
                                                            epilogue);
  return cudaGetLastError();
}

/// Launches (A · B) ⊙ S with B[k, n] not transposed.
template <typename T, typename Epilogue = ScaleByPattern>
cudaError_t launchSddmmGather(const CsrMatrix<T> &s, const T *lhs, const T *rhs,
                              int64_t k, T *out, const int32_t *rowOrder,
                              int warpsPerBlock, cudaStream_t stream,
                              Epilogue epilogue = {}) {
  if (k > INT32_MAX || warpsPerBlock < 1 || warpsPerBlock * 32 > kMaxSparseThreadsPerBlock || s.rows < 0)
    return cudaErrorInvalidValue;
  if (s.rows == 0 || s.nnz == 0)
    return cudaSuccess;
  sddmmGatherKernel<T, Epilogue>
      <<<unsigned(sddmmBlocks(s.rows, warpsPerBlock)), warpsPerBlock * 32, 0, stream>>>(
          s, lhs, rhs, int32_t(k), out, rowOrder, epilogue);
  return cudaGetLastError();
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_SDDMM_CUH
