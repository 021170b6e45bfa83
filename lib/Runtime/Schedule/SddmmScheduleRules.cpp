//===- SddmmScheduleRules.cpp - choosing an SDDMM schedule ----------------===//
//
// chooseSddmmSchedule and its parts: whether (A · B) ⊙ S transposes B first,
// when SDDMM takes tensor-core dense blocks (SddmmBlocks.cuh, SddmmDirect.cuh)
// and of what size, with k split or not, and otherwise the tiles of nonzeros
// (Sddmm.cuh): lanes per output, outputs per group, warps per block, column
// panels (SddmmPanels.cuh). Each threshold was fitted on DLMC, SuiteSparse and
// generated patterns with benchmarks/sparse; a comment says why it exists.
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

/// When SDDMM uses dense blocks: from a density and an amount of work
/// (nnz * k) on, 16-bit and f32 elements. Below them the blocks' fixed cost
/// (or, in f32, the three TF32 products per product) outweighs the reads of B's
/// rows they save.
constexpr double kDenseBlocksDensity16 = 0.06, kDenseBlocksWork16 = 6e6;
constexpr double kDenseBlocksDensity32 = 0.08, kDenseBlocksWork32 = 3e7;
/// f32 also from a higher density and less work when the blocks fill the GPU
/// (kSddmmWideBlocks of them): the blocks then hide their rows' window search
/// behind the multiplies.
constexpr double kDenseBlocksDensity32Filled = 0.15, kDenseBlocksWork32Filled = 1e7;
/// 16-bit 64 x 64 blocks multiply by wgmma on sm_90a, faster than the
/// mma.sync blocks the thresholds above were fitted with: they also take
/// sparser patterns (4 %, and DLMC's 98 % ones from k = kWgmmaLongK16) that make
/// kSddmmWideBlocks to kWgmmaMostBlocks16 such blocks; patterns of more blocks
/// stay in tiles of nonzeros. From k = kWgmmaLongK16 they also take 4 % dense
/// patterns of any number of blocks from kSplitFewestBlocks on.
constexpr double kWgmmaDensity16 = 0.04, kWgmmaDensity16LongK = 0.019;
/// Patterns that leave 64 x 64 blocks empty (banded ones, leavesBlocksEmpty)
/// count their density over the blocks holding entries, the only ones launched
/// (OccupiedBlocks.cuh); there the blocks also need this much of it below k =
/// kWgmmaLongK16 (both types) and, in f32, kPartialBlocksDensity32LongK from it:
/// sparser occupied blocks waste their products.
constexpr double kPartialBlocksDensityShortK = 0.1, kPartialBlocksDensity32LongK = 0.085;
constexpr int64_t kWgmmaShortestK16 = 256, kWgmmaLongK16 = 1024;
constexpr int64_t kWgmmaMostBlocks16 = 1024;

/// Threads of an SDDMM block: four warps, small enough that the tail of a
/// launch leaves few SMs idle.
constexpr int kThreadsPerBlock = 128;

/// Warps an SDDMM of tiles of nonzeros should have at least: 16 per SM.
constexpr int64_t kBusySddmmWarps = 16 * 132;

/// SDDMMs of at least this many nonzeros (eight warps per SM) take tiles of
/// 32 nonzeros, one output per lane after the transposed butterfly; below it
/// the smaller tiles' extra warps win. 16-bit SDDMMs take them with half the
/// elements of k per lane (kLaneTileElements16) and four warps per block.
constexpr int64_t kLaneTileNonzeros = 8 * 132 * 32;
/// ... and in f32 from this many products (nnz * k) on: with less work the
/// smaller tiles' extra warps win.
constexpr double kLaneTileWork = 6e6;
constexpr int kLaneTileElements16 = 32;
/// Warps per block for those tiles (two did best on the sweep in f32, four
/// in 16-bit), and for the f32 tiles of one output per group.
constexpr int kLaneTileWarps = 2, kLaneTileWarps16 = 4, kSmallTileWarps = 8;
/// 16-bit tiles of 1-16 nonzeros at k up to this take one output per group
/// and kSmallTileWarps warps where a lane loads more than one vector of k: the
/// loads in flight are then the warps'. With one vector a lane it does not pay.
constexpr int64_t kShortK16 = 128;
/// f32 tiles of 32 nonzeros take S's entries by column panels
/// (SddmmPanels.cuh) from 12 tiles per SM on (fewer: a warp's 32 outputs run one
/// after another where smaller tiles run side by side) where each row holds
/// kPanelRowEntries or more in a panel on average (A's row is then read once for
/// several of them) and B spans two panels or more. The panel holds 128 rows of
/// B where they take 1 KB or less (128 KB in L1), else 64, twice that where S
/// has 16 times as many rows as columns (the SMs then split each panel's rows
/// among more blocks). A row's entries per panel are counted over the occupied
/// 64 x 64 blocks (blockDensity), so banded patterns qualify by their bands.
constexpr int64_t kPanelNonzeros = 12 * 132 * 32;
constexpr double kPanelRowEntries = 3;

/// Rows of A and B together from which 16-lane f32 tiles take two outputs
/// per group (chooseSddmmSchedule).
constexpr int64_t kTwoOutputOperandRows = 2048;

/// 64 x 64 SDDMM blocks from this many on (one per SM and some); fewer
/// leave SMs idle, and 32 x 32 blocks make four times as many.
constexpr int64_t kSddmmWideBlocks = 132;

/// 16-bit 64 x 64 blocks (wgmma) from this many on when k is at least
/// kWgmmaShortestK16, with prepared windows; below that k the 32 x 32 blocks'
/// extra parallelism wins.
constexpr int64_t kWgmmaFewestBlocks16 = 64;

/// Long products too small for kSddmmWideBlocks blocks of 64 x 64, but with
/// at least kSplitFewestBlocks of them, split k in two (a cluster of two blocks
/// per output block, sm_90), from k = 512 in f32 and 1024 in 16-bit: each
/// block's fixed cost counts twice, so shorter k does not pay, nor do more
/// splits. From kSplitOverTilesK, f32 takes such blocks from
/// kDenseBlocksDensity32 on whatever the work.
constexpr int64_t kSplitFewestBlocks = 64;
constexpr int64_t kSplitShortestK32 = 512, kSplitShortestK16 = 1024;
constexpr int64_t kSplitOverTilesK = 1024;
/// (A · B) ⊙ S with B[k, n]: B is copied into Bᵀ first (a transpose of n k
/// elements, then the tiles or blocks of the transposed form) unless S has
/// fewer than a tenth of an entry per column of B, where gathering reads less of
/// B than the copy writes (a traffic estimate: gathering, a warp per row, rarely
/// wins).
constexpr double kTransposeFirstEntriesPerColumn = 0.1;

/// Whether the product is long in k but has too few 64 x 64 blocks to fill
/// the GPU (the case for splitting k).
bool longFewBlocks(const SparsityStats &stats, int64_t k, int elementBytes) {
  const int64_t wideBlocks = occupiedBlocksOf(stats, 64);
  const int64_t shortestK = elementBytes == 4 ? kSplitShortestK32 : kSplitShortestK16;
  return k >= shortestK && wideBlocks >= kSplitFewestBlocks && wideBlocks < kSddmmWideBlocks;
}

/// Whether sddmmBlockSize's 64 x 64 blocks split k in two: 16-bit only. f32
/// takes 32 x 32 blocks fed straight from global memory there instead
/// (SddmmDirect.cuh), which are faster than its split blocks.
bool splitsK(const SparsityStats &stats, int64_t k, int elementBytes) {
  return elementBytes != 4 && longFewBlocks(stats, k, elementBytes);
}

/// The side of the SDDMM dense blocks: 64 when the pattern makes at least
/// kSddmmWideBlocks blocks of 64 x 64 (in 16-bit with k >= 256, at least
/// kWgmmaFewestBlocks16; with k split in two, kSplitFewestBlocks: 16-bit
/// only), otherwise 32 (four times the blocks; in f32 SddmmDirect.cuh's).
int sddmmBlockSize(const SparsityStats &stats, int64_t k, int elementBytes) {
  const int64_t wideBlocks = occupiedBlocksOf(stats, 64);
  if (elementBytes == 2 && k >= kWgmmaShortestK16 && wideBlocks >= kWgmmaFewestBlocks16)
    return 64;
  return wideBlocks >= kSddmmWideBlocks || splitsK(stats, k, elementBytes) ? 64 : 32;
}

/// Whether the dense blocks sddmmBlockSize chooses fill the GPU: at least
/// kSddmmWideBlocks of them, or 64 x 64 ones whose k is split (two thread
/// blocks each).
bool denseBlocksFillGpu(const SparsityStats &stats, int64_t k, int elementBytes) {
  return longFewBlocks(stats, k, elementBytes) ||
         occupiedBlocksOf(stats, sddmmBlockSize(stats, k, elementBytes)) >= kSddmmWideBlocks;
}

/// Whether dense tensor-core blocks (SddmmBlocks.cuh) beat dot products per
/// nonzero: computing every product of a dense block costs less than
/// reading a row of B per output once the pattern is dense enough and the
/// product large enough. A pattern not known is assumed too sparse.
bool prefersDenseBlocks(const SparsityStats &stats, int64_t k, int elementBytes) {
  if (!stats.known() || stats.rows <= 0 || stats.cols <= 0)
    return false;
  // (Counted over the blocks holding entries, the only ones launched.)
  const double density = blockDensity(stats);
  const double work = double(stats.nnz) * double(k);
  if (leavesBlocksEmpty(stats) &&
      density < (k < kWgmmaLongK16    ? kPartialBlocksDensityShortK
                 : elementBytes == 4 ? kPartialBlocksDensity32LongK
                                     : 0.0))
    return false;
  if (elementBytes == 2) {
    const int64_t wideBlocks = occupiedBlocksOf(stats, 64);
    const bool wgmmaBlocks = k >= kWgmmaShortestK16 && wideBlocks >= kSddmmWideBlocks &&
                             wideBlocks <= kWgmmaMostBlocks16 &&
                             density >= (k >= kWgmmaLongK16 ? kWgmmaDensity16LongK
                                                            : kWgmmaDensity16);
    const bool longKBlocks = k >= kWgmmaLongK16 && wideBlocks >= kSplitFewestBlocks &&
                             density >= kWgmmaDensity16;
    return (density >= kDenseBlocksDensity16 && work >= kDenseBlocksWork16) || wgmmaBlocks ||
           longKBlocks;
  }
  if (elementBytes == 4) {
    return (density >= kDenseBlocksDensity32 &&
            (work >= kDenseBlocksWork32 ||
             (k >= kSplitOverTilesK && longFewBlocks(stats, k, elementBytes)))) ||
           (density >= kDenseBlocksDensity32Filled && work >= kDenseBlocksWork32Filled &&
            denseBlocksFillGpu(stats, k, elementBytes));
  }
  return false;
}

/// Whether an SDDMM of tiles of nonzeros takes tiles of 32 (one output per
/// lane in the end): patterns large enough to keep the SMs busy with them.
bool takesLaneTiles(const SparsityStats &stats, int64_t k, int elementBytes) {
  if (elementBytes == 4)
    return stats.nnz >= kLaneTileNonzeros && double(stats.nnz) * double(k) >= kLaneTileWork;
  return elementBytes == 2 && stats.nnz >= kLaneTileNonzeros;
}

/// The column panel of f32 tiles of 32 nonzeros (kPanelNonzeros), 0
/// where S's own order serves.
int sddmmColumnPanel(const SparsityStats &stats, int64_t k, int elementBytes) {
  if (elementBytes != 4 || !stats.known() || stats.nnz < kPanelNonzeros)
    return 0;
  int64_t panel = k * elementBytes <= 1024 ? 128 : 64;
  if (stats.rows >= 16 * stats.cols)
    panel *= 2;
  // Entries a row holds in a panel, counted over the 64 x 64 blocks that
  // hold any: the uniform estimate for patterns that fill their blocks, and
  // for banded ones (a stiffness matrix's rows crowd near the diagonal)
  // what their rows hold where they have entries.
  if (stats.cols < 2 * panel || blockDensity(stats) * double(panel) < kPanelRowEntries)
    return 0;
  return int(panel);
}

/// Whether (A · B) ⊙ S copies B into Bᵀ and runs the transposed form's
/// schedule (kTransposeFirstEntriesPerColumn); an unknown pattern counts as
/// dense enough.
bool transposesRhsFirst(const SparsityStats &stats) {
  return stats.nnz < 0 || stats.nnz >= kTransposeFirstEntriesPerColumn * double(stats.cols);
}

} // namespace

SddmmSchedule sopt::chooseSddmmSchedule(const SparsityStats &stats, int64_t k,
                                        bool transposeRhs, int elementBytes) {
  if (!transposeRhs && transposesRhsFirst(stats)) {
    SddmmSchedule s = chooseSddmmSchedule(stats, k, /*transposeRhs=*/true, elementBytes);
    s.transposeRhsFirst = true;
    return s;
  }
  SddmmSchedule s;
  s.tilesPerBlock = kThreadsPerBlock / 32;
  if (!transposeRhs) {
    // Gathering B's columns: one lane per output, a warp per row.
    s.rowOrder = rowsDiffer(stats) ? RowOrder::ByLength : RowOrder::Natural;
    s.threadsPerNonzero = 1;
    s.vectorWidth = 1;
    s.tileNonzeros = 32;
    return s;
  }
  // Dense blocks when they are faster, and when k is too long for a warp
  // per output to hold A's slice in registers (they take any k).
  const bool blocksApply = elementBytes == 2 || elementBytes == 4;
  if (blocksApply && (prefersDenseBlocks(stats, k, elementBytes) ||
                      (k + 31) / 32 > kMaxSddmmElementsPerLane)) {
    s.tiling = SddmmTiling::DenseBlocks;
    s.blockSize = sddmmBlockSize(stats, k, elementBytes);
    s.kSplits = splitsK(stats, k, elementBytes) ? 2 : 1; // its blocks are 64 x 64
    return s;
  }
  s.vectorWidth = widestVector(k, elementBytes);
  if (takesLaneTiles(stats, k, elementBytes)) {
    // As many lanes per output as vectors each lane loads (8 for k = 256,
    // 16 for k = 1024), within the elements a lane may hold.
    const bool wide = elementBytes == 4;
    const int64_t vectors = std::max<int64_t>(k / s.vectorWidth, 1);
    const int64_t mostElements = wide ? kMaxSddmmElementsPerLane : kLaneTileElements16;
    int64_t lanes = powerOfTwoAtLeast(int64_t(std::ceil(std::sqrt(double(vectors)))));
    while (lanes < 32 && (k + lanes - 1) / lanes > mostElements)
      lanes *= 2;
    s.threadsPerNonzero = int(std::min<int64_t>(lanes, 32));
    s.tileNonzeros = 32;
    s.tilesPerBlock = wide ? kLaneTileWarps : kLaneTileWarps16;
    if (int panel = sddmmColumnPanel(stats, k, elementBytes)) {
      // Twice the lanes per output there (each lane holds half as much of A's
      // row), but no more than 8 where that leaves a lane fewer than 16 elements of
      // k, and as many warps per block as fit: one block per SM.
      s.columnPanel = panel;
      s.threadsPerNonzero = int(std::min<int64_t>(
          std::min(2 * s.threadsPerNonzero, 32), std::max<int64_t>(8, k / 16)));
      s.tilesPerBlock = sddmmPanelMaxWarps(s, k);
    }
    return s;
  }
  // Lanes per output: 16 elements of k each (fewer lanes wait longer on
  // their loads, more leave too few outputs per warp), and more when the
  // pattern is too small to give every SM enough warps otherwise.
  const int64_t mostLanes =
      std::min<int64_t>(32, powerOfTwoAtMost(std::max<int64_t>(k / s.vectorWidth, 1)));
  const int64_t lanesForK = std::min(mostLanes, powerOfTwoAtLeast((k + 15) / 16));
  int64_t lanes = lanesForK;
  while (lanes < mostLanes && stats.nnz >= 0 &&
         stats.nnz / (2 * (32 / lanes)) < kBusySddmmWarps)
    lanes *= 2;
  s.threadsPerNonzero = int(lanes);
  // One output per group, eight warps per block: with the entries' rows
  // prepared the tiles' chains are short, and more warps hide more. 16-bit tiles
  // do so only at short k (kShortK16) where each lane still loads more than one
  // vector of A's row per output: the loads in flight are then the warps'.
  const bool oneOutput = elementBytes == 4 || (k <= kShortK16 &&
                                               k > int64_t(s.vectorWidth) * s.threadsPerNonzero);
  if (!oneOutput) {
    // Two outputs per group and round: two independent loads in flight.
    s.tileNonzeros = 2 * (32 / s.threadsPerNonzero);
    return s;
  }
  s.tileNonzeros = 32 / s.threadsPerNonzero;
  // Except, in f32, two outputs per 16-lane group when k itself asks for 16
  // lanes and A and B are large (rows + cols): each lane then has two rows of B
  // in flight instead of one, which pays once they no longer stay in L1.
  if (elementBytes == 4 && lanesForK == 16 && lanes == 16 &&
      stats.rows + stats.cols >= kTwoOutputOperandRows)
    s.tileNonzeros *= 2;
  s.tilesPerBlock = kSmallTileWarps;
  return s;
}
