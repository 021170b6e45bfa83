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
// factor).
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_SPARSEATTENTIONPLAN_H
#define SPARSE_OPT_RUNTIME_SPARSEATTENTIONPLAN_H

#include <algorithm>
#include <cstdint>
#include <vector>

namespace sopt {

struct SparseAttentionSplitRule {
  /// A row is long when it holds more than splitFactor x the mean row
  /// length ...
  double splitFactor = 8.0;
  /// ... and more than this many entries: a block's 16 to 64 lane groups
  /// need several chunks each before splitting pays for the combine.
  int64_t minSplitEntries = 256;
};

/// The rows a pattern's blocks take, on the host (upload both lists for
/// SparseAttentionRows): `longRows` get a block per head; when no row is
/// long, `shortRows` is empty and every row is taken in order.
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
  if (lists.longRows.empty())
    return lists;
  lists.shortRows.reserve(size_t(rows) - lists.longRows.size());
  for (int64_t r = 0; r < rows; ++r)
    if (positions[r + 1] - positions[r] <= lists.splitLength)
      lists.shortRows.push_back(int32_t(r));
  // Longest first: the long rows' blocks start in the first wave.
  std::stable_sort(lists.longRows.begin(), lists.longRows.end(), [&](int32_t a, int32_t b) {
    return positions[a + 1] - positions[a] > positions[b + 1] - positions[b];
  });
  return lists;
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_SPARSEATTENTIONPLAN_H
