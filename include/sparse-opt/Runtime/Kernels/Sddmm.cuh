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
// A tile of 32 nonzeros (`TileNonzeros == 32`) is one output per lane in
// the end: lane j reads entry `first + j`'s row and column once (the groups
// get them by shuffles), every group computes ThreadsPerNonzero outputs, and
// their partial sums meet in a transposed butterfly: at each step a lane
// sends the half of its sums its partner keeps and adds the half it keeps,
// so P lanes reduce P sums with P - 1 shuffles instead of P * log2(P), and
// lane p of a group ends with output p. The store is then one coalesced
// row of 32 entries. (SddmmPanels.cuh takes the same tiles in column-panel
// order, through sddmmLaneOutputsOf.)
//
// A tile finds the rows of its entries in S's positions (a 32-way search by
// the warp for the first, then a step forward per row crossed), dependent
// loads before any product starts. Given `entryRows`, the row of every
// entry prepared once per pattern (sopt_csr_entry_rows on the host,
// RowOrder.h, or launchEntryRows here: the generated code expands it on its
// first call for a pattern known at compile time), each lane loads its
// entry's row beside its column instead, taking the search off the
// products' critical path (outputs bit for bit the same).
// (Loading the pattern's values up front as well changed nothing.)
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

#include "sparse-opt/Runtime/Device/Convert.cuh"
#include "sparse-opt/Runtime/Host/Launch.cuh"
#include "sparse-opt/Runtime/Device/SparseRow.cuh"
#include "sparse-opt/Runtime/Schedule/SparseSchedule.h"

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

/// One step of the transposed butterfly over the lanes of a group, and the
/// steps after it: a lane holding 2 * Width partial sums (of outputs
/// 0 .. 2 * Width) sends its partner (lane ^ Width) the half the partner
/// keeps and adds the half it keeps, those of the outputs whose bit Width
/// matches its own. After the last step lane p holds output p's whole sum in
/// dot[0]. (A template per step, so that every index into `dot` is a
/// constant and the sums stay in registers: nvcc kept nested counted loops
/// of 32-lane groups in local memory.)
template <int Width, int N>
__device__ __forceinline__ void transposedButterfly(float (&dot)[N], int part) {
  if constexpr (Width > 0) {
    const bool upper = (part & Width) != 0;
#pragma unroll
    for (int i = 0; i < Width; ++i) {
      const float send = upper ? dot[i] : dot[i + Width];
      const float kept = upper ? dot[i + Width] : dot[i];
      dot[i] = kept + __shfl_xor_sync(0xffffffffu, send, Width);
    }
    transposedButterfly<Width / 2>(dot, part);
  }
}

/// The 32 outputs of a warp, one per lane in the end (see the file
/// comment): lane j names entry `entry` of S, in row `entryRow` (-1: none)
/// and column `entryColumn`. Called by whole warps.
template <int ThreadsPerNonzero, int VectorWidth, int VectorsPerLane, typename T,
          typename Epilogue>
__device__ __forceinline__ void
sddmmLaneOutputsOf(const CsrMatrix<T> &s, const T *__restrict__ lhs, const T *__restrict__ rhs,
                   int32_t k, T *__restrict__ out, const Epilogue &epilogue, int32_t entry,
                   int32_t entryRow, int32_t entryColumn) {
  constexpr int kLanes = ThreadsPerNonzero;
  constexpr int kGroups = 32 / kLanes;
  constexpr unsigned kWarp = 0xffffffffu;
  const int lane = threadIdx.x % 32;
  const int group = lane / kLanes, part = lane % kLanes;

  // Output o of this group is lane o * kGroups + group's entry.
  float dot[kLanes];
  float a[VectorsPerLane][VectorWidth];
  int32_t loadedRow = -1;
#pragma unroll
  for (int o = 0; o < kLanes; ++o) {
    const int source = o * kGroups + group;
    const int32_t row = __shfl_sync(kWarp, entryRow, source);
    const int32_t column = __shfl_sync(kWarp, entryColumn, source);
    float sum = 0.f;
    if (row >= 0) { // past the last entry the whole group skips it
      if (row != loadedRow) {
#pragma unroll
        for (int i = 0; i < VectorsPerLane; ++i) {
          const int32_t col = (i * kLanes + part) * VectorWidth;
          if (col < k)
            loadVector<VectorWidth>(lhs + int64_t(row) * k + col, a[i]);
        }
        loadedRow = row;
      }
#pragma unroll
      for (int i = 0; i < VectorsPerLane; ++i) {
        const int32_t col = (i * kLanes + part) * VectorWidth;
        if (col < k) {
          float x[VectorWidth];
          loadVector<VectorWidth>(rhs + int64_t(column) * k + col, x);
#pragma unroll
          for (int v = 0; v < VectorWidth; ++v)
            sum = fmaf(a[i][v], x[v], sum);
        }
      }
    }
    dot[o] = sum;
  }
  transposedButterfly<kLanes / 2>(dot, part);
  const int source = part * kGroups + group;
  const int32_t row = __shfl_sync(kWarp, entryRow, source);
  const int32_t column = __shfl_sync(kWarp, entryColumn, source);
  const int32_t e = __shfl_sync(kWarp, entry, source);
  if (row >= 0)
    out[e] = fromFloat<T>(epilogue(row, column, e, dot[0], toFloat(s.values[e])));
}

/// The tile of 32 nonzeros starting at `first`, one output per lane in the
/// end (see the file comment). Called by whole warps.
template <int ThreadsPerNonzero, int VectorWidth, int VectorsPerLane, typename T,
          typename Epilogue>
__device__ __forceinline__ void
sddmmLaneOutputs(const CsrMatrix<T> &s, const T *__restrict__ lhs, const T *__restrict__ rhs,
                 int32_t k, T *__restrict__ out, const Epilogue &epilogue, int64_t first,
                 const int32_t *__restrict__ entryRows) {
  // Lane j's entry, first + j: its row (-1 past the end) and column.
  const int64_t entry = first + threadIdx.x % 32;
  const bool stored = entry < s.nnz;
  int32_t entryRow = -1;
  if (entryRows) { // prepared: one coalesced load instead of a search
    if (stored)
      entryRow = entryRows[entry];
  } else {
    const int64_t firstRow = findRowByWarp(s.positions, s.rows, int32_t(first)); // whole warp
    if (stored)
      entryRow = int32_t(rowOfEntry(s.positions, firstRow, int32_t(entry)));
  }
  const int32_t entryColumn = stored ? s.coordinates[entry] : 0;
  sddmmLaneOutputsOf<ThreadsPerNonzero, VectorWidth, VectorsPerLane>(
      s, lhs, rhs, k, out, epilogue, stored ? int32_t(entry) : 0, entryRow, entryColumn);
}

template <typename T, int ThreadsPerNonzero, int VectorWidth, int VectorsPerLane,
          int TileNonzeros, typename Epilogue>
__global__ void __launch_bounds__(kMaxSparseThreadsPerBlock)
    sddmmKernel(CsrMatrix<T> s, const T *__restrict__ lhs, const T *__restrict__ rhs,
                int32_t k, T *__restrict__ out, Epilogue epilogue,
                const int32_t *__restrict__ entryRows) {
  awaitPrecedingKernels();
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
  if constexpr (TileNonzeros == 32) {
    sddmmLaneOutputs<ThreadsPerNonzero, VectorWidth, VectorsPerLane>(s, lhs, rhs, k, out,
                                                                      epilogue, first, entryRows);
  } else {
    int64_t row = entryRows ? 0 : findRowByWarp(s.positions, s.rows, int32_t(first));
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
      row = entryRows ? entryRows[entry] : rowOfEntry(s.positions, row, int32_t(entry));
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
}

/// (A · B) ⊙ S with B[k, n] row-major: lane j of a warp owns entry
/// `first + j`, gathers B's column, reads A's row as broadcasts.
template <typename T, typename Epilogue>
__global__ void __launch_bounds__(kMaxSparseThreadsPerBlock)
    sddmmGatherKernel(CsrMatrix<T> s, const T *__restrict__ lhs, const T *__restrict__ rhs,
                      int32_t k, T *__restrict__ out, const int32_t *__restrict__ rowOrder,
                      Epilogue epilogue) {
  awaitPrecedingKernels();
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

/// entryRows[e] = the row of S's entry e, a warp per row (the device
/// counterpart of sopt_csr_entry_rows).
template <typename T>
__global__ void __launch_bounds__(kMaxSparseThreadsPerBlock)
    entryRowsKernel(CsrMatrix<T> s, int32_t *__restrict__ entryRows) {
  awaitPrecedingKernels();
  const int64_t row = int64_t(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= s.rows)
    return;
  const int32_t end = s.positions[row + 1];
  for (int32_t e = s.positions[row] + int32_t(threadIdx.x % 32); e < end; e += 32)
    entryRows[e] = int32_t(row);
}

/// Writes the row of each of S's entries to entryRows (nnz of them), for
/// launchSddmm.
template <typename T>
cudaError_t launchEntryRows(const CsrMatrix<T> &s, int32_t *entryRows, cudaStream_t stream) {
  constexpr int kWarps = kMaxSparseThreadsPerBlock / 32;
  if (s.rows < 0 || (s.rows + kWarps - 1) / kWarps > INT32_MAX)
    return cudaErrorInvalidValue;
  if (s.rows == 0 || s.nnz == 0)
    return cudaSuccess;
  return launchKernel(entryRowsKernel<T>, unsigned((s.rows + kWarps - 1) / kWarps), kWarps * 32,
                      0, stream, s, entryRows);
}

/// Blocks enough for every row a warp, capped at a few waves: warps stride
/// over the rows beyond that (the gather kernel).
inline int64_t sddmmBlocks(int64_t rows, int warpsPerBlock) {
  const int64_t blocks = (rows + warpsPerBlock - 1) / warpsPerBlock;
  return blocks < 65535 ? blocks : 65535;
}

/// Launches (A · Bᵀ) ⊙ S: one warp per `TileNonzeros` consecutive entries,
/// `warpsPerBlock` warps per block. (The tiles split the entries evenly, so
/// no row order is needed.) `entryRows`: the row of each of S's entries
/// (sopt_csr_entry_rows, launchEntryRows), or nullptr to search S's
/// positions for them.
template <typename T, int ThreadsPerNonzero, int VectorWidth, int VectorsPerLane,
          int TileNonzeros, typename Epilogue = ScaleByPattern>
cudaError_t launchSddmm(const CsrMatrix<T> &s, const T *lhs, const T *rhs, int64_t k,
                        T *out, int warpsPerBlock, cudaStream_t stream,
                        Epilogue epilogue = {}, const int32_t *entryRows = nullptr) {
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
  return launchKernel(
      sddmmKernel<T, ThreadsPerNonzero, VectorWidth, VectorsPerLane, TileNonzeros, Epilogue>,
      unsigned(blocks), warpsPerBlock * 32, 0, stream, s, lhs, rhs, int32_t(k), out, epilogue,
      entryRows);
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
  return launchKernel(sddmmGatherKernel<T, Epilogue>, unsigned(sddmmBlocks(s.rows, warpsPerBlock)),
                      warpsPerBlock * 32, 0, stream, s, lhs, rhs, int32_t(k), out, rowOrder,
                      epilogue);
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_SDDMM_CUH
