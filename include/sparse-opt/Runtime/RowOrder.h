/*===- RowOrder.h - row statistics and load-balancing order -----*- C -*-===//
 *
 * What the sparse schedules need to know about a CSR pattern, computed once
 * per pattern on the host: row-length statistics (to choose a schedule) and
 * the order in which the kernels visit rows (longest first, so that rows of
 * similar length share a wave and no long row starts last). Plain C API over
 * 32-bit positions; no LLVM.
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

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SPARSE_OPT_RUNTIME_ROWORDER_H */
