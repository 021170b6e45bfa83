//===- SpmmScheduleRules.cpp - choosing an SpMM schedule ------------------===//
//
// chooseSpmmSchedule and its parts: when SpMM takes tensor-core dense blocks
// (SpmmBlocks.cuh), staged slices of B (SpmmSlices.cuh) or row tiles
// (Spmm.cuh), and the row tiles' lanes, columns, splits and segments. Each
// threshold was fitted on DLMC, SuiteSparse and generated patterns with
// benchmarks/sparse; a comment says why the rule exists.
// The measurements behind each threshold are recorded under the
// constant's name in docs/benchmarks/history.md ("Schedule rule
// evidence"); the current results are in docs/benchmarks/sparse.md.
//
//===----------------------------------------------------------------------===//

#include "ScheduleRuleHelpers.h"
#include "sparse-opt/Runtime/Schedule/SparseSchedule.h"

#include <algorithm>
#include <cmath>

using namespace sopt;
using namespace sopt::schedule_rules;

namespace {

/// When SpMM uses dense blocks (SpmmBlocks.cuh): from a density where the
/// tensor cores' products over whole blocks (three TF32 products a product in
/// f32, one in 16-bit) cost less than one FMA per stored entry and output
/// column, lower when skewed rows hold the row tiles back; not below a work
/// where the blocks' fixed cost (a pipeline of 64-column chunks) dominates.
/// Banded patterns count only their occupied blocks, the only ones walked.
constexpr double kSpmmDenseBlocksDensity = 0.25, kSpmmDenseBlocksSkewedDensity = 0.15;
constexpr double kSpmmDenseBlocksWork = double(1 << 24);

/// Blocks of 64 x 64 while they give at least this many (3/4 of the SMs, one
/// block each), else 32 x 32 (four times as many); banded patterns take 32 x 64,
/// their 32-row windows of k being narrower.
constexpr int64_t kSpmmLargeBlocks = 96;
/// f32 blocks of 32 x 32 fewer than this (3/8 of the SMs), or fewer than
/// kSpmmLargeBlocks over a long k, walk their chunks of k one after another on
/// too few SMs: row tiles serve better.
constexpr int64_t kSpmmFewestBlocks32 = 48, kSpmmLongK = 1024;
/// 16-bit blocks too few for the GPU give way as well, but only below this
/// density: denser patterns still gain more from the tensor cores.
constexpr double kSpmmFewBlocksDensity16 = 0.4;
/// 16-bit blocks of 128 columns (from n = 128): one densified chunk of A
/// feeds twice the columns of C. 64 x 128 from this many blocks on, else 32 x
/// 128 from kSpmmLargeBlocks on; banded patterns 32 x 128. Fewer blocks leave
/// SMs idle, where 32 x 32 wins.
constexpr int64_t kSpmmWideBlocks16 = 192;
/// SpMMs whose row tiles would read B from L2 once per stored entry take
/// staged slices of B (SpmmSlices.cuh) where k is short enough for a 128 KiB
/// slice (k <= 512: 64 f32 or 128 16-bit columns), and from 2^20 products
/// (below, copying the slice costs more than it saves). f32 up to 20 % density
/// (denser ones gain more from tensor-core blocks); 16-bit up to 50 %, many
/// rows only where the density or skew leaves the row tiles waiting.
constexpr int64_t kStagedSliceBytes = 128 * 1024, kStagedSliceLongestK = 512;
constexpr double kStagedSliceProducts = double(1 << 20);
constexpr double kStagedSliceMostDensity32 = 0.2, kStagedSliceLeastDensity16 = 0.04;
constexpr double kStagedSliceMostDensity16 = 0.5; // the densest DLMC patterns
constexpr int64_t kStagedSliceWideN = 512, kStagedSliceManyRows = 4096;
constexpr int64_t kStagedSliceMostRows16Narrow = 1024;

/// The SpMM row tiles' constants for one element size, fitted by
/// benchmarks/sparse/fit_spmm.py on an explore of every DLMC matrix.
struct SpmmFit {
  /// A lane takes 2, 4, ... columns once the output has twice, four
  /// times, ... `busyScale * kBusyThreads * (n / 256)^widthExponent`
  /// elements: wide outputs already give every row several tiles.
  double busyScale, widthExponent;
  /// Longer rows hide more latency per lane: the output counts
  /// (mean row length / 64)^rowLengthExponent times more.
  double rowLengthExponent;
  /// A longest row this many times the mean halves the columns per lane.
  double imbalance;
  /// Rows split in two again while the lanes stay within `splitBudget`
  /// busy GPUs and each share keeps 4 entries of a mean row, or within
  /// `longRowBudget` busy GPUs while the longest row's share exceeds
  /// `longRowShare` entries: the longest row sets the kernel's time.
  double splitBudget, longRowBudget;
  int64_t longRowShare;
  /// Threads per block (fewer when one tile's split groups need more).
  int blockThreads;
};

constexpr SpmmFit kSpmmFit32{0.5, 0.5, 0.25, 3.0, 0.5, 2.0, 512, 64};
constexpr SpmmFit kSpmmFit16{0.25, 0.0, 0.0, 1e30, 1.0, 2.0, 128, 128};

/// Outputs from which an SpMM hands out its tiles by column slice: enough
/// blocks run at once that they share B's slices in L1 and L2.
constexpr double kByColumnOutputs = 1 << 21;

/// f32 row tiles whose B, as far as the pattern reads it (k rows, or nnz if
/// fewer), outgrows L2: tiles of kL2SliceLanes lanes x kL2SliceColumnsPerLane
/// columns by column slice, so that the slice of B the GPU works through stays
/// in L2 instead of B's whole rows streaming past it.
constexpr double kL2Bytes = 50e6;
constexpr int64_t kL2SliceLanes = 8, kL2SliceColumnsPerLane = 8;

/// Local patterns: banded or stiffness-like, their entries packed in the
/// 64 x 64 blocks near a diagonal (leavesBlocksEmpty, with at least this
/// density in the occupied blocks; graphs scatter theirs). Neighbouring rows
/// then read neighbouring rows of B, so f32 row tiles from n = 256 keep the
/// rows in order and take B by column slice: tiles of 128 columns (32 lanes x
/// 4, 16 x 8 from n = 1024), 256 threads a block.
constexpr double kLocalBlockDensity = 0.01;
constexpr int64_t kLocalTileColumns = 128, kLocalBlockThreads = 256, kLocalLeastColumns = 256;

/// The most groups that share one tile (the kernel's shared partial sums).
constexpr int kMaxRowSplits = 8;

/// 16-bit row tiles of rows this long on average take kWideRowColumns
/// columns per lane in groups of kWideRowLanes (chooseSpmmRowTiles).
constexpr double kWideRowMeanLength = 32;
constexpr int64_t kWideRowColumns = 8, kWideRowLanes = 16;
/// Short outputs, kShortNLeast to kShortNMost columns (a decoder's batch of
/// tokens): row tiles whose rows are kShortNRowMeanLength entries long or more
/// take kShortNColumnsPerLane columns per lane in 32-lane tiles, split as even
/// rows are, so each staged entry feeds two FMAs (in 16-bit only for skewed
/// rows or n up to kShortNEvenMost16; even rows keep the 8-column tiles); f32
/// staged slices of up to kShortNSliceMostRows32 rows take 32 columns, one per
/// lane, so a block copies half as much of B. Not fitted beyond n = 128.
constexpr double kShortNRowMeanLength = 32;
constexpr int64_t kShortNColumnsPerLane = 2, kShortNLeast = 64, kShortNMost = 128;
constexpr int64_t kShortNSliceMostRows32 = 1024;
constexpr int64_t kShortNEvenMost16 = 64;
/// f32 row tiles of even rows this long on average split them while the
/// lanes fit this many busy GPUs (chooseSpmmRowTiles; SpmmFit::splitBudget
/// else).
constexpr double kEvenRowMeanLength32 = 64, kEvenRowSplitBudget32 = 1.0;
/// 16-bit outputs this wide split skewed rows for the longest row's sake
/// while its share exceeds kWideOutputLongRowShare entries, even rows not
/// at all (chooseSpmmRowTiles).
constexpr int64_t kWideOutputColumns = 256, kWideOutputLongRowShare = 32;

/// Hub rows: a longest row kHubSkew times the mean row and longer than
/// kHubEntries entries makes the row tiles cut their long rows into segments
/// (SpmmSchedule::rowSegment) of 4 mean rows, kMinRowSegment entries at least:
/// one tile group summing a graph's hub row of thousands of entries would set
/// the kernel's time.
constexpr double kHubSkew = 16;
constexpr int64_t kHubEntries = 256;
constexpr int kMinRowSegment = 64;
constexpr int64_t kHubColumnsPerThread = 8;

/// Skewed rows on a GPU the row tiles do not fill: without splits, a longest
/// row kSegmentSkew times the mean (and long enough for two segments) sets the
/// time of a kernel whose tile groups all run at once, so its long rows are cut
/// into segments of a mean row (kMinRowSegment at least). Where the lanes fill
/// the GPU twice over, segments do not pay.
constexpr double kSegmentSkew = 4;

int skewedRowSegmentFor(const SparsityStats &stats) {
  if (stats.maxRowLength <= 2 * kMinRowSegment ||
      double(stats.maxRowLength) <= kSegmentSkew * stats.meanRowLength)
    return 0;
  return int(std::max<int64_t>(kMinRowSegment,
                               powerOfTwoAtLeast(int64_t(std::ceil(stats.meanRowLength)))));
}

int rowSegmentFor(const SparsityStats &stats) {
  if (stats.maxRowLength <= kHubEntries ||
      double(stats.maxRowLength) <= kHubSkew * stats.meanRowLength)
    return 0;
  return int(std::max<int64_t>(kMinRowSegment,
                               powerOfTwoAtLeast(int64_t(std::ceil(4 * stats.meanRowLength)))));
}

} // namespace

bool sopt::prefersSpmmDenseBlocks(const SparsityStats &stats, int64_t n, int elementBytes) {
  if ((elementBytes != 4 && elementBytes != 2) || stats.nnz <= 0 || stats.rows <= 0 ||
      stats.cols <= 0)
    return false;
  // A banded pattern's blocks walk only their window of k: the work and
  // density over the blocks holding entries.
  const double occupied =
      double(occupiedBlocksOf(stats, 64)) / double(shapeBlocksOf(stats, 64));
  if (double(stats.rows) * double(stats.cols) * double(n) * occupied < kSpmmDenseBlocksWork)
    return false;
  // Blocks too few for the GPU (kSpmmFewestBlocks32; in 16-bit only below
  // kSpmmFewBlocksDensity16) leave it to the row tiles or slices.
  const int64_t blocks32 = ((stats.rows + 31) / 32) * ((n + 31) / 32);
  const double density = blockDensity(stats);
  if (!leavesBlocksEmpty(stats) &&
      (elementBytes == 4
           ? blocks32 < kSpmmFewestBlocks32 ||
                 (blocks32 < kSpmmLargeBlocks && stats.cols >= kSpmmLongK)
           : blocks32 < kSpmmFewestBlocks32 && density < kSpmmFewBlocksDensity16))
    return false;
  if (density >= kSpmmDenseBlocksDensity)
    return true;
  return elementBytes == 4 && density >= kSpmmDenseBlocksSkewedDensity && rowsSkewed(stats);
}

bool sopt::prefersSpmmStagedSlices(const SparsityStats &stats, int64_t n, int elementBytes) {
  if ((elementBytes != 2 && elementBytes != 4) || !stats.known() || stats.rows <= 0 ||
      stats.cols <= 0 || double(stats.nnz) * double(n) < kStagedSliceProducts)
    return false;
  if (stats.cols > kStagedSliceLongestK)
    return false;
  const double density = densityOf(stats);
  if (elementBytes == 4)
    return density <= kStagedSliceMostDensity32;
  if (density > kStagedSliceMostDensity16)
    return false;
  if (n < kStagedSliceWideN && stats.rows <= kStagedSliceMostRows16Narrow)
    return true;
  return stats.rows <= kStagedSliceManyRows &&
         (density >= kStagedSliceLeastDensity16 || rowsSkewed(stats));
}

SpmmSchedule sopt::spmmStagedSlices(const SparsityStats &stats, int64_t n, int elementBytes) {
  SpmmSchedule s;
  s.tiling = SpmmTiling::StagedSlices;
  // 16-bit slices of many rows are wide whatever n.
  const bool wide = n >= kStagedSliceWideN ||
                    (elementBytes == 2 && stats.rows > kStagedSliceMostRows16Narrow);
  // 128 KiB for the longest k: 64 f32 columns, 128 16-bit ones (64 below
  // n = 512 up to 1024 rows).
  s.tileColumns = int(kStagedSliceBytes / (kStagedSliceLongestK * (wide ? elementBytes : 4)));
  const bool fourWide = wide || (elementBytes == 4 && stats.rows > kStagedSliceManyRows);
  // Short f32 outputs of few rows: slices of 32 columns, a lane's column
  // each, so that a block copies half as much of B (kShortNSliceMostRows32).
  const bool narrow32 = elementBytes == 4 && n >= kShortNLeast && n <= kShortNMost &&
                        stats.rows <= kShortNSliceMostRows32;
  s.vectorWidth =
      narrow32 ? 1 : int(std::min<int64_t>(widestVector(n, elementBytes), fourWide ? 4 : 2));
  s.threadsPerTile = std::min(32, s.tileColumns / s.vectorWidth);
  s.tileColumns = s.threadsPerTile * s.vectorWidth;
  s.tilesPerBlock = kMaxStagedSliceThreads / s.threadsPerTile;
  s.rowOrder = rowsDiffer(stats) ? RowOrder::ByLength : RowOrder::Natural;
  return s;
}

SpmmSchedule sopt::chooseSpmmSchedule(const SparsityStats &stats, int64_t n,
                                      int elementBytes) {
  const bool blocks = prefersSpmmDenseBlocks(stats, n, elementBytes);
  // f32 slices beat the blocks from n = kStagedSliceWideN; 16-bit blocks
  // beat the slices at every n.
  if (prefersSpmmStagedSlices(stats, n, elementBytes) &&
      (!blocks || (n >= kStagedSliceWideN && elementBytes == 4)))
    return spmmStagedSlices(stats, n, elementBytes);
  if (!blocks)
    return chooseSpmmRowTiles(stats, n, elementBytes);
  const auto blocksOf = [&](int64_t rows, int64_t columns) {
    return ((stats.rows + rows - 1) / rows) * ((n + columns - 1) / columns);
  };
  if (elementBytes == 2 && n > 64) {
    // 16-bit blocks of 128 columns: one densified chunk of A feeds twice
    // the columns of C.
    if (leavesBlocksEmpty(stats))
      return spmmDenseBlocks(32, 128);
    if (blocksOf(64, 128) >= kSpmmWideBlocks16)
      return spmmDenseBlocks(64, 128);
    if (blocksOf(32, 128) >= kSpmmLargeBlocks)
      return spmmDenseBlocks(32, 128);
  }
  if (leavesBlocksEmpty(stats))
    return spmmDenseBlocks(32, n > 32 ? 64 : 32);
  const int side = blocksOf(64, 64) >= kSpmmLargeBlocks ? 64 : 32;
  return spmmDenseBlocks(side, side);
}

SpmmSchedule sopt::spmmDenseBlocks(int blockRows, int blockColumns) {
  SpmmSchedule s;
  s.tiling = SpmmTiling::DenseBlocks;
  s.blockRows = blockRows;
  s.tileColumns = blockColumns;
  s.threadsPerTile = 32;
  s.tilesPerBlock = 1;
  s.vectorWidth = 1;
  return s;
}

namespace {

/// The row-tile schedule of `perThread` columns per lane in tile groups of
/// at most `maxLanes` lanes, rows split while the lanes stay within
/// `splitBudget` busy GPUs, or for the longest row's sake while its share
/// exceeds `longRowShare` entries (0: never) (the rest of
/// chooseSpmmRowTiles, which decides those).
SpmmSchedule rowTilesOf(const SparsityStats &stats, int64_t n, int elementBytes,
                        const SpmmFit &fit, int64_t perThread, int64_t maxLanes, int segment,
                        double splitBudget, int64_t longRowShare) {
  const bool rowsKnown = stats.known() && stats.meanRowLength > 0;
  const double outputs = double(std::max<int64_t>(stats.rows, 1)) * std::max<int64_t>(n, 1);
  SpmmSchedule s;
  s.vectorWidth = int(std::min<int64_t>(widestVector(n, elementBytes), perThread));
  // The tile group: as many lanes as the row's columns need, 4 to
  // `maxLanes`, so narrow outputs put several rows in one warp (subwarps).
  const int64_t lanes = powerOfTwoAtLeast((n + perThread - 1) / perThread);
  s.threadsPerTile = int(std::clamp<int64_t>(lanes, 4, maxLanes));
  s.tileColumns = s.threadsPerTile * int(perThread);
  // Split rows while the GPU has room for the extra lanes (a known pattern
  // only: the shares follow the row lengths).
  const double unsplitLanes = outputs / double(perThread);
  if (rowsKnown) {
    while (s.rowSplits < kMaxRowSplits) {
      const double lanesAfter = unsplitLanes * s.rowSplits * 2;
      const bool evenShares = lanesAfter <= splitBudget * kBusyThreads &&
                              stats.meanRowLength >= 4.0 * s.rowSplits * 2;
      const bool longRowShares = longRowShare > 0 &&
                                 lanesAfter <= fit.longRowBudget * kBusyThreads &&
                                 stats.maxRowLength > longRowShare * s.rowSplits;
      if (!evenShares && !longRowShares)
        break;
      s.rowSplits *= 2;
    }
  }
  if (rowsKnown && segment == 0 && s.rowSplits == 1 && unsplitLanes <= kBusyThreads)
    segment = skewedRowSegmentFor(stats);
  s.tilesPerBlock = std::max(1, fit.blockThreads / (s.threadsPerTile * s.rowSplits));
  s.rowOrder = rowsDiffer(stats) ? RowOrder::ByLength : RowOrder::Natural;
  s.tileOrder = outputs >= kByColumnOutputs ? TileOrder::ByColumn : TileOrder::ByRow;
  if (s.rowOrder == RowOrder::ByLength) // always so for hub rows
    s.rowSegment = segment;
  return s;
}

/// Lanes that share each row of the output under `s` (its tiles across n,
/// each split `rowSplits` ways).
int64_t lanesPerRow(const SpmmSchedule &s, int64_t n) {
  return (n + s.tileColumns - 1) / s.tileColumns * s.threadsPerTile * s.rowSplits;
}

/// Whether a known pattern is local (kLocalBlockDensity).
bool isLocalPattern(const SparsityStats &stats) {
  return leavesBlocksEmpty(stats) && blockDensity(stats) >= kLocalBlockDensity;
}

/// The f32 row tiles of a local pattern (kLocalBlockDensity).
SpmmSchedule localRowTiles(int64_t n, int elementBytes) {
  SpmmSchedule s;
  s.threadsPerTile = n >= 1024 ? 16 : 32;
  s.tileColumns = int(kLocalTileColumns);
  s.vectorWidth = int(std::min<int64_t>(widestVector(n, elementBytes), s.columnsPerThread()));
  s.tilesPerBlock = int(kLocalBlockThreads / s.threadsPerTile);
  s.rowOrder = RowOrder::Natural;
  s.tileOrder = TileOrder::ByColumn;
  return s;
}

} // namespace

SpmmSchedule sopt::chooseSpmmRowTiles(const SparsityStats &stats, int64_t n,
                                      int elementBytes) {
  const SpmmFit &fit = elementBytes <= 2 ? kSpmmFit16 : kSpmmFit32;
  const bool rowsKnown = stats.known() && stats.meanRowLength > 0;
  // Hub rows cut into segments, or 0.
  const int segment = rowsKnown ? rowSegmentFor(stats) : 0;
  // Local patterns first, also where B outgrows L2: their neighbouring rows
  // already share B's rows.
  if (elementBytes == 4 && rowsKnown && segment == 0 && n >= kLocalLeastColumns &&
      isLocalPattern(stats)) {
    const SpmmSchedule local = localRowTiles(n, elementBytes);
    if (checkSpmmSchedule(local, n, elementBytes).empty())
      return local;
  }
  // More columns per lane reuse each staged nonzero for more FMAs, but
  // leave fewer lanes: widen only while the output keeps the GPU busy.
  const double outputs = double(std::max<int64_t>(stats.rows, 1)) * std::max<int64_t>(n, 1);
  double work = outputs / (fit.busyScale * kBusyThreads *
                           std::pow(std::max<int64_t>(n, 1) / 256.0, fit.widthExponent));
  if (rowsKnown) {
    work *= std::pow(stats.meanRowLength / 64.0, fit.rowLengthExponent);
    if (stats.maxRowLength > fit.imbalance * stats.meanRowLength)
      work /= 2;
  }
  // Patterns whose long rows are cut into segments (graphs: short rows
  // around a few hubs) keep 8 columns per lane at most: half the registers, and
  // the segments already bound the chains.
  const int64_t widest = segment > 0 ? kHubColumnsPerThread : kMaxColumnsPerThread;
  int64_t perThread =
      std::min<int64_t>(powerOfTwoAtMost(int64_t(std::max(work, 1.0))), widest);
  // No more columns per thread than one lane of a 4-lane group needs.
  while (perThread > 1 && perThread * 4 > powerOfTwoAtLeast(n))
    perThread /= 2;
  const bool skewed = rowsSkewed(stats);
  // f32 rows of kEvenRowMeanLength32 entries or more that are even have a
  // whole busy GPU's room for their splits instead of half: their shares stay
  // long enough to hide the loads.
  const double splitBudget =
      elementBytes > 2 && rowsKnown && !skewed && stats.meanRowLength >= kEvenRowMeanLength32
          ? kEvenRowSplitBudget32
          : fit.splitBudget;
  // 16-bit outputs of kWideOutputColumns columns or more split rows for the
  // longest row's sake only when the rows are skewed, and then while its share
  // exceeds kWideOutputLongRowShare entries: even rows lose more to the splits'
  // partial sums than they gain.
  const bool wideOutput16 = elementBytes <= 2 && n >= kWideOutputColumns;
  const int64_t longRowShare = !wideOutput16 ? fit.longRowShare
                               : skewed      ? kWideOutputLongRowShare
                                             : 0;
  const int64_t rowsOfB = stats.nnz >= 0 ? std::min(stats.cols, stats.nnz) : stats.cols;
  if (elementBytes == 4 && double(rowsOfB) * double(n) * sizeof(float) > kL2Bytes &&
      n >= kL2SliceLanes * kL2SliceColumnsPerLane) {
    SpmmSchedule sliced = rowTilesOf(stats, n, elementBytes, fit, kL2SliceColumnsPerLane,
                                     kL2SliceLanes, segment, splitBudget, longRowShare);
    sliced.tileOrder = TileOrder::ByColumn;
    return sliced;
  }
  const SpmmSchedule fitted =
      rowTilesOf(stats, n, elementBytes, fit, perThread, 32, segment, splitBudget, longRowShare);
  // Rows of kShortNRowMeanLength entries or more at short n (where the fit
  // gives one column per lane) take two columns per lane in 32-lane tiles,
  // the split budget restoring the lanes: each staged entry feeds twice the
  // FMAs, and B's rows are read as 8-byte vectors (f32) or 4-byte ones.
  // Before the 16-bit rule below, whose 8 columns per lane leave too few
  // lanes at these widths, for skewed 16-bit rows and at n = 64
  // (kShortNEvenMost16); skewed f32 rows keep the fitted tiles where the
  // wide ones would give them fewer lanes (skewed 16-bit rows ran faster
  // in the wide tiles all the same).
  if (rowsKnown && segment == 0 && perThread < kShortNColumnsPerLane &&
      stats.meanRowLength >= kShortNRowMeanLength && n >= kShortNLeast && n <= kShortNMost &&
      (elementBytes == 4 || skewed || n <= kShortNEvenMost16)) {
    SpmmSchedule wide = rowTilesOf(stats, n, elementBytes, fit, kShortNColumnsPerLane, 32, segment,
                                   std::max(splitBudget, kEvenRowSplitBudget32), longRowShare);
    if (elementBytes <= 2 || !skewed || lanesPerRow(wide, n) >= lanesPerRow(fitted, n))
      return wide;
  }
  // 16-bit rows of kWideRowMeanLength entries or more take 8 columns per lane
  // in 16-lane tiles even where few outputs gave fewer (the split budget then
  // restores the lanes), one tile group per block (a warp at least): each staged
  // entry feeds more FMAs. Not where skewed rows would get fewer lanes each than
  // the fitted schedule gives them.
  if (elementBytes <= 2 && rowsKnown && segment == 0 && perThread < kWideRowColumns &&
      stats.meanRowLength >= kWideRowMeanLength && kWideRowColumns * 4 <= powerOfTwoAtLeast(n)) {
    SpmmSchedule wide = rowTilesOf(stats, n, elementBytes, fit, kWideRowColumns, kWideRowLanes,
                                   segment, splitBudget, skewed ? longRowShare : 0);
    wide.tilesPerBlock = std::max(1, 32 / (wide.threadsPerTile * wide.rowSplits)); // a warp
    if (!skewed || lanesPerRow(wide, n) >= lanesPerRow(fitted, n))
      return wide;
  }
  return fitted;
}
