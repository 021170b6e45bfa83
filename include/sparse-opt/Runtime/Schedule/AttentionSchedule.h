//===- AttentionSchedule.h - tile choice for fused attention ----*- C++ -*-===//
//
// Which tile the fused attention kernel (Kernels/AttentionForward.cuh) runs
// for a head dimension: how many query rows a block keeps resident
// (blockM), how many keys each step of its loop takes (blockN), and its warps
// (each warp owns blockM / warps consecutive query rows, in 16-row
// tensor-core tiles).
//
// The rule: up to head dimension 128, 128 query rows and 64 keys a step
// with 4 warps of 32 rows: each K/V fragment a warp reads from shared memory
// feeds two MMAs, and the two blocks a multiprocessor holds (104 KiB of
// shared memory each at 128) hide each other's copies. At 128 ptxas spills a
// few registers, yet 8 warps of 16 rows (no spill) are slower. Head dimension 256 keeps 16 rows a warp, 64 query rows and 32
// keys a step (its output accumulator alone is 128 registers a lane).
// The tiles compared: docs/benchmarks/attention.md.
//
// Plain C++: the compiler's schedule pass calls it without CUDA.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_SCHEDULE_ATTENTIONSCHEDULE_H
#define SPARSE_OPT_RUNTIME_SCHEDULE_ATTENTIONSCHEDULE_H

#include <cstdint>

namespace sopt {

/// One tile of the fused attention kernel.
struct AttentionTile {
  int blockM = 128; ///< query rows a block keeps resident
  int blockN = 64;  ///< keys per step of the loop over K/V
  int warps = 4;    ///< blockM / warps rows per warp, a multiple of 16
};

inline constexpr bool operator==(const AttentionTile &a, const AttentionTile &b) {
  return a.blockM == b.blockM && a.blockN == b.blockN && a.warps == b.warps;
}

/// The head dimensions the kernel is instantiated for (query, key and value
/// share one).
inline constexpr int kAttentionHeadDims[] = {64, 80, 96, 128, 256};

inline constexpr bool isAttentionHeadDim(int64_t headDim) {
  for (int d : kAttentionHeadDims)
    if (d == headDim)
      return true;
  return false;
}

/// Tiles the benchmark compares for head dimensions up to 128 (instantiated
/// where SOPT_ATTENTION_TILE_VARIANTS is defined, Kernels/Attention.cuh).
inline constexpr AttentionTile kAttentionTileVariants[] = {
    {128, 64, 4}, {128, 64, 8}, {128, 32, 4}, {64, 64, 4}};

/// Dynamic shared memory a block may use on sm_90 (227 KiB).
inline constexpr int64_t kAttentionSharedBytesLimit = 232448;

/// Shared memory of `tile` for 16-bit operands: Q, then two stages of K and
/// of V, every row padded by 8 elements (16 bytes, so that the rows an
/// ldmatrix reads start in different banks).
inline constexpr int64_t attentionSharedBytes(const AttentionTile &tile, int64_t headDim) {
  return (int64_t(tile.blockM) + 4 * int64_t(tile.blockN)) * (headDim + 8) * 2;
}

/// Why `tile` is no tile of the kernel for `headDim`, or null when it is:
/// 16 or 32 query rows a warp (more would not fit the registers), 2, 4 or
/// 8 warps, 16 to 128 keys a step in steps of 16, shared memory within a
/// block's limit.
inline const char *rejectAttentionTile(const AttentionTile &tile, int64_t headDim) {
  if (!isAttentionHeadDim(headDim))
    return "head dimension not one of 64, 80, 96, 128, 256";
  if (tile.warps != 2 && tile.warps != 4 && tile.warps != 8)
    return "warps not 2, 4 or 8";
  if (tile.blockM != 16 * tile.warps && tile.blockM != 32 * tile.warps)
    return "block_m not 16 or 32 rows per warp";
  if (tile.blockN < 16 || tile.blockN > 128 || tile.blockN % 16)
    return "block_n not 16, 32, 48, ..., 128";
  if (attentionSharedBytes(tile, headDim) > kAttentionSharedBytesLimit)
    return "shared memory beyond 227 KiB";
  return nullptr;
}

/// The tile for `headDim` (one of kAttentionHeadDims).
inline constexpr AttentionTile chooseAttentionTile(int64_t headDim) {
  if (headDim <= 128)
    return {128, 64, 4};
  return {64, 32, 4};
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_SCHEDULE_ATTENTIONSCHEDULE_H
