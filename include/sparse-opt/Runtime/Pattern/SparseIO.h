/*===- SparseIO.h - reading sparse matrices into CSR on the host -*- C -*-===//
 *
 * A C API, usable from generated host code, from C and from C++, that reads a
 * sparse matrix file into CSR with 32-bit positions and coordinates and float
 * values. It needs only the C++17 standard library (no LLVM/MLIR), so it
 * builds on the GPU machine too.
 *
 * Formats, chosen by the file's extension (case-insensitive):
 *   .mtx   Matrix Market `%%MatrixMarket matrix coordinate
 *          <real|integer|pattern> <general|symmetric>`; 1-based indices,
 *          entries in any order; a symmetric file's off-diagonal entries are
 *          mirrored; pattern entries get the value 1.0.
 *   .smtx  DLMC: line 1 `M, K, nnz`, line 2 the M+1 row offsets, line 3 the
 *          nnz 0-based column indices, increasing within each row; values 1.0.
 *
 * The result has rows + 1 positions, nnz coordinates and nnz values, each row
 * sorted by column. Duplicate entries, unsorted .smtx rows and sizes beyond
 * the int32 range are refused.
 *
 *===----------------------------------------------------------------------===*/

#ifndef SPARSE_OPT_RUNTIME_SPARSEIO_H
#define SPARSE_OPT_RUNTIME_SPARSEIO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A CSR matrix. positions[r]..positions[r+1] are row r's entries in
 * coordinates (column indices, 0-based, increasing) and values. The three
 * arrays are owned by the struct (release with sopt_csr_free) and never NULL
 * after a successful read, even when nnz is 0. */
typedef struct sopt_csr {
  int64_t rows, cols, nnz;
  int32_t *positions;   /* rows + 1 */
  int32_t *coordinates; /* nnz */
  float *values;        /* nnz */
} sopt_csr;

/* Reads the matrix at `path` into `*out`. Returns 0 on success. Otherwise
 * returns non-zero, leaves `*out` zeroed (nothing to free) and, when `error`
 * is not NULL and `error_size` is not 0, writes a NUL-terminated message
 * "<path>:<line>: <what is wrong>", truncated to error_size - 1 characters.
 * Line 0 stands for the file as a whole (it cannot be opened or read, its
 * extension is unknown, or memory ran out). */
int sopt_csr_read(const char *path, sopt_csr *out, char *error,
                  size_t error_size);

/* Frees the arrays of `*m` and zeroes it; a zeroed struct or NULL is fine. */
void sopt_csr_free(sopt_csr *m);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SPARSE_OPT_RUNTIME_SPARSEIO_H */
