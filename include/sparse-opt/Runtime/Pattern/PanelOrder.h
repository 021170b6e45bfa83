//===- PanelOrder.h - S's entries in column-panel order ------------*- C++ -*-===//
//
// The order in which the SDDMM tiles taken by panels (SddmmPanels.cuh) read
// S's entries: those whose column lies in the first `panel` columns, row by
// row, then the next panel's, and so on. Header-only and plain C++ so that
// generated host code can prepare it on its first call without linking the
// runtime library (sopt_csr_panel_order in RowOrder.h wraps it for C).
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_PANELORDER_H
#define SPARSE_OPT_RUNTIME_PANELORDER_H

#include <algorithm>
#include <cstdint>
#include <vector>

namespace sopt {

/// Writes to order[0..positions[rows]-1] the entries of the CSR pattern
/// (`positions`, `coordinates`, rows x cols) in column-panel order, each
/// panel's in S's order: a stable counting sort by panel. Always a
/// permutation of the entries: a column outside [0, cols) counts as the
/// nearest panel.
inline void columnPanelOrder(const int32_t *positions, const int32_t *coordinates, int64_t rows,
                             int64_t cols, int64_t panel, int32_t *order) {
  const int64_t width = std::max<int64_t>(1, panel);
  const int64_t panels = std::max<int64_t>(1, (cols + width - 1) / width);
  auto panelOf = [&](int32_t column) {
    return size_t(std::clamp<int64_t>(column / width, 0, panels - 1));
  };
  const int32_t nnz = positions[rows];
  std::vector<int64_t> start(size_t(panels) + 1, 0);
  for (int32_t e = 0; e < nnz; ++e)
    ++start[panelOf(coordinates[e]) + 1];
  for (size_t p = 0; p < size_t(panels); ++p)
    start[p + 1] += start[p];
  for (int32_t e = 0; e < nnz; ++e)
    order[start[panelOf(coordinates[e])]++] = e;
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_PANELORDER_H
