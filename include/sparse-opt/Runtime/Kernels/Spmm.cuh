//===- Spmm.cuh - CSR x dense products with 1-D output tiles ----*- CUDA -*-===//
//
// C[m, n] = epilogue(A[m, k] · B[k, n]), A in CSR, B and C row-major. The
// schedule (SparseSchedule.h) is a set of template parameters here:
//
//   ThreadsPerTile    lanes that share one output tile (4..32; a subwarp
//                     when < 32, so short rows do not idle a whole warp)
//   ColumnsPerThread  output columns each lane accumulates in registers
//   VectorWidth       elements per load/store of B and C, and entries per
//                     load of A's row
//
// A tile is `ThreadsPerTile * ColumnsPerThread` consecutive columns of one
// output row. Lane l owns columns `(r * ThreadsPerTile + l) * VectorWidth +
// [0, VectorWidth)` of the tile for each repeat r, so every load of B by the
// tile group is contiguous. The group stages its row's column offsets and
// values in shared memory, `ThreadsPerTile * VectorWidth` entries at a time;
// every lane then reads them back as broadcasts, four at a time. The
// entries a vector or a four takes outside the row (before a mid-vector
// start, past the end) are staged as 0 times B's row of the row's first or
// last entry: not B's row 0, whose infinities or NaNs would make NaN in
// rows that do not read it (0 · Inf); only a row that reads an infinity
// itself may then get NaN for it where f32 has ±Inf.
//
// Two run-time parameters shape the grid. With `rowSplits` > 1, that many
// consecutive tile groups of a block share one tile, each summing an even
// share of the row's nonzeros (whole vectors from the row's aligned start);
// the shares meet in shared memory after one block barrier and the first
// group stores: the longest row's chain gets shorter and a matrix of few
// rows still fills the GPU. `tileOrder` ByColumn hands out one column slice
// of every row before the next, so the blocks running at once share B's
// slice in cache.
//
// A graph's hub rows (thousands of entries where the mean row has ten) are
// cut into segments (RowSegments, SparseSchedule.h; prepared once per
// pattern by sopt_csr_row_segments): each segment takes a slot of its own
// ahead of the other rows and stores its sums in a workspace, and
// spmmSegmentSumKernel then adds a row's segments in order and stores the
// row through the epilogue. Without segments, one tile group walking a
// graph's hub row of thousands of entries sets the whole kernel's time.
//
// With `TransposeC`, C is stored column-major (Cᵀ row-major, element (row,
// column) at `c[column * m + row]`): a dense x sparse product X · S runs as
// (Sᵀ · Xᵀ)ᵀ this way, its result Y = Cᵀ written without a separate
// transpose. Each lane then stores its VectorWidth elements one by one, at
// a stride of m elements: that beats a row-major store plus a tiled
// transpose for vector width 1 only, so the compiler uses it there alone
// (measured by benchmarks/sparse/dense_sparse_bench.cu). The epilogue
// always gets C's (row, column); SwapIndices adapts one written for Cᵀ.
//
// Requirements (checked by launchSpmm): n is a multiple of VectorWidth,
// k * n fits in int32, the arrays are aligned to their vector width (as
// cudaMalloc'd buffers are).
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_SPMM_CUH
#define SPARSE_OPT_RUNTIME_SPMM_CUH

#include "sparse-opt/Runtime/Device/Convert.cuh"
#include "sparse-opt/Runtime/Host/Launch.cuh"
#include "sparse-opt/Runtime/Device/SparseRow.cuh"
#include "sparse-opt/Runtime/Schedule/SparseSchedule.h"

#include <cuda_runtime.h>

namespace sopt {

/// The default SpMM epilogue: the accumulated product itself.
struct StoreProduct {
  __device__ __forceinline__ float operator()(int64_t /*row*/, int64_t /*column*/,
                                              float product) const {
    return product;
  }
};

/// An epilogue written for the indices of Cᵀ (the result Y = Cᵀ of a dense x
/// sparse product run as Sᵀ · Xᵀ), called with C's.
template <typename Epilogue> struct SwapIndices {
  Epilogue epilogue;
  __device__ __forceinline__ float operator()(int64_t row, int64_t column,
                                              float product) const {
    return epilogue(column, row, product);
  }
};

template <typename Epilogue> SwapIndices<Epilogue> swapIndices(Epilogue epilogue) {
  return SwapIndices<Epilogue>{epilogue};
}

namespace detail {

/// The lanes of the warp that form the calling lane's tile group.
template <int ThreadsPerTile> __device__ __forceinline__ unsigned tileGroupMask() {
  if constexpr (ThreadsPerTile == 32) {
    return 0xffffffffu;
  } else {
    const unsigned lane = threadIdx.x % 32;
    return ((1u << ThreadsPerTile) - 1) << (lane / ThreadsPerTile * ThreadsPerTile);
  }
}

/// Stores a lane's VectorWidth sums of `row` from `column` (nothing past
/// n) through the epilogue, into row-major C or, with TransposeC, into C
/// column-major (element by element, `rows` apart).
template <typename T, int VectorWidth, bool TransposeC, typename Epilogue>
__device__ __forceinline__ void storeOutputVector(T *__restrict__ c, int32_t n, int64_t rows,
                                                  int64_t row, int32_t column,
                                                  const float (&acc)[VectorWidth],
                                                  const Epilogue &epilogue) {
  if (column >= n)
    return;
  if constexpr (TransposeC) {
#pragma unroll
    for (int v = 0; v < VectorWidth; ++v)
      c[(column + v) * rows + row] = fromFloat<T>(epilogue(row, column + v, acc[v]));
  } else {
    float out[VectorWidth];
#pragma unroll
    for (int v = 0; v < VectorWidth; ++v)
      out[v] = epilogue(row, column + v, acc[v]);
    storeVector<VectorWidth>(c + row * int64_t(n) + column, out);
  }
}

} // namespace detail

/// The row-tile kernel; `Segmented`: with the long rows' segments (a
/// separate instance: the segments' code costs the plain kernel registers
/// and speed).
template <typename T, int ThreadsPerTile, int ColumnsPerThread, int VectorWidth,
          bool TransposeC, bool Segmented, typename Epilogue>
__global__ void __launch_bounds__(kMaxSparseThreadsPerBlock)
    spmmKernel(CsrMatrix<T> a, const T *__restrict__ b, int32_t n, T *__restrict__ c,
               const int32_t *__restrict__ rowOrder, int rowSplits, TileOrder tileOrder,
               Epilogue epilogue, RowSegments segments) {
  awaitPrecedingKernels();
  static_assert(ThreadsPerTile >= 4 && ThreadsPerTile <= 32 &&
                    (ThreadsPerTile & (ThreadsPerTile - 1)) == 0,
                "a tile group is 4 to 32 lanes of one warp");
  static_assert(ColumnsPerThread % VectorWidth == 0, "whole vectors per lane");
  constexpr int kTileColumns = ThreadsPerTile * ColumnsPerThread;
  constexpr int kRepeats = ColumnsPerThread / VectorWidth;
  // Entries staged per round: one vector per lane; a multiple of 4, so the
  // broadcast reads below are 16-byte loads.
  constexpr int kStaged = ThreadsPerTile * VectorWidth;
  // Entries whose loads are in flight together in the batched steps of
  // narrow tiles (1 or 2 columns per lane: 16 or 32 registers of B's
  // values); wider tiles already load several vectors per entry, and
  // batching them costs occupancy.
  constexpr int kBatchForWidth = ColumnsPerThread <= 2 ? 16 : 4;
  constexpr int kBatch = kBatchForWidth < kStaged ? kBatchForWidth : kStaged;
  static_assert(kStaged % kBatch == 0, "batches tile the staged entries");

  extern __shared__ __align__(16) unsigned char spmmShared[];
  const int group = threadIdx.x / ThreadsPerTile;
  const int lane = threadIdx.x % ThreadsPerTile;
  const int part = group % rowSplits; // which share of the row's nonzeros
  int32_t *stagedOffset = reinterpret_cast<int32_t *>(spmmShared) + group * 2 * kStaged;
  float *stagedValue = reinterpret_cast<float *>(stagedOffset + kStaged);

  const int64_t tilesPerRow = (n + kTileColumns - 1) / kTileColumns;
  const int64_t tilesPerBlock = blockDim.x / ThreadsPerTile / rowSplits;
  const int64_t tile = int64_t(blockIdx.x) * tilesPerBlock + group / rowSplits;
  // The slots: the long rows' segments first, then the other rows in
  // order.
  const int64_t slots = Segmented ? segments.count + a.rows - segments.rows : a.rows;
  // Past the last tile (the grid's tail) a group has nothing to sum, but
  // still meets its block's barrier when the row is split.
  const bool active = tile < slots * tilesPerRow;
  if (!active && rowSplits == 1)
    return; // the whole group leaves together: no barrier is left waiting
  const int64_t slot = tileOrder == TileOrder::ByRow ? tile / tilesPerRow : tile % slots;
  const int64_t columnTile = tileOrder == TileOrder::ByRow ? tile % tilesPerRow : tile / slots;
  const bool segment = Segmented && active && slot < segments.count;
  const int64_t row = !active  ? 0
                      : segment ? segments.table[slot]
                      : Segmented ? rowOfSlot(rowOrder, slot - segments.count + segments.rows)
                                  : rowOfSlot(rowOrder, slot);
  const int32_t firstColumn = int32_t(columnTile) * kTileColumns;
  const unsigned mask = detail::tileGroupMask<ThreadsPerTile>();

  float acc[kRepeats][VectorWidth] = {};
  // The lane's vector of B's row at `offset` in repeat r; false past n.
  auto loadColumnsOfB = [&](int32_t offset, int r, float(&x)[VectorWidth]) {
    const int32_t column = firstColumn + (r * ThreadsPerTile + lane) * VectorWidth;
    if (column >= n)
      return false;
    loadVector<VectorWidth>(b + offset + column, x);
    return true;
  };
  // This group's share of the row: whole vectors from the aligned start, so
  // only the first share begins mid-vector.
  int32_t begin = 0, end = 0;
  if (active) {
    int32_t rowBegin = a.positions[row], rowEnd = a.positions[row + 1];
    if (segment) {
      rowBegin = segments.table[segments.count + slot];
      rowEnd = min(rowEnd, rowBegin + segments.entries);
    }
    const int32_t aligned = alignDown<VectorWidth>(rowBegin);
    const int32_t share =
        alignUp<VectorWidth>((rowEnd - aligned + rowSplits - 1) / rowSplits);
    begin = max(rowBegin, min(rowEnd, aligned + part * share));
    end = min(rowEnd, aligned + (part + 1) * share);
  }
  // (An empty share stages nothing: its padding would have no entry of the
  // row to point at.)
  for (int32_t first = begin < end ? alignDown<VectorWidth>(begin) : end; first < end;
       first += kStaged) {
    // Stage: lane l loads entries first + l*VectorWidth .. (masked), and
    // stores B's row offset for each column, so the inner loop adds only.
    {
      int32_t column[VectorWidth];
      float value[VectorWidth];
      loadRowEntries<VectorWidth>(a, first + lane * VectorWidth, begin, end, column, value);
#pragma unroll
      for (int i = 0; i < VectorWidth; ++i) {
        stagedOffset[lane * VectorWidth + i] = column[i] * n;
        stagedValue[lane * VectorWidth + i] = value[i];
      }
    }
    __syncwarp(mask);

    // Entries past the row's end were staged as zeros: rounding the count up
    // to 4 costs a few zero FMAs and no branch. Narrow tiles first take
    // whole batches of kBatch entries, all of whose loads are issued before
    // their FMAs: a long row is a chain of such steps, each waiting about
    // one L2 round trip, so the batch sets how soon the longest rows (and
    // with them the kernel) finish.
    const int32_t staged = min(int32_t(kStaged), end - first);
    int32_t j = 0;
    if constexpr (kBatch > 4) {
      for (; j + kBatch <= staged; j += kBatch) {
        float x[kBatch][kRepeats][VectorWidth];
        float value[kBatch];
#pragma unroll
        for (int q = 0; q < kBatch; q += 4) {
          const int4 offsets = *reinterpret_cast<const int4 *>(stagedOffset + j + q);
          const float4 values = *reinterpret_cast<const float4 *>(stagedValue + j + q);
          const int32_t offset[4] = {offsets.x, offsets.y, offsets.z, offsets.w};
          value[q] = values.x, value[q + 1] = values.y;
          value[q + 2] = values.z, value[q + 3] = values.w;
#pragma unroll
          for (int e = 0; e < 4; ++e)
#pragma unroll
            for (int r = 0; r < kRepeats; ++r)
              if (!loadColumnsOfB(offset[e], r, x[q + e][r]))
#pragma unroll
                for (int v = 0; v < VectorWidth; ++v)
                  x[q + e][r][v] = 0.f;
        }
#pragma unroll
        for (int e = 0; e < kBatch; ++e)
#pragma unroll
          for (int r = 0; r < kRepeats; ++r)
#pragma unroll
            for (int v = 0; v < VectorWidth; ++v)
              acc[r][v] = fmaf(value[e], x[e][r][v], acc[r][v]);
      }
    }
    for (; j < staged; j += 4) {
      const int4 offsets = *reinterpret_cast<const int4 *>(stagedOffset + j);
      const float4 values = *reinterpret_cast<const float4 *>(stagedValue + j);
      const int32_t offset[4] = {offsets.x, offsets.y, offsets.z, offsets.w};
      const float value[4] = {values.x, values.y, values.z, values.w};
#pragma unroll
      for (int e = 0; e < 4; ++e)
#pragma unroll
        for (int r = 0; r < kRepeats; ++r) {
          float x[VectorWidth];
          if (loadColumnsOfB(offset[e], r, x))
#pragma unroll
            for (int v = 0; v < VectorWidth; ++v)
              acc[r][v] = fmaf(value[e], x[v], acc[r][v]);
        }
    }
    __syncwarp(mask); // the next round overwrites the staged entries
  }

  if (rowSplits > 1) { // the same for the whole block
    // Every share but the first leaves its sums in shared memory (after the
    // staging areas), lane-minor so the accesses do not conflict.
    float *partial = reinterpret_cast<float *>(spmmShared) +
                     (blockDim.x / ThreadsPerTile) * 2 * kStaged;
    auto partialAt = [&](int share, int r, int v) -> float & {
      const int tileGroup = group - part + share; // the group of that share
      return partial[((tileGroup * kRepeats + r) * VectorWidth + v) * ThreadsPerTile + lane];
    };
    if (part != 0)
#pragma unroll
      for (int r = 0; r < kRepeats; ++r)
#pragma unroll
        for (int v = 0; v < VectorWidth; ++v)
          partialAt(part, r, v) = acc[r][v];
    __syncthreads();
    if (part != 0)
      return;
    for (int share = 1; share < rowSplits; ++share)
#pragma unroll
      for (int r = 0; r < kRepeats; ++r)
#pragma unroll
        for (int v = 0; v < VectorWidth; ++v)
          acc[r][v] += partialAt(share, r, v);
  }
  if (!active)
    return;

#pragma unroll
  for (int r = 0; r < kRepeats; ++r) {
    const int32_t column = firstColumn + (r * ThreadsPerTile + lane) * VectorWidth;
    if (!segment)
      detail::storeOutputVector<T, VectorWidth, TransposeC>(c, n, a.rows, row, column, acc[r],
                                                            epilogue);
    else if (column < n) // a long row's share, summed by spmmSegmentSumKernel
      storeVector<VectorWidth>(segments.partials + slot * n + column, acc[r]);
  }
}

/// C's long rows (RowSegments): thread t adds the segments' sums of one
/// vector of one long row, in segment order, and stores it through the
/// epilogue.
template <typename T, int VectorWidth, bool TransposeC, typename Epilogue>
__global__ void __launch_bounds__(256)
    spmmSegmentSumKernel(RowSegments segments, const int32_t *__restrict__ rowOrder,
                         int64_t rows, int32_t n, T *__restrict__ c, Epilogue epilogue) {
  awaitPrecedingKernels();
  const int64_t vectors = n / VectorWidth;
  const int64_t t = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= segments.rows * vectors)
    return;
  const int64_t longRow = t / vectors;
  const int32_t column = int32_t(t % vectors) * VectorWidth;
  const int32_t *firstSegment = segments.table + 2 * segments.count + longRow;
  float sum[VectorWidth] = {};
  for (int32_t s = firstSegment[0]; s < firstSegment[1]; ++s) {
    float x[VectorWidth];
    loadVector<VectorWidth>(segments.partials + s * int64_t(n) + column, x);
#pragma unroll
    for (int v = 0; v < VectorWidth; ++v)
      sum[v] += x[v];
  }
  detail::storeOutputVector<T, VectorWidth, TransposeC>(c, n, rows, rowOrder[longRow], column,
                                                        sum, epilogue);
}

/// Launches the SpMM kernel: `tilesPerBlock` tiles per block, each summed by
/// `rowSplits` tile groups, tiles handed out in `tileOrder`, rows in
/// `rowOrder` (longest first; nullptr for row 0 first), C row-major or, with
/// `TransposeC`, column-major; with `segments`, the long rows in segments
/// (which needs `rowOrder`) and a second kernel that adds them. Returns
/// cudaErrorInvalidValue when the shapes break the requirements above.
template <typename T, int ThreadsPerTile, int ColumnsPerThread, int VectorWidth,
          bool TransposeC = false, typename Epilogue = StoreProduct>
cudaError_t launchSpmm(const CsrMatrix<T> &a, const T *b, int64_t n, T *c,
                       const int32_t *rowOrder, int tilesPerBlock, int rowSplits,
                       TileOrder tileOrder, cudaStream_t stream, Epilogue epilogue = {},
                       RowSegments segments = {}) {
  constexpr int kTileColumns = ThreadsPerTile * ColumnsPerThread;
  constexpr int kStaged = ThreadsPerTile * VectorWidth;
  const int groups = tilesPerBlock * rowSplits;
  const int threads = groups * ThreadsPerTile;
  if (n % VectorWidth != 0 || a.cols * n > INT32_MAX || tilesPerBlock < 1 ||
      rowSplits < 1 || threads % 32 != 0 || threads > kMaxSparseThreadsPerBlock ||
      a.rows < 0 || n < 0)
    return cudaErrorInvalidValue;
  if (segments.count > 0 && (!rowOrder || !segments.table || !segments.partials ||
                             segments.entries < 1 || segments.rows < 1 ||
                             segments.rows > a.rows))
    return cudaErrorInvalidValue;
  if (segments.count == 0)
    segments = {};
  if (a.rows == 0 || n == 0)
    return cudaSuccess;
  const int64_t slots = segments.count + a.rows - segments.rows;
  const int64_t tiles = slots * ((n + kTileColumns - 1) / kTileColumns);
  const int64_t blocks = (tiles + tilesPerBlock - 1) / tilesPerBlock;
  if (blocks > INT32_MAX)
    return cudaErrorInvalidValue;
  // Staged entries for every group, and the sums of all but the first
  // share of each tile (kept for every group: simpler indexing, a few KiB).
  size_t shared = size_t(groups) * kStaged * (sizeof(int32_t) + sizeof(float));
  if (rowSplits > 1)
    shared += size_t(groups) * ThreadsPerTile * ColumnsPerThread * sizeof(float);
  if (segments.count == 0)
    return launchKernel(
        spmmKernel<T, ThreadsPerTile, ColumnsPerThread, VectorWidth, TransposeC, false, Epilogue>,
        unsigned(blocks), threads, shared, stream, a, b, int32_t(n), c, rowOrder, rowSplits,
        tileOrder, epilogue, RowSegments{});
  cudaError_t e = launchKernel(
      spmmKernel<T, ThreadsPerTile, ColumnsPerThread, VectorWidth, TransposeC, true, Epilogue>,
      unsigned(blocks), threads, shared, stream, a, b, int32_t(n), c, rowOrder, rowSplits,
      tileOrder, epilogue, segments);
  if (e != cudaSuccess)
    return e;
  const int64_t sums = segments.rows * (n / VectorWidth);
  return launchKernel(spmmSegmentSumKernel<T, VectorWidth, TransposeC, Epilogue>,
                      unsigned((sums + 255) / 256), 256, 0, stream, segments, rowOrder, a.rows,
                      int32_t(n), c, epilogue);
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_SPMM_CUH
