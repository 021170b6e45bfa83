/*===- SpmvPlan.h - prepared SpMV for solver loops ----------------*- C -*-===//
 *
 * y = alpha * A * x + beta * y with A in CSR on the device, for callers that
 * multiply by one pattern many times (iterative solvers, graph analytics):
 * prepare once per pattern, run as often as needed (values, x and y may
 * change between runs; the pattern may not), free.
 *
 * Preparing checks the pattern on the device, measures its row lengths and
 * chooses a kernel: the hash-blocked (HBP) kernel for uneven rows, or one
 * lane group per row for rows of similar length, or for matrices too small
 * to give every SM two tiles (docs/benchmarks/spmv.md says how the rule was
 * fitted). The HBP layout (SpmvLayout.cuh) is built on the device. Running launches kernels only: no
 * synchronisation, no allocation, so a run may be captured in a CUDA graph.
 *
 * Every function returns 0 on success; otherwise non-zero, and when `error`
 * is not NULL a NUL-terminated message (truncated to error_size - 1
 * characters) that names the function and where the input is wrong, e.g.
 * "sopt_spmv_prepare: row 17: positions decrease (positions[17] = 9,
 * positions[18] = 3)".
 *
 *===----------------------------------------------------------------------===*/

#ifndef SPARSE_OPT_RUNTIME_HOST_SPMVPLAN_H
#define SPARSE_OPT_RUNTIME_HOST_SPMVPLAN_H

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sopt_spmv_value_type { SOPT_SPMV_F32, SOPT_SPMV_F64 } sopt_spmv_value_type;
/* The type of the positions (rows + 1) and coordinates (nnz) arrays. */
typedef enum sopt_spmv_index_type { SOPT_SPMV_I32, SOPT_SPMV_I64 } sopt_spmv_index_type;
typedef enum sopt_spmv_kernel {
  SOPT_SPMV_AUTO,       /* chosen from the row-length statistics */
  SOPT_SPMV_HBP,        /* hash-blocked 2-D tiles */
  SOPT_SPMV_ROW_VECTOR  /* one lane group per row */
} sopt_spmv_kernel;

/* How the HBP kernel hands out work. */
typedef enum sopt_spmv_schedule {
  SOPT_SPMV_SCHEDULE_AUTO,    /* by tile (measured faster throughout) */
  SOPT_SPMV_BY_TILE,          /* blocks take tiles (x segment in shared memory
                                 where the tile is dense enough) */
  SOPT_SPMV_BY_WARP_BATCH     /* warps take batches of rows; x through L2 */
} sopt_spmv_schedule;

/* Zero in any field means "choose". */
typedef struct sopt_spmv_options {
  sopt_spmv_kernel kernel;
  /* Columns of a band (the x segment of a tile). */
  int64_t band_columns;
  /* Rows longer than this are split into chunks of this many entries. */
  int64_t long_row_limit;
  /* Shared memory an executing block may give its x segment. */
  int64_t shared_bytes;
  /* Share of the tiles assigned ahead of time (the parallel part), in
   * (0, 1]; the rest is handed out through an atomic counter. */
  double parallel_share;
  /* AUTO picks the row-vector kernel when the coefficient of variation of
   * the row lengths is at most this, or when the matrix has fewer than two
   * tiles of rows per SM (too few for the HBP kernel's blocks). */
  double max_regular_cov;
  /* Entries each lane of a row's lane group should take (a power of two,
   * at most 64): rows get 32 lanes only from 32 * lane_entries entries on.
   * Chosen: 2 for the row-vector kernel in f64, else 8. */
  int64_t lane_entries;
  sopt_spmv_schedule schedule;
} sopt_spmv_options;

/* What preparing decided, for reports and tests. */
typedef struct sopt_spmv_summary {
  sopt_spmv_kernel kernel;
  int64_t rows, cols, nnz;
  double mean_length, cov_length;
  int64_t max_length, empty_rows, long_rows;
  int64_t bands, band_columns, tiles, staged_tiles, parallel_tiles, executing_blocks;
  /* The warp-batch schedule: its batches, those of the parallel part. */
  int by_warp_batch;
  int64_t warp_batches, parallel_batches;
  int row_vector_lanes, lane_entries;
} sopt_spmv_summary;

typedef struct sopt_spmv_plan sopt_spmv_plan;

/* Prepares `*plan` for the CSR pattern (positions, coordinates: device
 * pointers the plan keeps using, so they must outlive it; columns
 * non-decreasing within a row). Synchronises `stream`. `options` may be
 * NULL. */
int sopt_spmv_prepare(sopt_spmv_plan **plan, int64_t rows, int64_t cols, int64_t nnz,
                      const void *positions, const void *coordinates,
                      sopt_spmv_index_type index_type, sopt_spmv_value_type value_type,
                      const sopt_spmv_options *options, cudaStream_t stream, char *error,
                      size_t error_size);

/* y = alpha * A * x + beta * y in `stream`; values (nnz), x (cols) and
 * y (rows) are device arrays of the plan's value type. With beta == 0, y is
 * only written. */
int sopt_spmv_run(const sopt_spmv_plan *plan, const void *values, double alpha, const void *x,
                  double beta, void *y, cudaStream_t stream, char *error, size_t error_size);

int sopt_spmv_describe(const sopt_spmv_plan *plan, sopt_spmv_summary *summary);

/* Frees the plan's device arrays (after the work queued on them); NULL is fine. */
void sopt_spmv_free(sopt_spmv_plan *plan);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SPARSE_OPT_RUNTIME_HOST_SPMVPLAN_H */
