//===- SparseSchedule.h - tile schedules of SpMM and SDDMM -------*- C++ -*-===//
//
// The parameters of the project's SpMM and SDDMM kernels (Spmm.cuh,
// Sddmm.cuh), and the heuristics that choose them from a product's shape and,
// when known, its sparsity statistics. Plain C++17 without LLVM: the
// sopt-schedule-sparse pass, the generated host code's callers and the
// benchmark on the GPU machine all choose through the same functions, so the
// benchmark measures what the compiler emits.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_SPARSESCHEDULE_H
#define SPARSE_OPT_RUNTIME_SPARSESCHEDULE_H

#include <cstdint>
#include <string>
#include <vector>

namespace sopt {

/// The order in which a sparse product visits the rows of its sparse operand.
enum class RowOrder : int {
  /// Row 0 first: no preparation.
  Natural = 0,
  /// Longest rows first (prepared once per pattern by sopt_csr_row_order):
  /// blocks of one wave get rows of similar length, and the long rows start
  /// first so that no block is left running alone at the end.
  ByLength = 1,
};

/// The order in which an SpMM hands out its output tiles.
enum class TileOrder : int {
  /// All tiles of a row, then the next row's.
  ByRow = 0,
  /// The first column slice of every row, then the next slice: the blocks
  /// running at once read the same slice of the dense operand, which then
  /// stays in L1.
  ByColumn = 1,
};

/// What the heuristics know about a sparse operand's rows. A pattern known
/// at compile time gives all fields; otherwise only the shape and nnz (or
/// not even nnz: 0 then means "unknown", and the density is assumed).
struct SparsityStats {
  int64_t rows = 0, cols = 0, nnz = -1;
  double meanRowLength = -1, stddevRowLength = -1;
  int64_t maxRowLength = -1;
  /// Blocks of 32 x 32 and 64 x 64 that hold an entry
  /// (sopt_csr_occupied_blocks); -1 when not known, then taken as all.
  int64_t occupiedBlocks32 = -1, occupiedBlocks64 = -1;
  bool known() const { return nnz >= 0 && meanRowLength >= 0; }
};

/// How an SpMM kernel divides its work.
enum class SpmmTiling : int {
  /// 1-D tiles of output rows (Spmm.cuh): one FMA per stored entry and
  /// output column.
  RowTiles = 0,
  /// Dense `blockRows` x `tileColumns` blocks of C on tensor cores, A's
  /// chunks densified in shared memory over the window of k the block's
  /// rows hold entries in (SpmmBlocks.cuh); f32 in three TF32 products per
  /// product, f16/bf16 in one. Blocks of 32 or 64 rows and 32 or 64
  /// columns (128 too in 16-bit); the other fields do not apply.
  DenseBlocks = 1,
  /// Each block stages one slice of B, all k rows by `tileColumns` columns,
  /// in shared memory and sums rows of A against it (SpmmSlices.cuh): B
  /// read from L2 once per block instead of once per stored entry. A row's
  /// group is `threadsPerTile` = tileColumns / vectorWidth lanes (one vector
  /// each), `tilesPerBlock` groups per block (up to kMaxStagedSliceThreads
  /// threads); for short k only (the slice must fit in shared memory).
  StagedSlices = 2,
};

/// SpMM `C[m, n] = A[m, k] · B[k, n]`, A in CSR, B and C row-major.
///
/// With `tiling` DenseBlocks, see SpmmTiling. Otherwise each output row is cut
/// into 1-D tiles of `tileColumns` consecutive columns. A tile belongs to a
/// group of `threadsPerTile` lanes of one warp (a subwarp when fewer than 32);
/// each lane owns `tileColumns / threadsPerTile` columns, loaded and stored
/// `vectorWidth` at a time. A block holds `tilesPerBlock` tile groups. The
/// lanes of a group stage the column indices and values of their row's nonzeros
/// in shared memory, a chunk of `threadsPerTile * vectorWidth` at a time, with
/// vector loads whose start is rounded down to the vector width (the previous
/// row's entries are masked). With `rowSplits` > 1, that many groups of one
/// block share each tile, each summing an even share of the row's nonzeros
/// (sums meet in shared memory). Tiles are handed out in `tileOrder`.
struct SpmmSchedule {
  SpmmTiling tiling = SpmmTiling::RowTiles;
  int tileColumns = 128;
  int threadsPerTile = 32;
  int tilesPerBlock = 4;
  int vectorWidth = 4;
  RowOrder rowOrder = RowOrder::Natural;
  int rowSplits = 1;
  TileOrder tileOrder = TileOrder::ByRow;
  /// Rows of C per block with DenseBlocks.
  int blockRows = 64;
  /// With RowTiles and ByLength order: rows longer than this many entries
  /// are cut into segments of this many, each summed by a tile group like a
  /// row of its own, the segments added by a second kernel (RowSegments,
  /// Spmm.cuh): a graph's hub rows no longer set the kernel's time. 0: none.
  int rowSegment = 0;

  int columnsPerThread() const { return tileColumns / threadsPerTile; }
  int threadsPerBlock() const { return threadsPerTile * tilesPerBlock * rowSplits; }
};

/// The long rows of a pattern cut into segments of at most `entries`
/// entries (sopt_csr_row_segments, prepared once per pattern): the first
/// `rows` rows of the row order, `count` segments described by `table` (on
/// the device). The row-tile kernel sums each segment like a row of its own
/// into `partials` (count * n floats, row-major), then spmmSegmentSumKernel
/// (Spmm.cuh) adds each long row's segments in order and stores the row
/// through the epilogue. Empty: no segments.
struct RowSegments {
  const int32_t *table = nullptr;
  int64_t count = 0, rows = 0;
  int32_t entries = 0;
  float *partials = nullptr;
};

/// How an SDDMM kernel divides its work.
enum class SddmmTiling : int {
  /// 1-D tiles of consecutive nonzeros: one dot product per output.
  Nonzeros = 0,
  /// Dense `blockSize` x `blockSize` blocks of A · Bᵀ (32 or 64) on tensor
  /// cores, sampled at S's entries (SddmmBlocks.cuh); blocks without entries
  /// are skipped (with prepared column windows; otherwise blocks whose rows
  /// are empty). Only for (A · Bᵀ) ⊙ S in f32, f16 or bf16; the fields of
  /// the nonzero tiles do not apply.
  DenseBlocks = 1,
};

/// SDDMM `D = (A · Bᵀ) ⊙ S` (A[m, k], B[n, k]) or `(A · B) ⊙ S` (B[k, n]),
/// S in CSR; D has S's pattern.
///
/// With `tiling` DenseBlocks, see SddmmTiling. Otherwise the nonzeros of S are
/// cut into 1-D tiles of `tileNonzeros` consecutive entries (across row ends,
/// so the split is even), one tile per warp and `tilesPerBlock` warps per
/// block. `threadsPerNonzero` lanes share one output: each holds a slice of A's
/// row in registers, loads the matching slice of B's row `vectorWidth` elements
/// at a time, and the partial dot products meet through warp shuffles;
/// `rowOrder` must be Natural. A tile of 32 leaves one output per lane: the
/// groups' partial sums meet in a transposed butterfly (fewer shuffles) and the
/// store is coalesced. With B not transposed, either `transposeRhsFirst`
/// (B[k, n] copied into Bᵀ[n, k] in a workspace, then every field applies
/// as for B transposed) or B's columns are gathered: one lane per output,
/// one warp per row, rows in `rowOrder`.
struct SddmmSchedule {
  SddmmTiling tiling = SddmmTiling::Nonzeros;
  int tileNonzeros = 32;
  int threadsPerNonzero = 8;
  int tilesPerBlock = 4;
  int vectorWidth = 4;
  RowOrder rowOrder = RowOrder::Natural;
  /// Rows and columns of a block with DenseBlocks.
  int blockSize = 64;
  /// With DenseBlocks: blocks that share each output block's k, a cluster
  /// that adds their products (1 or 2; sm_90 and newer, elsewhere 1).
  int kSplits = 1;
  /// With tiles of 32 nonzeros (B transposed): the tiles take S's entries
  /// in column-panel order, panels of this many columns, one block per SM
  /// (SddmmPanels.cuh); 0: in S's order.
  int columnPanel = 0;
  /// (A · B) ⊙ S only: transpose B into the workspace first
  /// (sddmmWorkspaceElements) and run the (A · Bᵀ) ⊙ S schedule above on it.
  bool transposeRhsFirst = false;
};

/// Everything a CSR pattern tells the heuristics: its shape, nnz and
/// row-length statistics (positions[0..rows] delimit the rows), and with
/// its columns (sorted in each row) the blocks it occupies.
SparsityStats sparsityStats(const int32_t *positions, int64_t rows, int64_t cols);
SparsityStats sparsityStats(const int32_t *positions, const int32_t *coordinates, int64_t rows,
                            int64_t cols);

/// Whether dense blocks of side `side` over a rows x cols pattern launch
/// only the `occupied` blocks holding entries (sopt_csr_occupied_blocks'
/// count; -1 when not known): where some block of the shape is empty. The
/// generated code and the benchmark decide so alike.
bool launchesOccupiedBlocks(int64_t occupied, int64_t rows, int64_t cols, int64_t side);

/// The density the dense-block rules (SDDMM and SpMM) weigh: over the
/// 64 x 64 blocks that hold entries where a quarter or more of them are
/// empty (a banded pattern: the SDDMM blocks launch only where they hold
/// entries, the SpMM blocks walk only their rows' window of k), else the
/// pattern's own.
double blockDensity(const SparsityStats &stats);

/// The limits every schedule keeps (the kernels' template instances).
constexpr int kMaxColumnsPerThread = 16;
/// Blocks of at most 256 threads leave each thread up to 255 registers
/// (__launch_bounds__), room for the accumulators of wide tiles.
constexpr int kMaxSparseThreadsPerBlock = 256;
/// Staged-slice blocks: as many threads as a block may have, so that one
/// block per SM still has 32 warps to hide its loads (64 registers each).
constexpr int kMaxStagedSliceThreads = 1024;
/// The SDDMM kernel keeps K / threadsPerNonzero elements of A per lane.
constexpr int kMaxSddmmElementsPerLane = 64;

/// The schedule the compiler gives an SpMM of `stats` (the sparse operand,
/// m x k) times a dense k x n, with `elementBytes` per stored element:
/// staged slices of B where prefersSpmmStagedSlices (unless dense blocks
/// are preferred too and n < 512), dense blocks where
/// prefersSpmmDenseBlocks, row tiles otherwise.
SpmmSchedule chooseSpmmSchedule(const SparsityStats &stats, int64_t n,
                                int elementBytes);

/// The dense-block schedule (SpmmTiling::DenseBlocks) of `blockRows` x
/// `blockColumns` blocks, the fields that do not apply at fixed values.
SpmmSchedule spmmDenseBlocks(int blockRows, int blockColumns);

/// Whether an SpMM whose sparse operand is `stats` (times a dense k x n)
/// runs faster by dense tensor-core blocks than by row tiles.
bool prefersSpmmDenseBlocks(const SparsityStats &stats, int64_t n, int elementBytes);

/// Whether an SpMM that would take row tiles runs faster from slices of B
/// staged in shared memory (SpmmTiling::StagedSlices), and the schedule.
bool prefersSpmmStagedSlices(const SparsityStats &stats, int64_t n, int elementBytes);
SpmmSchedule spmmStagedSlices(const SparsityStats &stats, int64_t n, int elementBytes);

/// The row-tile schedule (SpmmTiling::RowTiles) the heuristic gives the
/// same product when it does not take dense blocks.
SpmmSchedule chooseSpmmRowTiles(const SparsityStats &stats, int64_t n,
                                int elementBytes);

/// The schedule for an SDDMM whose pattern is `stats` (m x n) and whose
/// dense operands share the inner dimension `k`.
SddmmSchedule chooseSddmmSchedule(const SparsityStats &stats, int64_t k,
                                  bool transposeRhs, int elementBytes);

/// An empty string when `s` can be launched for a dense operand of `n`
/// columns and elements of `elementBytes`; otherwise why not.
std::string checkSpmmSchedule(const SpmmSchedule &s, int64_t n, int elementBytes);
std::string checkSddmmSchedule(const SddmmSchedule &s, int64_t k,
                               bool transposeRhs, int elementBytes);

/// The most threads a block of the SDDMM tiles taken by column panels
/// (SddmmPanels.cuh, one block per SM) may have when each lane holds
/// `elementsPerLane` elements of A: up to 16 fit 64 registers (1024
/// threads an SM), more need up to 128 (512 threads).
constexpr int sddmmPanelMaxThreads(int64_t elementsPerLane) {
  return elementsPerLane <= 16 ? 1024 : 512;
}

/// The same in warps for schedule `s` and this k, with the elements of A a
/// lane holds as runSddmm instantiates them (sddmmPanelMaxThreads / 32).
int sddmmPanelMaxWarps(const SddmmSchedule &s, int64_t k);

/// Elements of the workspace an SDDMM with n columns under `s` uses, of
/// the product's element type: n k for Bᵀ with `transposeRhsFirst` (then
/// required), followed by 2 n k for f32 64 x 64 dense blocks without k
/// splits and k a multiple of 4 (B split into TF32 parts and remainders
/// once per call, SddmmBlocks.cuh: optional, passing none only costs that
/// path); 0 when neither applies.
int64_t sddmmWorkspaceElements(const SddmmSchedule &s, int64_t n, int64_t k,
                               int elementBytes);
/// Of those, the part runSddmm cannot run without (Bᵀ): where it is above
/// 0, runSddmm refuses a null workspace. A workspace passed must still hold
/// all sddmmWorkspaceElements (runSddmm puts B's planes after Bᵀ).
int64_t sddmmRequiredWorkspaceElements(const SddmmSchedule &s, int64_t n, int64_t k);

/// The row order's name in the attributes: `natural` or `by_length`.
const char *rowOrderName(RowOrder order);
/// "row_tiles", "dense_blocks" or "staged_slices" (the IR's spelling).
const char *spmmTilingName(SpmmTiling tiling);

/// The schedule as the parameters of its MLIR attribute, every one given:
/// `tile_columns = 128, threads_per_tile = 32, ...`, the text between the
/// brackets of `#sopt.spmm_schedule<...>` / `#sopt.sddmm_schedule<...>`
/// (so that a schedule printed by a tool can be pasted into the IR).
std::string formatSchedule(const SpmmSchedule &s);
std::string formatSchedule(const SddmmSchedule &s);

/// The SDDMM tiles (`tileNonzeros`) the run-time dispatcher
/// (SparseDispatch.cuh) has kernel instances for, given the lanes per
/// output: one or two outputs per lane group, and 32 nonzeros.
std::vector<int> dispatchedSddmmTiles(int threadsPerNonzero);

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_SPARSESCHEDULE_H
