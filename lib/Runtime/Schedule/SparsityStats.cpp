//===- SparsityStats.cpp - what the schedule rules know of a pattern ------===//
//
// SparsityStats from a CSR pattern (row lengths, occupied blocks), and the
// block density the dense-block rules weigh: the facts every schedule rule
// starts from.
//
//===----------------------------------------------------------------------===//

#include "ScheduleRuleHelpers.h"
#include "sparse-opt/Runtime/Pattern/RowOrder.h"
#include "sparse-opt/Runtime/Schedule/SparseSchedule.h"

using namespace sopt;
using namespace sopt::schedule_rules;

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
