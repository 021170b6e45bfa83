//===- AttentionOnlineSoftmax.cuh - running max and sum of a warp's rows -*- CUDA -*-===//
//
// The softmax of fused attention, one block of keys at a time: per query
// row a running maximum of the scores seen so far and a running sum of
// exp(score − maximum). When a block raises the maximum, the output
// accumulator and the sum are rescaled by exp(old − new) before the block's
// probabilities are added; the output is divided by the sum once, after the
// last block.
//
// Layout: a warp's rows are TilesM tiles of 16 (mma.m16n8 accumulators):
// lane (g, t) holds rows g and g + 8 of each, columns 2t and 2t + 1 of each
// 8-wide tile. The four lanes of a row (same g) share its maximum through
// two shuffles; each keeps its own part of the sum, added across them only
// at the end (rescaling commutes with the sum).
//
// Scores are raw Q·Kᵀ; scale·log2(e) is folded into one fma before exp2, so
// the maximum is taken on raw scores (scale > 0 keeps their order). A row
// whose scores are all -Inf so far uses 0 as its maximum in the exponent:
// exp2(-Inf) = 0 instead of exp2(-Inf + Inf) = NaN, and such a row's sum
// stays 0, which `normalise` turns into a 0 output.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_ATTENTIONONLINESOFTMAX_CUH
#define SPARSE_OPT_RUNTIME_ATTENTIONONLINESOFTMAX_CUH

#include <cmath>

namespace sopt::attention {

/// 2^x on the special function unit (ex2.approx, about 2 ulp; 2^-Inf = 0).
__device__ __forceinline__ float fastExp2(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

/// max over the four lanes holding one accumulator row.
__device__ __forceinline__ float quadMax(float x) {
  x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 1));
  return fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 2));
}

__device__ __forceinline__ float quadSum(float x) {
  x += __shfl_xor_sync(0xffffffffu, x, 1);
  return x + __shfl_xor_sync(0xffffffffu, x, 2);
}

template <int TilesM> struct OnlineSoftmax {
  float rowMax[TilesM][2]; ///< raw score maximum per row half (g, g + 8)
  float rowSum[TilesM][2]; ///< this lane's part of the row's sum

  __device__ __forceinline__ OnlineSoftmax() {
#pragma unroll
    for (int mi = 0; mi < TilesM; ++mi)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        rowMax[mi][h] = -INFINITY;
        rowSum[mi][h] = 0.0f;
      }
  }

  /// Folds one block's masked raw scores in: rescales `out` and the sums to
  /// the new maxima and replaces `scores` by exp(scale · (score − max)).
  template <int TilesN, int TilesV>
  __device__ __forceinline__ void update(float (&scores)[TilesM][TilesN][4],
                                         float (&out)[TilesM][TilesV][4], float scaleLog2) {
#pragma unroll
    for (int mi = 0; mi < TilesM; ++mi)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        float blockMax = rowMax[mi][h];
#pragma unroll
        for (int ni = 0; ni < TilesN; ++ni)
          blockMax = fmaxf(blockMax, fmaxf(scores[mi][ni][2 * h], scores[mi][ni][2 * h + 1]));
        const float newMax = quadMax(blockMax);
        const float base = newMax == -INFINITY ? 0.0f : newMax * scaleLog2;
        // The old maximum -Inf (no key yet) gives 0: nothing to keep.
        const float rescale = fastExp2(fmaf(rowMax[mi][h], scaleLog2, -base));
        rowMax[mi][h] = newMax;
        float sum = rowSum[mi][h] * rescale;
#pragma unroll
        for (int ni = 0; ni < TilesN; ++ni)
#pragma unroll
          for (int c = 0; c < 2; ++c) {
            float &s = scores[mi][ni][2 * h + c];
            s = fastExp2(fmaf(s, scaleLog2, -base));
            sum += s;
          }
        rowSum[mi][h] = sum;
#pragma unroll
        for (int vi = 0; vi < TilesV; ++vi) {
          out[mi][vi][2 * h] *= rescale;
          out[mi][vi][2 * h + 1] *= rescale;
        }
      }
  }

  /// Divides each row of `out` by its sum; a row that saw no key (sum 0)
  /// becomes 0.
  template <int TilesV>
  __device__ __forceinline__ void normalise(float (&out)[TilesM][TilesV][4]) {
#pragma unroll
    for (int mi = 0; mi < TilesM; ++mi)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const float sum = quadSum(rowSum[mi][h]);
        const float inverse = sum > 0.0f ? 1.0f / sum : 0.0f;
#pragma unroll
        for (int vi = 0; vi < TilesV; ++vi) {
          out[mi][vi][2 * h] *= inverse;
          out[mi][vi][2 * h + 1] *= inverse;
        }
      }
  }
};

} // namespace sopt::attention

#endif // SPARSE_OPT_RUNTIME_ATTENTIONONLINESOFTMAX_CUH
