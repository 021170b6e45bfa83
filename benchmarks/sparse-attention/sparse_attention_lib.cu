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
        int64_t longCount, const int32_t *shortRows, int64_t shortCount, int minLanes,
        char *summary, int64_t summaryBytes) {
  sopt::SparseAttentionProblem<T> p;
  p.rows = rows, p.cols = cols, p.nnz = nnz, p.heads = heads;
  p.queryDim = queryDim, p.valueDim = valueDim;
  p.positions = positions, p.coordinates = coordinates;
  p.q = static_cast<const T *>(q), p.k = static_cast<const T *>(k);
  p.v = static_cast<const T *>(v), p.out = static_cast<T *>(out);
  p.scale = scale;
  sopt::SparseAttentionRows plan{longRows, longCount, shortRows, shortCount};
  if (summary && summaryBytes > 0) {
    const std::string line = sopt::describeSparseAttention(p, plan, minLanes);
    std::strncpy(summary, line.c_str(), size_t(summaryBytes - 1));
    summary[summaryBytes - 1] = 0;
  }
  return int(sopt::runSparseAttention(p, plan, nullptr, minLanes));
}

} // namespace

extern "C" {

/// O = sparse attention (SparseAttentionProblem) on the default stream;
/// type 0 f32, 1 f16, 2 bf16; `minLanes` as runSparseAttention's (0: its
/// default). Returns the cudaError_t. `summary`, if given, receives the
/// kernel's line (describeSparseAttention).
int sopt_sparse_attention(int type, int64_t rows, int64_t cols, int64_t nnz, int64_t heads,
                          int64_t queryDim, int64_t valueDim, const int32_t *positions,
                          const int32_t *coordinates, const void *q, const void *k,
                          const void *v, void *out, float scale, const int32_t *longRows,
                          int64_t longCount, const int32_t *shortRows, int64_t shortCount,
                          int minLanes, char *summary, int64_t summaryBytes) {
  if (minLanes <= 0)
    minLanes = sopt::kSparseAttentionMinLanes;
  const auto call = [&](auto element) {
    using T = decltype(element);
    return run<T>(rows, cols, nnz, heads, queryDim, valueDim, positions, coordinates, q, k, v,
                  out, scale, longRows, longCount, shortRows, shortCount, minLanes, summary,
                  summaryBytes);
  };
  switch (type) {
  case 0: return call(float{});
  case 1: return call(__half{});
  case 2: return call(__nv_bfloat16{});
  }
  return int(cudaErrorInvalidValue);
}

/// The row plan of planSparseAttentionRows on host positions (rows + 1),
/// under the default rule when splitFactor < 0:
/// writes the long rows to longRows and the short rows, when listed, to
/// shortRows (each room for `rows`); returns the number of long rows, and
/// in *shortListed whether the short rows were listed (else: all in order).
int64_t sopt_sparse_attention_plan(const int32_t *positions, int64_t rows, double splitFactor,
                                   int64_t minSplitEntries, double sortSpread,
                                   int32_t *longRows, int32_t *shortRows, int *shortListed) {
  const sopt::SparseAttentionSplitRule rule =
      splitFactor < 0 ? sopt::SparseAttentionSplitRule{}
                      : sopt::SparseAttentionSplitRule{splitFactor, minSplitEntries, sortSpread};
  const sopt::SparseAttentionRowLists lists = sopt::planSparseAttentionRows(positions, rows, rule);
  *shortListed = !lists.shortRows.empty();
  std::copy(lists.longRows.begin(), lists.longRows.end(), longRows);
  std::copy(lists.shortRows.begin(), lists.shortRows.end(), shortRows);
  return int64_t(lists.longRows.size());
}

} // extern "C"
