//===- Sddmm.cuh - sampled dense-dense products over CSR rows ---*- CUDA -*-===//
//
// D = epilogue((A · Bᵀ) ⊙ S) at the nonzeros of S (CSR, m x n), A[m, k] and
// B[n, k] row-major; or (A · B) ⊙ S with B[k, n]. D's values are laid out
// like S's.
//
// With B transposed (the attention and weight-gradient case) one warp works
// on one row of S at a time, `TileNonzeros` nonzeros per round.
// `ThreadsPerNonzero` lanes share each output: lane p of a group holds
// elements `(i * ThreadsPerNonzero + p) * VectorWidth + [0, VectorWidth)` of
// A's row in registers (loaded once per row), loads the same slice of B's
// row, and the groups' partial dot products meet through butterfly shuffles.
// Each group computes `TileNonzeros / (32 / ThreadsPerNonzero)` outputs per
// round, so that many independent loads are in flight.
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

template <typename T, int ThreadsPerNonzero, int VectorWidth, int VectorsPerLane,
          int TileNonzeros, typename Epilogue>
__global__ void __launch_bounds__(kMaxSparseThreadsPerBlock)
    sddmmKernel(CsrMatrix<T> s, const T *__restrict__ lhs, const T *__restrict__ rhs,
                int32_t k, T *__restrict__ out, const int32_t *__restrict__ rowOrder,
                Epilogue epilogue) {
  static_assert(ThreadsPerNonzero >= 1 && ThreadsPerNonzero <= 32 &&
                    (ThreadsPerNonzero & (ThreadsPerNonzero - 1)) == 0,
                "lanes per output: a power of two up to a warp");
  constexpr int kGroups = 32 / ThreadsPerNonzero;
  static_assert(TileNonzeros % kGroups == 0, "whole rounds of outputs per group");
  constexpr int kOutputsPerGroup = TileNonzeros / kGroups;

  const int lane = threadIdx.x % 32;
  const int group = lane / ThreadsPerNonzero, part = lane % ThreadsPerNonzero;
  const int64_t warps = int64_t(gridDim.x) * (blockDim.x / 32);
  // Whole warps walk the rows: every shuffle below has all 32 lanes.
  for (int64_t slot = int64_t(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
       slot < s.rows; slot += warps) {
    const int64_t row = rowOfSlot(rowOrder, slot);
    const int32_t begin = s.positions[row], end = s.positions[row + 1];
    if (begin == end)
      continue;

    float a[VectorsPerLane][VectorWidth];
#pragma unroll
    for (int i = 0; i < VectorsPerLane; ++i) {
      const int32_t col = (i * ThreadsPerNonzero + part) * VectorWidth;
      if (col < k)
        loadVector<VectorWidth>(lhs + row * k + col, a[i]);
      else
#pragma unroll
        for (int v = 0; v < VectorWidth; ++v)
          a[i][v] = 0.f;
    }

    for (int32_t first = begin; first < end; first += TileNonzeros) {
      float dot[kOutputsPerGroup] = {};
      int32_t column[kOutputsPerGroup];
#pragma unroll
      for (int o = 0; o < kOutputsPerGroup; ++o) {
        const int32_t entry = first + o * kGroups + group;
        column[o] = entry < end ? s.coordinates[entry] : 0;
      }
#pragma unroll
      for (int i = 0; i < VectorsPerLane; ++i) {
        const int32_t col = (i * ThreadsPerNonzero + part) * VectorWidth;
        if (col >= k)
          break;
#pragma unroll
        for (int o = 0; o < kOutputsPerGroup; ++o) {
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
        const int32_t entry = first + o * kGroups + group;
        if (part == 0 && entry < end)
          out[entry] = fromFloat<T>(
              epilogue(row, column[o], entry, dot[o], toFloat(s.values[entry])));
      }
    }
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
/// over the rows beyond that.
inline int64_t sddmmBlocks(int64_t rows, int warpsPerBlock) {
  const int64_t blocks = (rows + warpsPerBlock - 1) / warpsPerBlock;
  return blocks < 65535 ? blocks : 65535;
}

/// Launches (A · Bᵀ) ⊙ S: `warpsPerBlock` warps per block, rows in `rowOrder`
/// (longest first; nullptr for row 0 first).
template <typename T, int ThreadsPerNonzero, int VectorWidth, int VectorsPerLane,
          int TileNonzeros, typename Epilogue = ScaleByPattern>
cudaError_t launchSddmm(const CsrMatrix<T> &s, const T *lhs, const T *rhs, int64_t k,
                        T *out, const int32_t *rowOrder, int warpsPerBlock,
                        cudaStream_t stream, Epilogue epilogue = {}) {
  if (k % VectorWidth != 0 || k > int64_t(ThreadsPerNonzero) * VectorWidth * VectorsPerLane ||
      warpsPerBlock < 1 || warpsPerBlock * 32 > kMaxSparseThreadsPerBlock || s.rows < 0)
    return cudaErrorInvalidValue;
  if (s.rows == 0 || s.nnz == 0)
    return cudaSuccess;
  sddmmKernel<T, ThreadsPerNonzero, VectorWidth, VectorsPerLane, TileNonzeros, Epilogue>
      <<<unsigned(sddmmBlocks(s.rows, warpsPerBlock)), warpsPerBlock * 32, 0, stream>>>(
          s, lhs, rhs, int32_t(k), out, rowOrder, epilogue);
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
