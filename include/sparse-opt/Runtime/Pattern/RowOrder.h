/*===- RowOrder.h - row statistics and load-balancing order -----*- C -*-===//
 *
 * What the sparse schedules need to know about a CSR pattern, computed once
 * per pattern on the host: row-length statistics (to choose a schedule), the
 * order in which the kernels visit rows (longest first, so that rows of
 * similar length share a wave and no long row starts last), where each
 * row's entries cross the column blocks of the dense-block SDDMM, and the
 * row of every entry (for the SDDMM tiles of nonzeros). Plain C
 * API over 32-bit positions; no LLVM.
 *
 *===----------------------------------------------------------------------===*/

#ifndef SPARSE_OPT_RUNTIME_ROWORDER_H
#define SPARSE_OPT_RUNTIME_ROWORDER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sopt_row_stats {
  int64_t rows, nnz, empty_rows, max_length;
  double mean_length, stddev_length; /* population standard deviation */
} sopt_row_stats;

/* Statistics of the rows positions[0..rows] delimit (all 0 when rows is 0). */
sopt_row_stats sopt_csr_row_stats(const int32_t *positions, int64_t rows);

/* Writes a permutation of 0..rows-1 to order[0..rows-1]: rows by
 * decreasing length, equal lengths by increasing index (so the order is
 * deterministic). */
void sopt_csr_row_order(const int32_t *positions, int64_t rows, int32_t *order);

/* Where each row's entries reach each block of `block` columns: writes
 * windows[r * (blocks + 1) + j], for blocks = ceil(cols / block) and
 * j = 0..blocks, the index of row r's first entry whose column is at least
 * j * block (positions[r + 1] if none). Rows must be sorted by column.
 * `windows` holds rows * (blocks + 1) elements (sopt_csr_column_windows_size).
 * The SDDMM dense blocks read their rows' windows from it instead of
 * searching the columns (launchSddmmBlocks's `windows`). */
int64_t sopt_csr_column_windows_size(int64_t rows, int64_t cols, int64_t block);
void sopt_csr_column_windows(const int32_t *positions, const int32_t *coordinates,
                             int64_t rows, int64_t cols, int64_t block, int32_t *windows);

/* The blocks of `block` x `block` that hold at least one entry: returns
 * their number and, with `blocks` (room for that many), writes each as
 * row_block * ceil(cols / block) + column_block, in increasing order. Rows
 * must be sorted by column. The SDDMM dense blocks launch one thread block
 * per such block (launchSddmmBlocks's `occupied`): a banded pattern, a
 * sliding-window attention mask say, fills a few blocks near the diagonal
 * and leaves the rest empty. -1 when an index would not fit in int32. */
int64_t sopt_csr_occupied_blocks(const int32_t *positions, const int32_t *coordinates,
                                 int64_t rows, int64_t cols, int64_t block, int32_t *blocks);

/* The column windows of the `count` listed blocks (sopt_csr_occupied_blocks'
 * list for `block`), block by block: for listed block i and its row r
 * (0..block-1), windows[2 (i block + r)] and [... + 1] are the row's first
 * entry in the block's columns and its first entry past them (both
 * positions[row + 1] past the row's entries there; 0 for rows past the
 * matrix). 2 count block elements: with the list, the SDDMM dense blocks
 * read these instead of sopt_csr_column_windows' table, which holds every
 * row's bounds for every block of columns (for a banded pattern of 16 k
 * rows, 25 times as many). Rows must be sorted by column. */
void sopt_csr_block_windows(const int32_t *positions, const int32_t *coordinates, int64_t rows,
                            int64_t cols, int64_t block, const int32_t *blocks, int64_t count,
                            int32_t *windows);

/* Writes the row of each entry to entry_rows[0..positions[rows]-1]: the
 * SDDMM tiles of nonzeros (launchSddmm's `entryRows`) read it instead of
 * searching the positions for the rows their entries are in. */
void sopt_csr_entry_rows(const int32_t *positions, int64_t rows, int32_t *entry_rows);

/* Writes to order[0..positions[rows]-1] S's entries in column-panel
 * order: those whose column lies in [0, panel) row by row, then those in
 * [panel, 2 panel), and so on, each panel's in S's order. The SDDMM tiles
 * taken by panels (launchSddmmPanels) read their entries in this order, so
 * that each SM gathers the rows of B of a few panels only. Always a
 * permutation of the entries: a column outside [0, cols) counts as the
 * nearest panel. */
void sopt_csr_panel_order(const int32_t *positions, const int32_t *coordinates, int64_t rows,
                          int64_t cols, int64_t panel, int32_t *order);

/* The segments of `segment` entries that the row-tile SpMM cuts its long
 * rows into (launchSpmm's RowSegments), so that a graph's hub rows are
 * summed by many tile groups instead of one: the long rows are the first
 * *long_rows rows of `order` (sopt_csr_row_order's, longest first) with
 * more than `segment` entries. Returns the number of segments S; with
 * `table` (2 S + *long_rows + 1 elements) also writes, for segment s,
 * table[s] = its row and table[S + s] = its first entry, segments in the
 * order of their rows in `order` and of their entries, and for long row i
 * (the i-th of `order`), table[2 S + i] = its first segment (table[2 S +
 * *long_rows] = S). */
int64_t sopt_csr_row_segments(const int32_t *positions, const int32_t *order, int64_t rows,
                              int32_t segment, int64_t *long_rows, int32_t *table);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SPARSE_OPT_RUNTIME_ROWORDER_H */
