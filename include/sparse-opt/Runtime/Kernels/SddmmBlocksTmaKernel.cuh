//===- SddmmBlocksTmaKernel.cuh - TMA-fed f32 dense blocks -----*- CUDA -*-===//
//
// sddmmBlocksSplitKernel: the f32 blocks of 64 x 64 or 128 x 64 for sm_90a
// when a workspace is given. B is split into its TF32 parts and remainders once
// per call (splitTf32PlanesKernel) instead of in every block, and the chunks of
// A and of both planes arrive by the tensor memory accelerator (Tma.cuh) in a
// four-stage ring of mbarriers: one thread issues the copies, each warpgroup
// waits for its stage alone, no barrier spans the block inside the loop. The
// blocks are launched dependent on the split (programmatic dependent launch)
// so that their prologue overlaps it. Blocks of 128 rows (tallBlocksFrom)
// copy each chunk of B once for both 64-row halves. Same products in the same
// order as sddmmBlocksKernel: outputs bit for bit equal.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_SDDMMBLOCKSTMAKERNEL_CUH
#define SPARSE_OPT_RUNTIME_SDDMMBLOCKSTMAKERNEL_CUH

#include "sparse-opt/Runtime/Kernels/SddmmBlocksKernel.cuh"

namespace sopt {

namespace sddmm_blocks {

/// A stage of the TMA-fed f32 blocks of Rows x 64 (Rows 64 or 128): one
/// chunk of A's Rows rows and of B's TF32 parts and remainders for the
/// block's 64 columns, each row 128 bytes in the 128-byte swizzle.
template <int Rows> struct alignas(1024) SplitStage {
  static_assert(Rows == 64 || Rows == 128, "one or two warpgroups' rows");
  float a[Rows * 32];
  float bPart[64 * 32];
  float bRemainder[64 * 32];
};
constexpr int kSplitStages = 4;
/// Bytes the tensor copies of one stage complete.
template <int Rows> constexpr uint32_t kSplitStageBytes = sizeof(SplitStage<Rows>);
/// Threads of a block: two warpgroups per 64 rows.
template <int Rows> constexpr int kSplitThreads = kThreads * (Rows / 64);
/// The slices' products of a Rows x 64 block: two per 64 rows.
template <int Rows>
constexpr size_t kSplitProductBytes = kProductBytes<64> * (Rows / 64);
/// Dynamic shared memory of the TMA-fed blocks (the stages, later the
/// slices' products, and room to align them).
template <int Rows>
constexpr size_t kSplitDynamicBytes = sizeof(SplitStage<Rows>) * kSplitStages + 1024;
static_assert(kSplitProductBytes<64> <= sizeof(SplitStage<64>) * kSplitStages &&
                  kSplitProductBytes<128> <= sizeof(SplitStage<128>) * kSplitStages,
              "products fit the stages");

/// The TMA-fed f32 blocks take 128 rows when that still makes this many
/// blocks (`sms`: the device's SMs): one per SM runs where two of 64 x 64
/// did, sharing B's chunks; fewer would leave SMs idle.
inline int64_t tallBlocksFrom(int sms) { return int64_t(sms) * 3 / 4; }


} // namespace sddmm_blocks

/// The f32 blocks of Rows x 64 (Rows 64 or 128) with B split into TF32
/// parts and remainders beforehand (splitTf32PlanesKernel) and every chunk
/// brought by the tensor memory accelerator (Tma.cuh): thread 0 copies the
/// tiles of A, B's parts and B's remainders for chunk c into stage c % 4,
/// three chunks ahead, and refills a stage once every warp has arrived on
/// its `empty` barrier; each warpgroup waits on the stage's `full` barrier,
/// splits its k steps of A in registers, issues its wgmmas, waits for them
/// and folds the chunk's sum. No barrier spans the block inside the loop,
/// no thread computes copy addresses, and no block splits B (a large share
/// of the in-block split's time).
///
/// Every 64 rows have two warpgroups, each multiplying them for every other
/// k step (slice 0: steps 0 and 2 of a chunk, slice 1: 1 and 3): 8 warps
/// for 64 rows, 16 for 128. A block of 128 rows feeds each chunk of B to
/// twice the products, so that a 2048 x 512 product moves 2/3 of the bytes
/// through L2 that 64 x 64 blocks (two per SM) move. Either way the
/// products, their order and the sampling are those of sddmmBlocksKernel:
/// outputs bit for bit equal. Compiled for a target without wgmma, the
/// kernel runs sddmmBlocksKernel's body on `rhs` instead, for one 64-row
/// half after the other. `occupied`, if given, lists blocks of Rows x 64.
/// The one runtime kernel that does not begin with awaitPrecedingKernels:
/// it always follows the split, which lets it start only once everything
/// before the split is done, and its copying thread waits for the planes.
template <int Rows, typename Epilogue>
__global__ void __launch_bounds__(sddmm_blocks::kSplitThreads<Rows>, Rows == 64 ? 2 : 1)
    sddmmBlocksSplitKernel(CsrMatrix<float> s, const float *__restrict__ lhs,
                           const float *__restrict__ rhs, int32_t k, float *__restrict__ out,
                           Epilogue epilogue, const int32_t *__restrict__ windows,
                           const int32_t *__restrict__ occupied,
                           const __grid_constant__ CUtensorMap lhsTiles,
                           const __grid_constant__ CUtensorMap partTiles,
                           const __grid_constant__ CUtensorMap remainderTiles) {
  using namespace sddmm_blocks;
  const BlockPlace place = placeOfBlock(occupied, (s.cols + 63) / 64);
#if !defined(__CUDA_ARCH_FEAT_SM90_ALL)
  constexpr int kHalves = Rows / 64; // 64-row halves of the block
  // sddmmBlocksKernel's body needs kThreads threads; the others leave (a
  // barrier waits for threads that have not exited only).
  if (threadIdx.x >= kThreads)
    return;
#pragma unroll 1
  for (int h = 0; h < kHalves; ++h) {
    if (h > 0)
      __syncthreads(); // the shared memory of the half before is read
    multiplyAndSample<float, 64, 1, true>(
        s, lhs, rhs, k, out, epilogue, windows,
        BlockPlace{place.row * kHalves + h, place.column, place.columns, place.listed});
  }
#else
  constexpr int Block = 64, kBlockWarps = kSplitThreads<Rows> / 32;
  using P = Pieces<Block>;
  using Stage = SplitStage<Rows>;
  extern __shared__ __align__(16) unsigned char dynamicSmem[];
  __shared__ uint64_t full[kSplitStages], empty[kSplitStages];
  __shared__ int32_t windowBegin[Rows], windowEnd[Rows];
  const int64_t row0 = place.row * Rows, col0 = place.column * Block;
  const size_t misalignment = size_t(__cvta_generic_to_shared(dynamicSmem)) % 1024;
  unsigned char *stageBytes = dynamicSmem + (1024 - misalignment) % 1024;
  Stage *stages = reinterpret_cast<Stage *>(stageBytes);
  const int32_t chunks = (k + 31) / 32;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;

  const bool sampled = readWindows<Rows>(windows, s.rows, row0, place, windowBegin, windowEnd);
  if (threadIdx.x == 0) {
    for (int i = 0; i < kSplitStages; ++i) {
      tma::initBarrier(&full[i], 1);
      tma::initBarrier(&empty[i], kBlockWarps);
    }
    tma::fenceBarrierInit();
  }
  // Blocks without entries leave before any copy starts.
  if (!__syncthreads_or(sampled))
    return;

  auto copyChunk = [&](int32_t c) {
    Stage &stage = stages[c % kSplitStages];
    uint64_t *landed = &full[c % kSplitStages];
    tma::arriveExpecting(landed, kSplitStageBytes<Rows>);
    tma::loadTile(stage.a, &lhsTiles, c * 32, int32_t(row0), landed);
    tma::loadTile(stage.bPart, &partTiles, c * 32, int32_t(col0), landed);
    tma::loadTile(stage.bRemainder, &remainderTiles, c * 32, int32_t(col0), landed);
  };
  if (threadIdx.x == 0) {
    awaitPrecedingKernels(); // B's planes (launched dependent on their split)
    for (int32_t c = 0; c < chunks && c < kSplitStages - 1; ++c)
      copyChunk(c);
  }

  // The warp's 64-row half of the block (8 warps each) and the slice of its
  // warpgroup there.
  const int half = warp / kWarps, slice = warp / 4 % 2;
  float acc[32] = {}, part[32];
  for (int32_t c = 0; c < chunks; ++c) {
    const int at = c % kSplitStages;
    if (threadIdx.x == 0 && c + kSplitStages - 1 < chunks) {
      // Refill the stage of chunk c - 1 once every warp is done with it.
      const int32_t next = c + kSplitStages - 1;
      if (next >= kSplitStages)
        tma::wait(&empty[next % kSplitStages], uint32_t((next / kSplitStages - 1) & 1));
      copyChunk(next);
    }
    tma::wait(&full[at], uint32_t((c / kSplitStages) & 1));
    const Stage &stage = stages[at];
    const float *a = stage.a + half * 64 * 32; // whole swizzle atoms
    issueChunkWarpgroupTf32(
        [a](int row, int k) { return a[warpgroup::swizzled128<float>(row, k)]; }, stage.bPart,
        stage.bRemainder, slice, part);
    finishChunkWarpgroup(part, acc);
    __syncwarp();
    if (lane == 0)
      tma::arrive(&empty[at]);
  }
  __syncthreads(); // every copy has landed and been read: the stages become the products

  // Half h's slices at product + (2 h + slice) * 64 * kProductStride.
  constexpr int kSliceFloats = Block * P::kProductStride;
  float *product = reinterpret_cast<float *>(stageBytes) + 2 * half * kSliceFloats;
  storeAccumulators(reinterpret_cast<const float(&)[1][8][4]>(acc),
                    product + slice * kSliceFloats, P::kProductStride, 16 * (warp % 4), 0);
  __syncthreads();
  writeSampledEntries<float, Block, 1>(s, out, epilogue, product, row0 + 64 * half, col0, 0,
                                       windowBegin + 64 * half, windowEnd + 64 * half,
                                       warp % kWarps);
#endif
}

/// parts[i] and remainders[i]: the TF32 part and remainder of b[i]
/// (splitTf32), for `vectors` float4s. (A template only so that the header
/// defines it in every translation unit that includes it.)
template <typename Vector = float4>
__global__ void __launch_bounds__(256)
    splitTf32PlanesKernel(const Vector *__restrict__ b, int64_t vectors,
                          Vector *__restrict__ parts, Vector *__restrict__ remainders) {
  static_assert(std::is_same_v<Vector, float4>, "four floats at a time");
  // The blocks kernel launched after the split starts at once (its windows
  // and barriers need no planes; its copying thread waits for them), and
  // only after this wait: what it reads early, earlier kernels wrote.
  awaitPrecedingKernels();
  allowFollowingKernels();
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < vectors;
       i += int64_t(gridDim.x) * blockDim.x) {
    const float4 x = b[i];
    uint32_t hi[4], lo[4];
    tensor_core::splitTf32(x.x, hi[0], lo[0]);
    tensor_core::splitTf32(x.y, hi[1], lo[1]);
    tensor_core::splitTf32(x.z, hi[2], lo[2]);
    tensor_core::splitTf32(x.w, hi[3], lo[3]);
    parts[i] = make_float4(__uint_as_float(hi[0]), __uint_as_float(hi[1]),
                           __uint_as_float(hi[2]), __uint_as_float(hi[3]));
    remainders[i] = make_float4(__uint_as_float(lo[0]), __uint_as_float(lo[1]),
                                __uint_as_float(lo[2]), __uint_as_float(lo[3]));
  }
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_SDDMMBLOCKSTMAKERNEL_CUH
