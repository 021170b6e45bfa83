//===- SparseAttentionGroup.cuh - one row's attention by a lane group -*- CUDA -*-===//
//
// The device building block of the fused sparse attention kernel
// (SparseAttention.cuh): a group of `Group` consecutive lanes walks a range
// of one row's stored entries and keeps a running softmax over them — the
// largest score so far, the sum of exp(score - largest) and the
// probability-weighted sum of V's rows — so that no score or probability
// ever leaves registers.
//
// The head dimension is spread over the group's lanes: lane l holds
// elements (slot * Group + l) * Width .. + Width of q, of each K row and of
// each V row, `Width` consecutive elements per access (16 bytes where the
// head dimensions allow it). A score is the group's sum of its lanes' dot
// products (log2(Group) shuffles). `InFlight` entries are loaded and scored
// together before one update of the running softmax: their K and V loads
// overlap, and the rescaling of the accumulator is paid once per chunk.
//
// Scores are kept in base 2 (scaled by log2(e) once) so that exp is one
// ex2 instruction.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_SPARSEATTENTIONGROUP_CUH
#define SPARSE_OPT_RUNTIME_SPARSEATTENTIONGROUP_CUH

#include "sparse-opt/Runtime/Device/Convert.cuh"
#include "sparse-opt/Runtime/Device/Reduce.cuh"

#include <cmath>
#include <cstdint>

namespace sopt {

/// Fused sparse attention over one CSR pattern shared by `heads` heads
/// (batch x heads flattened): for each head h and row r,
///   O[h, r, :] = sum_e p_e V[h, c_e, :],  p = softmax_e(scale q·k_e + bias_e)
/// over r's stored entries e (column c_e), q = Q[h, r, :], k_e = K[h, c_e, :].
/// Q is [heads, rows, queryDim], K [heads, cols, queryDim], V [heads, cols,
/// valueDim], O [heads, rows, valueDim], all contiguous. `bias`, if given,
/// holds one value per stored entry, the same for every head
/// (biasHeadStride = 0) or nnz apart per head (biasHeadStride = nnz); a
/// bias of -inf masks its entry. A row with no entries, or whose entries are
/// all masked, gives 0. `patternValues`, if given, holds the pattern's
/// stored values (nnz, shared by the heads), which multiply the scores
/// before the bias: scale S_e q·k_e + bias_e, as sopt.sddmm samples (the
/// compiler's sopt.sparse_attention).
template <typename T> struct SparseAttentionProblem {
  int64_t rows = 0, cols = 0, nnz = 0, heads = 0;
  int64_t queryDim = 0, valueDim = 0;
  const int32_t *positions = nullptr, *coordinates = nullptr;
  const T *patternValues = nullptr;
  const T *q = nullptr, *k = nullptr, *v = nullptr;
  const T *bias = nullptr;
  int64_t biasHeadStride = 0;
  float scale = 1.f;
  T *out = nullptr;
};

/// The running softmax of one lane: the largest base-2 score so far, the
/// sum of 2^(score - largest), and its slice of the weighted sum of V rows.
template <int Slots, int Width> struct RunningSoftmax {
  float largest = -INFINITY;
  float sum = 0.f;
  float acc[Slots][Width] = {};
};

/// Loads the lane's slice of a head-dimension row (`dim` elements at
/// `row`): vectors of `Width`, zeros past `dim` (dim % Width == 0 when
/// Width > 1, so a vector is either all in or all out).
template <int Group, int Width, int Slots, typename T>
__device__ __forceinline__ void loadLaneSlice(const T *__restrict__ row, int64_t dim, bool live,
                                              float (&slice)[Slots][Width]) {
  const int lane = threadIdx.x % Group;
#pragma unroll
  for (int s = 0; s < Slots; ++s) {
    const int64_t first = int64_t(s * Group + lane) * Width;
    if (live && first < dim) {
      loadVector<Width>(row + first, slice[s]);
    } else {
#pragma unroll
      for (int w = 0; w < Width; ++w)
        slice[s][w] = 0.f;
    }
  }
}

/// `Width` elements of T as one register vector: what a lane holds of a K or
/// V row while the row's load is in flight. Kept in the storage type and
/// widened only when used, so that 16-bit rows in flight take half the
/// registers (more warps per SM).
template <typename T, int Width>
using LaneVector = typename VectorStorage<Width * sizeof(T)>::type;

/// loadLaneSlice without the widening: zeros past `dim`.
template <int Group, int Width, int Slots, typename T>
__device__ __forceinline__ void loadLaneVectors(const T *__restrict__ row, int64_t dim, bool live,
                                                LaneVector<T, Width> (&slice)[Slots]) {
  const int lane = threadIdx.x % Group;
#pragma unroll
  for (int s = 0; s < Slots; ++s) {
    const int64_t first = int64_t(s * Group + lane) * Width;
    slice[s] = live && first < dim ? *reinterpret_cast<const LaneVector<T, Width> *>(row + first)
                                   : LaneVector<T, Width>{};
  }
}

/// Element `w` of a lane vector, widened to f32.
template <typename T, int Width>
__device__ __forceinline__ float laneElement(const LaneVector<T, Width> &vector, int w) {
  return toFloat(reinterpret_cast<const T *>(&vector)[w]);
}

/// Adds entries [begin, end) of one row of head `head` to `state`; `q`
/// holds the lane's slice of the query row. Every lane of the warp must
/// call it (the score sums shuffle across the whole warp); a group whose
/// range is empty or done passes through with nothing to add.
template <int Group, int Width, int QuerySlots, int ValueSlots, int InFlight, typename T>
__device__ __forceinline__ void attendEntries(const SparseAttentionProblem<T> &p, int64_t head,
                                              const float (&q)[QuerySlots][Width],
                                              float scaleLog2, int32_t begin, int32_t end,
                                              RunningSoftmax<ValueSlots, Width> &state) {
  constexpr float kLog2e = 1.4426950408889634f;
  const T *__restrict__ keys = p.k + head * p.cols * p.queryDim;
  const T *__restrict__ values = p.v + head * p.cols * p.valueDim;
  const T *__restrict__ bias = p.bias ? p.bias + head * p.biasHeadStride : nullptr;
  // The loop runs while any lane of the warp has entries left: lanes of
  // other groups (other rows) shuffle in the same instructions.
  for (int32_t chunk = begin; __any_sync(0xffffffffu, chunk < end); chunk += InFlight) {
    float score[InFlight];
    LaneVector<T, Width> value[InFlight][ValueSlots];
#pragma unroll
    for (int i = 0; i < InFlight; ++i) {
      const int32_t entry = chunk + i;
      const bool live = entry < end;
      const int64_t column = live ? p.coordinates[entry] : 0;
      LaneVector<T, Width> key[QuerySlots];
      loadLaneVectors<Group, Width>(keys + column * p.queryDim, p.queryDim, live, key);
      loadLaneVectors<Group, Width>(values + column * p.valueDim, p.valueDim, live, value[i]);
      float partial = 0.f;
#pragma unroll
      for (int s = 0; s < QuerySlots; ++s)
#pragma unroll
        for (int w = 0; w < Width; ++w)
          partial = fmaf(q[s][w], laneElement<T, Width>(key[s], w), partial);
      score[i] = partial;
    }
#pragma unroll
    for (int i = 0; i < InFlight; ++i)
      score[i] = subwarpAllReduce<SumOp, Group>(score[i]);
    float chunkLargest = -INFINITY;
#pragma unroll
    for (int i = 0; i < InFlight; ++i) {
      const int32_t entry = chunk + i;
      if (entry < end) {
        score[i] *= scaleLog2;
        if (p.patternValues)
          score[i] *= toFloat(p.patternValues[entry]);
        if (bias)
          score[i] = fmaf(toFloat(bias[entry]), kLog2e, score[i]);
      } else {
        score[i] = -INFINITY;
      }
      chunkLargest = fmaxf(chunkLargest, score[i]);
    }
    const float largest = fmaxf(state.largest, chunkLargest);
    // Nothing but masked entries so far: no probability mass to add (and
    // -inf - -inf would make NaN).
    if (largest == -INFINITY)
      continue;
    const float correction = exp2f(state.largest - largest);
    state.largest = largest;
    state.sum *= correction;
#pragma unroll
    for (int s = 0; s < ValueSlots; ++s)
#pragma unroll
      for (int w = 0; w < Width; ++w)
        state.acc[s][w] *= correction;
#pragma unroll
    for (int i = 0; i < InFlight; ++i) {
      const float probability = exp2f(score[i] - largest);
      state.sum += probability;
#pragma unroll
      for (int s = 0; s < ValueSlots; ++s)
#pragma unroll
        for (int w = 0; w < Width; ++w)
          state.acc[s][w] =
              fmaf(probability, laneElement<T, Width>(value[i][s], w), state.acc[s][w]);
    }
  }
}

/// Writes the lane's slice of acc / sum to the output row (0 for a row
/// with no unmasked entry).
template <int Group, int Width, int ValueSlots, typename T>
__device__ __forceinline__ void storeNormalized(const RunningSoftmax<ValueSlots, Width> &state,
                                                T *__restrict__ row, int64_t dim) {
  const int lane = threadIdx.x % Group;
  const float inverse = state.sum > 0.f ? 1.f / state.sum : 0.f;
#pragma unroll
  for (int s = 0; s < ValueSlots; ++s) {
    const int64_t first = int64_t(s * Group + lane) * Width;
    if (first >= dim)
      continue;
    float slice[Width];
#pragma unroll
    for (int w = 0; w < Width; ++w)
      slice[w] = state.acc[s][w] * inverse;
    storeVector<Width>(row + first, slice);
  }
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_SPARSEATTENTIONGROUP_CUH
