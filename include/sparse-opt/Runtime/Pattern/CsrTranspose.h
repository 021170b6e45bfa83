/*===- CsrTranspose.h - the transpose of a CSR pattern on the host -*- C -*-===//
 *
 * A dense x sparse product X[m, k] · S[k, n] runs on the project's CSR SpMM
 * kernel as (Sᵀ · Xᵀ)ᵀ, which needs S's transpose in CSR (S in CSC). When
 * S's pattern is known at compile time, the compiler transposes it here,
 * once: the transposed positions and coordinates become tables in the
 * generated code, and the permutation tells the generated host code where
 * each of Sᵀ's values sits among S's (the values arrive at run time). The
 * schedule pass also takes Sᵀ's row statistics from it. Plain C API, no
 * LLVM, like SparseIO.h.
 *
 *===----------------------------------------------------------------------===*/

#ifndef SPARSE_OPT_RUNTIME_CSRTRANSPOSE_H
#define SPARSE_OPT_RUNTIME_CSRTRANSPOSE_H

#include "sparse-opt/Runtime/Pattern/SparseIO.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the transpose of `in` (rows x cols) to `*out` (cols x rows), in
 * CSR with each row sorted by column (a counting sort by column that visits
 * `in` row by row, so equal inputs give equal outputs). When `permutation`
 * is not NULL it receives in->nnz entries: out->values[q] is
 * in->values[permutation[q]]. Returns 0 on success; non-zero (and a zeroed
 * `*out`) when an argument is NULL, `in` is inconsistent (positions not
 * increasing from 0 to nnz, a coordinate outside [0, cols)) or memory runs
 * out. Release `*out` with sopt_csr_free. */
int sopt_csr_transpose(const sopt_csr *in, sopt_csr *out, int32_t *permutation);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SPARSE_OPT_RUNTIME_CSRTRANSPOSE_H */
