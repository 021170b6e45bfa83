//===- SparseDispatch.cuh - run a schedule chosen at run time ---*- CUDA -*-===//
//
// Generated code instantiates exactly the kernel its schedule names. Tests
// and benchmarks, which try many matrices and schedules in one binary, go
// through these functions instead: they map a SpmmSchedule / SddmmSchedule
// onto one of the template instances (every schedule that
// checkSpmmSchedule / checkSddmmSchedule accepts, with the SDDMM tiles of
// dispatchedSddmmTiles; other tiles return cudaErrorInvalidValue). Including this header compiles all of them.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_SPARSEDISPATCH_CUH
#define SPARSE_OPT_RUNTIME_SPARSEDISPATCH_CUH

#include "sparse-opt/Runtime/Kernels/Sddmm.cuh"
#include "sparse-opt/Runtime/Kernels/SddmmBlocks.cuh"
#include "sparse-opt/Runtime/Kernels/SddmmPanels.cuh"
#include "sparse-opt/Runtime/Schedule/SparseSchedule.h"
#include "sparse-opt/Runtime/Kernels/Spmm.cuh"
#include "sparse-opt/Runtime/Kernels/SpmmBlocks.cuh"
#include "sparse-opt/Runtime/Kernels/SpmmSlices.cuh"
#include "sparse-opt/Runtime/Kernels/Transpose.cuh"

namespace sopt {

namespace detail {

template <typename T, bool TransposeC, int Threads, int PerThread, int Vector>
cudaError_t spmmWithVector(const SpmmSchedule &s, const CsrMatrix<T> &a, const T *b,
                           int64_t n, T *c, const int32_t *rowOrder, cudaStream_t stream,
                           const RowSegments &segments) {
  if constexpr (PerThread % Vector == 0 && Vector * sizeof(T) <= 16)
    return launchSpmm<T, Threads, PerThread, Vector, TransposeC>(
        a, b, n, c, rowOrder, s.tilesPerBlock, s.rowSplits, s.tileOrder, stream, {}, segments);
  return cudaErrorInvalidValue;
}

template <typename T, bool TransposeC, int Threads, int PerThread>
cudaError_t spmmWithColumns(const SpmmSchedule &s, const CsrMatrix<T> &a, const T *b,
                            int64_t n, T *c, const int32_t *rowOrder, cudaStream_t stream,
                            const RowSegments &g) {
  switch (s.vectorWidth) {
  case 1: return spmmWithVector<T, TransposeC, Threads, PerThread, 1>(s, a, b, n, c, rowOrder, stream, g);
  case 2: return spmmWithVector<T, TransposeC, Threads, PerThread, 2>(s, a, b, n, c, rowOrder, stream, g);
  case 4: return spmmWithVector<T, TransposeC, Threads, PerThread, 4>(s, a, b, n, c, rowOrder, stream, g);
  }
  return cudaErrorInvalidValue;
}

template <typename T, bool TransposeC, int Threads>
cudaError_t spmmWithThreads(const SpmmSchedule &s, const CsrMatrix<T> &a, const T *b,
                            int64_t n, T *c, const int32_t *rowOrder, cudaStream_t stream,
                            const RowSegments &g) {
  switch (s.columnsPerThread()) {
  case 1: return spmmWithColumns<T, TransposeC, Threads, 1>(s, a, b, n, c, rowOrder, stream, g);
  case 2: return spmmWithColumns<T, TransposeC, Threads, 2>(s, a, b, n, c, rowOrder, stream, g);
  case 4: return spmmWithColumns<T, TransposeC, Threads, 4>(s, a, b, n, c, rowOrder, stream, g);
  case 8: return spmmWithColumns<T, TransposeC, Threads, 8>(s, a, b, n, c, rowOrder, stream, g);
  case 16: return spmmWithColumns<T, TransposeC, Threads, 16>(s, a, b, n, c, rowOrder, stream, g);
  }
  return cudaErrorInvalidValue;
}

template <typename T, bool TransposeC, int SliceColumns>
cudaError_t spmmWithSliceColumns(const SpmmSchedule &s, const CsrMatrix<T> &a, const T *b,
                                 int64_t n, T *c, const int32_t *rowOrder, cudaStream_t stream) {
  const int threads = s.threadsPerBlock();
  switch (s.vectorWidth) {
  case 1:
    if constexpr (SliceColumns <= 32)
      return launchSpmmSlices<T, SliceColumns, 1, TransposeC>(a, b, n, c, rowOrder, threads, stream);
    break;
  case 2:
    if constexpr (SliceColumns <= 64)
      return launchSpmmSlices<T, SliceColumns, 2, TransposeC>(a, b, n, c, rowOrder, threads, stream);
    break;
  case 4:
    if constexpr (4 * sizeof(T) <= 16)
      return launchSpmmSlices<T, SliceColumns, 4, TransposeC>(a, b, n, c, rowOrder, threads, stream);
    break;
  }
  return cudaErrorInvalidValue;
}

template <typename T, bool TransposeC>
cudaError_t spmmWithSlice(const SpmmSchedule &s, const CsrMatrix<T> &a, const T *b, int64_t n,
                          T *c, const int32_t *rowOrder, cudaStream_t stream) {
  switch (s.tileColumns) {
  case 16: return spmmWithSliceColumns<T, TransposeC, 16>(s, a, b, n, c, rowOrder, stream);
  case 32: return spmmWithSliceColumns<T, TransposeC, 32>(s, a, b, n, c, rowOrder, stream);
  case 64: return spmmWithSliceColumns<T, TransposeC, 64>(s, a, b, n, c, rowOrder, stream);
  case 128: return spmmWithSliceColumns<T, TransposeC, 128>(s, a, b, n, c, rowOrder, stream);
  }
  return cudaErrorInvalidValue;
}

template <typename T, int Threads, int Vector, int Vectors>
cudaError_t sddmmWithVectors(const SddmmSchedule &s, const CsrMatrix<T> &p, const T *lhs,
                             const T *rhs, int64_t k, T *out, cudaStream_t stream,
                             const int32_t *entryRows, const int32_t *panelOrder) {
  constexpr int kGroups = 32 / Threads;
  if constexpr (Vector * sizeof(T) <= 16 && Vector * Vectors <= kMaxSddmmElementsPerLane) {
    if (s.columnPanel > 0 && s.tileNonzeros == 32) {
      if (panelOrder && entryRows)
        return launchSddmmPanels<T, Threads, Vector, Vectors>(
            p, lhs, rhs, k, out, s.tilesPerBlock, stream, ScaleByPattern{}, entryRows,
            panelOrder);
      // Without the order the same tiles run in S's order, in blocks of
      // the usual size.
      SddmmSchedule natural = s;
      natural.columnPanel = 0;
      natural.tilesPerBlock = std::min(s.tilesPerBlock, kMaxSparseThreadsPerBlock / 32);
      return sddmmWithVectors<T, Threads, Vector, Vectors>(natural, p, lhs, rhs, k, out, stream,
                                                           entryRows, nullptr);
    }
    if (s.tileNonzeros == kGroups)
      return launchSddmm<T, Threads, Vector, Vectors, kGroups>(p, lhs, rhs, k, out,
                                                               s.tilesPerBlock, stream, {},
                                                               entryRows);
    if (s.tileNonzeros == 2 * kGroups)
      return launchSddmm<T, Threads, Vector, Vectors, 2 * kGroups>(
          p, lhs, rhs, k, out, s.tilesPerBlock, stream, {}, entryRows);
    if constexpr (2 * kGroups != 32)
      if (s.tileNonzeros == 32)
        return launchSddmm<T, Threads, Vector, Vectors, 32>(p, lhs, rhs, k, out,
                                                            s.tilesPerBlock, stream, {},
                                                            entryRows);
  }
  return cudaErrorInvalidValue;
}

template <typename T, int Threads, int Vector>
cudaError_t sddmmWithVector(const SddmmSchedule &s, const CsrMatrix<T> &p, const T *lhs,
                            const T *rhs, int64_t k, T *out, cudaStream_t stream,
                            const int32_t *entryRows, const int32_t *panelOrder) {
  // The fewest vectors per lane (a power of two) that cover k.
  const int64_t needed = (k + int64_t(Threads) * Vector - 1) / (int64_t(Threads) * Vector);
  if (needed <= 1) return sddmmWithVectors<T, Threads, Vector, 1>(s, p, lhs, rhs, k, out, stream, entryRows, panelOrder);
  if (needed <= 2) return sddmmWithVectors<T, Threads, Vector, 2>(s, p, lhs, rhs, k, out, stream, entryRows, panelOrder);
  if (needed <= 4) return sddmmWithVectors<T, Threads, Vector, 4>(s, p, lhs, rhs, k, out, stream, entryRows, panelOrder);
  if (needed <= 8) return sddmmWithVectors<T, Threads, Vector, 8>(s, p, lhs, rhs, k, out, stream, entryRows, panelOrder);
  if (needed <= 16) return sddmmWithVectors<T, Threads, Vector, 16>(s, p, lhs, rhs, k, out, stream, entryRows, panelOrder);
  if (needed <= 32) return sddmmWithVectors<T, Threads, Vector, 32>(s, p, lhs, rhs, k, out, stream, entryRows, panelOrder);
  if (needed <= 64) return sddmmWithVectors<T, Threads, Vector, 64>(s, p, lhs, rhs, k, out, stream, entryRows, panelOrder);
  return cudaErrorInvalidValue;
}

template <typename T, int Threads>
cudaError_t sddmmWithThreads(const SddmmSchedule &s, const CsrMatrix<T> &p, const T *lhs,
                             const T *rhs, int64_t k, T *out, cudaStream_t stream,
                             const int32_t *entryRows, const int32_t *panelOrder) {
  switch (s.vectorWidth) {
  case 1: return sddmmWithVector<T, Threads, 1>(s, p, lhs, rhs, k, out, stream, entryRows, panelOrder);
  case 2: return sddmmWithVector<T, Threads, 2>(s, p, lhs, rhs, k, out, stream, entryRows, panelOrder);
  case 4: return sddmmWithVector<T, Threads, 4>(s, p, lhs, rhs, k, out, stream, entryRows, panelOrder);
  }
  return cudaErrorInvalidValue;
}

} // namespace detail

/// C = A · B under schedule `s` (rows in `rowOrder` when s.rowOrder is
/// ByLength; the caller prepares it with sopt_csr_row_order), C stored
/// column-major with `TransposeC` (Spmm.cuh). `segments`: with s.rowSegment,
/// the long rows' segments prepared with sopt_csr_row_segments for that
/// order and segment length, or none (the long rows then stay whole).
/// cudaErrorInvalidValue when the schedule is not one checkSpmmSchedule
/// accepts for these shapes.
template <typename T, bool TransposeC = false>
cudaError_t runSpmm(const SpmmSchedule &s, const CsrMatrix<T> &a, const T *b, int64_t n,
                    T *c, const int32_t *rowOrder, cudaStream_t stream,
                    const RowSegments &segments = {}) {
  if (!checkSpmmSchedule(s, n, sizeof(T)).empty())
    return cudaErrorInvalidValue;
  if (s.tiling == SpmmTiling::StagedSlices)
    return detail::spmmWithSlice<T, TransposeC>(
        s, a, b, n, c, s.rowOrder == RowOrder::ByLength ? rowOrder : nullptr, stream);
  if (s.tiling == SpmmTiling::DenseBlocks) {
    if constexpr (sizeof(T) == 2)
      if (s.tileColumns == 128)
        return s.blockRows == 32 ? launchSpmmBlocks<T, 32, 128, TransposeC>(a, b, n, c, stream)
                                 : launchSpmmBlocks<T, 64, 128, TransposeC>(a, b, n, c, stream);
    if constexpr (sizeof(T) == 4 || sizeof(T) == 2) {
      if (s.blockRows == 32 && s.tileColumns == 32)
        return launchSpmmBlocks<T, 32, 32, TransposeC>(a, b, n, c, stream);
      if (s.blockRows == 32)
        return launchSpmmBlocks<T, 32, 64, TransposeC>(a, b, n, c, stream);
      if (s.tileColumns == 32)
        return launchSpmmBlocks<T, 64, 32, TransposeC>(a, b, n, c, stream);
      return launchSpmmBlocks<T, 64, 64, TransposeC>(a, b, n, c, stream);
    }
    return cudaErrorInvalidValue;
  }
  const int32_t *order = s.rowOrder == RowOrder::ByLength ? rowOrder : nullptr;
  const RowSegments g = s.rowSegment > 0 && segments.entries == s.rowSegment ? segments
                                                                             : RowSegments{};
  switch (s.threadsPerTile) {
  case 4: return detail::spmmWithThreads<T, TransposeC, 4>(s, a, b, n, c, order, stream, g);
  case 8: return detail::spmmWithThreads<T, TransposeC, 8>(s, a, b, n, c, order, stream, g);
  case 16: return detail::spmmWithThreads<T, TransposeC, 16>(s, a, b, n, c, order, stream, g);
  case 32: return detail::spmmWithThreads<T, TransposeC, 32>(s, a, b, n, c, order, stream, g);
  }
  return cudaErrorInvalidValue;
}

/// D = (A · Bᵀ) ⊙ S (transposeRhs, B[n, k]) or (A · B) ⊙ S (B[k, n]) under
/// schedule `s`; D's values are written to `out` (nnz of them). `rowOrder`
/// serves the (A · B) form with a ByLength schedule; `columnWindows`, if
/// given, the dense blocks (sopt_csr_column_windows for s.blockSize);
/// `entryRows`, if given, the tiles of nonzeros (sopt_csr_entry_rows);
/// `panelOrder`, if given, the tiles of a schedule with a column panel
/// (sopt_csr_panel_order for s.columnPanel; without it, or without
/// `entryRows`, those tiles run in S's order);
/// `workspace`: sddmmWorkspaceElements(s, n, k, sizeof(T)) elements,
/// required with s.transposeRhsFirst (Bᵀ), otherwise optional (the f32
/// 64 x 64 blocks' split B, launchSddmmBlocks); `occupied`, if given, the
/// dense blocks holding entries (sopt_csr_occupied_blocks for s.blockSize),
/// `columnWindows` then being sopt_csr_block_windows of that list.
template <typename T>
cudaError_t runSddmm(const SddmmSchedule &s, const CsrMatrix<T> &pattern, const T *lhs,
                     const T *rhs, int64_t k, bool transposeRhs, T *out,
                     const int32_t *rowOrder, cudaStream_t stream,
                     const int32_t *columnWindows = nullptr,
                     const int32_t *entryRows = nullptr, T *workspace = nullptr,
                     OccupiedBlocks occupied = {}, const int32_t *panelOrder = nullptr) {
  if (!checkSddmmSchedule(s, k, transposeRhs, sizeof(T)).empty())
    return cudaErrorInvalidValue;
  if (s.transposeRhsFirst) {
    // B[k, n] into Bᵀ[n, k] at the workspace's start, the rest after it,
    // as the generated code does. (With k = 0 nothing is moved and nothing
    // reads B: the workspace may then be null.)
    if (!workspace && sddmmRequiredWorkspaceElements(s, pattern.cols, k) > 0)
      return cudaErrorInvalidValue;
    if (cudaError_t e = launchTranspose(rhs, k, pattern.cols, workspace, stream);
        e != cudaSuccess)
      return e;
    SddmmSchedule transposed = s;
    transposed.transposeRhsFirst = false;
    T *rest = sddmmWorkspaceElements(transposed, pattern.cols, k, sizeof(T)) > 0
                  ? workspace + pattern.cols * k
                  : nullptr;
    return runSddmm(transposed, pattern, lhs, workspace, k, /*transposeRhs=*/true, out, rowOrder,
                    stream, columnWindows, entryRows, rest, occupied, panelOrder);
  }
  if (s.tiling == SddmmTiling::DenseBlocks) {
    if constexpr (sizeof(T) == 2 || std::is_same_v<T, float>) {
      if (s.blockSize == 32)
        return s.kSplits == 2 ? launchSddmmBlocks<T, 32, 2>(pattern, lhs, rhs, k, out, stream,
                                                            {}, columnWindows, nullptr, occupied)
                              : launchSddmmBlocks<T, 32>(pattern, lhs, rhs, k, out, stream, {},
                                                         columnWindows, nullptr, occupied);
      return s.kSplits == 2 ? launchSddmmBlocks<T, 64, 2>(pattern, lhs, rhs, k, out, stream, {},
                                                          columnWindows, nullptr, occupied)
                            : launchSddmmBlocks<T, 64>(pattern, lhs, rhs, k, out, stream, {},
                                                       columnWindows, workspace, occupied);
    }
    return cudaErrorInvalidValue;
  }
  if (!transposeRhs) // a warp per row; (A · Bᵀ) ⊙ S tiles need no row order
    return launchSddmmGather(pattern, lhs, rhs, k, out,
                             s.rowOrder == RowOrder::ByLength ? rowOrder : nullptr,
                             s.tilesPerBlock, stream);
  switch (s.threadsPerNonzero) {
  case 1: return detail::sddmmWithThreads<T, 1>(s, pattern, lhs, rhs, k, out, stream, entryRows, panelOrder);
  case 2: return detail::sddmmWithThreads<T, 2>(s, pattern, lhs, rhs, k, out, stream, entryRows, panelOrder);
  case 4: return detail::sddmmWithThreads<T, 4>(s, pattern, lhs, rhs, k, out, stream, entryRows, panelOrder);
  case 8: return detail::sddmmWithThreads<T, 8>(s, pattern, lhs, rhs, k, out, stream, entryRows, panelOrder);
  case 16: return detail::sddmmWithThreads<T, 16>(s, pattern, lhs, rhs, k, out, stream, entryRows, panelOrder);
  case 32: return detail::sddmmWithThreads<T, 32>(s, pattern, lhs, rhs, k, out, stream, entryRows, panelOrder);
  }
  return cudaErrorInvalidValue;
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_SPARSEDISPATCH_CUH
