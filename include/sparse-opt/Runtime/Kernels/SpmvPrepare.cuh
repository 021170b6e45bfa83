//===- SpmvPrepare.cuh - building the HBP layout on the GPU --------*- CUDA -*-===//
//
// Preprocessing runs on the device, once per pattern: a check of the CSR
// arrays (first violation by index kept per kind, so that the host can say
// where), the row-length statistics the kernel choice reads, and the tiles,
// built in parallel, one block per tile (SpmvLayout.cuh says what a tile is).
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_KERNELS_SPMVPREPARE_CUH
#define SPARSE_OPT_RUNTIME_KERNELS_SPMVPREPARE_CUH

#include "sparse-opt/Runtime/Host/Launch.cuh"
#include "sparse-opt/Runtime/Kernels/SpmvLayout.cuh"

#include <cstdint>

namespace sopt::spmv {

/// What can be wrong with a CSR pattern, in the order the host reports it.
enum PatternFault : int {
  kFirstPositionNotZero,
  kPositionsDecrease,
  kLastPositionNotNnz,
  kColumnOutOfRange,
  kColumnsDecrease,
  kPatternFaultKinds
};

/// Per kind, the smallest index (row or entry) showing it; ~0 for none.
struct PatternFaults {
  unsigned long long first[kPatternFaultKinds];
};

/// Row-length statistics of a valid pattern.
struct PatternStats {
  double sumSquares;
  unsigned long long maxLength, emptyRows, longRows;
};

template <typename Index>
__global__ void checkPositionsKernel(const Index *positions, int64_t rows, int64_t nnz,
                                     PatternFaults *faults) {
  awaitPrecedingKernels();
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t r = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; r <= rows; r += stride) {
    const Index p = positions[r];
    if (r == 0 && p != 0)
      atomicMin(&faults->first[kFirstPositionNotZero], 0ull);
    if (r == rows && p != Index(nnz))
      atomicMin(&faults->first[kLastPositionNotNnz], (unsigned long long)r);
    if (r < rows && positions[r + 1] < p)
      atomicMin(&faults->first[kPositionsDecrease], (unsigned long long)r);
  }
}

/// Needs positions that passed checkPositionsKernel.
template <typename Index>
__global__ void checkColumnsKernel(const Index *positions, const Index *coordinates,
                                   int64_t rows, int64_t cols, PatternFaults *faults) {
  awaitPrecedingKernels();
  // A warp per row: neighbours in a row are compared without a search.
  const int lane = threadIdx.x % kWarpSize;
  const int64_t warps = int64_t(gridDim.x) * blockDim.x / kWarpSize;
  for (int64_t r = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / kWarpSize; r < rows;
       r += warps) {
    const Index begin = positions[r], end = positions[r + 1];
    for (Index j = begin + lane; j < end; j += kWarpSize) {
      const Index c = coordinates[j];
      if (c < 0 || int64_t(c) >= cols)
        atomicMin(&faults->first[kColumnOutOfRange], (unsigned long long)j);
      else if (j > begin && coordinates[j - 1] > c)
        atomicMin(&faults->first[kColumnsDecrease], (unsigned long long)j);
    }
  }
}

/// Sums of squared lengths, the longest row, empty rows, and the rows
/// longer than `longRowLimit` (appended to longRows in any order).
template <typename Index>
__global__ void patternStatsKernel(const Index *positions, int64_t rows, int64_t longRowLimit,
                                   PatternStats *stats, int32_t *longRows) {
  awaitPrecedingKernels();
  double squares = 0;
  unsigned long long longest = 0, empty = 0;
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t r = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; r < rows; r += stride) {
    const int64_t length = int64_t(positions[r + 1] - positions[r]);
    squares += double(length) * double(length);
    longest = length > int64_t(longest) ? (unsigned long long)length : longest;
    empty += length == 0;
    if (length > longRowLimit)
      longRows[atomicAdd(&stats->longRows, 1ull)] = int32_t(r);
  }
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
    squares += __shfl_xor_sync(0xffffffffu, squares, offset);
    const unsigned long long other = __shfl_xor_sync(0xffffffffu, longest, offset);
    longest = other > longest ? other : longest;
    empty += __shfl_xor_sync(0xffffffffu, empty, offset);
  }
  if (threadIdx.x % kWarpSize == 0) {
    atomicAdd(&stats->sumSquares, squares);
    atomicMax(&stats->maxLength, longest);
    atomicAdd(&stats->emptyRows, empty);
  }
}

/// First entry in [begin, end) whose column is at least `column` (columns
/// increase within a row).
template <typename Index>
__device__ inline Index firstColumnAtLeast(const Index *coordinates, Index begin, Index end,
                                           int64_t column) {
  while (begin < end) {
    const Index middle = begin + (end - begin) / 2;
    if (int64_t(coordinates[middle]) < column)
      begin = middle + 1;
    else
      end = middle;
  }
  return begin;
}

/// Writable views of the HbpLayout arrays the tile kernel fills.
template <typename Index> struct HbpTileOutputs {
  int32_t *slotRow;
  Index *segBegin, *segEnd;
  uint32_t *batches;
  int32_t *batchCount;
  uint8_t *tileFlags;
};

/// One block of kTileRows threads per tile, a thread per row of the tile.
/// `stageMinEntries`: a tile with at least this many entries reads its x
/// segment from shared memory (0: never).
template <typename Index>
__global__ void __launch_bounds__(kTileRows)
    buildTilesKernel(const Index *positions, const Index *coordinates, HbpLayout<Index> layout,
                     HbpTileOutputs<Index> out, int64_t stageMinEntries) {
  awaitPrecedingKernels();
  __shared__ int classCount[kLengthClasses], classStart[kLengthClasses],
      batchStart[kLengthClasses + 1];
  __shared__ int slotLocal[kTileRows];
  __shared__ unsigned long long tileEntries;
  const int64_t tile = blockIdx.x;
  const int64_t band = tile / layout.rowBlocks, rowBlock = tile % layout.rowBlocks;
  const int local = threadIdx.x;
  const int64_t row = rowBlock * kTileRows + local;
  if (local < kLengthClasses)
    classCount[local] = 0;
  slotLocal[local] = -1;
  if (local == 0)
    tileEntries = 0;
  __syncthreads();

  // This row's segment in the band, and its length class (-1: no slot).
  int cls = -1;
  Index begin = 0, end = 0;
  if (row < layout.rows) {
    begin = positions[row];
    end = positions[row + 1];
    const bool isLong = int64_t(end - begin) > layout.longRowLimit;
    if (layout.bands > 1) {
      const int64_t bandFirst = band * layout.bandCols;
      begin = firstColumnAtLeast(coordinates, begin, end, bandFirst);
      end = firstColumnAtLeast(coordinates, begin, end, bandFirst + layout.bandCols);
    }
    if (!isLong) {
      cls = lengthClass(int64_t(end - begin));
      atomicAdd(&classCount[cls], 1);
      atomicAdd(&tileEntries, (unsigned long long)(end - begin));
    }
  }
  __syncthreads();
  if (local == 0) {
    int slots = 0, batchesSoFar = 0;
    for (int c = 0; c < kLengthClasses; ++c) {
      classStart[c] = slots;
      batchStart[c] = batchesSoFar;
      slots += classCount[c];
      const int rowsPerBatch = kWarpSize >> lanesLog2ForClass(c, layout.laneEntriesLog2);
      batchesSoFar += (classCount[c] + rowsPerBatch - 1) / rowsPerBatch;
    }
    batchStart[kLengthClasses] = batchesSoFar;
    out.batchCount[tile] = batchesSoFar;
    out.tileFlags[tile] =
        stageMinEntries > 0 && int64_t(tileEntries) >= stageMinEntries ? kTileStagesX : 0;
  }
  __syncthreads();

  // The hash: a row's home slot is where its rank would put it inside its
  // class's range (a linear map of the row index onto the range); a taken
  // slot sends it on to the next free one, wrapping inside the range.
  if (cls >= 0) {
    const int count = classCount[cls], start = classStart[cls];
    const int home = int(int64_t(local) * count / kTileRows);
    for (int probe = 0;; ++probe) {
      const int slot = start + (home + probe) % count;
      if (atomicCAS(&slotLocal[slot], -1, local) == -1) {
        out.segBegin[tile * kTileRows + slot] = begin;
        out.segEnd[tile * kTileRows + slot] = end;
        break;
      }
    }
  }
  __syncthreads();
  const int placed = slotLocal[local];
  out.slotRow[tile * kTileRows + local] =
      placed >= 0 ? int32_t(rowBlock * kTileRows + placed) : -1;

  // Warp batches: class c's slots cut into runs of 32 >> lanesLog2 rows.
  if (local < kLengthClasses) {
    const int c = local, lanesLog2 = lanesLog2ForClass(c, layout.laneEntriesLog2);
    const int rowsPerBatch = kWarpSize >> lanesLog2;
    int batch = batchStart[c];
    for (int first = 0; first < classCount[c]; first += rowsPerBatch, ++batch) {
      const int rows = min(rowsPerBatch, classCount[c] - first);
      out.batches[tile * kTileRows + batch] = packBatch(classStart[c] + first, rows, lanesLog2);
    }
  }
}

/// The warp-batch schedule's flat list: tile t's batches from offsets[t].
template <typename Index>
__global__ void flattenBatchesKernel(HbpLayout<Index> layout, const int64_t *offsets,
                                     uint64_t *flat) {
  awaitPrecedingKernels();
  const int64_t tile = blockIdx.x;
  const int count = layout.batchCount[tile];
  for (int b = threadIdx.x; b < count; b += blockDim.x) {
    const WarpBatch batch = unpackBatch(layout.batches[tile * kTileRows + b]);
    flat[offsets[tile] + b] =
        packFlatBatch(tile * kTileRows + batch.firstSlot, batch.rows, batch.lanesLog2);
  }
}

/// The bounds of each long row, for the host to cut into chunks.
template <typename Index>
__global__ void gatherRowBoundsKernel(const Index *positions, const int32_t *rows, int64_t count,
                                      Index *bounds) {
  awaitPrecedingKernels();
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x) {
    bounds[2 * i] = positions[rows[i]];
    bounds[2 * i + 1] = positions[rows[i] + 1];
  }
}

} // namespace sopt::spmv

#endif // SPARSE_OPT_RUNTIME_KERNELS_SPMVPREPARE_CUH
