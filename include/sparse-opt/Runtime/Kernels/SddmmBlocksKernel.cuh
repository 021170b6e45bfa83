//===- SddmmBlocksKernel.cuh - cp.async-fed dense-block SDDMM --*- CUDA -*-===//
//
// sddmmBlocksKernel: one output block of (A · Bᵀ) ⊙ S per thread block, 8
// warps. k walks in 128-byte chunks per row, copied to shared memory by
// cp.async kStages - 1 chunks ahead of the one the warps multiply. A 64 x 64
// block has four pieces of 32 x 32, two warps on each taking turns over a
// chunk's k steps; a 32 x 32 block two pieces of 32 x 16, four warps on each
// (small products get four times the blocks without idle warps). The warps
// add their sums in shared memory, then each writes the sampled entries of its
// rows.
//
// On sm_90a, 64 x 64 blocks multiply by warpgroups instead (wgmma): f32 keeps
// B's chunk swizzled and splits it into TF32 planes a chunk ahead, A's
// fragments split in registers; 16-bit issues m64n64k16 wgmmas straight from
// shared memory, five stages deep, waiting for them one chunk later. Same
// products in the same order as mma.sync: outputs bit for bit equal.
//
// With Splits > 1 the grid's z dimension is a cluster (sm_90) of Splits
// blocks per output block, each multiplying its share of the chunks; every
// block then reads the others' products through distributed shared memory and
// writes its share of the rows, the sums added in block order (deterministic).
// Without prepared `windows`, each thread searches one row bound with one
// dependent load per chunk, after that chunk's multiply.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_SDDMMBLOCKSKERNEL_CUH
#define SPARSE_OPT_RUNTIME_SDDMMBLOCKSKERNEL_CUH

#include "sparse-opt/Runtime/Kernels/SddmmBlockChunks.cuh"

namespace sopt {

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
  // spills less).
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
  // code in every iteration would slow long k.
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

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_SDDMMBLOCKSKERNEL_CUH
