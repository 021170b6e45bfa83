//===- RowOrder.cpp - row statistics and load-balancing order -------------===//

#include "sparse-opt/Runtime/Pattern/RowOrder.h"
#include "sparse-opt/Runtime/Pattern/PanelOrder.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <numeric>
#include <vector>

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

extern "C" int64_t sopt_csr_column_windows_size(int64_t rows, int64_t cols, int64_t block) {
  if (rows <= 0 || cols < 0 || block <= 0)
    return 0;
  return rows * ((cols + block - 1) / block + 1);
}

extern "C" void sopt_csr_column_windows(const int32_t *positions, const int32_t *coordinates,
                                        int64_t rows, int64_t cols, int64_t block,
                                        int32_t *windows) {
  if (rows <= 0 || cols < 0 || block <= 0)
    return;
  const int64_t blocks = (cols + block - 1) / block;
  for (int64_t r = 0; r < rows; ++r) {
    // One walk along the row: its columns increase.
    int32_t entry = positions[r];
    for (int64_t j = 0; j <= blocks; ++j) {
      while (entry < positions[r + 1] && coordinates[entry] < j * block)
        ++entry;
      windows[r * (blocks + 1) + j] = entry;
    }
  }
}

extern "C" int64_t sopt_csr_occupied_blocks(const int32_t *positions,
                                           const int32_t *coordinates, int64_t rows,
                                           int64_t cols, int64_t block, int32_t *blocks) {
  if (rows <= 0 || cols <= 0 || block <= 0)
    return 0;
  const int64_t rowBlocks = (rows + block - 1) / block;
  const int64_t colBlocks = (cols + block - 1) / block;
  if (colBlocks > INT32_MAX / rowBlocks) // an index past int32
    return -1;
  // One row block at a time: the column blocks its entries fall in, sorted,
  // each once.
  std::vector<int32_t> reached;
  int64_t count = 0;
  for (int64_t first = 0; first < rows; first += block) {
    reached.clear();
    for (int32_t e = positions[first]; e < positions[std::min(rows, first + block)]; ++e)
      reached.push_back(int32_t(coordinates[e] / block));
    std::sort(reached.begin(), reached.end());
    reached.erase(std::unique(reached.begin(), reached.end()), reached.end());
    for (int32_t j : reached) {
      if (blocks)
        blocks[count] = int32_t(first / block * colBlocks + j);
      ++count;
    }
  }
  return count;
}

extern "C" void sopt_csr_block_windows(const int32_t *positions, const int32_t *coordinates,
                                       int64_t rows, int64_t cols, int64_t block,
                                       const int32_t *blocks, int64_t count, int32_t *windows) {
  if (rows <= 0 || cols <= 0 || block <= 0)
    return;
  const int64_t colBlocks = (cols + block - 1) / block;
  for (int64_t i = 0; i < count; ++i) {
    const int64_t first = blocks[i] / colBlocks * block, column = blocks[i] % colBlocks * block;
    for (int64_t r = 0; r < block; ++r) {
      int32_t *at = windows + 2 * (i * block + r);
      at[0] = at[1] = 0;
      const int64_t row = first + r;
      if (row >= rows)
        continue;
      const int32_t *begin = coordinates + positions[row], *end = coordinates + positions[row + 1];
      at[0] = int32_t(std::lower_bound(begin, end, int32_t(column)) - coordinates);
      at[1] = int32_t(std::lower_bound(begin, end, int32_t(std::min(cols, column + block))) -
                      coordinates);
    }
  }
}

extern "C" void sopt_csr_entry_rows(const int32_t *positions, int64_t rows,
                                    int32_t *entryRows) {
  for (int64_t r = 0; r < rows; ++r)
    for (int32_t e = positions[r]; e < positions[r + 1]; ++e)
      entryRows[e] = int32_t(r);
}

extern "C" void sopt_csr_panel_order(const int32_t *positions, const int32_t *coordinates,
                                     int64_t rows, int64_t cols, int64_t panel,
                                     int32_t *order) {
  sopt::columnPanelOrder(positions, coordinates, rows, cols, panel, order);
}

extern "C" int64_t sopt_csr_row_segments(const int32_t *positions, const int32_t *order,
                                         int64_t rows, int32_t segment, int64_t *longRows,
                                         int32_t *table) {
  auto length = [&](int64_t i) { return positions[order[i] + 1] - positions[order[i]]; };
  int64_t longCount = 0, segments = 0;
  if (segment > 0)
    while (longCount < rows && length(longCount) > segment)
      segments += (length(longCount++) + segment - 1) / segment;
  *longRows = longCount;
  if (!table)
    return segments;
  int64_t s = 0;
  for (int64_t i = 0; i < longCount; ++i) {
    table[2 * segments + i] = int32_t(s);
    for (int32_t first = positions[order[i]]; first < positions[order[i] + 1]; first += segment) {
      table[s] = order[i];
      table[segments + s] = first;
      ++s;
    }
  }
  table[2 * segments + longCount] = int32_t(segments);
  return segments;
}
