//===- SparseSchedule.cpp - choosing SpMM and SDDMM tile schedules ---------===//

#include "sparse-opt/Runtime/SparseSchedule.h"
#include "sparse-opt/Runtime/RowOrder.h"

#include <algorithm>
#include <cmath>

using namespace sopt;

namespace {

bool isPowerOfTwo(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

double densityOf(const SparsityStats &stats) {
  return double(stats.nnz) / (double(stats.rows) * double(stats.cols));
}

int64_t powerOfTwoAtMost(int64_t x) {
  int64_t p = 1;
  while (p * 2 <= x)
    p *= 2;
  return p;
}

int64_t powerOfTwoAtLeast(int64_t x) {
  int64_t p = 1;
  while (p < x)
    p *= 2;
  return p;
}

/// The widest vector (1, 2 or 4 elements, at most 16 bytes) that divides
/// `extent`, so that every row of a row-major operand starts aligned.
int widestVector(int64_t extent, int elementBytes) {
  for (int width : {4, 2})
    if (extent % width == 0 && width * elementBytes <= 16)
      return width;
  return 1;
}

/// Threads that keep an H100 busy: 132 SMs with 1024 resident threads each
/// is half the occupancy limit, enough to hide L2 latency with the loads
/// each thread keeps in flight.
constexpr int64_t kBusyThreads = 132 * 1024;

/// When SDDMM uses dense blocks: from a density and an amount of work
/// (nnz * k) on, 16-bit and f32 elements (fitted on the DLMC sweeps of
/// benchmarks/sparse --explore, H100: below them the blocks' fixed cost of
/// ~5 us or the three TF32 products per f32 product outweigh the reads of
/// B's rows they save). In 16-bit, 5 % dense patterns ran about as fast or
/// faster in tiles of 32 nonzeros (1.8x on 33288 x 512, k = 256), and the
/// 32 x 32 blocks won from 6.7e6 products (512 x 512 at 10 %, k = 256).
constexpr double kDenseBlocksDensity16 = 0.06, kDenseBlocksWork16 = 6e6;
constexpr double kDenseBlocksDensity32 = 0.08, kDenseBlocksWork32 = 3e7;
/// f32 also from 15 % density and 1e7 products when the blocks fill the
/// GPU (kSddmmWideBlocks of them): since the blocks search their rows
/// during the multiplies, 512 x 512 at 70-80 % with k = 256 ran 1.17-1.21x
/// faster in 32 x 32 blocks than in tiles (H100 sweep of 9c90ba0; the
/// 2048 x 512 patterns at 10 %, 2.7e7 products, stay faster in tiles).
constexpr double kDenseBlocksDensity32Filled = 0.15, kDenseBlocksWork32Filled = 1e7;
/// 16-bit 64 x 64 blocks multiply by wgmma on sm_90a, 1.3-1.6x as fast as
/// the mma.sync blocks the thresholds above were fitted with (k = 256 and
/// 1024): they also take patterns from 4 % density (1.9 % from k = 1024,
/// so DLMC's 98 % sparse ones at 0.019999; not below k = 256) that make
/// kSddmmWideBlocks to kWgmmaMostBlocks16 such blocks. Estimated on the
/// H100 sweep of 9c90ba0 with the blocks' times divided by their same-run
/// speed-ups, then confirmed by the benchmark: 2048 x 512 at 95 %, 1.2-1.3x
/// faster than the tiles at k = 256 and 1.8x at k = 1024; at 98 %,
/// 1.2-1.3x at k = 1024 (estimated 0.7-0.8x at k = 256); the 33288 x 512
/// patterns (4160 blocks) stay in tiles of 32 nonzeros (estimated 0.4-0.7x
/// in blocks).
/// From k = 1024 they also take 4 % dense patterns of any number of blocks
/// from kSplitFewestBlocks on (with the prepared entries' rows, H100 sweep
/// of fc8b578): 512 x 512 at 95 % (64 blocks, k split) ran 1.25x and
/// 33288 x 512 at 95 % (4160 blocks) 1.34x faster than in tiles; at 98 %
/// both stayed faster in tiles (0.61-0.74x in blocks).
constexpr double kWgmmaDensity16 = 0.04, kWgmmaDensity16LongK = 0.019;
/// Patterns that leave 64 x 64 blocks empty (banded ones, leavesBlocksEmpty)
/// count their density over the blocks holding entries, the only ones
/// launched (OccupiedBlocks.cuh); there the blocks also need this much of it below
/// k = kWgmmaLongK16 (both types) and, in f32, kPartialBlocksDensity32LongK
/// from it. Fitted on an explore (H200, 2026-11-26) of six banded patterns
/// of benchmarks/sparse/make_graphs.py and four SuiteSparse ones at k = 256
/// and 1024: at k = 256 blocks lost at block densities of 7-9 % (f32
/// pushpull 0.80x, a 16 k band of 9 % 0.91x, f16 bcsstk13 0.72x) and won
/// from 21 % (1.3-5x, sliding-window masks of 67-89 %); at k = 1024 f32 won
/// from 9 % (1.28x) and lost at 8 % (0.96x), 16-bit won from 7 % (1.2-2.3x).
constexpr double kPartialBlocksDensityShortK = 0.1, kPartialBlocksDensity32LongK = 0.085;
constexpr int64_t kWgmmaShortestK16 = 256, kWgmmaLongK16 = 1024;
constexpr int64_t kWgmmaMostBlocks16 = 1024;

/// When SpMM uses dense blocks (SpmmBlocks.cuh). f32, fitted on an H100
/// sweep of every DLMC matrix (benchmarks/sparse --explore-all, N = 256 and
/// 1024, 2026-11-24): from a density of 25 %, or 15 % when the longest row
/// is twice the mean (the row tiles then wait on that row), the tensor
/// cores' three TF32 products per product over whole blocks cost less than
/// one FMA per stored entry and output column; at 20 % the row tiles still
/// won on evenly filled rows. 16-bit (one m16n8k16 product per product),
/// from the same 25 %: on the H100 explore of 2026-11-26 (DLMC at 50, 70
/// and 80 %, N = 256 and 1024) the blocks ran 1.38-2.72x faster than the
/// best other schedule at 50 %, 1.03-1.99x at 70 %, 0.80-1.54x at 80 %
/// (random pruning mostly below 1, skewed rows or not). Not below 2^24
/// products of the dense shape (of its occupied blocks where
/// leavesBlocksEmpty), where the blocks' fixed cost (a pipeline of
/// 64-column chunks) dominates. Banded patterns weigh the density of their
/// occupied blocks (blockDensity): the blocks walk only their rows' window
/// of k; on the same explore sliding-window masks of 67-89 % block density
/// ran 1.4-3.2x faster in blocks (f32 and f16), the FEM-like bands of 4-21 %
/// 0.32-1.18x.
constexpr double kSpmmDenseBlocksDensity = 0.25, kSpmmDenseBlocksSkewedDensity = 0.15;
constexpr double kSkewedRow = 2.0; // longest row over the mean
constexpr double kSpmmDenseBlocksWork = double(1 << 24);

/// Blocks of 64 x 64 while they give at least this many blocks (3/4 of an
/// H100's SMs, one block each); blocks of 32 x 32 (four times as many, two
/// per SM) otherwise: in the sweep 64 x 64 won from 128 blocks on, 32 x 32
/// at 32 (in 16-bit too, 2026-11-26, but for 2048 x 512 at n = 1024: 32 x
/// 64 1.03x faster). Banded patterns take 32 x 64 (their 32-row windows of
/// k are narrower): the best shape in 17 of the explore's 24 band cases,
/// within 4 % of the best in the rest, 1.05-1.12x over 64 x 64 on the 16
/// k-token mask.
constexpr int64_t kSpmmLargeBlocks = 96;
/// f32 blocks of 32 x 32 fewer than this (3/8 of an H100's SMs), or fewer
/// than kSpmmLargeBlocks over a k of kSpmmLongK or more, each walk their
/// chunks of k one after another on too few SMs: the row tiles the rule
/// then gives ran 1.24-2.08x (n = 64, 32 blocks) and 1.07-1.61x (n = 128,
/// 64) faster on the 512 x 2048 DLMC patterns of 50-80 % (k = 2048) and
/// 1.10-1.51x on the 512 x 512 ones at n = 64 (k = 512), where at n = 128
/// the blocks stayed ahead (1.43x at 50 %, 0.97-1.11x at 70 %; explores
/// of 7eee14d and 3986548, H100, 2026-11-27).
constexpr int64_t kSpmmFewestBlocks32 = 48, kSpmmLongK = 1024;
/// 16-bit blocks fewer than kSpmmFewestBlocks32 give way too where the
/// density is under kSpmmFewBlocksDensity16: in the f16 A/B of 2026-11-27
/// (H100, n = 32 and 64) the 70 % DLMC patterns of 512 x 2048 and 512 x 512
/// ran 1.14-1.82x faster in row tiles or slices, the 50 % ones 0.67-0.96x
/// (but 512 x 2048 at n = 64, 1.23x).
constexpr double kSpmmFewBlocksDensity16 = 0.4;
/// 16-bit blocks of 128 columns (from n = 128): 64 x 128 from this many
/// on, else 32 x 128 from kSpmmLargeBlocks on; banded patterns 32 x 128. On
/// an H100 A/B of 2026-11-26 (launchSpmmBlocks alone, DLMC at 50 and 70 %,
/// the three sliding-window masks; docs/benchmarks/sweeps) they ran: 2048 x
/// 512 at n = 1024 (256 blocks of 64 x 128) 1.48-1.49x faster than 64 x
/// 64; 512 x 2048 and 512 x 512 at n = 1024 (128 blocks of 32 x 128)
/// 1.12-1.20x; 2048 x 512 at n = 256 (128) 1.08-1.11x; the masks in 32 x
/// 128 1.35-1.47x over 32 x 64 (within 9 % of 64 x 128 where that was
/// faster).
/// With fewer blocks (512 rows at n = 256: 32) they lost to 32 x 32.
constexpr int64_t kSpmmWideBlocks16 = 192;
/// SpMMs whose row tiles would read B from L2 once per stored entry take
/// staged slices of B where k is short enough for a 128 KiB slice (k <= 512:
/// 64 f32 or 128 16-bit columns) and from 2^20 products (below, copying the
/// slice costs more than it saves). Fitted to an H100 sweep of the DLMC
/// patterns of 512 columns (50-98 %, n = 256 and 1024, 2026-11-24; raw in
/// docs/benchmarks/sweeps):
/// - f32 up to 20 % density (denser ones stay in tensor-core blocks or row
///   tiles: 0.5-0.96x there), before dense blocks from n = 512 (1.24-1.30x
///   over them at 80 %): 1.08-1.63x over the old choice at n = 1024, 0.91-
///   1.58x at n = 256. Vectors of 4 from n = 512 or beyond 4096 rows, of 2
///   otherwise (32 lanes of a row: 1.1-1.3x on the 512-row patterns).
/// - 16-bit up to 50 % density (denser patterns were not measured); from
///   n = 512 up to 4096 rows, where the density reaches 4 % or
///   the rows are skewed: 1.0-1.9x (random 98 % patterns 0.95-0.98x, the
///   33288-row one 0.77-0.91x, left out); below n = 512 up to 1024 rows 64
///   columns in vectors of 2 (1.09-1.39x on 512 rows, 0.84-1.52x on 2048),
///   and from 1025 rows 128 columns in vectors of 4 under the same density
///   or skew condition as from n = 512 (H100 explore, 2026-11-25, f16 at
///   n = 256 on the 22 DLMC patterns of 2048 x 512: 0.90-1.46x over the
///   row tiles, 1.08x geomean; docs/benchmarks/sweeps).
constexpr int64_t kStagedSliceBytes = 128 * 1024, kStagedSliceLongestK = 512;
constexpr double kStagedSliceProducts = double(1 << 20);
constexpr double kStagedSliceMostDensity32 = 0.2, kStagedSliceLeastDensity16 = 0.04;
constexpr double kStagedSliceMostDensity16 = 0.5; // the densest DLMC patterns
constexpr int64_t kStagedSliceWideN = 512, kStagedSliceManyRows = 4096;
constexpr int64_t kStagedSliceMostRows16Narrow = 1024;

/// Threads of an SDDMM block: four warps, small enough that the tail of a
/// launch leaves few SMs idle.
constexpr int kThreadsPerBlock = 128;

/// The SpMM heuristic's constants for one element size, fitted on an H100
/// sweep (benchmarks/sparse --explore-all, 2026-11-24: every DLMC matrix,
/// N = 256 and 1024, 320 schedules each; docs/benchmarks/sparse.md).
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

/// f32 row tiles whose B, as far as the pattern reads it (k rows, or nnz
/// if fewer), is larger than the H100's L2 (50 MB): tiles of
/// kL2SliceLanes lanes x kL2SliceColumnsPerLane columns (64), by column
/// slice, so that the slice of B the GPU works through (k x 64) stays in L2
/// instead of B's whole rows streaming past it. On the H100's R-MAT graph
/// sweeps (benchmarks/sparse/make_graphs.py; 2026-11-25, and in one run
/// with the rule on 2026-11-26) the five such cases (B of 64-256 MB) ran
/// 0.97-1.13x as fast as the fitted tiles, 1.08x geomean; with B of 16 MB
/// or less the same tiles lost (0.85-0.98x but one).
constexpr double kL2Bytes = 50e6;
constexpr int64_t kL2SliceLanes = 8, kL2SliceColumnsPerLane = 8;

/// Local patterns: banded or stiffness-like, their entries packed in the
/// 64 x 64 blocks near a diagonal (leavesBlocksEmpty, and at least this
/// density in the occupied blocks: graphs scatter theirs, at 0.1-0.5 % on
/// the R-MAT ones). Neighbouring rows then read neighbouring rows of B, so
/// f32 row tiles from n = 256 keep the rows in order and take B by column
/// slice: tiles of 128 columns (32 lanes x 4, 16 x 8 from n = 1024), 256
/// threads a block. On the H100 (explore of e4cfab3, 2026-11-27, both row
/// orders; SuiteSparse bcsstk13, cryg2500, pushpull, zenios and the three
/// make_graphs.py bands, 4-21 % dense in their occupied blocks) that ran
/// 1.24x (n = 256, 1.09-1.44x) and 1.29x (n = 1024, 1.06-1.76x) faster
/// than the fitted tiles (rows by length), within 1.09x and 1.08x geomean
/// of each case's best.
constexpr double kLocalBlockDensity = 0.01;
constexpr int64_t kLocalTileColumns = 128, kLocalBlockThreads = 256, kLocalLeastColumns = 256;

/// The most groups that share one tile (the kernel's shared partial sums).
constexpr int kMaxRowSplits = 8;

/// 16-bit row tiles of rows this long on average take kWideRowColumns
/// columns per lane in groups of kWideRowLanes (chooseSpmmRowTiles).
constexpr double kWideRowMeanLength = 32;
constexpr int64_t kWideRowColumns = 8, kWideRowLanes = 16;
/// Short outputs, kShortNLeast to kShortNMost columns (a decoder's batch
/// of tokens): f32 row tiles of rows kShortNRowMeanLength entries long or
/// longer on average take kShortNColumnsPerLane columns per lane in 32-lane
/// tiles, split as even rows are (skewed ones too), and f32 staged slices
/// of up to kShortNSliceMostRows32 rows take 32 columns, one per lane
/// (chooseSpmmRowTiles, spmmStagedSlices). Fitted on the H100 explores of
/// 7eee14d and 3986548 (every schedule of the 22 DLMC patterns of 512 x 2048
/// and 512 x 512 at n = 64 and 128, f32; docs/benchmarks/sweeps), then
/// measured against the fit's schedules (old, new, old, new in one device
/// call, 2026-11-27; DLMC, graphs, bands and SuiteSparse): the row tiles
/// 1.00-1.82x faster on the 512 x 2048 and 512 x 512 patterns at n = 64
/// (0.95x on the random 98 % one) and 1.05-1.39x at n = 128; the slices
/// 1.14-1.18x on 512 x 512 at n = 64 and 1.00-1.08x at n = 128, where the
/// 2048 x 512 patterns ran 0.82-1.10x and the 33288 x 512 ones 0.46-0.58x
/// in 32-column slices (they keep 64). Not fitted beyond n = 128.
/// 16-bit row tiles take the same 2 columns a lane where the rows are
/// skewed (the longest twice the mean) or n is at most kShortNEvenMost16,
/// before their 8-column 16-lane tiles: on an explore of every f16
/// schedule of the same 22 patterns at n = 64 and 128, then an A/B against
/// the rules before (old, new, old, new in one device call, f16 at n = 32,
/// 64, 96 and 128; H100, 2026-11-27): the 512 x 2048 ones 1.00-1.52x at
/// n = 64 and the skewed ones 1.13-1.66x at n = 96-128, where even rows ran
/// 0.85-1.03x so (they keep the 8-column tiles).
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

/// Warps an SDDMM of tiles of nonzeros should have at least: 16 per SM.
constexpr int64_t kBusySddmmWarps = 16 * 132;

/// SDDMMs of at least this many nonzeros (eight warps per SM) take tiles of
/// 32 nonzeros, one output per lane after the transposed butterfly; below
/// it the smaller tiles' extra warps win. In f32 the bound was four warps
/// per SM until the tiles read their entries' rows prepared (1.12x at
/// k = 256, 1.07x at 1024 over the smaller tiles then); with the rows
/// prepared the smaller tiles ran 1.10-1.23x faster on the 512 x 512 DLMC
/// patterns at 90 % (26 k nonzeros, k = 256) and 1.03x on 2048 x 512 at
/// 98 % (21 k, k = 1024), the 32-tiles stayed ahead from 52 k (H100
/// sweeps, 2026-11-24). 16-bit SDDMMs take them with half the elements of
/// k per lane (32: for k = 1024 the 16-lane groups ran 1.16x slower than
/// 32-lane ones) and four warps per block.
constexpr int64_t kLaneTileNonzeros = 8 * 132 * 32;
/// ... and in f32 from 6e6 products (nnz * k) on: with less work the
/// smaller tiles' extra warps won (2048 x 512 at 98 %, 21 k nonzeros,
/// k = 256, 5.4e6 products: 1.15x faster in tiles of 4 in two sweeps).
constexpr double kLaneTileWork = 6e6;
constexpr int kLaneTileElements16 = 32;
/// Warps per block for those tiles (two did best on the sweep in f32, four
/// in 16-bit), and for the f32 tiles of one output per group.
constexpr int kLaneTileWarps = 2, kLaneTileWarps16 = 4, kSmallTileWarps = 8;
/// 16-bit tiles of 1-16 nonzeros at k up to this take one output per group
/// and kSmallTileWarps warps where a lane loads more than one vector of k:
/// fitted on the f16 explore of a647fd0 (every second DLMC pattern at k =
/// 64 and 128), then measured against two outputs per group and four warps
/// (old, new, old, new in one device call; H100, 2026-11-27; DLMC, graphs,
/// bands, SuiteSparse at k = 32-128): 1.04-1.14x at k = 64 with two
/// vectors a lane, 1.04-1.22x at k = 96, 1.04-1.23x at k = 128 (the 98 %
/// 2048 x 512 and 512 x 2048 patterns most); with one vector a lane
/// (k = 32; 16 lanes at 64, 32 at 128) 0.93-1.00x, so not there.
constexpr int64_t kShortK16 = 128;
/// f32 tiles of 32 nonzeros take S's entries by column panels
/// (SddmmPanels.cuh) from 12 tiles per SM of an H100 on (fewer: a warp's 32
/// outputs run one after another where smaller tiles run side by side)
/// where each row holds 3 entries or more in a panel on average (A's row is
/// then read once for several of them) and B spans two panels or more. The
/// panel holds 128 rows of B where they take 1 KB or less (128 KB in L1),
/// else 64, twice that where S has 16 times as many rows as columns (the
/// SMs then split each panel's rows among more blocks). H100, 2026-11-27,
/// the DLMC f32 patterns it takes (5-10 % density, 52-852 k nonzeros)
/// against the tiles in S's order the rule gave them before: 1.15-1.21x at
/// k = 1024 (7 patterns), 1.01-1.20x at k = 256 (12) in the benchmark of
/// 891c4fe; the prototype's grid of panels, lanes and warps is in
/// docs/benchmarks/sweeps/sddmm-column-panels.txt. The panels also
/// replaced the dense blocks f32 patterns with a B of 1 MB or more took
/// from 2.5e7 products (b59dc77: the 512 x 2048 DLMC patterns at 90 % with
/// k = 256, 1.14x faster in 64 x 64 blocks than in tiles in S's order):
/// by panels they ran 1.20-1.21x faster than in those blocks (explore of
/// 891c4fe, H100, 2026-11-27). A row's entries per panel are counted over
/// the 64 x 64 blocks holding entries (blockDensity), which for banded
/// patterns is more than the uniform estimate: the SuiteSparse stiffness
/// matrices bcsstk13 and pushpull (42 and 49 entries a row on average, near
/// the diagonal; 2003 and 4000 columns) ran 1.37x / 1.10x (k = 256) and
/// 1.90x / 1.31x (k = 1024) faster by panels than in S's order, where they
/// had run 0.98x / 0.88x and 0.63x / 0.80x cuSPARSE (explore of a647fd0,
/// H100, 2026-11-27).
constexpr int64_t kPanelNonzeros = 12 * 132 * 32;
constexpr double kPanelRowEntries = 3;

/// Rows of A and B together from which 16-lane f32 tiles take two outputs
/// per group (chooseSddmmSchedule).
constexpr int64_t kTwoOutputOperandRows = 2048;

/// 64 x 64 SDDMM blocks from this many on (one per SM and some); fewer
/// leave SMs idle, and 32 x 32 blocks make four times as many.
constexpr int64_t kSddmmWideBlocks = 132;

/// Blocks of side `side` the pattern's shape makes (an SDDMM's dense
/// blocks; an SpMM's blocks of A).
int64_t shapeBlocksOf(const SparsityStats &stats, int64_t side) {
  return ((stats.rows + side - 1) / side) * ((stats.cols + side - 1) / side);
}

/// Whether a known pattern leaves a quarter or more of its 64 x 64 blocks
/// empty (a banded one, say). The dense blocks launch only the occupied
/// blocks (OccupiedBlocks.cuh); the rules then count those, but keep the
/// shape's counts, which they were fitted on, for patterns that fill
/// (nearly) every block: a magnitude-pruned DLMC pattern with 63 of its 64
/// blocks occupied is one.
bool leavesBlocksEmpty(const SparsityStats &stats) {
  return stats.occupiedBlocks64 >= 0 && stats.occupiedBlocks64 * 4 < shapeBlocksOf(stats, 64) * 3;
}

/// Blocks of side `side` (32 or 64) the dense-block rules count: those
/// holding entries where leavesBlocksEmpty, else all of the shape's.
int64_t occupiedBlocksOf(const SparsityStats &stats, int64_t side) {
  if (!leavesBlocksEmpty(stats))
    return shapeBlocksOf(stats, side);
  const int64_t known = side == 32 ? stats.occupiedBlocks32 : stats.occupiedBlocks64;
  return known >= 0 ? known : shapeBlocksOf(stats, side);
}

/// 16-bit 64 x 64 blocks (wgmma) from this many on when k is at least
/// kWgmmaShortestK16: on the H100 the 512 x 512 DLMC patterns (64 such
/// blocks) ran 1.25-1.30x faster in them than in 32 x 32 blocks at k =
/// 1024 and 1.01-1.06x at k = 256 (0.90-0.97x at k = 64), with prepared
/// windows.
constexpr int64_t kWgmmaFewestBlocks16 = 64;

/// Long products too small for kSddmmWideBlocks blocks of 64 x 64, but
/// with at least kSplitFewestBlocks of them, split k in two (a cluster of
/// two blocks per output block, sm_90), from k = 512 in f32 and 1024 in
/// 16-bit. On the H100 the 512 x 512 DLMC patterns (64 blocks) ran so, in
/// f32, 1.15x (k = 512), 1.27-1.32x (1024), 1.44x (2048) and 1.54x (4096)
/// faster than in 32 x 32 blocks; in 16-bit 0.91-0.94x (512), 1.04-1.10x
/// (1024), 1.24x (2048) and 1.45x (4096) as fast as in unsplit 64 x 64
/// blocks. At k = 256 the split did not pay (f32 0.94-1.0x, 16-bit
/// 0.79-0.84x: each block's fixed cost, about that of two chunks, counts
/// twice); splitting in four or eight lost at every k up to 4096, and the
/// 2048 x 512 patterns (256 blocks) ran fastest unsplit at every k. From
/// kSplitOverTilesK, f32 takes such split blocks from kDenseBlocksDensity32
/// on whatever the work (512 x 512 at 90 %, k = 1024: 15.2 us against
/// 17.6 us in tiles).
constexpr int64_t kSplitFewestBlocks = 64;
constexpr int64_t kSplitShortestK32 = 512, kSplitShortestK16 = 1024;
constexpr int64_t kSplitOverTilesK = 1024;
/// (A · B) ⊙ S with B[k, n]: B is copied into Bᵀ first (a transpose of
/// n k elements, then the tiles or blocks of the transposed form) unless S
/// has fewer than a tenth of an entry per column of B, where gathering
/// reads less of B than the copy writes (a traffic estimate, not a
/// measurement). On the H100 (2026-11-25, DLMC patterns, k = 1-64) the
/// gather, one warp per row, won only on a 512 x 512 pattern at 90 % for
/// k <= 4 (2.7 against 3.3 us) and lost up to 4x (512 x 2048 at 70 %,
/// k = 1: 17.2 against 4.3 us) and 3.5-25x from k = 16.
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
/// (SddmmDirect.cuh; on the H100 1.11-1.15x faster than the split blocks at
/// k = 1024 on 512 x 512 patterns).
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

/// Whether visiting the longest rows first is worth preparing: a known
/// pattern whose rows differ in length.
bool rowsDiffer(const SparsityStats &stats) {
  return stats.known() && stats.maxRowLength > stats.meanRowLength;
}

/// Whether a known pattern's longest row is at least twice the mean (row
/// tiles then wait on it).
bool rowsSkewed(const SparsityStats &stats) {
  return stats.known() && double(stats.maxRowLength) >= kSkewedRow * stats.meanRowLength;
}

} // namespace

bool sopt::launchesOccupiedBlocks(int64_t occupied, int64_t rows, int64_t cols,
                                  int64_t side) {
  if (occupied < 0 || side <= 0)
    return false;
  return occupied < ((rows + side - 1) / side) * ((cols + side - 1) / side);
}

double sopt::blockDensity(const SparsityStats &stats) {
  const int64_t all = shapeBlocksOf(stats, 64), occupied = occupiedBlocksOf(stats, 64);
  if (occupied <= 0 || occupied >= all)
    return densityOf(stats);
  return densityOf(stats) * double(all) / double(occupied);
}

SparsityStats sopt::sparsityStats(const int32_t *positions, int64_t rows, int64_t cols) {
  const sopt_row_stats rowStats = sopt_csr_row_stats(positions, rows);
  SparsityStats stats;
  stats.rows = rows;
  stats.cols = cols;
  stats.nnz = rowStats.nnz;
  stats.meanRowLength = rowStats.mean_length;
  stats.stddevRowLength = rowStats.stddev_length;
  stats.maxRowLength = rowStats.max_length;
  return stats;
}

SparsityStats sopt::sparsityStats(const int32_t *positions, const int32_t *coordinates,
                                  int64_t rows, int64_t cols) {
  SparsityStats stats = sparsityStats(positions, rows, cols);
  // (-1, "not known", where a block index would pass int32.)
  stats.occupiedBlocks32 =
      sopt_csr_occupied_blocks(positions, coordinates, rows, cols, 32, nullptr);
  stats.occupiedBlocks64 =
      sopt_csr_occupied_blocks(positions, coordinates, rows, cols, 64, nullptr);
  return stats;
}

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

namespace {

/// Hub rows: a longest row kHubSkew times the mean row and longer than
/// kHubEntries entries makes the row tiles cut their long rows into segments
/// (SpmmSchedule::rowSegment) of 4 mean rows, kMinRowSegment entries at
/// least: one tile group summing a graph's hub row of thousands of entries
/// set the kernel's time (R-MAT graphs of 4-64 k vertices ran 0.1-0.4x
/// cuSPARSE on the H100, 2026-11-25; benchmarks/sparse/make_graphs.py).
constexpr double kHubSkew = 16;
constexpr int64_t kHubEntries = 256;
constexpr int kMinRowSegment = 64;
constexpr int64_t kHubColumnsPerThread = 8;

/// Skewed rows on a GPU the row tiles do not fill: without splits, a
/// longest row kSegmentSkew times the mean (and long enough for two
/// segments) sets the time of a kernel whose tile groups all run at once,
/// so its long rows are cut into segments of a mean row (kMinRowSegment at
/// least). On the H100 the magnitude-pruned 512 x 2048 DLMC patterns at
/// 95 and 98 % (longest rows 4.6 and 6.1 means) ran 1.36-1.40x faster so in f32
/// at n = 256; at n = 1024 (two GPUs' lanes or more) segments did not pay.
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

SpmmSchedule sopt::chooseSpmmSchedule(const SparsityStats &stats, int64_t n,
                                      int elementBytes) {
  const bool blocks = prefersSpmmDenseBlocks(stats, n, elementBytes);
  // f32 slices beat the blocks from n = 512; 16-bit blocks beat the slices
  // at every n (the explore of 2026-11-26, DLMC in f16 where slices were
  // chosen: 1.5-2.0x at 50 %, 1.05-1.6x at 70 %).
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
  // Local patterns first, also where B outgrows L2 (a band of 16 k rows at
  // n = 1024, B of 64 MB: 1.40x over the L2 slices below).
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
  // around a few hubs) keep 8 columns per lane at most: on the H100 sweep of
  // R-MAT graphs 8 ran 1.2-2x faster than 16 (half the registers; the
  // segments already bound the chains).
  const int64_t widest = segment > 0 ? kHubColumnsPerThread : kMaxColumnsPerThread;
  int64_t perThread =
      std::min<int64_t>(powerOfTwoAtMost(int64_t(std::max(work, 1.0))), widest);
  // No more columns per thread than one lane of a 4-lane group needs.
  while (perThread > 1 && perThread * 4 > powerOfTwoAtLeast(n))
    perThread /= 2;
  const bool skewed = rowsSkewed(stats);
  // f32 rows of 64 entries or more that are even have a whole busy GPU's
  // room for their splits instead of half: on the H100 the random 80-95 %
  // 512 x 2048 DLMC patterns ran 1.09-1.27x faster split in two at n = 256
  // and 512 in the explore (sweeps, 2026-11-25; A/B 1.12x).
  const double splitBudget =
      elementBytes > 2 && rowsKnown && !skewed && stats.meanRowLength >= kEvenRowMeanLength32
          ? kEvenRowSplitBudget32
          : fit.splitBudget;
  // 16-bit outputs of 256 columns or more split rows for the longest
  // row's sake only when the rows are skewed (the longest twice the mean),
  // and then while its share exceeds kWideOutputLongRowShare entries
  // rather than 128: on the H100 (A/B on the 512 x 2048 DLMC patterns and
  // four SuiteSparse matrices at n = 64-1024) that ran 1.07-1.67x faster on
  // the skewed ones from n = 256 (the worst f16 DLMC case, 512 x 2048 at
  // 98 % and n = 1024, 1.46x), 1.07-1.15x on even rows at n = 1024 (fewer
  // splits), 0.98x at worst; below n = 256 it lost (0.81-0.90x on
  // bcsstk13, pushpull and a uniform graph at n = 64 and 128).
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
  // 16-bit rows of 32 entries or more take 8 columns per lane in 16-lane
  // tiles even where few outputs gave fewer (the split budget then restores
  // the lanes), one tile per block (a warp at least): each staged entry
  // feeds more FMAs. On the H100 the 512 x 2048 DLMC patterns (k = 2048,
  // no slices) ran 1.38x faster so than in 1, 2 or 4 columns in 32-lane
  // tiles (the 23 changed cases at n = 128-512, 1.00-1.89x; in the explore
  // before it, blocks of two tiles ran 0.9-1.0x of one, even rows split for
  // the longest row's sake 0.74-0.9x). Not where skewed rows (the longest
  // twice the mean) would get fewer lanes each than the fitted schedule
  // gives them: 0.81-0.87x on the magnitude-pruned 80-95 % ones at n = 256.
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
      // Twice the lanes per output there (each lane holds half as much of
      // A's row), but no more than 8 lanes where that leaves a lane fewer
      // than 16 elements of k (k = 128: 8 lanes ran 1.05-1.26x, geomean
      // 1.17x, faster than 16 on the 8 DLMC patterns an explore of a647fd0
      // timed, H100, 2026-11-27), and as many warps per block as fit: one
      // block per SM.
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
  // prepared the tiles' chains are short, and twice the warps hide more
  // (H100 sweep, 2026-11-24, f32 DLMC patterns these serve: 1.10x (0.94-
  // 1.7x) at k = 256 and 1.07x (1.03-1.24x) at k = 1024 over two outputs
  // per group and four warps; 16-bit tiles lost at k = 1024 that way, so
  // in 16-bit only at short k (kShortK16) where each lane still loads more
  // than one vector of A's row per output: the loads in flight are then
  // the warps').
  const bool oneOutput = elementBytes == 4 || (k <= kShortK16 &&
                                               k > int64_t(s.vectorWidth) * s.threadsPerNonzero);
  if (!oneOutput) {
    // Two outputs per group and round: two independent loads in flight.
    s.tileNonzeros = 2 * (32 / s.threadsPerNonzero);
    return s;
  }
  s.tileNonzeros = 32 / s.threadsPerNonzero;
  // Except, in f32, two outputs per 16-lane group when k itself asks for
  // 16 lanes and A and B are large (rows + cols): each lane then has two
  // rows of B in flight instead of one, which pays once they no longer
  // stay in L1 (H100 sweep, 2026-11-25, the six f32 DLMC patterns of
  // 2048 x 512 and 512 x 2048 at 98 %, k = 256: 1.07-1.10x; 512 x 512 at
  // 90-95 %: 0.83-0.92x, so not there).
  if (elementBytes == 4 && lanesForK == 16 && lanes == 16 &&
      stats.rows + stats.cols >= kTwoOutputOperandRows)
    s.tileNonzeros *= 2;
  s.tilesPerBlock = kSmallTileWarps;
  return s;
}

/// Why an SpMM's vectors of `vectorWidth` elements do not fit n columns of
/// `elementBytes` each ("" when they do).
static std::string checkSpmmVector(int vectorWidth, int64_t n, int elementBytes) {
  if (vectorWidth != 1 && vectorWidth != 2 && vectorWidth != 4)
    return "vector_width must be 1, 2 or 4";
  if (vectorWidth * elementBytes > 16)
    return "a vector of vector_width elements exceeds 16 bytes";
  if (n % vectorWidth != 0)
    return "the dense operand's " + std::to_string(n) +
           " columns are not a multiple of vector_width " + std::to_string(vectorWidth);
  return "";
}

std::string sopt::checkSpmmSchedule(const SpmmSchedule &s, int64_t n, int elementBytes) {
  if (s.rowSegment < 0)
    return "row_segment must be 0 or positive";
  if (s.rowSegment > 0 &&
      (s.tiling != SpmmTiling::RowTiles || s.rowOrder != RowOrder::ByLength))
    return "row_segment needs tiling = row_tiles and row_order = by_length";
  if (s.tiling == SpmmTiling::StagedSlices) {
    if (elementBytes != 2 && elementBytes != 4)
      return "tiling = staged_slices needs f32, f16 or bf16 elements";
    if (std::string vector = checkSpmmVector(s.vectorWidth, n, elementBytes); !vector.empty())
      return vector;
    if (s.tileColumns != 16 && s.tileColumns != 32 && s.tileColumns != 64 &&
        s.tileColumns != 128)
      return "tile_columns (the slice's width) must be 16, 32, 64 or 128 with "
             "tiling = staged_slices";
    if (s.threadsPerTile * s.vectorWidth != s.tileColumns || s.threadsPerTile < 4 ||
        s.threadsPerTile > 32)
      return "threads_per_tile must be tile_columns / vector_width, 4 to 32, with "
             "tiling = staged_slices";
    if (s.rowSplits != 1 || s.tileOrder != TileOrder::ByRow)
      return "row_splits and tile_order do not apply to tiling = staged_slices";
    if (s.tilesPerBlock <= 0 || s.threadsPerBlock() % 32 != 0 ||
        s.threadsPerBlock() > kMaxStagedSliceThreads)
      return "tiles_per_block * threads_per_tile must be a multiple of 32 up to " +
             std::to_string(kMaxStagedSliceThreads) + " with tiling = staged_slices";
    return "";
  }
  if (s.tiling == SpmmTiling::DenseBlocks) {
    if (elementBytes != 4 && elementBytes != 2)
      return "tiling = dense_blocks needs f32, f16 or bf16 elements";
    if (s.blockRows != 32 && s.blockRows != 64)
      return "block_rows must be 32 or 64 with tiling = dense_blocks";
    if (s.tileColumns != 32 && s.tileColumns != 64 && (s.tileColumns != 128 || elementBytes != 2))
      return "tile_columns must be 32 or 64 (or 128 in 16-bit) with tiling = dense_blocks";
    if (s.rowOrder != RowOrder::Natural)
      return "row_order = by_length does not apply to tiling = dense_blocks";
    return "";
  }
  if (s.tiling != SpmmTiling::RowTiles)
    return "unknown tiling";
  if (!isPowerOfTwo(s.threadsPerTile) || s.threadsPerTile < 4 || s.threadsPerTile > 32)
    return "threads_per_tile must be 4, 8, 16 or 32";
  if (std::string vector = checkSpmmVector(s.vectorWidth, n, elementBytes); !vector.empty())
    return vector;
  if (s.tileColumns <= 0 || s.tileColumns % s.threadsPerTile != 0)
    return "tile_columns must be a positive multiple of threads_per_tile";
  const int perThread = s.columnsPerThread();
  if (perThread % s.vectorWidth != 0 || !isPowerOfTwo(perThread) ||
      perThread > kMaxColumnsPerThread)
    return "tile_columns / threads_per_tile must be a power of two, a multiple "
           "of vector_width and at most " + std::to_string(kMaxColumnsPerThread);
  if (s.rowSplits != 1 && s.rowSplits != 2 && s.rowSplits != 4 && s.rowSplits != 8)
    return "row_splits must be 1, 2, 4 or 8";
  if (s.tileOrder != TileOrder::ByRow && s.tileOrder != TileOrder::ByColumn)
    return "unknown tile_order";
  if (s.tilesPerBlock <= 0 || s.threadsPerBlock() % 32 != 0 ||
      s.threadsPerBlock() > kMaxSparseThreadsPerBlock)
    return "tiles_per_block * row_splits * threads_per_tile must be a multiple of 32 up to " +
           std::to_string(kMaxSparseThreadsPerBlock);
  return "";
}

const char *sopt::rowOrderName(RowOrder order) {
  return order == RowOrder::ByLength ? "by_length" : "natural";
}

const char *sopt::spmmTilingName(SpmmTiling tiling) {
  switch (tiling) {
  case SpmmTiling::RowTiles:
    return "row_tiles";
  case SpmmTiling::DenseBlocks:
    return "dense_blocks";
  case SpmmTiling::StagedSlices:
    return "staged_slices";
  }
  return "unknown";
}

std::string sopt::formatSchedule(const SpmmSchedule &s) {
  return "tile_columns = " + std::to_string(s.tileColumns) +
         ", threads_per_tile = " + std::to_string(s.threadsPerTile) +
         ", tiles_per_block = " + std::to_string(s.tilesPerBlock) +
         ", vector_width = " + std::to_string(s.vectorWidth) +
         ", row_order = " + rowOrderName(s.rowOrder) +
         ", row_splits = " + std::to_string(s.rowSplits) + ", tile_order = " +
         (s.tileOrder == TileOrder::ByColumn ? "by_column" : "by_row") + ", tiling = " +
         spmmTilingName(s.tiling) +
         ", block_rows = " + std::to_string(s.blockRows) +
         (s.rowSegment > 0 ? ", row_segment = " + std::to_string(s.rowSegment) : "");
}

std::string sopt::formatSchedule(const SddmmSchedule &s) {
  return std::string("tiling = ") +
         (s.tiling == SddmmTiling::DenseBlocks ? "dense_blocks" : "nonzeros") +
         ", tile_nonzeros = " + std::to_string(s.tileNonzeros) +
         ", threads_per_nonzero = " + std::to_string(s.threadsPerNonzero) +
         ", tiles_per_block = " + std::to_string(s.tilesPerBlock) +
         ", vector_width = " + std::to_string(s.vectorWidth) +
         ", row_order = " + rowOrderName(s.rowOrder) +
         ", block_size = " + std::to_string(s.blockSize) +
         ", k_splits = " + std::to_string(s.kSplits) +
         (s.columnPanel > 0 ? ", column_panel = " + std::to_string(s.columnPanel) : "") +
         (s.transposeRhsFirst ? ", transpose_rhs_first = true" : "");
}

std::vector<int> sopt::dispatchedSddmmTiles(int threadsPerNonzero) {
  const int groups = 32 / threadsPerNonzero;
  std::vector<int> tiles{groups, 2 * groups};
  if (groups < 16) // otherwise 32 is one of the two
    tiles.push_back(32);
  return tiles;
}

int64_t sopt::sddmmRequiredWorkspaceElements(const SddmmSchedule &s, int64_t n, int64_t k) {
  return s.transposeRhsFirst && n > 0 && k > 0 ? n * k : 0;
}

int64_t sopt::sddmmWorkspaceElements(const SddmmSchedule &s, int64_t n, int64_t k,
                                     int elementBytes) {
  const int64_t transposed = sddmmRequiredWorkspaceElements(s, n, k);
  if (s.tiling != SddmmTiling::DenseBlocks || s.blockSize != 64 || s.kSplits != 1 ||
      elementBytes != 4 || k % 4 != 0 || n <= 0 || k <= 0)
    return transposed;
  return transposed + 2 * n * k;
}

int sopt::sddmmPanelMaxWarps(const SddmmSchedule &s, int64_t k) {
  // The elements of A's row a lane holds: vector_width times the vectors
  // runSddmm instantiates, the fewest (a power of two) that cover k.
  const int64_t span = int64_t(std::max(1, s.threadsPerNonzero)) * std::max(1, s.vectorWidth);
  int64_t vectors = 1;
  while (vectors * span < k)
    vectors *= 2;
  return sddmmPanelMaxThreads(s.vectorWidth * vectors) / 32;
}

std::string sopt::checkSddmmSchedule(const SddmmSchedule &s, int64_t k,
                                     bool transposeRhs, int elementBytes) {
  if (s.transposeRhsFirst) {
    if (transposeRhs)
      return "transpose_rhs_first applies to (A · B) ⊙ S only: with transpose_rhs B is "
             "already B[n, k]";
    // The schedule then runs on Bᵀ.
    transposeRhs = true;
  }
  if (s.tiling == SddmmTiling::DenseBlocks) {
    if (!transposeRhs)
      return "tiling = dense_blocks computes (A · Bᵀ) ⊙ S only (transpose_rhs, or "
             "transpose_rhs_first for B[k, n])";
    if (elementBytes != 2 && elementBytes != 4)
      return "tiling = dense_blocks needs f32, f16 or bf16 elements";
    if (s.rowOrder != RowOrder::Natural)
      return "row_order = by_length does not apply to tiling = dense_blocks";
    if (s.blockSize != 32 && s.blockSize != 64)
      return "block_size must be 32 or 64 with tiling = dense_blocks";
    if (s.kSplits != 1 && s.kSplits != 2)
      return "k_splits must be 1 or 2";
    if (s.columnPanel != 0)
      return "column_panel applies to tiles of nonzeros only";
    return "";
  }
  if (s.kSplits != 1)
    return "k_splits applies to tiling = dense_blocks only";
  if (s.columnPanel < 0)
    return "column_panel must be 0 (S's order) or a number of columns";
  if (!isPowerOfTwo(s.threadsPerNonzero) || s.threadsPerNonzero > 32)
    return "threads_per_nonzero must be a power of two up to 32";
  if (s.vectorWidth != 1 && s.vectorWidth != 2 && s.vectorWidth != 4)
    return "vector_width must be 1, 2 or 4";
  if (s.vectorWidth * elementBytes > 16)
    return "a vector of vector_width elements exceeds 16 bytes";
  if (s.columnPanel > 0) {
    if (!transposeRhs)
      return "column_panel applies to (A · Bᵀ) ⊙ S only (transpose_rhs, or "
             "transpose_rhs_first for B[k, n])";
    if (s.tileNonzeros != 32)
      return "column_panel needs tile_nonzeros = 32";
    const int warps = sddmmPanelMaxWarps(s, k);
    if (s.tilesPerBlock < 1 || s.tilesPerBlock > warps)
      return "tiles_per_block (warps per block) must be 1 to " + std::to_string(warps) +
             " with column_panel here";
  } else if (s.tilesPerBlock < 1 || s.tilesPerBlock * 32 > kMaxSparseThreadsPerBlock) {
    return "tiles_per_block (warps per block) must be 1 to " +
           std::to_string(kMaxSparseThreadsPerBlock / 32);
  }
  const int groups = 32 / s.threadsPerNonzero;
  if (s.tileNonzeros != 32 &&
      (s.tileNonzeros <= 0 || s.tileNonzeros % groups != 0 || s.tileNonzeros / groups > 8))
    return "tile_nonzeros must be 1 to 8 times 32 / threads_per_nonzero, or 32";
  if (!transposeRhs)
    return "";
  if (s.rowOrder != RowOrder::Natural)
    return "row_order = by_length does not apply to (A · Bᵀ) ⊙ S: its tiles "
           "split the nonzeros evenly, whatever the rows";
  if (k % s.vectorWidth != 0)
    return "the inner dimension " + std::to_string(k) +
           " is not a multiple of vector_width " + std::to_string(s.vectorWidth);
  if ((k + s.threadsPerNonzero - 1) / s.threadsPerNonzero > kMaxSddmmElementsPerLane)
    return "each lane would hold more than " + std::to_string(kMaxSddmmElementsPerLane) +
           " elements of the left operand's row: raise threads_per_nonzero";
  return "";
}
