//===- SpmvLayout.cuh - the hash-blocked (HBP) SpMV layout ---------*- CUDA -*-===//
//
// The matrix is cut into 2-D tiles of kTileRows rows by one column band.
// Tiles are numbered band-major (all row blocks of band 0, then band 1, ...)
// so that consecutive tiles, which one executing block takes in a row, share
// their x segment. Inside a tile every row gets a slot: rows are placed by a
// hash of their nonzero count in the band (its length class), with probing
// for the nearest free slot, so rows of similar length sit next to each other;
// `slotRow` is the table from slot back to the original row, used on
// write-back. The slots of a tile are then cut into warp batches: runs of
// rows of one length class that one warp finishes in one pass, each row
// given as many lanes as its length class calls for.
//
// Rows longer than longRowLimit are left out of the tiles and split into
// chunks of longRowLimit entries, a warp each (one dense row must not hold
// one warp for the whole call).
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_KERNELS_SPMVLAYOUT_CUH
#define SPARSE_OPT_RUNTIME_KERNELS_SPMVLAYOUT_CUH

#include <cuda_runtime.h>

#include <cstdint>

namespace sopt::spmv {

constexpr int kWarpSize = 32;
/// Rows of a tile; the preparing kernel gives each row of a tile a thread,
/// and a batch descriptor stores a slot in 10 bits.
constexpr int kTileRows = 256;
/// Warps of an executing block: they share the tile's x segment.
constexpr int kExecWarps = 8;
/// Length classes: 0 holds empty rows, class c > 0 lengths in
/// (2^(c-2), 2^(c-1)]; the last class holds everything longer.
constexpr int kLengthClasses = 18;

/// The length class of a row segment of `length` entries.
__host__ __device__ inline int lengthClass(int64_t length) {
  if (length <= 0)
    return 0;
  int c = 1;
  while (c < kLengthClasses - 1 && (int64_t(1) << (c - 1)) < length)
    ++c;
  return c;
}

/// log2 of the lanes a row of class `c` gets when each lane should take
/// about 2^entriesLog2 of its entries (the lane keeps several loads in
/// flight; more lanes per row would leave them idle on short rows).
__host__ __device__ inline int lanesLog2ForClass(int c, int entriesLog2) {
  const int l = c - 1 - entriesLog2;
  return l < 0 ? 0 : l > 5 ? 5 : l;
}

/// The default of entriesLog2: eight entries a lane.
constexpr int kDefaultLaneEntriesLog2 = 3;

/// A warp batch: `rows` (1..32) consecutive slots from `firstSlot`, each row
/// with 2^lanesLog2 lanes; rows << lanesLog2 <= 32.
struct WarpBatch {
  int firstSlot, rows, lanesLog2;
};

__host__ __device__ inline uint32_t packBatch(int firstSlot, int rows, int lanesLog2) {
  return uint32_t(firstSlot) | (uint32_t(rows - 1) << 10) | (uint32_t(lanesLog2) << 15);
}

__host__ __device__ inline WarpBatch unpackBatch(uint32_t bits) {
  return {int(bits & 1023u), int((bits >> 10) & 31u) + 1, int((bits >> 15) & 7u)};
}

/// A warp batch in the flat list of the warp-batch schedule: its first
/// slot counted over all tiles (40 bits).
struct FlatBatch {
  int64_t firstSlot;
  int rows, lanesLog2;
};

__host__ __device__ inline uint64_t packFlatBatch(int64_t firstSlot, int rows, int lanesLog2) {
  return uint64_t(firstSlot) | (uint64_t(rows - 1) << 40) | (uint64_t(lanesLog2) << 45);
}

__host__ __device__ inline FlatBatch unpackFlatBatch(uint64_t bits) {
  return {int64_t(bits & ((uint64_t(1) << 40) - 1)), int((bits >> 40) & 31u) + 1,
          int((bits >> 45) & 7u)};
}

/// Tile flags.
constexpr uint8_t kTileStagesX = 1; // x segment read from shared memory

/// The device arrays of a prepared HBP layout; `Index` is the type of the
/// CSR positions (entries of a band segment are positions too).
template <typename Index> struct HbpLayout {
  int64_t rows = 0, cols = 0;
  int64_t rowBlocks = 0, bands = 0, bandCols = 0, tiles = 0;
  int64_t longRowLimit = 0;
  int laneEntriesLog2 = kDefaultLaneEntriesLog2;
  /// tiles * kTileRows: original row at each slot, -1 where none.
  const int32_t *slotRow = nullptr;
  /// tiles * kTileRows: the band segment [segBegin, segEnd) of the row at
  /// each slot (the whole row with one band), so that a warp finds its
  /// entries without going through the positions.
  const Index *segBegin = nullptr, *segEnd = nullptr;
  /// tiles * kTileRows packed WarpBatch, and the count used per tile.
  const uint32_t *batches = nullptr;
  const int32_t *batchCount = nullptr;
  const uint8_t *tileFlags = nullptr;
  /// Tiles from 0 to parallelTiles are split evenly between the executing
  /// blocks ahead of time; the rest are taken through an atomic counter.
  int64_t parallelTilesPerBlock = 0;
  int executingBlocks = 0;
  /// The warp-batch schedule (when no tile stages x): every batch in one
  /// list, `parallelBatchesPerWarp` of them per warp ahead of time.
  bool byWarpBatch = false;
  const uint64_t *flatBatches = nullptr;
  int64_t flatBatchCount = 0, parallelBatchesPerWarp = 0, executingWarps = 0;
  /// Long rows: chunk c covers entries [chunkBegin[c], min(chunkBegin[c] +
  /// longRowLimit, end of its row)) of long row chunkOwner[c]; long row i
  /// is row longRows[i], its chunks longChunkStart[i] .. longChunkStart[i+1].
  int64_t longRowCount = 0, chunkCount = 0;
  const int32_t *longRows = nullptr;
  const int32_t *chunkOwner = nullptr;
  const Index *chunkBegin = nullptr;
  const int32_t *longChunkStart = nullptr;
};

} // namespace sopt::spmv

#endif // SPARSE_OPT_RUNTIME_KERNELS_SPMVLAYOUT_CUH
