// The fused sparse attention kernel behind a C interface, for the Python
// benchmark (bench.py) to call through ctypes on PyTorch's tensors: one
// shared library holding every element type's instances and the row plan.
//
//   nvcc -std=c++17 -O2 -gencode=arch=compute_90a,code=sm_90a -Iinclude \
//        -shared -Xcompiler -fPIC benchmarks/sparse-attention/sparse_attention_lib.cu \
//        -o libsparse_attention.so

#include "sparse-opt/Runtime/Kernels/SparseAttentionDispatch.cuh"
#include "sparse-opt/Runtime/Kernels/SparseAttentionPlan.h"

#include <cstring>

namespace {

template <typename T>
int run(int64_t rows, int64_t cols, int64_t nnz, int64_t heads, int64_t queryDim,
        int64_t valueDim, const int32_t *positions, const int32_t *coordinates, const void *q,
        const void *k, const void *v, void *out, float scale, const int32_t *longRows,
        int64_t longCount, const int32_t *shortRows, int64_t shortCount, char *summary,
        int64_t summaryBytes) {
  sopt::SparseAttentionProblem<T> p;
  p.rows = rows, p.cols = cols, p.nnz = nnz, p.heads = heads;
  p.queryDim = queryDim, p.valueDim = valueDim;
  p.positions = positions, p.coordinates = coordinates;
  p.q = static_cast<const T *>(q), p.k = static_cast<const T *>(k);
  p.v = static_cast<const T *>(v), p.out = static_cast<T *>(out);
  p.scale = scale;
  sopt::SparseAttentionRows plan{longRows, longCount, shortRows, shortCount};
  if (summary && summaryBytes > 0) {
    const std::string line = sopt::describeSparseAttention(p, plan);
    std::strncpy(summary, line.c_str(), size_t(summaryBytes - 1));
    summary[summaryBytes - 1] = 0;
  }
  return int(sopt::runSparseAttention(p, plan, nullptr));
}

} // namespace

extern "C" {

/// O = sparse attention (SparseAttentionProblem) on the default stream;
/// type 0 f32, 1 f16, 2 bf16. Returns the cudaError_t. `summary`, if given,
/// receives the kernel's line (describeSparseAttention).
int sopt_sparse_attention(int type, int64_t rows, int64_t cols, int64_t nnz, int64_t heads,
                          int64_t queryDim, int64_t valueDim, const int32_t *positions,
                          const int32_t *coordinates, const void *q, const void *k,
                          const void *v, void *out, float scale, const int32_t *longRows,
                          int64_t longCount, const int32_t *shortRows, int64_t shortCount,
                          char *summary, int64_t summaryBytes) {
  switch (type) {
  case 0:
    return run<float>(rows, cols, nnz, heads, queryDim, valueDim, positions, coordinates, q, k,
                      v, out, scale, longRows, longCount, shortRows, shortCount, summary,
                      summaryBytes);
  case 1:
    return run<__half>(rows, cols, nnz, heads, queryDim, valueDim, positions, coordinates, q,
                       k, v, out, scale, longRows, longCount, shortRows, shortCount, summary,
                       summaryBytes);
  case 2:
    return run<__nv_bfloat16>(rows, cols, nnz, heads, queryDim, valueDim, positions,
                              coordinates, q, k, v, out, scale, longRows, longCount, shortRows,
                              shortCount, summary, summaryBytes);
  }
  return int(cudaErrorInvalidValue);
}

/// The row plan of planSparseAttentionRows on host positions (rows + 1):
/// writes the long rows to longRows and, when any, the short rows to
/// shortRows (each room for `rows`); returns the number of long rows.
int64_t sopt_sparse_attention_plan(const int32_t *positions, int64_t rows, double splitFactor,
                                   int64_t minSplitEntries, int32_t *longRows,
                                   int32_t *shortRows) {
  const sopt::SparseAttentionRowLists lists =
      sopt::planSparseAttentionRows(positions, rows, {splitFactor, minSplitEntries});
  std::copy(lists.longRows.begin(), lists.longRows.end(), longRows);
  std::copy(lists.shortRows.begin(), lists.shortRows.end(), shortRows);
  return int64_t(lists.longRows.size());
}

} // extern "C"
