//===- AttentionForward.cuh - FlashAttention-style fused forward -*- CUDA -*-===//
//
// attentionForwardKernel: one block per (BlockM query rows, query head,
// batch). The block copies its Q rows into shared memory once, then walks
// the keys BlockN at a time: K and V tiles of the next step are copied by
// cp.async into the other half of a two-stage ring while the warps compute
// the current one. Each warp owns BlockM / Warps query rows and, per step,
//   S = Q·Kᵀ     (mma.sync m16n8k16, f32 accumulators, fragments by ldmatrix
//                 at one shared address per lane plus compile-time offsets)
//   masks        (key padding, causal; only on steps that cross a boundary)
//   online softmax (AttentionOnlineSoftmax.cuh), S becomes P in registers
//   O += P·V     (P re-packed from the S accumulators as the A operand)
// and after the last step divides O by the row sums and writes it. Scores
// and probabilities never leave registers.
//
// Query blocks are handed out last first: under a causal mask the late
// blocks have the most keys, and starting them first shortens the tail.
//
// Shared-memory rows are padded by 16 bytes, so the 8 rows an ldmatrix
// reads start in different banks.
//
// Requires sm_80 or newer (cp.async, ldmatrix, bf16 mma).
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_ATTENTIONFORWARD_CUH
#define SPARSE_OPT_RUNTIME_ATTENTIONFORWARD_CUH

#include "sparse-opt/Runtime/Device/TensorCore.cuh"
#include "sparse-opt/Runtime/Kernels/AttentionArguments.cuh"
#include "sparse-opt/Runtime/Kernels/AttentionOnlineSoftmax.cuh"
#include "sparse-opt/Runtime/Schedule/AttentionSchedule.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <type_traits>

namespace sopt::attention {

/// The compile-time shape of one kernel instance and its shared memory.
template <typename T, int HeadDim, int BlockM, int BlockN, int Warps> struct Tile {
  static_assert(sizeof(T) == 2, "f16 or bf16 operands");
  static_assert(HeadDim % 16 == 0, "the head dimension is walked in k16 steps");
  static_assert(BlockN % 16 == 0, "keys are the k of P·V, 16 at a time");
  static_assert(BlockM % (16 * Warps) == 0, "whole 16-row tiles per warp");
  static constexpr int kThreads = 32 * Warps;
  static constexpr int kRowsPerWarp = BlockM / Warps;
  static constexpr int kTilesM = kRowsPerWarp / 16;  ///< 16-row tiles per warp
  static constexpr int kTilesN = BlockN / 8;         ///< 8-key score tiles
  static constexpr int kTilesV = HeadDim / 8;        ///< 8-wide output tiles
  static constexpr int kRowElements = HeadDim + 8;   ///< padded row (16 bytes)
  static constexpr int kChunksPerRow = HeadDim / 8;  ///< 16-byte copies per row
  static constexpr int kQueryElements = BlockM * kRowElements;
  static constexpr int kKeyElements = BlockN * kRowElements;
  /// Q, then two stages of K, then two of V.
  static constexpr size_t kSharedBytes =
      size_t(attentionSharedBytes(AttentionTile{BlockM, BlockN, Warps}, HeadDim));
  static_assert(kSharedBytes == size_t(kQueryElements + 4 * kKeyElements) * sizeof(T));
};

/// Starts copying `rows` x HeadDim elements (row stride `stride`) from
/// `source` into the padded shared tile `tile`; rows from `validRows` on are
/// zero-filled without reading (their scores are masked, and zero V rows
/// keep 0 · garbage out of the sums).
template <typename T, int HeadDim, int Rows, int Threads>
__device__ __forceinline__ void copyTile(T *tile, const T *source, int64_t stride,
                                         int validRows) {
  constexpr int kChunks = HeadDim / 8, kRowElements = HeadDim + 8;
  for (int i = threadIdx.x; i < Rows * kChunks; i += Threads) {
    const int row = i / kChunks, chunk = i % kChunks;
    const bool inside = row < validRows;
    const T *from = inside ? source + row * stride + chunk * 8 : source;
    tensor_core::copyAsync<16>(tile + row * kRowElements + chunk * 8, from, inside);
  }
}

template <typename I> __device__ __forceinline__ I smaller(I a, I b) { return a < b ? a : b; }
template <typename I> __device__ __forceinline__ I larger(I a, I b) { return a < b ? b : a; }

template <int TilesM, int TilesN>
__device__ __forceinline__ void zero(float (&acc)[TilesM][TilesN][4]) {
#pragma unroll
  for (int mi = 0; mi < TilesM; ++mi)
#pragma unroll
    for (int ni = 0; ni < TilesN; ++ni)
#pragma unroll
      for (int e = 0; e < 4; ++e)
        acc[mi][ni][e] = 0.0f;
}

/// Two 16-bit values in one register, `low` in the low half.
template <typename T> __device__ __forceinline__ uint32_t packPair(float low, float high) {
  if constexpr (std::is_same_v<T, __half>) {
    __half2 pair = __floats2half2_rn(low, high);
    return *reinterpret_cast<uint32_t *>(&pair);
  } else {
    __nv_bfloat162 pair = __floats2bfloat162_rn(low, high);
    return *reinterpret_cast<uint32_t *>(&pair);
  }
}

/// ldmatrix.x4 (plain and transposed) at a shared-memory byte address: the
/// fragment loops add compile-time offsets to one base address per warp
/// lane, which become the instructions' immediates.
__device__ __forceinline__ void loadMatricesAt(uint32_t (&m)[4], uint32_t address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(m[0]), "=r"(m[1]), "=r"(m[2]), "=r"(m[3])
               : "r"(address));
}

__device__ __forceinline__ void loadMatricesTransposedAt(uint32_t (&m)[4], uint32_t address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(m[0]), "=r"(m[1]), "=r"(m[2]), "=r"(m[3])
               : "r"(address));
}

template <typename T, int HeadDim, int BlockM, int BlockN, int Warps>
__global__ void __launch_bounds__(32 * Warps)
    attentionForwardKernel(const Arguments<T> args) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  __trap(); // cp.async, ldmatrix and bf16 mma.sync need sm_80
#else
  using Shape = Tile<T, HeadDim, BlockM, BlockN, Warps>;
  constexpr int kTilesM = Shape::kTilesM, kTilesN = Shape::kTilesN, kTilesV = Shape::kTilesV;
  constexpr int kRow = Shape::kRowElements;
  extern __shared__ __align__(16) unsigned char sharedBytes[];
  T *queryTile = reinterpret_cast<T *>(sharedBytes);
  T *keyTiles = queryTile + Shape::kQueryElements; // [2][BlockN][kRow]
  T *valueTiles = keyTiles + 2 * Shape::kKeyElements;

  const int queryBlock = gridDim.x - 1 - blockIdx.x;
  const int head = blockIdx.y, batch = blockIdx.z;
  const int keyHead = head / (args.queryHeads / args.keyHeads);
  const int64_t row0 = int64_t(queryBlock) * BlockM;
  const int validQueries = int(smaller<int64_t>(BlockM, args.queryLength - row0));

  int keyLength = args.keyLength;
  if (args.keyLengths)
    keyLength = larger(0, smaller(keyLength, int(args.keyLengths[batch])));
  // Keys past the block's last visible one are never loaded.
  int64_t keyEnd = keyLength;
  if (args.causal)
    keyEnd = smaller<int64_t>(keyEnd, row0 + validQueries + args.causalOffset);
  const int steps = keyEnd > 0 ? int((keyEnd + BlockN - 1) / BlockN) : 0;

  const T *query = args.query + batch * args.queryStrides.batch + head * args.queryStrides.head +
                   row0 * args.queryStrides.row;
  const T *key = args.key + batch * args.keyStrides.batch + keyHead * args.keyStrides.head;
  const T *value =
      args.value + batch * args.valueStrides.batch + keyHead * args.valueStrides.head;

  auto copyKeysAndValues = [&](int step) {
    const int64_t key0 = int64_t(step) * BlockN;
    const int valid = int(smaller<int64_t>(BlockN, keyLength - key0));
    const int stage = step % 2;
    copyTile<T, HeadDim, BlockN, Shape::kThreads>(keyTiles + stage * Shape::kKeyElements,
                                                  key + key0 * args.keyStrides.row,
                                                  args.keyStrides.row, valid);
    copyTile<T, HeadDim, BlockN, Shape::kThreads>(valueTiles + stage * Shape::kKeyElements,
                                                  value + key0 * args.valueStrides.row,
                                                  args.valueStrides.row, valid);
  };

  copyTile<T, HeadDim, BlockM, Shape::kThreads>(queryTile, query, args.queryStrides.row,
                                                validQueries);
  if (steps > 0)
    copyKeysAndValues(0);
  tensor_core::commitCopies();

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warpRow0 = warp * Shape::kRowsPerWarp;
  const int group = lane / 4, quadLane = lane % 4;

  float out[kTilesM][kTilesV][4];
  zero(out);
  OnlineSoftmax<kTilesM> softmax;
  const float scaleLog2 = args.scale * 1.4426950408889634f; // log2(e)

  // ldmatrix row addresses: lane l names row l % 8 of 8 x 8 matrix l / 8.
  // A (Q) fragment: matrices (rows 0-7 | 8-15) x (k 0-7 | 8-15), rows first.
  const int aRow = (lane % 8) + 8 * ((lane / 8) % 2), aColumn = 8 * (lane / 16);
  // B from K (keys x d): matrices (keys 0-7, k 0-7), (keys 0-7, k 8-15),
  // (keys 8-15, k 0-7), (keys 8-15, k 8-15): two 8-key tiles.
  const int kRowInPair = (lane % 8) + 8 * (lane / 16), kColumn = 8 * ((lane / 8) % 2);
  // B from V (keys x d, transposed): (keys 0-7 | 8-15) x (d 0-7 | 8-15),
  // keys first: two 8-wide output tiles.
  const int vRow = (lane % 8) + 8 * ((lane / 8) % 2), vColumn = 8 * (lane / 16);
  // Each lane's first address in Q, in stage 0 of K and of V (bytes).
  constexpr uint32_t kElement = sizeof(T), kStageBytes = Shape::kKeyElements * sizeof(T);
  const uint32_t sharedBase = uint32_t(__cvta_generic_to_shared(sharedBytes));
  const uint32_t queryAddress = sharedBase + ((warpRow0 + aRow) * kRow + aColumn) * kElement;
  const uint32_t keyAddress =
      sharedBase + (Shape::kQueryElements + kRowInPair * kRow + kColumn) * kElement;
  const uint32_t valueAddress =
      sharedBase + (Shape::kQueryElements + 2 * Shape::kKeyElements + vRow * kRow + vColumn) *
                       kElement;

  for (int step = 0; step < steps; ++step) {
    if (step + 1 < steps)
      copyKeysAndValues(step + 1);
    tensor_core::commitCopies();
    tensor_core::waitCopies<1>(); // this step's tiles (and Q) have landed
    __syncthreads();
    const uint32_t stageOffset = (step % 2) * kStageBytes;

    float scores[kTilesM][kTilesN][4];
    zero(scores);
#pragma unroll
    for (int kk = 0; kk < HeadDim / 16; ++kk) {
      uint32_t a[kTilesM][4];
#pragma unroll
      for (int mi = 0; mi < kTilesM; ++mi)
        loadMatricesAt(a[mi], queryAddress + (mi * 16 * kRow + kk * 16) * kElement);
#pragma unroll
      for (int np = 0; np < kTilesN / 2; ++np) {
        uint32_t b[4];
        loadMatricesAt(b, keyAddress + stageOffset + (np * 16 * kRow + kk * 16) * kElement);
        const uint32_t b0[2] = {b[0], b[1]}, b1[2] = {b[2], b[3]};
#pragma unroll
        for (int mi = 0; mi < kTilesM; ++mi) {
          tensor_core::mma16<T>(scores[mi][2 * np], a[mi], b0);
          tensor_core::mma16<T>(scores[mi][2 * np + 1], a[mi], b1);
        }
      }
    }

    // Masks, only where this step crosses the padding or the diagonal.
    const int64_t key0 = int64_t(step) * BlockN;
    const bool crossesPadding = key0 + BlockN > keyLength;
    const bool crossesDiagonal = args.causal && key0 + BlockN - 1 > row0 + args.causalOffset;
    if (crossesPadding || crossesDiagonal) {
#pragma unroll
      for (int mi = 0; mi < kTilesM; ++mi)
#pragma unroll
        for (int ni = 0; ni < kTilesN; ++ni)
#pragma unroll
          for (int e = 0; e < 4; ++e) {
            const int64_t row = row0 + warpRow0 + mi * 16 + group + 8 * (e / 2);
            const int64_t column = key0 + ni * 8 + 2 * quadLane + e % 2;
            const bool hidden =
                column >= keyLength || (args.causal && column > row + args.causalOffset);
            if (hidden)
              scores[mi][ni][e] = -INFINITY;
          }
    }

    softmax.update(scores, out, scaleLog2);

#pragma unroll
    for (int kk = 0; kk < BlockN / 16; ++kk) {
      // P's A fragment: the accumulators of score tiles 2kk and 2kk + 1.
      uint32_t p[kTilesM][4];
#pragma unroll
      for (int mi = 0; mi < kTilesM; ++mi) {
        p[mi][0] = packPair<T>(scores[mi][2 * kk][0], scores[mi][2 * kk][1]);
        p[mi][1] = packPair<T>(scores[mi][2 * kk][2], scores[mi][2 * kk][3]);
        p[mi][2] = packPair<T>(scores[mi][2 * kk + 1][0], scores[mi][2 * kk + 1][1]);
        p[mi][3] = packPair<T>(scores[mi][2 * kk + 1][2], scores[mi][2 * kk + 1][3]);
      }
#pragma unroll
      for (int vp = 0; vp < kTilesV / 2; ++vp) {
        uint32_t b[4];
        loadMatricesTransposedAt(
            b, valueAddress + stageOffset + (kk * 16 * kRow + vp * 16) * kElement);
        const uint32_t b0[2] = {b[0], b[1]}, b1[2] = {b[2], b[3]};
#pragma unroll
        for (int mi = 0; mi < kTilesM; ++mi) {
          tensor_core::mma16<T>(out[mi][2 * vp], p[mi], b0);
          tensor_core::mma16<T>(out[mi][2 * vp + 1], p[mi], b1);
        }
      }
    }
    __syncthreads(); // the next step's copy overwrites this stage
  }
  tensor_core::waitCopies<0>(); // no copy outlives the block (steps == 0)

  softmax.normalise(out);
  T *output = args.output + batch * args.outputStrides.batch + head * args.outputStrides.head;
#pragma unroll
  for (int mi = 0; mi < kTilesM; ++mi)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int64_t row = row0 + warpRow0 + mi * 16 + group + 8 * h;
      if (row >= args.queryLength)
        continue;
      T *at = output + row * args.outputStrides.row + 2 * quadLane;
#pragma unroll
      for (int vi = 0; vi < kTilesV; ++vi)
        *reinterpret_cast<uint32_t *>(at + vi * 8) =
            packPair<T>(out[mi][vi][2 * h], out[mi][vi][2 * h + 1]);
    }
#endif
}

} // namespace sopt::attention

#endif // SPARSE_OPT_RUNTIME_ATTENTIONFORWARD_CUH
