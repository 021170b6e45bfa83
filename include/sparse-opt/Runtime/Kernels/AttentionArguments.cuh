//===- AttentionArguments.cuh - what one fused attention call reads -*- CUDA -*-===//
//
// O = softmax(scale · Q·Kᵀ + masks) · V per (batch, query head), where
// Q is [batch][queryHeads][queryLength][headDim], K and V
// [batch][keyHeads][keyLength][headDim] and O like Q, each addressed through
// its own element strides (the last dimension contiguous), so the head-major
// [b, h, s, d] layout and the token-major [b, s, h·d] one are both read in
// place.
//
// Masks, all computed from indices (nothing materialised):
//  - grouped-query attention: query head h reads key/value head
//    h / (queryHeads / keyHeads);
//  - key padding: batch b sees only its first keyLengths[b] keys (clamped to
//    [0, keyLength]; a null array means all of them);
//  - causal: query i sees key j only when j <= i + causalOffset. Offset 0
//    aligns the diagonal at the top left (the `sopt.attention causal`
//    meaning); keyLength - queryLength aligns it at the bottom right, the
//    last query seeing every key (FlashAttention's convention when
//    queryLength < keyLength). Key padding does not move the diagonal.
// A query row that sees no key comes out 0.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_ATTENTIONARGUMENTS_CUH
#define SPARSE_OPT_RUNTIME_ATTENTIONARGUMENTS_CUH

#include <cstdint>

namespace sopt::attention {

/// Element strides of one 4-D operand (its last dimension is contiguous).
struct Strides {
  int64_t batch = 0, head = 0, row = 0;
};

/// Strides of a dense [batch][heads][rows][width] tensor.
inline Strides headMajorStrides(int64_t heads, int64_t rows, int64_t width) {
  return {heads * rows * width, rows * width, width};
}

template <typename T> struct Arguments {
  const T *query = nullptr;
  const T *key = nullptr;
  const T *value = nullptr;
  T *output = nullptr;
  Strides queryStrides, keyStrides, valueStrides, outputStrides;
  int batch = 0, queryHeads = 0, keyHeads = 0;
  int queryLength = 0, keyLength = 0;
  float scale = 1.0f;                 ///< multiplies Q·Kᵀ
  bool causal = false;
  int64_t causalOffset = 0;           ///< key j visible from query i iff j <= i + offset
  const int32_t *keyLengths = nullptr; ///< per batch, or null
};

} // namespace sopt::attention

#endif // SPARSE_OPT_RUNTIME_ATTENTIONARGUMENTS_CUH
