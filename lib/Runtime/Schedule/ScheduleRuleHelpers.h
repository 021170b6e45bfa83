//===- ScheduleRuleHelpers.h - shared by the schedule rules ------*- C++ -*-===//
//
// Private to lib/Runtime: the arithmetic and pattern predicates that both the
// SpMM rules (SpmmScheduleRules.cpp) and the SDDMM rules
// (SddmmScheduleRules.cpp) ask, and the GPU size they assume.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_LIB_RUNTIME_SCHEDULERULEHELPERS_H
#define SPARSE_OPT_LIB_RUNTIME_SCHEDULERULEHELPERS_H

#include "sparse-opt/Runtime/Schedule/SparseSchedule.h"

#include <cstdint>

namespace sopt::schedule_rules {

inline bool isPowerOfTwo(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

inline double densityOf(const SparsityStats &stats) {
  return double(stats.nnz) / (double(stats.rows) * double(stats.cols));
}

inline int64_t powerOfTwoAtMost(int64_t x) {
  int64_t p = 1;
  while (p * 2 <= x)
    p *= 2;
  return p;
}

inline int64_t powerOfTwoAtLeast(int64_t x) {
  int64_t p = 1;
  while (p < x)
    p *= 2;
  return p;
}

/// The widest vector (1, 2 or 4 elements, at most 16 bytes) that divides
/// `extent`, so that every row of a row-major operand starts aligned.
inline int widestVector(int64_t extent, int elementBytes) {
  for (int width : {4, 2})
    if (extent % width == 0 && width * elementBytes <= 16)
      return width;
  return 1;
}

/// Threads that keep the target GPU (132 SMs) busy: 1024 resident a SM, half
/// the occupancy limit, enough to hide L2 latency with the loads each thread
/// keeps in flight.
constexpr int64_t kBusyThreads = 132 * 1024;

/// A longest row this many times the mean row counts as skewed: row tiles
/// then wait on that row.
constexpr double kSkewedRow = 2.0;

/// Blocks of side `side` the pattern's shape makes (an SDDMM's dense
/// blocks; an SpMM's blocks of A).
inline int64_t shapeBlocksOf(const SparsityStats &stats, int64_t side) {
  return ((stats.rows + side - 1) / side) * ((stats.cols + side - 1) / side);
}

/// Whether a known pattern leaves a quarter or more of its 64 x 64 blocks
/// empty (a banded one, say). The dense blocks launch only the occupied
/// blocks (OccupiedBlocks.cuh); the rules then count those, but keep the
/// shape's counts, which they were fitted on, for patterns that fill
/// (nearly) every block: a magnitude-pruned DLMC pattern with 63 of its 64
/// blocks occupied is one.
inline bool leavesBlocksEmpty(const SparsityStats &stats) {
  return stats.occupiedBlocks64 >= 0 && stats.occupiedBlocks64 * 4 < shapeBlocksOf(stats, 64) * 3;
}

/// Blocks of side `side` (32 or 64) the dense-block rules count: those
/// holding entries where leavesBlocksEmpty, else all of the shape's.
inline int64_t occupiedBlocksOf(const SparsityStats &stats, int64_t side) {
  if (!leavesBlocksEmpty(stats))
    return shapeBlocksOf(stats, side);
  const int64_t known = side == 32 ? stats.occupiedBlocks32 : stats.occupiedBlocks64;
  return known >= 0 ? known : shapeBlocksOf(stats, side);
}

/// Whether visiting the longest rows first is worth preparing: a known
/// pattern whose rows differ in length.
inline bool rowsDiffer(const SparsityStats &stats) {
  return stats.known() && stats.maxRowLength > stats.meanRowLength;
}

/// Whether a known pattern's longest row is at least twice the mean (row
/// tiles then wait on it).
inline bool rowsSkewed(const SparsityStats &stats) {
  return stats.known() && double(stats.maxRowLength) >= kSkewedRow * stats.meanRowLength;
}

} // namespace sopt::schedule_rules

#endif // SPARSE_OPT_LIB_RUNTIME_SCHEDULERULEHELPERS_H
