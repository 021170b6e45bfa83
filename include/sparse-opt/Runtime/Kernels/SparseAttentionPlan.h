//===- SparseAttentionPlan.h - which rows of a pattern to split -*- C++ -*-===//
//
// The fused sparse attention kernel gives each row to one group of lanes,
// which walks the row's entries one chunk after another. A row far longer
// than the others (a hub of a power-law graph, a global token of a windowed
// mask) would keep its group busy long after the rest of the grid has
// finished; such rows get a whole block instead (SparseAttention.cuh). The
// plan is made once per pattern on the host, from the row lengths: rows
// longer than splitFactor x the mean length, and at least minSplitEntries
// long, are split (docs/benchmarks/sparse-attention.md measures the
// factor). On request the other rows are taken longest first when their
// lengths are spread (a graph's degrees): a warp's groups then hold rows of
// similar length, and none waits idle for a longer neighbour; rows of one
// length (a window) keep their order, whose neighbours share K and V rows.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_SPARSEATTENTIONPLAN_H
#define SPARSE_OPT_RUNTIME_SPARSEATTENTIONPLAN_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace sopt {

struct SparseAttentionSplitRule {
  /// A row is long when it holds more than splitFactor x the mean row
  /// length (2 was the best of 2-64 on power-law graphs at 1-5 % density,
  /// and within 1 % of the best on the held-out window + global and BigBird
  /// masks) ...
  double splitFactor = 2.0;
  /// ... and more than this many entries: a guard for graphs of tiny mean
  /// degree, where twice the mean would hand blocks of 8 to 64 lane groups
  /// rows of a few entries (not measured).
  int64_t minSplitEntries = 64;
  /// The short rows are ordered by decreasing length when the standard
  /// deviation of all row lengths exceeds sortSpread x their mean (0:
  /// always). Off by default: only measured on windows, where it changes
  /// nothing.
  double sortSpread = std::numeric_limits<double>::infinity();
};

/// The rows a pattern's blocks take, on the host (upload both lists for
/// SparseAttentionRows): `longRows` get a block per head, `shortRows` a
/// lane group per head; `shortRows` is empty when every row is short and
/// taken in order.
struct SparseAttentionRowLists {
  int64_t splitLength = 0; // rows longer than this are long
  std::vector<int32_t> longRows, shortRows;
};

/// Splits the rows that `positions` (rows + 1 of them) delimit by `rule`.
inline SparseAttentionRowLists
planSparseAttentionRows(const int32_t *positions, int64_t rows,
                        SparseAttentionSplitRule rule = {}) {
  SparseAttentionRowLists lists;
  const double mean = rows > 0 ? double(positions[rows] - positions[0]) / double(rows) : 0.0;
  // In double until clamped: a factor of "never" must not overflow.
  const double factorLength = std::min(rule.splitFactor * mean, double(INT32_MAX));
  lists.splitLength = std::max(rule.minSplitEntries, int64_t(factorLength));
  for (int64_t r = 0; r < rows; ++r)
    if (positions[r + 1] - positions[r] > lists.splitLength)
      lists.longRows.push_back(int32_t(r));
  double spread = 0.0;
  for (int64_t r = 0; r < rows; ++r) {
    const double d = double(positions[r + 1] - positions[r]) - mean;
    spread += d * d;
  }
  spread = rows > 0 ? std::sqrt(spread / double(rows)) : 0.0;
  const bool sorted = rows > 0 && spread > rule.sortSpread * mean;
  if (lists.longRows.empty() && !sorted)
    return lists;
  lists.shortRows.reserve(size_t(rows) - lists.longRows.size());
  for (int64_t r = 0; r < rows; ++r)
    if (positions[r + 1] - positions[r] <= lists.splitLength)
      lists.shortRows.push_back(int32_t(r));
  const auto longerFirst = [&](int32_t a, int32_t b) {
    return positions[a + 1] - positions[a] > positions[b + 1] - positions[b];
  };
  if (sorted)
    std::stable_sort(lists.shortRows.begin(), lists.shortRows.end(), longerFirst);
  // Longest first: the long rows' blocks start in the first wave.
  std::stable_sort(lists.longRows.begin(), lists.longRows.end(), longerFirst);
  return lists;
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_SPARSEATTENTIONPLAN_H
