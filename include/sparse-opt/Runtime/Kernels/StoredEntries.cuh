//===- StoredEntries.cuh - elementwise work on a CSR matrix's entries -*- CUDA -*-===//
//
// out[e] = f(row, column, e) for every stored entry e of a CSR pattern: the
// kernel of an elementwise region over stored entries that no SDDMM took as
// its epilogue. One thread per entry; its row is found by a binary search of
// the row positions (log2(rows) cached loads, against the functor's own
// loads of the sampled operands), so rows of any length balance evenly.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_STOREDENTRIES_CUH
#define SPARSE_OPT_RUNTIME_STOREDENTRIES_CUH

#include "sparse-opt/Runtime/Device/Convert.cuh"
#include "sparse-opt/Runtime/Host/Launch.cuh"
#include "sparse-opt/Runtime/Device/SparseRow.cuh"
#include "sparse-opt/Runtime/Schedule/SparseSchedule.h"

#include <cuda_runtime.h>

namespace sopt {

template <typename T, typename Functor>
__global__ void __launch_bounds__(kMaxSparseThreadsPerBlock)
    storedEntriesKernel(CsrMatrix<T> pattern, T *__restrict__ out, Functor f) {
  awaitPrecedingKernels();
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t entry = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; entry < pattern.nnz;
       entry += stride) {
    const int64_t row = findRow(pattern.positions, pattern.rows, int32_t(entry));
    out[entry] = fromFloat<T>(f(row, int64_t(pattern.coordinates[entry]), entry));
  }
}

/// Launches out[e] = f(row, column, e) over the entries of `pattern` (its
/// values are not read; `out` holds nnz elements in the pattern's order).
template <typename T, typename Functor>
cudaError_t launchStoredEntries(const CsrMatrix<T> &pattern, T *out, Functor f,
                                cudaStream_t stream) {
  if (pattern.rows < 0 || pattern.nnz < 0 || pattern.nnz > INT32_MAX)
    return cudaErrorInvalidValue;
  if (pattern.rows == 0 || pattern.nnz == 0)
    return cudaSuccess;
  constexpr int kThreads = kMaxSparseThreadsPerBlock;
  // Enough blocks for one entry per thread, capped at a few waves of any
  // GPU: the threads stride over the rest.
  const int64_t blocks = (pattern.nnz + kThreads - 1) / kThreads;
  return launchKernel(storedEntriesKernel<T, Functor>, unsigned(blocks < 8192 ? blocks : 8192),
                      kThreads, 0, stream, pattern, out, f);
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_STOREDENTRIES_CUH
