//===- RowOrder.cpp - row statistics and load-balancing order -------------===//

#include "sparse-opt/Runtime/RowOrder.h"

#include <algorithm>
#include <cmath>
#include <numeric>

extern "C" sopt_row_stats sopt_csr_row_stats(const int32_t *positions, int64_t rows) {
  sopt_row_stats stats{};
  if (rows <= 0)
    return stats;
  stats.rows = rows;
  stats.nnz = positions[rows] - positions[0];
  stats.mean_length = static_cast<double>(stats.nnz) / rows;
  double squares = 0;
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t length = positions[r + 1] - positions[r];
    stats.empty_rows += length == 0;
    stats.max_length = std::max(stats.max_length, length);
    squares += (length - stats.mean_length) * (length - stats.mean_length);
  }
  stats.stddev_length = std::sqrt(squares / rows);
  return stats;
}

extern "C" void sopt_csr_row_order(const int32_t *positions, int64_t rows,
                                   int32_t *order) {
  if (rows <= 0)
    return;
  std::iota(order, order + rows, 0);
  std::stable_sort(order, order + rows, [&](int32_t a, int32_t b) {
    return positions[a + 1] - positions[a] > positions[b + 1] - positions[b];
  });
}
