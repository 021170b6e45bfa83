//===- SparseRow.cuh - reading a CSR row in aligned vectors -----*- CUDA -*-===//
//
// Device building blocks shared by the SpMM and SDDMM kernels: the view of a
// CSR matrix they take, and the aligned, masked vector loads of one row's
// column indices and values.
//
// A row's entries start wherever the previous row ended, so a vector load of
// them is aligned only after rounding the start down to the vector width; the
// entries that belong to the previous row are then masked (value 0, column 0)
// instead of being loaded one by one.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_SPARSEROW_CUH
#define SPARSE_OPT_RUNTIME_SPARSEROW_CUH

#include "sparse-opt/Runtime/Device/Convert.cuh"

#include <cstdint>

namespace sopt {

/// A CSR matrix in device memory: 32-bit positions (rows + 1) and column
/// coordinates (nnz), values of the storage type T.
template <typename T> struct CsrMatrix {
  int64_t rows = 0, cols = 0, nnz = 0;
  const int32_t *positions = nullptr;
  const int32_t *coordinates = nullptr;
  const T *values = nullptr;
};

/// The first entry index at or before `begin` that is a multiple of `Width`.
template <int Width> __device__ __forceinline__ int32_t alignDown(int32_t begin) {
  static_assert((Width & (Width - 1)) == 0, "vector widths are powers of two");
  return begin & ~(Width - 1);
}

/// `count` rounded up to a multiple of `Width`.
template <int Width> __device__ __forceinline__ int32_t alignUp(int32_t count) {
  return alignDown<Width>(count + Width - 1);
}

/// Loads entries `first .. first + Width` of the CSR arrays as one vector
/// each, keeping those in `[begin, end)` (not empty); the others get value
/// 0 and the column of the nearest kept entry (begin's or end - 1's), so
/// that a caller multiplying them reads a row of B the row itself reads,
/// never one whose infinity or NaN the row does not see. Loads stay within
/// the `nnz` entries that exist: a vector that would run past the end of
/// the arrays is read element by element.
template <int Width, typename T>
__device__ __forceinline__ void loadRowEntries(const CsrMatrix<T> &a, int32_t first,
                                               int32_t begin, int32_t end,
                                               int32_t (&column)[Width],
                                               float (&value)[Width]) {
  if (Width > 1 && first + Width <= a.nnz) {
    using IndexVector = typename VectorStorage<Width * sizeof(int32_t)>::type;
    const IndexVector indices = *reinterpret_cast<const IndexVector *>(a.coordinates + first);
    const int32_t *index = reinterpret_cast<const int32_t *>(&indices);
    float loaded[Width];
    loadVector<Width>(a.values + first, loaded);
#pragma unroll
    for (int i = 0; i < Width; ++i) {
      const bool inRow = first + i >= begin && first + i < end;
      column[i] = inRow ? index[i] : a.coordinates[min(max(first + i, begin), end - 1)];
      value[i] = inRow ? loaded[i] : 0.f;
    }
    return;
  }
#pragma unroll
  for (int i = 0; i < Width; ++i) {
    const bool inRow = first + i >= begin && first + i < end;
    column[i] = a.coordinates[min(max(first + i, begin), end - 1)];
    value[i] = inRow ? toFloat(a.values[first + i]) : 0.f;
  }
}

/// The first index in [begin, end) of the sorted `array` whose element is at
/// least `value`, or `end` (a binary search: a row's columns, the rows'
/// positions).
template <typename Index, typename Element, typename Value>
__device__ __forceinline__ Index lowerBound(const Element *__restrict__ array, Index begin,
                                            Index end, Value value) {
  while (begin < end) {
    const Index mid = begin + (end - begin) / 2;
    if (array[mid] < value)
      begin = mid + 1;
    else
      end = mid;
  }
  return begin;
}

/// The row holding entry `entry`: the last row whose first entry is at or
/// before it (the first row starting after it, less one).
__device__ __forceinline__ int64_t findRow(const int32_t *__restrict__ positions,
                                           int64_t rows, int32_t entry) {
  return lowerBound(positions, int64_t(1), rows, entry + 1) - 1;
}

/// findRow by a whole warp, every lane with the same `entry`: each round
/// probes 32 evenly spaced rows at once and keeps the span between the last
/// one starting at or before the entry and the next, so that 2048 rows take
/// 3 dependent loads instead of 11 (a latency that short kernels pay in
/// full before their first product).
__device__ __forceinline__ int64_t findRowByWarp(const int32_t *__restrict__ positions,
                                                 int64_t rows, int32_t entry) {
  const int lane = threadIdx.x % 32;
  // The row is in [low, high), and positions[low] <= entry.
  int64_t low = 0, high = rows;
  while (high - low > 1) {
    const int64_t step = (high - low + 31) / 32;
    const int64_t probe = low + lane * step;
    const unsigned atOrBefore =
        __ballot_sync(0xffffffffu, probe < high && positions[probe] <= entry);
    // The lanes that hold are a prefix (positions do not decrease), lane 0
    // among them.
    low += int64_t(31 - __clz(atOrBefore)) * step;
    high = low + step < high ? low + step : high;
  }
  return low;
}

/// The row a tile slot works on: the slot itself, or its entry in the
/// prepared row order (longest rows first).
__device__ __forceinline__ int64_t rowOfSlot(const int32_t *rowOrder, int64_t slot) {
  return rowOrder ? rowOrder[slot] : slot;
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_SPARSEROW_CUH
