//===- SpmvHbp.cuh - hash-blocked SpMV, y = alpha*A*x + beta*y ----*- CUDA -*-===//
//
// Executes an HbpLayout (SpmvLayout.cuh). Each block of kExecWarps warps
// takes whole tiles: first its share of the parallel part (a contiguous run
// of tiles, so mostly one column band and one x segment), then tiles of the
// competitive part from an atomic counter until none are left. Inside a
// tile the warps take warp batches from a counter in shared memory, so a
// tile's long rows do not hold one warp while the others idle.
//
// With one band a row's sum is final: it is written through the slot table
// to the row's original place as alpha*sum + beta*y. With several bands each
// tile writes its band's partial sums, and spmvMergeBandsKernel adds them.
// Rows longer than the layout's longRowLimit are computed by the chunk
// kernels instead. beta == 0 never reads y (y may hold NaN).
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_KERNELS_SPMVHBP_CUH
#define SPARSE_OPT_RUNTIME_KERNELS_SPMVHBP_CUH

#include "sparse-opt/Runtime/Host/Launch.cuh"
#include "sparse-opt/Runtime/Kernels/SpmvLayout.cuh"

#include <cstdint>

namespace sopt::spmv {

/// alpha*sum + beta*old, without reading old when beta is 0.
template <typename T> __device__ inline void writeScaled(T *y, int64_t row, T sum, T alpha, T beta) {
  y[row] = beta == T(0) ? alpha * sum : alpha * sum + beta * y[row];
}

/// Sum over the 2^lanesLog2 lanes of an aligned lane group.
template <typename T> __device__ inline T sumLaneGroup(T value, int lanesLog2) {
  for (int offset = (1 << lanesLog2) >> 1; offset > 0; offset >>= 1)
    value += __shfl_xor_sync(0xffffffffu, value, offset);
  return value;
}

/// This lane's part of the sum of values[j] * x[coordinates[j]] over j =
/// first, first + step, ... below end, with four entries' loads in flight
/// at a time (SpMV is bound by memory latency unless each lane keeps
/// several loads outstanding). `readX(column)` reads x.
template <typename T, typename Index, typename ReadX>
__device__ inline T laneDot(const T *values, const Index *coordinates, Index first, Index end,
                            Index step, ReadX readX) {
  T sum = T(0);
  Index j = first;
  for (; j + 3 * step < end; j += 4 * step) {
    const Index c0 = __ldg(&coordinates[j]), c1 = __ldg(&coordinates[j + step]),
                c2 = __ldg(&coordinates[j + 2 * step]), c3 = __ldg(&coordinates[j + 3 * step]);
    const T v0 = __ldg(&values[j]), v1 = __ldg(&values[j + step]),
            v2 = __ldg(&values[j + 2 * step]), v3 = __ldg(&values[j + 3 * step]);
    const T x0 = readX(c0), x1 = readX(c1), x2 = readX(c2), x3 = readX(c3);
    sum += v0 * x0;
    sum += v1 * x1;
    sum += v2 * x2;
    sum += v3 * x3;
  }
  for (; j < end; j += step)
    sum += __ldg(&values[j]) * readX(__ldg(&coordinates[j]));
  return sum;
}

/// One warp batch: `rows` rows from global slot `firstSlot`, 2^lanesLog2
/// lanes each, written back through the slot table (band partials with
/// several bands).
template <typename T, typename Index, typename ReadX>
__device__ inline void runWarpBatch(const HbpLayout<Index> &layout, int64_t firstSlot, int rows,
                                    int lanesLog2, int64_t band, const Index *coordinates,
                                    const T *values, T alpha, T beta, T *y, T *bandPartials,
                                    int lane, ReadX readX) {
  const int group = lane >> lanesLog2;
  const int laneInGroup = lane & ((1 << lanesLog2) - 1);
  int32_t row = -1;
  Index begin = 0, end = 0;
  if (group < rows) {
    row = layout.slotRow[firstSlot + group];
    begin = layout.segBegin[firstSlot + group];
    end = layout.segEnd[firstSlot + group];
  }
  T sum = laneDot(values, coordinates, begin + laneInGroup, end, Index(1) << lanesLog2, readX);
  sum = sumLaneGroup(sum, lanesLog2);
  if (row >= 0 && laneInGroup == 0) {
    if (layout.bands > 1)
      bandPartials[band * layout.rows + row] = sum;
    else
      writeScaled(y, row, sum, alpha, beta);
  }
}

/// The tile schedule, for layouts whose tiles stage x: blocks take tiles.
template <typename T, typename Index>
__global__ void __launch_bounds__(kExecWarps *kWarpSize)
    spmvHbpKernel(HbpLayout<Index> layout, const Index *coordinates,
                  const T *values, const T *x, T alpha, T beta, T *y, T *bandPartials,
                  unsigned long long *tileCounter) {
  awaitPrecedingKernels();
  extern __shared__ __align__(16) unsigned char sharedBytes[];
  T *xSegment = reinterpret_cast<T *>(sharedBytes);
  __shared__ int64_t currentTile;
  __shared__ int batchCursor;
  const int lane = threadIdx.x % kWarpSize;
  int64_t stagedBand = -1;
  const int64_t parallelEnd = layout.parallelTilesPerBlock * layout.executingBlocks;
  // Read and advanced by thread 0 only.
  int64_t nextOwnTile = int64_t(blockIdx.x) * layout.parallelTilesPerBlock;
  const int64_t ownEnd = nextOwnTile + layout.parallelTilesPerBlock;

  for (;;) {
    if (threadIdx.x == 0) {
      currentTile = nextOwnTile < ownEnd ? nextOwnTile++
                                         : parallelEnd + int64_t(atomicAdd(tileCounter, 1ull));
      batchCursor = 0;
    }
    __syncthreads();
    const int64_t tile = currentTile;
    if (tile >= layout.tiles)
      break;
    const int64_t band = tile / layout.rowBlocks;
    const int64_t bandFirst = band * layout.bandCols;
    const bool staged = layout.tileFlags[tile] & kTileStagesX;
    if (staged && band != stagedBand) {
      const int64_t width = min(layout.bandCols, layout.cols - bandFirst);
      for (int64_t i = threadIdx.x; i < width; i += blockDim.x)
        xSegment[i] = x[bandFirst + i];
      stagedBand = band;
      __syncthreads();
    }
    const int batches = layout.batchCount[tile];
    const int64_t tileSlots = tile * kTileRows;
    for (;;) {
      int b = 0;
      if (lane == 0)
        b = atomicAdd(&batchCursor, 1);
      b = __shfl_sync(0xffffffffu, b, 0);
      if (b >= batches)
        break;
      const WarpBatch batch = unpackBatch(layout.batches[tileSlots + b]);
      if (staged)
        runWarpBatch(layout, tileSlots + batch.firstSlot, batch.rows, batch.lanesLog2, band,
                     coordinates, values, alpha, beta, y, bandPartials, lane,
                     [&](Index c) { return xSegment[int64_t(c) - bandFirst]; });
      else
        runWarpBatch(layout, tileSlots + batch.firstSlot, batch.rows, batch.lanesLog2, band,
                     coordinates, values, alpha, beta, y, bandPartials, lane,
                     [&](Index c) { return __ldg(&x[c]); });
    }
    // Every warp is done with this tile's x segment and batch cursor.
    __syncthreads();
  }
}

/// The warp-batch schedule, for layouts that read x through L2: every
/// warp batch of every tile in one list (tile after tile), warps take their
/// share of the parallel part (a contiguous run of batches), then batches
/// of the competitive part from an atomic counter. No block-wide barrier:
/// a warp never waits for the others of its block.
template <typename T, typename Index>
__global__ void __launch_bounds__(kExecWarps *kWarpSize)
    spmvHbpWarpKernel(HbpLayout<Index> layout, const Index *coordinates, const T *values,
                      const T *x, T alpha, T beta, T *y, T *bandPartials,
                      unsigned long long *batchCounter) {
  awaitPrecedingKernels();
  const int lane = threadIdx.x % kWarpSize;
  const int64_t warp = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / kWarpSize;
  const int64_t share = layout.parallelBatchesPerWarp;
  const int64_t parallelEnd = share * layout.executingWarps;
  const int64_t bandSlots = layout.rowBlocks * kTileRows;
  int64_t next = warp * share;
  const int64_t ownEnd = next + share;
  for (;;) {
    int64_t b = next;
    if (next < ownEnd) {
      ++next;
    } else {
      unsigned long long taken = 0;
      if (lane == 0)
        taken = atomicAdd(batchCounter, 1ull);
      b = parallelEnd + int64_t(__shfl_sync(0xffffffffu, taken, 0));
    }
    if (b >= layout.flatBatchCount)
      break;
    const FlatBatch batch = unpackFlatBatch(layout.flatBatches[b]);
    runWarpBatch(layout, batch.firstSlot, batch.rows, batch.lanesLog2,
                 batch.firstSlot / bandSlots, coordinates, values, alpha, beta, y, bandPartials,
                 lane, [&](Index c) { return __ldg(&x[c]); });
  }
}

/// y = alpha * (sum of the band partials) + beta * y, for every row that
/// is not long (long rows are the chunk kernels').
template <typename T, typename Index>
__global__ void spmvMergeBandsKernel(const Index *positions, int64_t rows, int64_t bands,
                                     int64_t longRowLimit, const T *bandPartials, T alpha,
                                     T beta, T *y) {
  awaitPrecedingKernels();
  for (int64_t r = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; r < rows;
       r += int64_t(gridDim.x) * blockDim.x) {
    if (int64_t(positions[r + 1] - positions[r]) > longRowLimit)
      continue;
    T sum = T(0);
    for (int64_t b = 0; b < bands; ++b)
      sum += bandPartials[b * rows + r];
    writeScaled(y, r, sum, alpha, beta);
  }
}

/// A warp per chunk of a long row: its partial sum into chunkPartials.
template <typename T, typename Index>
__global__ void spmvLongChunksKernel(HbpLayout<Index> layout, const Index *positions,
                                     const Index *coordinates, const T *values, const T *x,
                                     T *chunkPartials) {
  awaitPrecedingKernels();
  const int lane = threadIdx.x % kWarpSize;
  const int64_t warps = int64_t(gridDim.x) * blockDim.x / kWarpSize;
  for (int64_t c = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / kWarpSize;
       c < layout.chunkCount; c += warps) {
    const int32_t row = layout.longRows[layout.chunkOwner[c]];
    const Index begin = layout.chunkBegin[c];
    const Index rowEnd = positions[row + 1];
    const Index end = rowEnd - begin > Index(layout.longRowLimit) ? begin + Index(layout.longRowLimit)
                                                                  : rowEnd;
    T sum = laneDot(values, coordinates, begin + lane, end, Index(kWarpSize),
                    [&](Index column) { return __ldg(&x[column]); });
    sum = sumLaneGroup(sum, 5);
    if (lane == 0)
      chunkPartials[c] = sum;
  }
}

/// A warp per long row: its chunks' partial sums, written back scaled.
template <typename T, typename Index>
__global__ void spmvLongRowsKernel(HbpLayout<Index> layout, const T *chunkPartials, T alpha,
                                   T beta, T *y) {
  awaitPrecedingKernels();
  const int lane = threadIdx.x % kWarpSize;
  const int64_t warps = int64_t(gridDim.x) * blockDim.x / kWarpSize;
  for (int64_t i = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / kWarpSize;
       i < layout.longRowCount; i += warps) {
    T sum = T(0);
    for (int64_t c = layout.longChunkStart[i] + lane; c < layout.longChunkStart[i + 1];
         c += kWarpSize)
      sum += chunkPartials[c];
    sum = sumLaneGroup(sum, 5);
    if (lane == 0)
      writeScaled(y, layout.longRows[i], sum, alpha, beta);
  }
}

} // namespace sopt::spmv

#endif // SPARSE_OPT_RUNTIME_KERNELS_SPMVHBP_CUH
