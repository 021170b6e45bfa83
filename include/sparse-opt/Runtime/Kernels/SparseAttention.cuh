//===- SparseAttention.cuh - SDDMM, row softmax and SpMM in one kernel -*- CUDA -*-===//
//
// Attention restricted to a CSR pattern (SparseAttentionProblem in
// SparseAttentionGroup.cuh): each stored entry's score q·k, the softmax over
// each row's stored entries and the probability-weighted sum of V's rows in
// one kernel, the scores and probabilities never written to memory.
//
// One launch, two kinds of block:
// - the first blocks each take one long row of one head (a row the plan in
//   SparseAttentionPlan.h split): the block's lane groups each take an
//   equal contiguous part of the row and keep their own running softmax;
//   the parts are then combined in shared memory (the largest score, the
//   sums and the partial outputs rescaled to it), so a hub row with
//   thousands of entries is worked by the whole block instead of one group;
// - the others hand one (row, head) to each group of `Group` lanes (whole
//   rows: the common, short ones), in the order of the plan's short rows.
// Rows are head-major within the short blocks, so that neighbouring groups
// work rows of one head, whose K and V rows overlap in windowed patterns.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_SPARSEATTENTION_CUH
#define SPARSE_OPT_RUNTIME_SPARSEATTENTION_CUH

#include "sparse-opt/Runtime/Host/Launch.cuh"
#include "sparse-opt/Runtime/Kernels/SparseAttentionGroup.cuh"

#include <cuda_runtime.h>

namespace sopt {

/// Which rows the blocks take, in device memory (SparseAttentionPlan.h
/// builds it): `longRows` (longCount of them) each get a whole block per
/// head; `shortRows` (shortCount) one lane group per head, or, when null,
/// rows 0 .. shortCount in order.
struct SparseAttentionRows {
  const int32_t *longRows = nullptr;
  int64_t longCount = 0;
  const int32_t *shortRows = nullptr;
  int64_t shortCount = 0;
};

/// Threads of every sparse attention block.
constexpr int kSparseAttentionThreads = 256;
/// Entries each group scores before one update of its running softmax.
constexpr int kSparseAttentionInFlight = 4;

template <typename T, int Group, int Width, int QuerySlots, int ValueSlots>
__global__ void __launch_bounds__(kSparseAttentionThreads)
    sparseAttentionKernel(SparseAttentionProblem<T> p, SparseAttentionRows plan,
                          float scaleLog2) {
  awaitPrecedingKernels();
  constexpr int kGroups = kSparseAttentionThreads / Group;
  constexpr int kValueSpan = ValueSlots * Group * Width; // elements a group covers
  const int group = threadIdx.x / Group;
  const int64_t longBlocks = plan.longCount * p.heads;

  int64_t head, row;
  int32_t begin = 0, end = 0;
  const bool isLong = blockIdx.x < longBlocks;
  bool live = true;
  if (isLong) {
    row = plan.longRows[blockIdx.x / p.heads];
    head = blockIdx.x % p.heads;
    const int32_t rowBegin = p.positions[row], rowEnd = p.positions[row + 1];
    const int32_t part = (rowEnd - rowBegin + kGroups - 1) / kGroups;
    begin = min(rowEnd, rowBegin + group * part);
    end = min(rowEnd, begin + part);
  } else {
    const int64_t item = (int64_t(blockIdx.x) - longBlocks) * kGroups + group;
    live = item < plan.shortCount * p.heads;
    head = live ? item / plan.shortCount : 0;
    const int64_t slot = live ? item % plan.shortCount : 0;
    row = plan.shortRows ? plan.shortRows[slot] : slot;
    if (live)
      begin = p.positions[row], end = p.positions[row + 1];
  }

  float q[QuerySlots][Width];
  loadLaneSlice<Group, Width>(p.q + (head * p.rows + row) * p.queryDim, p.queryDim, live, q);
  RunningSoftmax<ValueSlots, Width> state;
  attendEntries<Group, Width, QuerySlots, ValueSlots, kSparseAttentionInFlight>(
      p, head, q, scaleLog2, begin, end, state);
  T *out = p.out + (head * p.rows + row) * p.valueDim;
  if (!isLong) {
    if (live)
      storeNormalized<Group>(state, out, p.valueDim);
    return;
  }

  // Combine the groups' parts of the long row.
  __shared__ float largest[kGroups], sums[kGroups];
  __shared__ float partials[kGroups][kValueSpan];
  const int lane = threadIdx.x % Group;
  if (lane == 0)
    largest[group] = state.largest, sums[group] = state.sum;
#pragma unroll
  for (int s = 0; s < ValueSlots; ++s)
#pragma unroll
    for (int w = 0; w < Width; ++w)
      partials[group][(s * Group + lane) * Width + w] = state.acc[s][w];
  __syncthreads();
  // The combine loops stay rolled: unrolled over up to 64 groups they
  // would take registers from the entry loop above.
  float rowLargest = -INFINITY;
#pragma unroll 1
  for (int g = 0; g < kGroups; ++g)
    rowLargest = fmaxf(rowLargest, largest[g]);
  // Parts with no unmasked entry (largest -inf) weigh nothing.
  float rowSum = 0.f;
#pragma unroll 1
  for (int g = 0; g < kGroups; ++g)
    if (largest[g] != -INFINITY)
      rowSum += sums[g] * exp2f(largest[g] - rowLargest);
  const float inverse = rowSum > 0.f ? 1.f / rowSum : 0.f;
  for (int64_t j = threadIdx.x; j < p.valueDim; j += kSparseAttentionThreads) {
    float total = 0.f;
#pragma unroll 1
    for (int g = 0; g < kGroups; ++g)
      if (largest[g] != -INFINITY)
        total = fmaf(partials[g][j], exp2f(largest[g] - rowLargest), total);
    out[j] = fromFloat<T>(total * inverse);
  }
}

/// Launches the kernel instance for one lane layout: `Group` lanes per
/// row, `Width` elements per access, QuerySlots / ValueSlots accesses per
/// lane covering queryDim / valueDim (SparseAttentionDispatch.cuh picks
/// them). The caller has checked the problem.
template <typename T, int Group, int Width, int QuerySlots, int ValueSlots>
cudaError_t launchSparseAttention(const SparseAttentionProblem<T> &p,
                                  const SparseAttentionRows &plan, cudaStream_t stream) {
  constexpr int kGroups = kSparseAttentionThreads / Group;
  const int64_t longBlocks = plan.longCount * p.heads;
  const int64_t shortBlocks = (plan.shortCount * p.heads + kGroups - 1) / kGroups;
  const int64_t blocks = longBlocks + shortBlocks;
  if (blocks == 0)
    return cudaSuccess;
  if (blocks > INT32_MAX)
    return cudaErrorInvalidValue;
  constexpr float kLog2e = 1.4426950408889634f;
  return launchKernel(sparseAttentionKernel<T, Group, Width, QuerySlots, ValueSlots>,
                      unsigned(blocks), kSparseAttentionThreads, 0, stream, p, plan,
                      p.scale * kLog2e);
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_SPARSEATTENTION_CUH
