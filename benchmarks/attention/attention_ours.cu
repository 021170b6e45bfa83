// The fused attention kernel behind a C entry point, for bench.py to call
// through ctypes on PyTorch's tensors and stream: the same inputs as the
// PyTorch peers, timed by the same CUDA events. bf16, [batch, heads, seq,
// head dim] contiguous (the layout F.scaled_dot_product_attention takes).

#include "sparse-opt/Runtime/Kernels/Attention.cuh"

#include <cstdint>

extern "C" {

/// O = attention(Q, K, V) with `causal` aligned at the bottom right; a tile
/// of 0 x 0 x 0 takes the schedule's choice. Returns the cudaError_t of the
/// launch (0: launched).
int soptAttentionBf16(const void *q, const void *k, const void *v, void *o, int batch,
                      int queryHeads, int keyHeads, int queryLength, int keyLength,
                      int headDim, int causal, float scale, int blockM, int blockN, int warps,
                      void *stream) {
  using T = __nv_bfloat16;
  sopt::attention::Arguments<T> args;
  args.query = static_cast<const T *>(q);
  args.key = static_cast<const T *>(k);
  args.value = static_cast<const T *>(v);
  args.output = static_cast<T *>(o);
  args.queryStrides = args.outputStrides =
      sopt::attention::headMajorStrides(queryHeads, queryLength, headDim);
  args.keyStrides = args.valueStrides =
      sopt::attention::headMajorStrides(keyHeads, keyLength, headDim);
  args.batch = batch;
  args.queryHeads = queryHeads;
  args.keyHeads = keyHeads;
  args.queryLength = queryLength;
  args.keyLength = keyLength;
  args.scale = scale;
  args.causal = causal != 0;
  args.causalOffset = int64_t(keyLength) - queryLength;
  const sopt::AttentionTile tile{blockM, blockN, warps};
  return int(sopt::attention::runAttention(args, headDim, cudaStream_t(stream),
                                           blockM ? &tile : nullptr));
}

} // extern "C"
