//===- SddmmBlocks.cuh - SDDMM by dense tensor-core blocks ------*- CUDA -*-===//
//
// D = epilogue((A · Bᵀ) ⊙ S) for patterns dense enough that computing whole
// square blocks of A · Bᵀ (64 x 64 or 32 x 32) on tensor cores, then keeping
// the entries S samples, beats one dot product per nonzero: the per-nonzero
// kernel (Sddmm.cuh) reads a row of B from L2 for every output, a 64 x 64
// block reads each of its 64 rows of A and B once for 4096 outputs.
//
// A block of 8 warps owns output rows [Block by, +Block) and columns
// [Block bx, +Block) and skips all work when S's rows there are empty. It walks
// k in chunks of 128 bytes per row, copied to shared memory by cp.async
// three chunks ahead of the one that feeds the warps' mma.sync. A 64 x 64
// block has four pieces of 32 x 32, two warps on each; a 32 x 32 block two
// pieces of 32 x 16, four warps on each. The warps of a piece take turns
// over a chunk's k steps and add their sums in shared memory, so a product
// too small for 64 x 64 blocks to fill the GPU (512 x 512: 64 blocks on 132
// SMs) gets four times the blocks without idle warps. f16/bf16 use
// m16n8k16 with f32 accumulation; f32 uses m16n8k8 on TF32 three times per
// product (each operand split into a TF32 part and a TF32 remainder, the
// remainders' product dropped: about 21 of f32's 24 significand bits). The
// block's product goes to shared memory; each warp then writes the entries
// of its rows of the block (a coalesced row at a time).
//
// f32 64 x 64 blocks built for sm_90a multiply by warpgroups instead
// (wgmma, Warpgroup.cuh): each of the two warpgroups computes the whole
// block for every other k step, A's fragments split in registers as above,
// B's chunk kept in wgmma's swizzled layout and split into its two TF32
// planes in shared memory a chunk ahead, while the tensor cores work on the
// current one. The same products in the same order: the outputs equal the
// mma.sync path's bit for bit (H100, DLMC patterns), 1.23-1.25x faster at
// k = 1024, 1.12-1.15x at k = 256. ncu then shows neither L2 (46 % of its
// peak) nor the issue slots (50 %) saturated, with 4 warps per scheduler:
// the chunk's chain of barrier, copies, split and waits sets the pace.
// 16-bit 64 x 64 blocks keep both operands' chunks in that layout, five
// stages deep; on sm_90a each warpgroup issues m64n64k16 wgmmas for every
// other k step straight from shared memory and waits for them one chunk
// later, just before the copy that refills their stage: 1.54-1.60x the
// mma.sync kernel at k = 1024, 1.29-1.38x at k = 256, 1.10-1.14x at k = 64
// (H100, DLMC patterns), outputs again bit for bit the same. Other targets
// keep mma.sync, reading the operands through the same swizzle.
//
// With a workspace (launchSddmmBlocks' last argument), f32 64 x 64 blocks
// without k splits take another main loop, sddmmBlocksSplitKernel: B is
// split into its TF32 parts and remainders once per call by a kernel of its
// own instead of in every block (an ablation on the H100 put the in-block
// split at 31 % of the time), and the chunks of A and of both planes arrive
// by the tensor memory accelerator (Tma.cuh) in a four-stage ring of
// mbarriers: thread 0 issues three tile copies per chunk, each warpgroup
// waits for its stage alone, no barrier spans the block inside the loop.
// The same products in the same order: outputs bit for bit equal; 1.19-
// 1.23x faster at k = 1024 on the 2048 x 512 DLMC patterns, 1.10-1.12x at k =
// 256, 1.00-1.08x on 512 x 2048 (B four times larger to split).
// The blocks are launched dependent on the split (programmatic dependent
// launch): they start while it runs, and only the copying thread waits for
// it before its first tensor copy, so the gap between the two launches and
// the blocks' prologue overlap the split: 1.05-1.12x at k = 256 and
// 1.02-1.03x at k = 1024 on the same patterns (H100, graph replays).
// Where blocks of 128 rows still give about one per SM (tallBlocksFrom),
// the kernel takes 128 x 64 blocks of 16 warps, two warpgroups per 64 rows
// as before, each chunk of B's planes copied once for both halves: a third
// less L2 traffic, 1.02-1.03x at k = 1024 on the 2048 x 512 / 512 x 2048
// patterns, within 1-2 % at k = 256. The same blocks with 8 warps (each
// warpgroup both slices of its 64 rows) ran 0.93-0.95x at k = 256: ncu on
// the 64 x 64 kernel (80 % 2048 x 512, k = 1024) shows L2 at 50 % and the
// tensor pipe at 51 % of peak, warps stalled on fixed-latency dependencies,
// memory and the final barrier; the loop's issue and latency set the pace,
// not L2, and it needs its 16 warps per SM.
//
// A product too small to fill the GPU with its blocks but long in k can
// split k (Splits > 1; the schedules use 2, `k_splits`): the grid gets a z
// dimension of Splits thread blocks per output block, launched as a cluster
// (sm_90); each multiplies its share of the chunks, then every block reads
// the others' products through distributed shared memory and writes its
// share of the rows, the sums always added in block order (deterministic).
// On the H100 the 512 x 512 DLMC patterns (64 blocks of 64 x 64) ran
// 1.15-1.54x faster so in f32 at k = 512-4096 than in 32 x 32 blocks,
// 1.04-1.45x in 16-bit at k = 1024-4096 than unsplit; at k = 256 the split
// did not pay (each block's fixed cost counts twice), and four or eight
// splits lost at every k up to 4096.
//
// Where a row's entries reach the block's columns comes from `windows`,
// prepared once per pattern (sopt_csr_column_windows, RowOrder.h; the
// generated code embeds them for a pattern known at compile time), or else
// from a search of the row's column indices (a dependent load per step) by
// 2 x Block threads, one per row and bound. Searched before the
// multiplies, it left the tensor cores idle for a third of a short kernel;
// instead each step's loads are issued after one chunk's multiply and used
// after the next (the windows are only needed for the final writes). The
// loads still queue behind the block's copies: prepared windows ran
// 1.07-1.25x faster in 16-bit at k = 64-256 on the H100.
//
// f32 blocks of 32 x 32 without k splits run SddmmDirect.cuh's kernel
// instead (fragments loaded from global memory, no staging): 1.12x faster
// on the H100 at k = 256, and at k = 1024 1.11-1.15x faster than 64 x 64
// blocks with k split in two, which f32 patterns therefore no longer take.
//
// Requires sm_80 or newer. A, B and S's values must be aligned to 16 bytes
// and k a multiple of 16 bytes' elements for the vector loads
// (launchSddmmBlocks checks and otherwise loads element by element).
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_SDDMMBLOCKS_CUH
#define SPARSE_OPT_RUNTIME_SDDMMBLOCKS_CUH

#include "sparse-opt/Runtime/Launch.cuh"
#include "sparse-opt/Runtime/OccupiedBlocks.cuh"
#include "sparse-opt/Runtime/Sddmm.cuh"
#include "sparse-opt/Runtime/SddmmDirect.cuh"
#include "sparse-opt/Runtime/TensorCore.cuh"
#include "sparse-opt/Runtime/Tma.cuh"
#include "sparse-opt/Runtime/Warpgroup.cuh"

#include <algorithm>
#include <cooperative_groups.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace sopt {

namespace sddmm_blocks {

using namespace tensor_core;

/// 8 warps per block whatever its size: more warps per SM hide more of the
/// mma and shared-memory latency.
constexpr int kWarps = 8, kThreads = 32 * kWarps;
/// Each warp computes a piece of 32 rows: 2 mma tiles of 16 x 8 down.
constexpr int kWarpRows = 32, kTilesM = kWarpRows / 16;
/// Bytes of each operand row per k chunk: one 128-byte line, four mma steps
/// along k (8 TF32 or 16 16-bit elements each). (Chunks of 256 bytes, three
/// stages, ran 1.1-1.15x slower in f32 and 1.01-1.05x in 16-bit on the H100
/// DLMC sweep: fewer waits, but fewer chunks in flight and f32 spills.)
constexpr int kChunkBytes = 128, kSteps = 4;
/// Padding of the operand rows in shared memory (16 bytes): the fragment
/// loads of the 8 rows and 4 columns a warp reads at once hit 32 banks.
constexpr int kPadBytes = 16;

/// The warps' division of a Block x Block block: kPieces pieces of 32 x
/// kWarpCols, kSlices warps on each (warp w: piece w % kPieces, k steps
/// w / kPieces, + kSlices, ...). 64 x 64: four pieces of 32 x 32, two warps
/// on each; 32 x 32: two pieces of 32 x 16, four warps on each. (64 x 64
/// blocks of eight 32 x 16 pieces load more fragments per multiply: on the
/// H100 DLMC sweep they ran 1.03-1.04x slower in f32, about the same in
/// 16-bit.)
template <int Block> struct Pieces {
  static_assert(Block == 32 || Block == 64, "blocks of 32 x 32 or 64 x 64");
  static constexpr int kWarpCols = Block / 2;
  static constexpr int kTilesN = kWarpCols / 8;
  static constexpr int kPiecesN = Block / kWarpCols;
  static constexpr int kPieces = (Block / kWarpRows) * kPiecesN;
  static constexpr int kSlices = kWarps / kPieces;
  static_assert(kSteps % kSlices == 0, "whole k steps per slice");
  /// Columns of each slice's product in shared memory, padded for the same
  /// reason as the operand rows.
  static constexpr int kProductStride = Block + 4;
};

template <typename T, int Block> struct Shape {
  static constexpr int kChunk = kChunkBytes / sizeof(T);          // elements of k
  static constexpr int kStride = (kChunkBytes + kPadBytes) / sizeof(T);
  static constexpr int kVector = 16 / sizeof(T);                 // elements per 16 B
  static constexpr int kVectorsPerThread = Block * kChunkBytes / 16 / kThreads;
};

/// 64 x 64 blocks keep their chunks in wgmma's 128-byte-swizzled layout
/// (Warpgroup.cuh): f32 blocks B's, as copied (`b`) and, on sm_90a, split
/// into its TF32 part (in place) and remainder (`bSmall`), A staying padded
/// row-major (read into registers); 16-bit blocks both operands.
template <typename T, int Block>
constexpr bool kSwizzledB = std::is_same_v<T, float> && Block == 64;
template <typename T, int Block>
constexpr bool kSwizzledAB = sizeof(T) == 2 && Block == 64;

/// Chunks of k in flight: a block waits on memory once per pipeline, not
/// once per chunk (the first version, one chunk ahead in registers, spent
/// most of its time waiting). 16-bit 64 x 64 blocks keep a fifth stage for
/// the chunk whose wgmmas may still be running.
template <typename T, int Block> constexpr int kStages = kSwizzledAB<T, Block> ? 5 : 4;

/// How a stage holds its chunks: both operands padded row-major, or the
/// swizzled layouts above.
enum class StageLayout { Padded, SwizzledB, SwizzledAB };
template <typename T, int Block>
constexpr StageLayout kStageLayout = kSwizzledB<T, Block>    ? StageLayout::SwizzledB
                                     : kSwizzledAB<T, Block> ? StageLayout::SwizzledAB
                                                             : StageLayout::Padded;

/// One chunk of both operands in shared memory.
template <typename T, int Block, StageLayout Layout = kStageLayout<T, Block>> struct Stage {
  T a[Block][Shape<T, Block>::kStride];
  T b[Block][Shape<T, Block>::kStride];
};
template <typename T, int Block> struct Stage<T, Block, StageLayout::SwizzledB> {
  static_assert(Shape<T, Block>::kChunk == 32, "128-byte rows of 32 floats");
  T b[Block * 32];      // 1024-byte aligned: whole swizzle atoms
  T bSmall[Block * 32]; // likewise
  T a[Block][Shape<T, Block>::kStride];
};
template <typename T, int Block> struct Stage<T, Block, StageLayout::SwizzledAB> {
  static_assert(Shape<T, Block>::kChunk == 64, "128-byte rows of 64 16-bit elements");
  T a[Block * 64]; // 1024-byte aligned: whole swizzle atoms
  T b[Block * 64]; // likewise
};
/// Alignment the stages need (the swizzle atoms).
template <typename T, int Block>
constexpr size_t kStageAlignment = Block == 64 ? 1024 : 16;

/// Bytes of the slices' products in shared memory.
template <int Block>
constexpr size_t kProductBytes =
    sizeof(float) * Pieces<Block>::kSlices * Block * Pieces<Block>::kProductStride;

/// Dynamic shared memory of a block: the pipeline's stages, later reused
/// for the block's product, and room to align them.
template <typename T, int Block>
constexpr size_t kDynamicBytes = (sizeof(Stage<T, Block>) * kStages<T, Block> >
                                          kProductBytes<Block>
                                      ? sizeof(Stage<T, Block>) * kStages<T, Block>
                                      : kProductBytes<Block>) +
                                 kStageAlignment<T, Block> - 16;

/// Blocks per SM the register budget is set for: two of 64 x 64 (as many as
/// their stages fit), three of 32 x 32 (their stages are half the size).
template <int Block> constexpr int kMinBlocksPerSm = Block == 32 ? 3 : 2;

/// Starts copying this thread's part of a chunk of Block rows into `tile`,
/// 16 bytes at a time (cp.async, zero past the operand's rows or k); without
/// VectorLoads, element by element through registers. Rows are padded to
/// kStride elements, or with `Swizzled` laid out as Warpgroup.cuh's
/// 128-byte-swizzled tiles.
template <typename T, int Block, bool VectorLoads, bool Swizzled = false>
__device__ __forceinline__ void loadChunk(T *tile, const T *__restrict__ operand,
                                          int64_t rows, int64_t firstRow, int32_t k,
                                          int32_t k0) {
  constexpr int kSegments = kChunkBytes / 16, kVector = Shape<T, Block>::kVector;
#pragma unroll
  for (int j = 0; j < Shape<T, Block>::kVectorsPerThread; ++j) {
    const int v = threadIdx.x + j * kThreads;
    const int64_t row = firstRow + v / kSegments;
    const int32_t col = k0 + (v % kSegments) * kVector;
    T *dst = Swizzled ? tile + warpgroup::swizzled128<T>(v / kSegments, (v % kSegments) * kVector)
                      : tile + (v / kSegments) * Shape<T, Block>::kStride +
                            (v % kSegments) * kVector;
    if (VectorLoads) {
      const bool inside = row < rows && col < k;
      tensor_core::copyAsync<16>(dst, inside ? operand + row * k + col : operand, inside);
    } else {
      uint4 vector = make_uint4(0, 0, 0, 0);
      T *elements = reinterpret_cast<T *>(&vector);
      if (row < rows) {
#pragma unroll
        for (int e = 0; e < kVector; ++e)
          if (col + e < k)
            elements[e] = operand[row * k + col + e];
      }
      *reinterpret_cast<uint4 *>(dst) = vector;
    }
  }
}

/// The k steps `slice`, `slice + Slices`, ... of one chunk for the warp's
/// piece: acc[mi][ni] is the 16 x 8 tile at rows 16 mi, columns 8 ni
/// of the piece. Fragment layouts are those of the PTX ISA's mma.m16n8k16 /
/// m16n8k8 (group g = lane / 4 owns rows g and g + 8, thread t = lane % 4
/// owns k pairs or columns).
template <typename T, int Block, int Slices>
__device__ __forceinline__ void multiplyChunk(const Stage<T, Block> &stage, int warpRow,
                                              int warpCol, int slice,
                                              float (&acc)[kTilesM][Pieces<Block>::kTilesN][4]) {
  constexpr int kTilesN = Pieces<Block>::kTilesN;
  constexpr int kStep = Shape<T, Block>::kChunk / kSteps;
  const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  const auto &a = stage.a;
  const auto &b = stage.b;
  if constexpr (sizeof(T) == 2) {
    // ldmatrix: A's 16 x 16 tile as matrices (rows 0-7 | 8-15) x (k 0-7 |
    // 8-15), B's two 8-column tiles as (tile 0 | 1) x (k 0-7 | 8-15).
    const int m = lane / 8, r8 = lane % 8;
#pragma unroll
    for (int step = 0; step < kSteps / Slices; ++step) {
      const int kk = (step * Slices + slice) * kStep;
      uint32_t af[kTilesM][4], bf[kTilesN][2];
      // Row r, columns k .. k + 7 of an operand (16 bytes).
      auto at = [&](const auto &tile, int r, int k) {
        if constexpr (kSwizzledAB<T, Block>)
          return &tile[warpgroup::swizzled128<T>(r, k)];
        else
          return &tile[r][k];
      };
#pragma unroll
      for (int mi = 0; mi < kTilesM; ++mi)
        loadMatrices(af[mi], at(a, warpRow + mi * 16 + (m % 2) * 8 + r8, kk + (m / 2) * 8));
      static_assert(kTilesN % 2 == 0, "one ldmatrix.x4 covers two 8-column tiles");
#pragma unroll
      for (int ni = 0; ni < kTilesN; ni += 2) {
        uint32_t both[4];
        loadMatrices(both, at(b, warpCol + ni * 8 + (m / 2) * 8 + r8, kk + (m % 2) * 8));
        bf[ni][0] = both[0], bf[ni][1] = both[1], bf[ni + 1][0] = both[2], bf[ni + 1][1] = both[3];
      }
#pragma unroll
      for (int mi = 0; mi < kTilesM; ++mi)
#pragma unroll
        for (int ni = 0; ni < kTilesN; ++ni)
          mma16<T>(acc[mi][ni], af[mi], bf[ni]);
    }
  } else {
    // The chunk's sum apart, then into `acc` (addAccumulators says why).
    float part[kTilesM][kTilesN][4] = {};
#pragma unroll
    for (int step = 0; step < kSteps / Slices; ++step) {
      const int kk = (step * Slices + slice) * kStep;
      uint32_t aBig[kTilesM][4], aSmall[kTilesM][4], bBig[kTilesN][2], bSmall[kTilesN][2];
#pragma unroll
      for (int mi = 0; mi < kTilesM; ++mi)
        splitFragmentA(a, warpRow + mi * 16, kk, aBig[mi], aSmall[mi]);
#pragma unroll
      for (int ni = 0; ni < kTilesN; ++ni) {
        const int c = warpCol + ni * 8 + g;
        if constexpr (kSwizzledB<T, Block>) {
          splitTf32(b[warpgroup::swizzled128<float>(c, kk + t)], bBig[ni][0], bSmall[ni][0]);
          splitTf32(b[warpgroup::swizzled128<float>(c, kk + t + 4)], bBig[ni][1],
                    bSmall[ni][1]);
        } else {
          splitTf32(b[c][kk + t], bBig[ni][0], bSmall[ni][0]);
          splitTf32(b[c][kk + t + 4], bBig[ni][1], bSmall[ni][1]);
        }
      }
      mmaSplitTf32(part, aBig, aSmall, bBig, bSmall);
    }
    addAccumulators(acc, part);
  }
}

/// Splits the f32 B chunk of `stage` (as copied) into its TF32 part, in
/// place, and the remainder in `bSmall`, for the wgmma path; the writes are
/// made visible to the tensor cores' reads (a barrier must follow).
template <typename T, int Block>
__device__ __forceinline__ void splitChunkB(Stage<T, Block> &stage) {
  static_assert(kSwizzledB<T, Block>, "the swizzled f32 stage");
  // The split is elementwise: the swizzle does not matter here. (Rolled:
  // unrolled, the two vectors in flight made the kernel spill more and run
  // 1.03x slower at k = 1024 on the H100.)
  constexpr int kVectors = Block * 32 / 4;
  static_assert(kVectors % kThreads == 0, "whole float4s per thread");
#pragma unroll 1
  for (int j = 0; j < kVectors / kThreads; ++j) {
    const int u = int(threadIdx.x) + j * kThreads;
    float4 &big = reinterpret_cast<float4 *>(stage.b)[u];
    const float4 x = big;
    uint32_t hi[4], lo[4];
    splitTf32(x.x, hi[0], lo[0]);
    splitTf32(x.y, hi[1], lo[1]);
    splitTf32(x.z, hi[2], lo[2]);
    splitTf32(x.w, hi[3], lo[3]);
    big = make_float4(__uint_as_float(hi[0]), __uint_as_float(hi[1]), __uint_as_float(hi[2]),
                      __uint_as_float(hi[3]));
    reinterpret_cast<float4 *>(stage.bSmall)[u] =
        make_float4(__uint_as_float(lo[0]), __uint_as_float(lo[1]), __uint_as_float(lo[2]),
                    __uint_as_float(lo[3]));
  }
  warpgroup::fenceSharedForAsync();
}

/// The wgmmas of one chunk of the f32 64 x 64 blocks on sm_90a, issued here
/// and finished by finishChunkWarpgroup: warpgroup `slice` (warps 4 slice
/// .. 4 slice + 3) takes k steps slice and slice + 2 of the chunk for the
/// whole block, A's fragments (element(row, k), any layout) split in
/// registers, B's TF32 parts and remainders read from `bParts` /
/// `bRemainders` (128-byte-swizzled), three TF32 products per step as in
/// mmaSplitTf32, into `part` (thread layout of mma64x64x8Tf32).
template <typename Element>
__device__ __forceinline__ void issueChunkWarpgroupTf32(const Element &a, const float *bParts,
                                                        const float *bRemainders, int slice,
                                                        float (&part)[32]) {
  static_assert(kSteps == 4, "two steps per warpgroup");
  const int warpRow = 16 * (threadIdx.x / 32 % 4);
  uint32_t aBig[2][4], aSmall[2][4];
#pragma unroll
  for (int step = 0; step < 2; ++step)
    splitFragmentAFrom(a, warpRow, (2 * step + slice) * 8, aBig[step], aSmall[step]);
  warpgroup::fence();
#pragma unroll
  for (int step = 0; step < 2; ++step) {
    const int kk = (2 * step + slice) * 8;
    const uint64_t big = warpgroup::swizzled128Descriptor(bParts + kk);
    const uint64_t small = warpgroup::swizzled128Descriptor(bRemainders + kk);
    warpgroup::mma64x64x8Tf32(part, aSmall[step], big, step > 0);
    warpgroup::mma64x64x8Tf32(part, aBig[step], small, true);
    warpgroup::mma64x64x8Tf32(part, aBig[step], big, true);
  }
  warpgroup::commit();
}

/// Where rows row0 .. row0 + Block - 1 reach the block's columns
/// (place.column), from windows prepared once per pattern
/// (sopt_csr_column_windows: row r reaches block column j at windows[r
/// (colBlocks + 1) + j]; for a listed block, sopt_csr_block_windows), into
/// windowBegin / windowEnd; threads 0 .. Block - 1 each read one row and
/// return whether it has entries there.
template <int Block>
__device__ __forceinline__ bool readWindows(const int32_t *__restrict__ windows, int64_t rows,
                                            int64_t row0, const BlockPlace &place,
                                            int32_t *windowBegin, int32_t *windowEnd) {
  if (threadIdx.x >= Block)
    return false;
  const int64_t row = row0 + threadIdx.x;
  int32_t begin = 0, end = 0;
  if (row < rows) {
    const int32_t *at = place.window<Block>(windows, row0, threadIdx.x);
    begin = at[0], end = at[1];
  }
  windowBegin[threadIdx.x] = begin;
  windowEnd[threadIdx.x] = end;
  return end > begin;
}

/// Waits for a chunk's wgmmas and adds their sum to acc in rounded f32 (the
/// chunk's sum is kept apart: addAccumulators says why).
__device__ __forceinline__ void finishChunkWarpgroup(float (&part)[32], float (&acc)[32]) {
  warpgroup::waitAll(part);
#pragma unroll
  for (int i = 0; i < 32; ++i)
    acc[i] += part[i];
}

/// The wgmma counterpart of multiplyChunk for 16-bit 64 x 64 blocks on
/// sm_90a: warpgroup `slice` takes k steps slice and slice + 2 of the chunk
/// (16 elements each) for the whole block, both operands read by the tensor
/// cores from the swizzled stage, into acc; issued and committed here.
template <typename T, int Block>
__device__ __forceinline__ void issueChunkWarpgroup16(const Stage<T, Block> &stage, int slice,
                                                      float (&acc)[32]) {
  static_assert(kSwizzledAB<T, Block> && kSteps == 4, "two steps per warpgroup");
  warpgroup::fence();
#pragma unroll
  for (int step = 0; step < 2; ++step) {
    const int kk = (2 * step + slice) * 16;
    warpgroup::mma64x64x16<T>(acc, warpgroup::swizzled128Descriptor(stage.a + kk),
                              warpgroup::swizzled128Descriptor(stage.b + kk));
  }
  warpgroup::commit();
}

/// One thread's search for where a row's entries reach a column: the first
/// index in [low, high) of S's entries whose column is at least `column`.
/// Each step loads Probes evenly spaced entries and keeps the span between
/// them that holds the bound; the kernel issues a step's loads after one
/// chunk's multiply and narrows after the next, so the loads wait behind the
/// tensor cores instead of before them.
template <int Probes> struct BoundSearch {
  int32_t low = 0, high = 0, column = 0;
  int32_t at[Probes], loaded[Probes];
  bool inFlight = false;

  __device__ __forceinline__ void issue(const int32_t *__restrict__ coordinates) {
    inFlight = low < high;
    if (!inFlight)
      return;
#pragma unroll
    for (int j = 0; j < Probes; ++j) {
      at[j] = low + int32_t(int64_t(high - low) * (j + 1) / (Probes + 1));
      loaded[j] = coordinates[at[j]];
    }
  }

  __device__ __forceinline__ void narrow() {
    if (!inFlight)
      return;
    inFlight = false;
    int32_t newLow = low, newHigh = high;
#pragma unroll
    for (int j = 0; j < Probes; ++j) {
      if (loaded[j] < column)
        newLow = max(newLow, at[j] + 1);
      else
        newHigh = min(newHigh, at[j]);
    }
    low = newLow, high = newHigh;
  }
};

/// Probes per search step: 16-bit blocks have half as many chunks of k to
/// hide the steps behind, and registers to spare.
template <typename T> constexpr int kProbes = sizeof(T) == 2 ? 3 : 1;
/// Steps that close a search over 4096 entries: each divides the span by
/// Probes + 1.
template <int Probes> constexpr int kSearchSteps = Probes == 1 ? 13 : 7;

/// The sampling after a block's product is in shared memory (`product`,
/// the slices' sums at kProductStride; with Splits > 1 the cluster's other
/// blocks hold the other shares and have synchronized): warp w (of the
/// kWarps that write the block) writes the entries of its rows w R .. w R
/// + R - 1 (of those of its split), lane l the entries l, l + 32, ... of a
/// row's window (coalesced), with the loads of all its rows' columns and
/// pattern values in flight together. (A thread per entry, finding its
/// row by a binary search of the windows, spent a third of the kernel
/// here.)
template <typename T, int Block, int Splits, typename Epilogue>
__device__ __forceinline__ void
writeSampledEntries(const CsrMatrix<T> &s, T *__restrict__ out, const Epilogue &epilogue,
                    float *product, int64_t row0, int64_t col0, int32_t split,
                    const int32_t *windowBegin, const int32_t *windowEnd, int warp) {
  using P = Pieces<Block>;
  constexpr int kSliceFloats = Block * P::kProductStride;
  const int lane = threadIdx.x % 32;
  // Block b's product (b < Splits), in this block's shared memory for b = 0
  // without splits.
  auto productOf = [&](int b) -> const float * {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    if constexpr (Splits > 1)
      return cooperative_groups::this_cluster().map_shared_rank(product, b);
#endif
    return product;
  };

  constexpr int kRows = Block / Splits / kWarps;
  const int firstRow = split * (Block / Splits) + warp * kRows;
  auto write = [&](int i, int32_t entry, int32_t column, float pattern) {
    const int r = firstRow + i;
    const int at = r * P::kProductStride + int(column - col0);
    float sum = 0;
#pragma unroll
    for (int b = 0; b < Splits; ++b) {
      const float *blockProduct = productOf(b);
#pragma unroll
      for (int sl = 0; sl < P::kSlices; ++sl)
        sum += blockProduct[sl * kSliceFloats + at];
    }
    out[entry] = fromFloat<T>(epilogue(row0 + r, column, entry, sum, pattern));
  };
  constexpr int kPerRow = Block / 32; // a window of distinct columns holds <= Block
  int32_t begin[kRows], end[kRows];
#pragma unroll
  for (int i = 0; i < kRows; ++i) {
    begin[i] = windowBegin[firstRow + i];
    end[i] = windowEnd[firstRow + i];
  }
  int32_t column[kRows][kPerRow];
  float pattern[kRows][kPerRow];
#pragma unroll
  for (int i = 0; i < kRows; ++i)
#pragma unroll
    for (int h = 0; h < kPerRow; ++h) {
      const int32_t entry = begin[i] + lane + 32 * h;
      if (entry < end[i]) {
        column[i][h] = s.coordinates[entry];
        pattern[i][h] = toFloat(s.values[entry]);
      }
    }
#pragma unroll
  for (int i = 0; i < kRows; ++i) {
#pragma unroll
    for (int h = 0; h < kPerRow; ++h)
      if (begin[i] + lane + 32 * h < end[i])
        write(i, begin[i] + lane + 32 * h, column[i][h], pattern[i][h]);
    // Only a row with repeated columns has more.
    for (int32_t entry = begin[i] + Block + lane; entry < end[i]; entry += 32)
      write(i, entry, s.coordinates[entry], toFloat(s.values[entry]));
  }
}

} // namespace sddmm_blocks

namespace sddmm_blocks {

/// The body of sddmmBlocksKernel: one block's product and sampling (the
/// file comment describes both).
template <typename T, int Block, int Splits, bool VectorLoads, typename Epilogue>
__device__ __forceinline__ void
multiplyAndSample(const CsrMatrix<T> &s, const T *__restrict__ lhs, const T *__restrict__ rhs,
                  int32_t k, T *__restrict__ out, const Epilogue &epilogue,
                  const int32_t *__restrict__ windows, const BlockPlace &place) {
  using P = Pieces<Block>;
  using S = Shape<T, Block>;
  static_assert(sizeof(T) == 2 || std::is_same_v<T, float>, "f32, f16 or bf16 storage");
  static_assert(Splits >= 1 && Block / Splits >= kWarps, "at least a row per warp each");
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ < 800 || (Splits > 1 && __CUDA_ARCH__ < 900))
  __trap(); // mma.sync of these shapes needs sm_80, clusters sm_90
#else
  extern __shared__ __align__(16) unsigned char dynamicSmem[];
  const int64_t row0 = place.row * Block, col0 = place.column * Block;
  constexpr size_t kAlign = kStageAlignment<T, Block>;
  const size_t misalignment = size_t(__cvta_generic_to_shared(dynamicSmem)) % kAlign;
  unsigned char *stageBytes = dynamicSmem + (kAlign - misalignment) % kAlign;
  Stage<T, Block> *stages = reinterpret_cast<Stage<T, Block> *>(stageBytes);
  // 64 x 64 blocks multiply by warpgroups where wgmma exists (sm_90a): f32
  // ones on TF32 three times per product, 16-bit ones straight from shared
  // memory.
  constexpr bool kWarpgroupsTf32 = kSwizzledB<T, Block> && warpgroup::kAvailable;
  constexpr bool kWarpgroups16 = kSwizzledAB<T, Block> && warpgroup::kAvailable;
  constexpr int kStageCount = kStages<T, Block>;
  // Chunks copied ahead of the one multiplied; the 16-bit wgmma path keeps
  // the last stage for the chunk whose products may still be running.
  constexpr int kAhead = kWarpgroups16 ? kStageCount - 2 : kStageCount - 1;
  // With Splits > 1 the cluster's blocks (blockIdx.z) share k: each takes
  // an even share of the chunks, then they add their products.
  const int32_t allChunks = (k + S::kChunk - 1) / S::kChunk;
  const int32_t split = Splits > 1 ? int32_t(blockIdx.z) : 0;
  const int32_t firstChunk = int32_t(int64_t(allChunks) * split / Splits);
  const int32_t chunks = int32_t(int64_t(allChunks) * (split + 1) / Splits) - firstChunk;
  auto loadStage = [&](Stage<T, Block> &stage, int32_t chunk) {
    const int32_t k0 = (firstChunk + chunk) * S::kChunk;
    if constexpr (kSwizzledB<T, Block>) {
      loadChunk<T, Block, VectorLoads>(&stage.a[0][0], lhs, s.rows, row0, k, k0);
      loadChunk<T, Block, VectorLoads, true>(stage.b, rhs, s.cols, col0, k, k0);
    } else if constexpr (kSwizzledAB<T, Block>) {
      loadChunk<T, Block, VectorLoads, true>(stage.a, lhs, s.rows, row0, k, k0);
      loadChunk<T, Block, VectorLoads, true>(stage.b, rhs, s.cols, col0, k, k0);
    } else {
      loadChunk<T, Block, VectorLoads>(&stage.a[0][0], lhs, s.rows, row0, k, k0);
      loadChunk<T, Block, VectorLoads>(&stage.b[0][0], rhs, s.cols, col0, k, k0);
    }
  };

  // Threads 0 .. Block - 1 search where row r of the block reaches column
  // col0, the next Block threads where it reaches col0 + Block (column
  // indices are 32-bit: a bound past INT32_MAX is the row's end).
  const int warp = threadIdx.x / 32;
  __shared__ int32_t windowBegin[Block], windowEnd[Block];
  BoundSearch<kProbes<T>> bound;
  bool sampled = false; // with prepared windows: the row has entries here
  if (windows) { // prepared once per pattern: no search
    sampled = readWindows<Block>(windows, s.rows, row0, place, windowBegin, windowEnd);
  } else if (threadIdx.x < 2 * Block && row0 + threadIdx.x % Block < s.rows) {
    const int64_t row = row0 + threadIdx.x % Block;
    bound.low = s.positions[row];
    bound.high = s.positions[row + 1];
    sampled = bound.low < bound.high;
    const int64_t column = threadIdx.x < Block ? col0 : col0 + Block;
    bound.column = int32_t(column < INT32_MAX ? column : INT32_MAX);
  }

  // The first chunks are requested while the rows' positions arrive (and
  // after them: a load behind the block's copies waits for them).
#pragma unroll
  for (int c = 0; c < kAhead; ++c) {
    if (c < chunks)
      loadStage(stages[c], c);
    commitCopies();
  }

  // Rows without entries (with prepared windows: without entries in the
  // block's columns) need no product (the same answer in every block of a
  // cluster: it depends on the rows and columns only).
  if (!__syncthreads_or(sampled)) {
    waitCopies<0>(); // no copy may outlive the block
    return;
  }
  bound.issue(s.coordinates);

  const int piece = warp % P::kPieces, slice = warp / P::kPieces;
  const int warpRow = (piece / P::kPiecesN) * kWarpRows;
  const int warpCol = (piece % P::kPiecesN) * P::kWarpCols;
  float acc[kTilesM][P::kTilesN][4] = {};
  float warpgroupAcc[32] = {}; // the wgmma path's instead
  // A chunk's sum in the f32 wgmma path (declared out here, the kernel
  // spills less: 4-12 bytes instead of 16-28, 1.03-1.1x faster on the H100).
  float warpgroupPart[32];
  auto multiplyNext = [&](int32_t c) {
    if constexpr (kWarpgroupsTf32) {
      // B's planes are split a chunk ahead, while the tensor cores work:
      // chunk c + 1 must have landed too.
      waitCopies<kAhead - 2>();
      __syncthreads(); // chunk c's planes are written; chunk c - 1 is consumed
    } else if constexpr (kWarpgroups16) {
      waitCopies<kAhead - 1>(); // chunk c has landed (this thread's part)
      // The products of chunk c - 1 may go on; those of chunk c - 2, whose
      // stage the next copy refills, are done.
      warpgroup::waitAllButLatest(warpgroupAcc);
      __syncthreads();
    } else {
      waitCopies<kAhead - 1>(); // chunk c has landed (this thread's part)
      __syncthreads();          // ... every thread's; chunk c - 1 is consumed
    }
    const int32_t next = c + kAhead;
    if (next < chunks)
      loadStage(stages[next % kStageCount], next);
    commitCopies(); // an empty group past the end keeps the count uniform
    if constexpr (kWarpgroupsTf32) {
      const Stage<T, Block> &stage = stages[c % kStageCount];
      issueChunkWarpgroupTf32([&stage](int row, int k) { return stage.a[row][k]; }, stage.b,
                              stage.bSmall, slice, warpgroupPart);
      if (c + 1 < chunks)
        splitChunkB(stages[(c + 1) % kStageCount]);
      finishChunkWarpgroup(warpgroupPart, warpgroupAcc);
    } else if constexpr (kWarpgroups16) {
      issueChunkWarpgroup16(stages[c % kStageCount], slice, warpgroupAcc);
    } else {
      multiplyChunk<T, Block, P::kSlices>(stages[c % kStageCount], warpRow, warpCol, slice,
                                          acc);
    }
  };
  if constexpr (kWarpgroupsTf32) { // the first chunk's planes
    waitCopies<kAhead - 1>();
    __syncthreads();
    splitChunkB(stages[0]);
  }
  // A search step per chunk while searches can be open (a row of 4096
  // entries takes 13 binary steps), then the multiplies alone: the steps'
  // code in every iteration slowed long k (0.93-0.99x in f32, k = 1024).
  // Prepared windows need no steps.
  const int32_t searchChunks = windows ? 0 : min(chunks, kSearchSteps<kProbes<T>>);
  int32_t c = 0;
  for (; c < searchChunks; ++c) {
    multiplyNext(c);
    bound.narrow(); // the loads issued a chunk ago
    bound.issue(s.coordinates);
  }
  for (; c < chunks; ++c)
    multiplyNext(c);
  // Small k leaves steps for after the loop.
  while (bound.inFlight) {
    bound.narrow();
    bound.issue(s.coordinates);
  }
  if (!windows && threadIdx.x < 2 * Block)
    (threadIdx.x < Block ? windowBegin : windowEnd)[threadIdx.x % Block] = bound.low;
  if constexpr (kWarpgroups16)
    warpgroup::waitAll(warpgroupAcc);
  waitCopies<0>();
  __syncthreads(); // the stages become the slices' products; every window is stored

  // Each slice's product to shared memory; an output is the sum of its
  // slices' entries.
  float *product = reinterpret_cast<float *>(stageBytes);
  constexpr int kSliceFloats = Block * P::kProductStride;
  if constexpr (kWarpgroupsTf32 || kWarpgroups16) {
    static_assert(P::kSlices == 2 && kWarps == 8, "a warpgroup per slice");
    storeAccumulators(reinterpret_cast<const float(&)[1][8][4]>(warpgroupAcc),
                      product + slice * kSliceFloats, P::kProductStride, 16 * (warp % 4), 0);
  } else {
    storeAccumulators(acc, product + slice * kSliceFloats, P::kProductStride, warpRow, warpCol);
  }
  // A cluster's products are read across its blocks (distributed shared
  // memory): every block's must be stored first.
  if constexpr (Splits > 1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cooperative_groups::this_cluster().sync();
#endif
  } else {
    __syncthreads();
  }
  writeSampledEntries<T, Block, Splits>(s, out, epilogue, product, row0, col0, split,
                                        windowBegin, windowEnd, warp);
  if constexpr (Splits > 1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cooperative_groups::this_cluster().sync(); // no block's product may vanish while read
#endif
  }
#endif
}

} // namespace sddmm_blocks

template <typename T, int Block, int Splits, bool VectorLoads, typename Epilogue>
__global__ void __launch_bounds__(sddmm_blocks::kThreads, sddmm_blocks::kMinBlocksPerSm<Block>)
    sddmmBlocksKernel(CsrMatrix<T> s, const T *__restrict__ lhs, const T *__restrict__ rhs,
                      int32_t k, T *__restrict__ out, Epilogue epilogue,
                      const int32_t *__restrict__ windows,
                      const int32_t *__restrict__ occupied) {
  awaitPrecedingKernels();
  const BlockPlace place = placeOfBlock(occupied, (s.cols + Block - 1) / Block);
  sddmm_blocks::multiplyAndSample<T, Block, Splits, VectorLoads>(s, lhs, rhs, k, out, epilogue,
                                                                 windows, place);
}


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
/// no thread computes copy addresses, and no block splits B (which cost the
/// in-block split version 31 % of its time on the H100).
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

/// Launches (A · Bᵀ) ⊙ S by dense Block x Block blocks (32 or 64; A[m, k],
/// B[n, k] row-major). The rows of S must be sorted by column. `windows`:
/// sopt_csr_column_windows of S for blocks of Block columns (with
/// `occupied`, sopt_csr_block_windows of its list), or nullptr to search
/// the rows. Splits > 1 divides k among a cluster of that many
/// blocks per output block (sm_90 and newer; elsewhere one block does all).
/// `workspace`: sddmmWorkspaceElements (SparseSchedule.h) floats, 16-byte
/// aligned, or nullptr. With it, prepared windows, k a multiple of 4 and an
/// sm_90 device, f32 64 x 64 blocks without k splits split B once per call
/// (splitTf32PlanesKernel, into the workspace) and run the TMA-fed
/// sddmmBlocksSplitKernel, in blocks of 128 x 64 where tallBlocksFrom
/// allows; otherwise, and for every other shape, the workspace is not
/// touched. `occupied`, if given, lists the Block x Block blocks holding
/// entries (sopt_csr_occupied_blocks): one thread block each, instead of
/// one per block of the shape (OccupiedBlocks.cuh), and `windows` is then
/// that list's table.
template <typename T, int Block = 64, int Splits = 1, typename Epilogue = ScaleByPattern>
cudaError_t launchSddmmBlocks(const CsrMatrix<T> &s, const T *lhs, const T *rhs, int64_t k,
                              T *out, cudaStream_t stream, Epilogue epilogue = {},
                              const int32_t *windows = nullptr, T *workspace = nullptr,
                              OccupiedBlocks occupied = {}) {
  using namespace sddmm_blocks;
  const int64_t rowBlocks = (s.rows + Block - 1) / Block;
  const int64_t colBlocks = (s.cols + Block - 1) / Block;
  if (s.rows < 0 || s.cols < 0 || k < 0 || k > INT32_MAX || colBlocks > INT32_MAX ||
      s.nnz > INT32_MAX ||
      (occupied.given() ? occupied.count < 0 || occupied.count > INT32_MAX : rowBlocks > 65535))
    return cudaErrorInvalidValue;
  if (s.rows == 0 || s.nnz == 0 || (occupied.given() && occupied.count == 0))
    return cudaSuccess;
  if (k == 0) // every product is an empty sum
    return launchSddmm<T, 1, 1, 1, 32>(s, lhs, rhs, 0, out, 4, stream, epilogue);
  if constexpr (std::is_same_v<T, float> && Block == 32 && Splits == 1) // SddmmDirect.cuh
    return launchSddmmDirect(s, lhs, rhs, int32_t(k), out, stream, epilogue, windows, occupied);
  if constexpr (Splits > 1) {
    int device = 0, clusters = 0;
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess)
      e = cudaDeviceGetAttribute(&clusters, cudaDevAttrClusterLaunch, device);
    if (e != cudaSuccess)
      return e;
    if (!clusters) // before sm_90: one block per output block
      return launchSddmmBlocks<T, Block, 1>(s, lhs, rhs, k, out, stream, epilogue, windows,
                                            nullptr, occupied);
  }
  auto aligned = [](const void *p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; };
  constexpr size_t kBytes = kDynamicBytes<T, Block>;
  // Launches `kernel` over the occupied blocks, or colBlocks x `gridRows`
  // blocks (a cluster of Splits along z), with `bytes` of dynamic shared
  // memory; `dependent`: it may start before the split launched ahead of
  // it ends (its copying thread waits for the planes); otherwise a
  // dependent launch where Launch.cuh allows (the kernel then waits for
  // the earlier ones first).
  auto launch = [&](auto kernel, int threads, size_t bytes, bool dependent, int64_t gridRows,
                    auto... extra) {
    // The stages exceed the 48 KB a block gets without asking.
    cudaError_t e =
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes));
    if (e != cudaSuccess)
      return e;
    cudaLaunchConfig_t config = {};
    config.gridDim = gridOfBlocks(occupied, gridRows, colBlocks, Splits);
    config.blockDim = dim3(unsigned(threads));
    config.dynamicSmemBytes = bytes;
    config.stream = stream;
    cudaLaunchAttribute cluster;
    if (Splits > 1) {
      cluster.id = cudaLaunchAttributeClusterDimension;
      cluster.val.clusterDim.x = 1;
      cluster.val.clusterDim.y = 1;
      cluster.val.clusterDim.z = Splits;
      config.attrs = &cluster;
      config.numAttrs = 1;
    }
    return launchKernelWith(config, dependent, kernel, s, lhs, rhs, int32_t(k), out, epilogue,
                            windows, occupied.list, extra...);
  };
  const bool vectorLoads = k % Shape<T, Block>::kVector == 0 && aligned(lhs) && aligned(rhs);
  if constexpr (std::is_same_v<T, float> && Block == 64 && Splits == 1) {
    if (workspace && windows && vectorLoads && aligned(workspace)) {
      int device = 0, major = 0, sms = 0;
      cudaError_t e = cudaGetDevice(&device);
      if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
      if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
      if (e != cudaSuccess)
        return e;
      // (The occupied blocks are listed as 64 x 64.)
      const int64_t tallRowBlocks = (rowBlocks + 1) / 2; // of 128 rows
      const bool tall = !occupied.given() && tallRowBlocks * colBlocks >= tallBlocksFrom(sms);
      float *parts = workspace, *remainders = workspace + s.cols * k;
      CUtensorMap lhsTiles, partTiles, remainderTiles;
      const bool encoded = major == 9 &&
                           (tall ? tma::encodeRowTiles<128, 32>(&lhsTiles, lhs, s.rows, k)
                                 : tma::encodeRowTiles<64, 32>(&lhsTiles, lhs, s.rows, k)) &&
                           tma::encodeRowTiles<64, 32>(&partTiles, parts, s.cols, k) &&
                           tma::encodeRowTiles<64, 32>(&remainderTiles, remainders, s.cols, k);
      if (encoded) {
        const int64_t vectors = s.cols * k / 4;
        const unsigned splitBlocks = unsigned(std::min<int64_t>((vectors + 255) / 256, 4096));
        e = launchKernel(splitTf32PlanesKernel<float4>, splitBlocks, 256, 0, stream,
                         reinterpret_cast<const float4 *>(rhs), vectors,
                         reinterpret_cast<float4 *>(parts), reinterpret_cast<float4 *>(remainders));
        if (e != cudaSuccess)
          return e;
        // Room for either body (a target without wgmma runs the other);
        // dependent on the split: its prologue overlaps the split.
        if (tall)
          return launch(sddmmBlocksSplitKernel<128, Epilogue>, kSplitThreads<128>,
                        std::max(kSplitDynamicBytes<128>, kBytes), true, tallRowBlocks,
                        lhsTiles, partTiles, remainderTiles);
        return launch(sddmmBlocksSplitKernel<64, Epilogue>, kSplitThreads<64>,
                      std::max(kSplitDynamicBytes<64>, kBytes), true, rowBlocks, lhsTiles,
                      partTiles, remainderTiles);
      }
    }
  }
  if (vectorLoads)
    return launch(sddmmBlocksKernel<T, Block, Splits, true, Epilogue>, kThreads, kBytes, false,
                  rowBlocks);
  return launch(sddmmBlocksKernel<T, Block, Splits, false, Epilogue>, kThreads, kBytes, false,
                rowBlocks);
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_SDDMMBLOCKS_CUH
