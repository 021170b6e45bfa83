//===- ScheduleChecks.cpp - validating and printing sparse schedules ------===//
//
// What every SpMM and SDDMM schedule must satisfy whoever chose it (the
// rules, a user's `schedule` attribute, the benchmark's explore grid), the
// workspace each needs, and the text form diagnostics and the benchmark
// print.
//
//===----------------------------------------------------------------------===//

#include "ScheduleRuleHelpers.h"
#include "sparse-opt/Runtime/Schedule/SparseSchedule.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace sopt;
using namespace sopt::schedule_rules;

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
