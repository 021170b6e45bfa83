//===- SddmmDirect.cuh - f32 SDDMM blocks fed from global memory --*- CUDA -*-===//
//
// The f32 32 x 32 dense blocks of SddmmBlocks.cuh without shared-memory
// staging: each of a block's eight warps takes every eighth chunk of 32 k
// for the whole 32 x 32 block, its lanes load their mma fragments straight
// from global memory (float4s: lane t holds k 4t .. 4t + 3 of each 16, the
// same permutation of k for A's rows and B's rows, so that each float4 feeds
// two m16n8k8 steps), split them into TF32 parts in registers and issue
// three mma.sync per product; the warps' sums meet in shared memory once,
// and each entry of S in the block adds them in warp order. No barrier
// inside the loop: the staged kernel's chain of copy, barrier and fragment
// loads per chunk set its pace, and eight stages in flight instead of four
// changed nothing (benchmarks/results/sweeps).
//
// Faster than the staged 32 x 32 blocks, and than 64 x 64 blocks with k
// split in two, on the small f32 products the rules give it. Each warp keeps
// its chunks' products in the mma accumulators (folding each chunk in
// rounded f32, as the staged kernel does, does not fit two blocks per SM):
// the error is about 1.0-1.7e-7 of the terms' magnitudes against 3-5e-8
// there.
//
// Without a list of occupied blocks, where the pairs of tiles make one
// wave over three quarters of the SMs or more (launchSddmmDirect), a
// thread block of 16 warps takes two tiles stacked in one column: its two
// halves load the same fragments of B at the same time, which one SM's L1
// can then serve once (outputs bit for bit the same; two tiles side by
// side, sharing A, gained nothing). Each warp also loads the
// windows, columns and values of the rows it writes before its fragments,
// so the products wait on one round trip to memory instead of two after
// them.
//
// Requires sm_80 or newer (mma.sync on TF32). Vector loads need k a
// multiple of 4 and A, B aligned to 16 bytes; otherwise each element is
// loaded alone (sddmmDirectKernel<Tiles, false>).
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_SDDMMDIRECT_CUH
#define SPARSE_OPT_RUNTIME_SDDMMDIRECT_CUH

#include "sparse-opt/Runtime/Host/DeviceInfo.h"
#include "sparse-opt/Runtime/Host/Launch.cuh"
#include "sparse-opt/Runtime/Device/OccupiedBlocks.cuh"
#include "sparse-opt/Runtime/Device/SparseRow.cuh"
#include "sparse-opt/Runtime/Device/TensorCore.cuh"

#include <cuda_runtime.h>

namespace sopt {

namespace sddmm_direct {

constexpr int kBlock = 32, kWarps = 8, kChunk = 32;

/// Four consecutive elements of `row` from `k0` (zeros past `k` or for a
/// row outside the matrix).
template <bool VectorLoads>
__device__ __forceinline__ float4 loadFour(const float *__restrict__ matrix, int32_t rows,
                                           int32_t row, int32_t k, int32_t k0) {
  if (row >= rows || k0 >= k)
    return make_float4(0, 0, 0, 0);
  const float *at = matrix + int64_t(row) * k + k0;
  if constexpr (VectorLoads)
    return *reinterpret_cast<const float4 *>(at);
  return make_float4(at[0], k0 + 1 < k ? at[1] : 0.f, k0 + 2 < k ? at[2] : 0.f,
                     k0 + 3 < k ? at[3] : 0.f);
}

} // namespace sddmm_direct

/// Thread block b's output tile of 32 x 32 (`tile` of `Tiles`): the
/// listed or grid place for one tile a block, the grid's row pairs for two.
template <int Tiles>
__device__ __forceinline__ BlockPlace placeOfTile(const int32_t *__restrict__ occupied,
                                                  int64_t columns, int tile) {
  if constexpr (Tiles == 1)
    return placeOfBlock(occupied, columns);
  return {int64_t(blockIdx.y) * Tiles + tile, int64_t(blockIdx.x), columns, -1};
}

/// `Tiles` output tiles of 32 x 32 stacked in one column, eight warps each
/// (launchSddmmDirect says when two).
template <int Tiles, bool VectorLoads, typename Epilogue>
__global__ void __launch_bounds__(Tiles * sddmm_direct::kWarps * 32, 2 / Tiles)
    sddmmDirectKernel(CsrMatrix<float> s, const float *__restrict__ lhs,
                      const float *__restrict__ rhs, int32_t k, float *__restrict__ out,
                      Epilogue epilogue, const int32_t *__restrict__ windows,
                      const int32_t *__restrict__ occupied) {
  awaitPrecedingKernels();
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  __trap(); // mma.sync on TF32 needs sm_80
#else
  using namespace sddmm_direct;
  // Each warp's sums, [Tiles * kWarps][kBlock][kBlock + 1] (dynamic: two
  // tiles' outgrow the 48 KB of static shared memory).
  extern __shared__ float directShared[];
  auto partial = reinterpret_cast<float(*)[kBlock][kBlock + 1]>(directShared);
  __shared__ int32_t windowBegin[Tiles][kBlock], windowEnd[Tiles][kBlock];
  // (rows and columns within int32: launchSddmmDirect checks.)
  const int32_t rows = int32_t(s.rows), cols = int32_t(s.cols);
  const int tile = threadIdx.x / (kWarps * 32);
  const BlockPlace place = placeOfTile<Tiles>(occupied, (cols + kBlock - 1) / kBlock, tile);
  const int32_t row0 = int32_t(place.row) * kBlock, col0 = int32_t(place.column) * kBlock;
  const int warp = threadIdx.x / 32 % kWarps, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  float(*sums)[kBlock][kBlock + 1] = partial + tile * kWarps; // this tile's warps'

  // Prepared windows: warp w writes rows w, w + 8, ... in the end, so it
  // loads their windows, and lane j the column and value of each row's j-th
  // entry in the block, before the fragments: the products then wait on
  // one round trip to memory instead of two after them, and no barrier
  // waits on the windows. (They come with the list of occupied blocks where
  // some are empty, so a block without entries is only launched when the
  // caller passes every block's windows.) A row holds at most 32 entries in
  // 32 columns, barring duplicates: a row with more loads its window again
  // in the end. Three registers a row (the fragments and sums take the
  // rest): the entry (-1: none), its value, and its column in the block
  // with bit 5 set for a row of more than 32.
  constexpr int kRowsPerWarp = kBlock / kWarps, kMoreThan32 = 32;
  int32_t entryOf[kRowsPerWarp], placeOf[kRowsPerWarp];
  float value[kRowsPerWarp];
  if (windows) {
#pragma unroll
    for (int i = 0; i < kRowsPerWarp; ++i) {
      const int r = warp + kWarps * i;
      int32_t begin = 0, end = 0;
      if (row0 + r < rows) {
        const int32_t *at = place.window<kBlock>(windows, row0, r);
        begin = at[0], end = at[1];
      }
      const bool stored = begin + lane < end;
      entryOf[i] = stored ? begin + lane : -1;
      value[i] = stored ? s.values[begin + lane] : 0.f;
      placeOf[i] = (stored ? s.coordinates[begin + lane] - col0 : 0) |
                   (end - begin > 32 ? kMoreThan32 : 0);
    }
  } else {
    // Searched windows (thread r of a tile: row r) may leave the block
    // without entries: it then leaves before the products.
    const int r = threadIdx.x % (kWarps * 32);
    int32_t begin = 0, end = 0;
    if (r < kBlock && row0 + r < rows) {
      const int32_t first = s.positions[row0 + r], last = s.positions[row0 + r + 1];
      begin = lowerBound(s.coordinates, first, last, col0); // SparseRow.cuh
      end = lowerBound(s.coordinates, begin, last, int64_t(col0) + kBlock);
    }
    if (r < kBlock)
      windowBegin[tile][r] = begin, windowEnd[tile][r] = end;
    if (!__syncthreads_or(r < kBlock && begin < end))
      return;
  }

  // Warp w: chunks w, w + 8, ...; two m16 tiles down, four n8 tiles across.
  float acc[2][4][4] = {};
  const int32_t chunks = (k + kChunk - 1) / kChunk;
  for (int32_t c = warp; c < chunks; c += kWarps) {
    // Lane t's k for half h of the chunk: 16h + 4t .. + 3.
    float4 a[2][2][2], b[4][2]; // [tile][row g, g + 8][half], [tile][half]
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int32_t k0 = c * kChunk + 16 * h + 4 * t;
#pragma unroll
      for (int mi = 0; mi < 2; ++mi)
#pragma unroll
        for (int lower = 0; lower < 2; ++lower)
          a[mi][lower][h] = loadFour<VectorLoads>(lhs, rows, row0 + 16 * mi + g + 8 * lower, k, k0);
#pragma unroll
      for (int ni = 0; ni < 4; ++ni)
        b[ni][h] = loadFour<VectorLoads>(rhs, cols, col0 + 8 * ni + g, k, k0);
    }
    // Step (h, q) takes elements 2q and 2q + 1 of each float4 of half h.
#pragma unroll
    for (int h = 0; h < 2; ++h)
#pragma unroll
      for (int q = 0; q < 2; ++q) {
        uint32_t aBig[2][4], aSmall[2][4], bBig[4][2], bSmall[4][2];
#pragma unroll
        for (int mi = 0; mi < 2; ++mi) {
          const float4 &upper = a[mi][0][h], &lower = a[mi][1][h];
          tensor_core::splitTf32(q ? upper.z : upper.x, aBig[mi][0], aSmall[mi][0]);
          tensor_core::splitTf32(q ? lower.z : lower.x, aBig[mi][1], aSmall[mi][1]);
          tensor_core::splitTf32(q ? upper.w : upper.y, aBig[mi][2], aSmall[mi][2]);
          tensor_core::splitTf32(q ? lower.w : lower.y, aBig[mi][3], aSmall[mi][3]);
        }
#pragma unroll
        for (int ni = 0; ni < 4; ++ni) {
          tensor_core::splitTf32(q ? b[ni][h].z : b[ni][h].x, bBig[ni][0], bSmall[ni][0]);
          tensor_core::splitTf32(q ? b[ni][h].w : b[ni][h].y, bBig[ni][1], bSmall[ni][1]);
        }
        tensor_core::mmaSplitTf32(acc, aBig, aSmall, bBig, bSmall);
      }
  }

  // Accumulator (m16n8): c0, c1 at row g, columns 2t, 2t + 1; c2, c3 at row
  // g + 8.
#pragma unroll
  for (int mi = 0; mi < 2; ++mi)
#pragma unroll
    for (int ni = 0; ni < 4; ++ni)
#pragma unroll
      for (int e = 0; e < 4; ++e)
        sums[warp][16 * mi + g + 8 * (e / 2)][8 * ni + 2 * t + e % 2] = acc[mi][ni][e];
  __syncthreads();

  // Warp w writes rows w, w + 8, ...; each entry sums the warps' products.
  auto store = [&](int r, int32_t entry, int32_t column, float pattern) {
    const int at = int(column - col0);
    float sum = 0;
#pragma unroll
    for (int w = 0; w < kWarps; ++w)
      sum += sums[w][r][at];
    out[entry] = epilogue(int64_t(row0) + r, column, entry, sum, pattern);
  };
  if (windows) {
#pragma unroll
    for (int i = 0; i < kRowsPerWarp; ++i) {
      const int r = warp + kWarps * i;
      if (entryOf[i] >= 0)
        store(r, entryOf[i], col0 + (placeOf[i] & (kBlock - 1)), value[i]);
      if (placeOf[i] & kMoreThan32) { // duplicates only
        const int32_t *at = place.window<kBlock>(windows, row0, r);
        for (int32_t entry = at[0] + 32 + lane; entry < at[1]; entry += 32)
          store(r, entry, s.coordinates[entry], s.values[entry]);
      }
    }
  } else {
    for (int r = warp; r < kBlock; r += kWarps)
      for (int32_t entry = windowBegin[tile][r] + lane; entry < windowEnd[tile][r]; entry += 32)
        store(r, entry, s.coordinates[entry], s.values[entry]);
  }
#endif
}

/// D = epilogue((A · Bᵀ) ⊙ S) in f32 32 x 32 blocks (this file's comment);
/// `windows` as for launchSddmmBlocks (sopt_csr_column_windows for blocks
/// of 32, or with `occupied` sopt_csr_block_windows of its list) or nullptr
/// to search the rows; `occupied`, if given, the blocks of 32 x 32 holding
/// entries (OccupiedBlocks.cuh), one thread block each (without it, two
/// tiles a thread block where those pairs fill one wave of the SMs).
template <typename Epilogue>
cudaError_t launchSddmmDirect(const CsrMatrix<float> &s, const float *lhs, const float *rhs,
                              int32_t k, float *out, cudaStream_t stream, Epilogue epilogue,
                              const int32_t *windows, OccupiedBlocks occupied = {}) {
  using namespace sddmm_direct;
  const int64_t rowBlocks = (s.rows + kBlock - 1) / kBlock;
  const int64_t colBlocks = (s.cols + kBlock - 1) / kBlock;
  if (s.rows > INT32_MAX - kBlock || s.cols > INT32_MAX - kBlock) // int32 indices
    return cudaErrorInvalidValue;
  if (occupied.given() ? occupied.count < 0 || occupied.count > INT32_MAX : rowBlocks > 65535)
    return cudaErrorInvalidValue;
  if (occupied.given() && occupied.count == 0)
    return cudaSuccess; // no entries, nothing to write
  if (s.rows == 0 || s.cols == 0)
    return cudaSuccess;
  // Without a list of occupied blocks, where the pairs of tiles make one
  // wave filling three quarters of the SMs or more, a thread block takes
  // two tiles stacked in one column (this file's comment). Elsewhere one
  // tile a block, two blocks an SM, runs faster: with fewer pairs than SMs
  // every tile runs at once anyway, and several waves of pairs leave a
  // ragged last wave.
  int multiprocessors = 0;
  if (!occupied.given())
    if (cudaError_t status = currentMultiprocessors(&multiprocessors); status != cudaSuccess)
      return status;
  const int64_t pairs = colBlocks * ((rowBlocks + 1) / 2);
  const bool paired = !occupied.given() && rowBlocks >= 2 && pairs <= multiprocessors &&
                      4 * pairs >= 3 * int64_t(multiprocessors);
  const bool vectors = k % 4 == 0 && reinterpret_cast<uintptr_t>(lhs) % 16 == 0 &&
                       reinterpret_cast<uintptr_t>(rhs) % 16 == 0;
  auto launch = [&](auto kernel, int tiles, dim3 grid) {
    const size_t shared = size_t(tiles) * kWarps * kBlock * (kBlock + 1) * sizeof(float);
    cudaError_t status = cudaSuccess;
    if (shared > 48 * 1024)
      status = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    int(shared));
    if (status != cudaSuccess)
      return status;
    return launchKernel(kernel, grid, tiles * kWarps * 32, shared, stream, s, lhs, rhs, k, out,
                        epilogue, windows, occupied.list);
  };
  if (paired) {
    const dim3 grid(unsigned(colBlocks), unsigned((rowBlocks + 1) / 2));
    return vectors ? launch(sddmmDirectKernel<2, true, Epilogue>, 2, grid)
                   : launch(sddmmDirectKernel<2, false, Epilogue>, 2, grid);
  }
  const dim3 grid = gridOfBlocks(occupied, rowBlocks, colBlocks);
  return vectors ? launch(sddmmDirectKernel<1, true, Epilogue>, 1, grid)
                 : launch(sddmmDirectKernel<1, false, Epilogue>, 1, grid);
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_SDDMMDIRECT_CUH
