//===- SddmmBlockChunks.cuh - parts of the dense-block SDDMM ---*- CUDA -*-===//
//
// The parts every dense-block SDDMM kernel shares (SddmmBlocks.cuh describes
// the kernels): the warps' division of a block, the shared-memory stages a
// chunk of k lands in (padded, or in wgmma's 128-byte swizzle), the chunk
// copies and multiplies (mma.sync, or wgmma issued per warpgroup), the split
// of f32 B into TF32 parts and remainders, the search for where a row's
// entries reach the block's columns, and the sampling of the block's product
// into S's entries through the epilogue.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_SDDMMBLOCKCHUNKS_CUH
#define SPARSE_OPT_RUNTIME_SDDMMBLOCKCHUNKS_CUH

#include "sparse-opt/Runtime/Host/Launch.cuh"
#include "sparse-opt/Runtime/Device/OccupiedBlocks.cuh"
#include "sparse-opt/Runtime/Kernels/Sddmm.cuh"
#include "sparse-opt/Runtime/Kernels/SddmmDirect.cuh"
#include "sparse-opt/Runtime/Device/TensorCore.cuh"
#include "sparse-opt/Runtime/Device/Tma.cuh"
#include "sparse-opt/Runtime/Device/Warpgroup.cuh"

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
/// along k (8 TF32 or 16 16-bit elements each). Longer chunks mean fewer
/// waits but fewer chunks in flight, and f32 spills.
constexpr int kChunkBytes = 128, kSteps = 4;
/// Padding of the operand rows in shared memory (16 bytes): the fragment
/// loads of the 8 rows and 4 columns a warp reads at once hit 32 banks.
constexpr int kPadBytes = 16;

/// The warps' division of a Block x Block block: kPieces pieces of 32 x
/// kWarpCols, kSlices warps on each (warp w: piece w % kPieces, k steps
/// w / kPieces, + kSlices, ...). 64 x 64: four pieces of 32 x 32, two warps
/// on each; 32 x 32: two pieces of 32 x 16, four warps on each. (Eight
/// 32 x 16 pieces of a 64 x 64 block would load more fragments per multiply.)
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
  // unrolled, the two vectors in flight make the kernel spill.)
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

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_SDDMMBLOCKCHUNKS_CUH
