//===- Attention.cuh - launching the fused attention kernel -----*- CUDA -*-===//
//
// Host side of Kernels/AttentionForward.cuh: checks a call's arguments,
// sizes the grid and the shared memory of one tile instance, and picks the
// instance for a head dimension (Schedule/AttentionSchedule.h) unless the
// caller names one.
//
// What a call needs: f16 or bf16 operands; a head dimension of
// kAttentionHeadDims (query, key and value alike); queryHeads a multiple of
// keyHeads; 16-byte aligned base pointers and row strides that are
// multiples of 8 elements (the tiles are copied 16 bytes at a time).
// Anything else is refused with cudaErrorInvalidValue before a launch.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_ATTENTION_CUH
#define SPARSE_OPT_RUNTIME_ATTENTION_CUH

#include "sparse-opt/Runtime/Kernels/AttentionForward.cuh"
#include "sparse-opt/Runtime/Schedule/AttentionSchedule.h"

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

namespace sopt::attention {

/// Why `args` cannot run, or null when they can.
template <typename T> const char *rejectArguments(const Arguments<T> &args, int headDim) {
  if (!isAttentionHeadDim(headDim))
    return "head dimension not one of 64, 80, 96, 128, 256";
  if (args.batch < 0 || args.queryHeads < 0 || args.keyHeads < 0 || args.queryLength < 0 ||
      args.keyLength < 0)
    return "negative size";
  if (args.queryHeads > 0 && (args.keyHeads <= 0 || args.queryHeads % args.keyHeads != 0))
    return "query heads not a multiple of key/value heads";
  if (args.batch > 65535 || args.queryHeads > 65535)
    return "more than 65535 batches or query heads";
  if (!(args.scale > 0.0f) || !std::isfinite(args.scale))
    return "scale not finite and positive";
  auto aligned = [](const void *p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; };
  if (!aligned(args.query) || !aligned(args.key) || !aligned(args.value) ||
      !aligned(args.output))
    return "operand not 16-byte aligned";
  const Strides all[] = {args.queryStrides, args.keyStrides, args.valueStrides,
                         args.outputStrides};
  for (const Strides &s : all)
    if (s.batch % 8 || s.head % 8 || s.row % 8)
      return "stride not a multiple of 8 elements";
  return nullptr;
}

/// Launches the instance <HeadDim, BlockM, BlockN, Warps> on `args`
/// (checked by the caller).
template <typename T, int HeadDim, int BlockM, int BlockN, int Warps>
cudaError_t launchAttentionTile(const Arguments<T> &args, cudaStream_t stream) {
  using Shape = Tile<T, HeadDim, BlockM, BlockN, Warps>;
  if (args.batch == 0 || args.queryHeads == 0 || args.queryLength == 0)
    return cudaSuccess;
  auto kernel = attentionForwardKernel<T, HeadDim, BlockM, BlockN, Warps>;
  // Above 48 KiB of dynamic shared memory a kernel must opt in.
  if (cudaError_t status = cudaFuncSetAttribute(
          kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(Shape::kSharedBytes));
      status != cudaSuccess)
    return status;
  const dim3 grid((args.queryLength + BlockM - 1) / BlockM, args.queryHeads, args.batch);
  kernel<<<grid, Shape::kThreads, Shape::kSharedBytes, stream>>>(args);
  return cudaGetLastError();
}

/// The tile instance `tile` for head dimension HeadDim, if instantiated:
/// the schedule's default for every head dimension and, where
/// SOPT_ATTENTION_TILE_VARIANTS is defined (the benchmark and the test),
/// the four tiles of kAttentionTileVariants for head dimensions up to 128.
template <typename T, int HeadDim>
cudaError_t launchAttentionHeadDim(const Arguments<T> &args, AttentionTile tile,
                                   cudaStream_t stream) {
  constexpr AttentionTile kDefault = chooseAttentionTile(HeadDim);
  if (tile == kDefault)
    return launchAttentionTile<T, HeadDim, kDefault.blockM, kDefault.blockN, kDefault.warps>(
        args, stream);
#ifdef SOPT_ATTENTION_TILE_VARIANTS
  if constexpr (HeadDim <= 128) {
    if (tile == AttentionTile{128, 64, 4})
      return launchAttentionTile<T, HeadDim, 128, 64, 4>(args, stream);
    if (tile == AttentionTile{128, 64, 8})
      return launchAttentionTile<T, HeadDim, 128, 64, 8>(args, stream);
    if (tile == AttentionTile{128, 32, 4})
      return launchAttentionTile<T, HeadDim, 128, 32, 4>(args, stream);
    if (tile == AttentionTile{64, 64, 4})
      return launchAttentionTile<T, HeadDim, 64, 64, 4>(args, stream);
  }
#endif
  return cudaErrorInvalidValue;
}

/// O = softmax(scale · Q·Kᵀ + masks) · V on `stream` (AttentionArguments.cuh
/// says what `args` holds), with the schedule's tile for `headDim` or the
/// given one. cudaErrorInvalidValue for arguments it cannot take
/// (rejectArguments says why) or a tile not instantiated.
template <typename T>
cudaError_t runAttention(const Arguments<T> &args, int headDim, cudaStream_t stream = 0,
                         const AttentionTile *tile = nullptr) {
  if (rejectArguments(args, headDim))
    return cudaErrorInvalidValue;
  const AttentionTile chosen = tile ? *tile : chooseAttentionTile(headDim);
  switch (headDim) {
  case 64:
    return launchAttentionHeadDim<T, 64>(args, chosen, stream);
  case 80:
    return launchAttentionHeadDim<T, 80>(args, chosen, stream);
  case 96:
    return launchAttentionHeadDim<T, 96>(args, chosen, stream);
  case 128:
    return launchAttentionHeadDim<T, 128>(args, chosen, stream);
  case 256:
    return launchAttentionHeadDim<T, 256>(args, chosen, stream);
  default:
    return cudaErrorInvalidValue;
  }
}

} // namespace sopt::attention

#endif // SPARSE_OPT_RUNTIME_ATTENTION_CUH
