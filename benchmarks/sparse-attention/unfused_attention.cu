// Sparse attention by the project's own three kernels, head by head, for
// the benchmark to set the fused kernel against: the SDDMM (Sddmm*.cuh,
// scores = scale · Q·Kᵀ sampled at the pattern, through memory), a softmax
// over each row's stored entries (below: a warp per row, in place), and the
// SpMM (Spmm*.cuh) of the probabilities with V. Schedules are the ones the
// compiler's rules choose for the pattern, chosen once when prepared. f32.
//
// Built into libsparse_attention.so with sparse_attention_lib.cu (run.sh).

#include "sparse-opt/Runtime/Kernels/SparseDispatch.cuh"
#include "sparse-opt/Runtime/Schedule/SparseSchedule.h"

#include <cmath>
#include <vector>

namespace {

/// softmax over the stored entries of each row, for every head (blockIdx.y,
/// `stride` values apart), in place: a warp per row.
__global__ void storedEntriesSoftmax(const int32_t *__restrict__ positions, int64_t rows,
                                     int64_t stride, float *__restrict__ values) {
  const int64_t row = int64_t(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows)
    return;
  float *head = values + int64_t(blockIdx.y) * stride;
  const int32_t begin = positions[row], end = positions[row + 1];
  float largest = -INFINITY;
  for (int32_t e = begin + lane; e < end; e += 32)
    largest = fmaxf(largest, head[e]);
  for (int offset = 16; offset > 0; offset /= 2)
    largest = fmaxf(largest, __shfl_xor_sync(0xffffffffu, largest, offset));
  float sum = 0.f;
  for (int32_t e = begin + lane; e < end; e += 32) {
    const float p = __expf(head[e] - largest);
    head[e] = p;
    sum += p;
  }
  for (int offset = 16; offset > 0; offset /= 2)
    sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  const float inverse = 1.f / sum;
  for (int32_t e = begin + lane; e < end; e += 32)
    head[e] *= inverse;
}

struct Unfused {
  int64_t rows = 0, cols = 0, nnz = 0, heads = 0, queryDim = 0, valueDim = 0;
  const int32_t *positions = nullptr, *coordinates = nullptr;
  float *scaleValues = nullptr; // the SDDMM's pattern: every entry `scale`
  float *scores = nullptr;      // heads x stride: scores, then probabilities
  int64_t stride = 0;           // nnz rounded up to whole 16-byte vectors
  sopt::SddmmSchedule sddmm;
  sopt::SpmmSchedule spmm;
};

__global__ void fillValue(float *out, int64_t count, float value) {
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x)
    out[i] = value;
}

} // namespace

extern "C" {

/// Prepares the three kernels for one pattern (device arrays, and the host
/// positions for the schedules); null on failure.
void *sopt_unfused_attention_prepare(const int32_t *hostPositions, const int32_t *positions,
                                     const int32_t *coordinates, int64_t rows, int64_t cols,
                                     int64_t nnz, int64_t heads, int64_t queryDim,
                                     int64_t valueDim, float scale, char *summary,
                                     int64_t summaryBytes) {
  auto *u = new Unfused;
  u->rows = rows, u->cols = cols, u->nnz = nnz, u->heads = heads;
  u->queryDim = queryDim, u->valueDim = valueDim;
  u->positions = positions, u->coordinates = coordinates;
  // Each head's values start 16-byte aligned: the SDDMM and SpMM kernels
  // read and write them in vectors aligned to the array's start.
  u->stride = (nnz + 3) / 4 * 4;
  const sopt::SparsityStats stats = sopt::sparsityStats(hostPositions, rows, cols);
  u->sddmm = sopt::chooseSddmmSchedule(stats, queryDim, /*transposeRhs=*/true, sizeof(float));
  u->spmm = sopt::chooseSpmmSchedule(stats, valueDim, sizeof(float));
  if (cudaMalloc(&u->scaleValues, std::max<int64_t>(nnz, 1) * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&u->scores, std::max<int64_t>(heads * u->stride, 1) * sizeof(float)) !=
          cudaSuccess) {
    delete u;
    return nullptr;
  }
  fillValue<<<256, 256>>>(u->scaleValues, nnz, scale);
  if (summary && summaryBytes > 0) {
    const std::string line =
        "SDDMM " + sopt::formatSchedule(u->sddmm) + "; SpMM " + sopt::formatSchedule(u->spmm);
    std::snprintf(summary, size_t(summaryBytes), "%s", line.c_str());
  }
  return u;
}

/// O = attention over the pattern by SDDMM, softmax and SpMM, head by head
/// (Q [heads, rows, queryDim], K [heads, cols, queryDim], V [heads, cols,
/// valueDim], O [heads, rows, valueDim], f32); the cudaError_t.
int sopt_unfused_attention(void *handle, const float *q, const float *k, const float *v,
                           float *out) {
  const Unfused &u = *static_cast<Unfused *>(handle);
  for (int64_t h = 0; h < u.heads; ++h) {
    const sopt::CsrMatrix<float> pattern{u.rows, u.cols, u.nnz, u.positions, u.coordinates,
                                         u.scaleValues};
    if (cudaError_t e = sopt::runSddmm<float>(
            u.sddmm, pattern, q + h * u.rows * u.queryDim, k + h * u.cols * u.queryDim,
            u.queryDim, /*transposeRhs=*/true, u.scores + h * u.stride, nullptr, nullptr);
        e != cudaSuccess)
      return int(e);
  }
  constexpr int kWarps = 8;
  storedEntriesSoftmax<<<dim3(unsigned((u.rows + kWarps - 1) / kWarps), unsigned(u.heads)),
                         kWarps * 32>>>(u.positions, u.rows, u.stride, u.scores);
  for (int64_t h = 0; h < u.heads; ++h) {
    const sopt::CsrMatrix<float> probabilities{u.rows, u.cols, u.nnz, u.positions,
                                               u.coordinates, u.scores + h * u.stride};
    if (cudaError_t e = sopt::runSpmm<float>(u.spmm, probabilities, v + h * u.cols * u.valueDim,
                                             u.valueDim, out + h * u.rows * u.valueDim, nullptr,
                                             nullptr);
        e != cudaSuccess)
      return int(e);
  }
  return int(cudaGetLastError());
}

void sopt_unfused_attention_release(void *handle) {
  auto *u = static_cast<Unfused *>(handle);
  cudaFree(u->scaleValues);
  cudaFree(u->scores);
  delete u;
}

} // extern "C"
