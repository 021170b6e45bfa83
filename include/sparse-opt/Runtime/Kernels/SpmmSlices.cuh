//===- SpmmSlices.cuh - CSR x dense products from staged slices of B -*- CUDA -*-===//
//
// C[m, n] = epilogue(A[m, k] · B[k, n]), A in CSR, B and C row-major: each
// thread block copies one slice of B, all k rows by
// `SliceColumns` columns, into shared memory once (cp.async), then sums rows
// of A against it. The row tiles of Spmm.cuh read a row of B from L2 for
// every stored entry; when the pattern is sparse and n is wide those reads
// are the kernel's bound (a 2048 x 512 pattern at 90 % with n = 1024 reads
// 430 MB of B from L2). Here each block reads its slice from L2 once, and
// each entry costs one shared-memory vector per lane.
//
// On sm_90 a whole-slice block's slice arrives by tensor copies (one
// thread issues a copy per tile of up to 256 rows) where n is a multiple
// of the slice width, which frees every other thread from issuing
// 16-byte cp.asyncs.
//
// The grid is (slices, groups): block (s, g) takes the slots g, g + groups,
// g + 2 groups ... of the row order (longest rows first with a prepared
// order, so every block gets long and short rows alike), one row per tile
// group of `SliceColumns / VectorWidth` lanes at a time; `groups` fills one
// wave of the GPU. Each group stages its row's entries in shared memory a
// round at a time and loads the next round while it sums the current one
// (a round trip to L2 per round otherwise sets the pace). A block's first
// row, its longest with the rows ordered by length, is summed by all of
// its groups in even shares when it is much longer than the block's
// second (spmmSlicesKernel says when): one group walking a magnitude-pruned
// row of six to ten mean rows otherwise finished its block last.
//
// A k too long for the whole slice (more than about 840 rows of 64 f32
// columns in 227 KB of shared memory) is staged in chunks of rows: the
// block's groups then take one row each for all chunks, their sums in
// registers, the cursor of each row resuming at the first entry past the
// previous chunk (rows sorted by column), and the slice is copied once per
// chunk and batch of rows.
//
// When the slices beat the row tiles is SpmmScheduleRules.cpp's rule
// (prefersSpmmStagedSlices); the results are in docs/benchmarks/sparse.md.
//
// Requirements (checked by launchSpmmSlices): n a multiple of VectorWidth,
// k * n within int32, B and C aligned to their vectors (cudaMalloc'd
// buffers are); rows sorted by column when k takes chunks.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_SPMMSLICES_CUH
#define SPARSE_OPT_RUNTIME_SPMMSLICES_CUH

#include "sparse-opt/Runtime/Device/Convert.cuh"
#include "sparse-opt/Runtime/Host/Launch.cuh"
#include "sparse-opt/Runtime/Device/SparseRow.cuh"
#include "sparse-opt/Runtime/Schedule/SparseSchedule.h"
#include "sparse-opt/Runtime/Kernels/Spmm.cuh"
#include "sparse-opt/Runtime/Device/TensorCore.cuh"
#include "sparse-opt/Runtime/Device/Tma.cuh"

#include <cuda_runtime.h>

#include <algorithm>

namespace sopt {

namespace detail {

/// Lanes per tile group, and the entries each stages per round: two per
/// lane for 16 or 32 lanes, four for fewer (whole int4s either way).
template <int SliceColumns, int VectorWidth> struct SliceShape {
  static constexpr int kLanes = SliceColumns / VectorWidth;
  static constexpr int kPerLane = kLanes >= 16 ? 2 : 4;
  static constexpr int kStaged = kLanes * kPerLane;
  static_assert(kLanes >= 4 && kLanes <= 32 && (kLanes & (kLanes - 1)) == 0,
                "a tile group is 4 to 32 lanes of one warp");
};


/// Copies rows [first, first + rows) of B's slice from `firstColumn` into
/// `slice` (row-major, SliceColumns wide): 16 bytes per cp.async where B's
/// rows allow it (the caller waits), element by element otherwise; columns
/// past n are zeros.
template <typename T, int SliceColumns>
__device__ __forceinline__ void copySlice(T *slice, const T *__restrict__ b, int32_t n,
                                          int32_t firstColumn, int32_t first, int32_t rows) {
  constexpr int kCopyElements = 16 / sizeof(T);
  if (n % kCopyElements == 0) {
    constexpr int kCopiesPerRow = SliceColumns / kCopyElements;
    for (int32_t i = threadIdx.x; i < rows * kCopiesPerRow; i += blockDim.x) {
      const int32_t r = i / kCopiesPerRow, part = i % kCopiesPerRow * kCopyElements;
      const int32_t column = firstColumn + part;
      tensor_core::copyAsync<16>(slice + r * SliceColumns + part,
                                 b + int64_t(first + r) * n + column, column < n);
    }
    tensor_core::commitCopies();
  } else {
    for (int32_t i = threadIdx.x; i < rows * SliceColumns; i += blockDim.x) {
      const int32_t r = i / SliceColumns, column = firstColumn + i % SliceColumns;
      slice[i] = column < n ? b[int64_t(first + r) * n + column] : fromFloat<T>(0.f);
    }
  }
}

/// A lane's share of a staged round: its entries' offsets into the slice
/// and their values.
template <int PerLane> struct StagedRound {
  int32_t offset[PerLane];
  float value[PerLane];
};

/// Sums the staged entries [0, staged) of a group (offsets into the slice,
/// values; past the row's end up to a multiple of 4, value 0 at the offset
/// of the row of zeros after the slice) into acc.
template <typename T, int VectorWidth>
__device__ __forceinline__ void sumStagedEntries(const T *columnsOfSlice,
                                                 const int32_t *stagedOffset,
                                                 const float *stagedValue, int32_t staged,
                                                 float (&acc)[VectorWidth]) {
  for (int32_t j = 0; j < staged; j += 4) {
    const int4 offsets = *reinterpret_cast<const int4 *>(stagedOffset + j);
    const float4 values = *reinterpret_cast<const float4 *>(stagedValue + j);
    float x[4][VectorWidth];
    loadVector<VectorWidth>(columnsOfSlice + offsets.x, x[0]);
    loadVector<VectorWidth>(columnsOfSlice + offsets.y, x[1]);
    loadVector<VectorWidth>(columnsOfSlice + offsets.z, x[2]);
    loadVector<VectorWidth>(columnsOfSlice + offsets.w, x[3]);
#pragma unroll
    for (int v = 0; v < VectorWidth; ++v) {
      acc[v] = fmaf(values.x, x[0][v], acc[v]);
      acc[v] = fmaf(values.y, x[1][v], acc[v]);
      acc[v] = fmaf(values.z, x[2][v], acc[v]);
      acc[v] = fmaf(values.w, x[3][v], acc[v]);
    }
  }
}

/// The kernel for a k longer than one slice in shared memory (a kernel of
/// its own: as a branch of the whole-slice kernel it slowed that kernel):
/// B's slice comes `chunkRows` rows at a time. The
/// block's groups take one row each (the slots g, g + groups, ... as in the
/// whole-slice path), walk
/// every chunk with their sums in registers, and only then move on, so the
/// slice is copied once per chunk and per batch of rows. Sorted columns let
/// a row's cursor stop at the first entry past the chunk and resume there.
template <typename T, int SliceColumns, int VectorWidth, bool TransposeC, typename Epilogue>
__global__ void __launch_bounds__(kMaxStagedSliceThreads)
    spmmChunkedSlicesKernel(CsrMatrix<T> a, const T *__restrict__ b, int32_t n,
                            T *__restrict__ c, const int32_t *__restrict__ rowOrder,
                            int32_t groups, int32_t chunkRows, Epilogue epilogue) {
  awaitPrecedingKernels();
  using Shape = SliceShape<SliceColumns, VectorWidth>;
  extern __shared__ __align__(16) unsigned char chunkedShared[];
  T *slice = reinterpret_cast<T *>(chunkedShared);
  constexpr int kLanes = Shape::kLanes, kPerLane = Shape::kPerLane, kStaged = Shape::kStaged;
  const int32_t k = int32_t(a.cols);
  const int32_t firstColumn = int32_t(blockIdx.x) * SliceColumns;
  const int group = threadIdx.x / kLanes, lane = threadIdx.x % kLanes;
  const int groupsPerBlock = blockDim.x / kLanes;
  // A row of zeros follows the chunk: entries staged outside it read that
  // row (times 0), never B's, whose infinities or NaNs would make NaN.
  T *zeros = slice + size_t(chunkRows) * SliceColumns;
  const int32_t zeroOffset = chunkRows * SliceColumns;
  for (int i = threadIdx.x; i < SliceColumns; i += blockDim.x)
    zeros[i] = fromFloat<T>(0.f);
  int32_t *stagedOffset = reinterpret_cast<int32_t *>(zeros + SliceColumns) + group * 2 * kStaged;
  float *stagedValue = reinterpret_cast<float *>(stagedOffset + kStaged);
  const unsigned mask = tileGroupMask<kLanes>();
  const T *columnsOfSlice = slice + lane * VectorWidth;

  // Batches of one row per group; the test is the block's first slot, the
  // same for all its threads (the barriers below need every one).
  for (int64_t batch = 0; blockIdx.y + batch * groups < a.rows; batch += groupsPerBlock) {
    const int64_t slot = blockIdx.y + (batch + group) * groups;
    const bool active = slot < a.rows;
    const int64_t row = active ? rowOfSlot(rowOrder, slot) : 0;
    int32_t cursor = active ? a.positions[row] : 0;
    const int32_t end = active ? a.positions[row + 1] : 0;
    float acc[VectorWidth] = {};
    for (int32_t chunk = 0; chunk < k; chunk += chunkRows) {
      const int32_t chunkEnd = min(k, chunk + chunkRows);
      __syncthreads(); // every group is done with the previous chunk
      copySlice<T, SliceColumns>(slice, b, n, firstColumn, chunk, chunkEnd - chunk);
      tensor_core::waitCopies<0>();
      __syncthreads();
      // The row's entries below chunkEnd, a round at a time; the ones in
      // the chunk are a prefix of each round.
      while (cursor < end) {
        int32_t taken = 0;
#pragma unroll
        for (int i = 0; i < kPerLane; ++i) {
          const int32_t entry = cursor + i * kLanes + lane;
          const int32_t column = entry < end ? a.coordinates[entry] : chunkEnd;
          const bool inChunk = column < chunkEnd;
          stagedOffset[i * kLanes + lane] = inChunk ? (column - chunk) * SliceColumns : zeroOffset;
          stagedValue[i * kLanes + lane] = inChunk ? toFloat(a.values[entry]) : 0.f;
          taken += __popc(__ballot_sync(mask, inChunk) & mask);
        }
        __syncwarp(mask);
        sumStagedEntries<T, VectorWidth>(columnsOfSlice, stagedOffset, stagedValue, taken, acc);
        __syncwarp(mask); // the next round overwrites the staged entries
        cursor += taken;
        if (taken < kStaged)
          break; // the rest of the row lies in later chunks
      }
    }
    if (active)
      storeOutputVector<T, VectorWidth, TransposeC>(c, n, a.rows, row,
                                                firstColumn + lane * VectorWidth, acc, epilogue);
  }
}

} // namespace detail

/// Bytes of shared memory the row groups of a block of `threads` stage
/// their entries in (after the slice).
template <int SliceColumns, int VectorWidth>
constexpr size_t spmmSliceStagingBytes(int threads) {
  using Shape = detail::SliceShape<SliceColumns, VectorWidth>;
  // (And four words for the whole-slice kernel's two first rows and its
  // barrier.)
  return size_t(threads / Shape::kLanes) * Shape::kStaged * (sizeof(int32_t) + sizeof(float)) +
         4 * sizeof(int32_t) + sizeof(uint64_t);
}

/// The whole-slice kernel. A block's first slot holds the longest of its
/// rows (rows longest first). With `shareLongHead`, when that row is longer
/// than twice its second slot's row plus a round of staged entries (and
/// than two rounds: shorter ones lose to the barriers), every
/// tile group of the block sums an even share of it, the shares meet in
/// shared memory (added in group order, after a barrier) and the first
/// group stores the row; the groups then go on with their slots. A
/// magnitude-pruned row several times the mean otherwise kept one group of
/// one block busy after the others; where the next rows are nearly as
/// long, sharing the first only adds its barriers.
template <typename T, int SliceColumns, int VectorWidth, bool TransposeC, typename Epilogue>
__global__ void __launch_bounds__(kMaxStagedSliceThreads)
    spmmSlicesKernel(CsrMatrix<T> a, const T *__restrict__ b, int32_t n, T *__restrict__ c,
                     const int32_t *__restrict__ rowOrder, int32_t groups,
                     bool shareLongHead, const __grid_constant__ CUtensorMap sliceTiles,
                     int32_t tileRows, int32_t stagedRows, Epilogue epilogue) {
  awaitPrecedingKernels();
  using Shape = detail::SliceShape<SliceColumns, VectorWidth>;
  constexpr int kLanes = Shape::kLanes, kPerLane = Shape::kPerLane, kStaged = Shape::kStaged;
  extern __shared__ __align__(128) unsigned char slicesShared[];
  T *slice = reinterpret_cast<T *>(slicesShared);
  const int32_t k = int32_t(a.cols);
  const int32_t firstColumn = int32_t(blockIdx.x) * SliceColumns;
  const int groupsPerBlock = blockDim.x / kLanes;
  // A row of zeros follows the slice's stagedRows (k, or k rounded up to
  // whole tensor copies): entries staged past a row's end read it (times
  // 0), never B's, whose infinities or NaNs would make NaN. The groups'
  // staging areas (2 kStaged words each) follow; then four words for the
  // first two rows and the slice's barrier.
  T *zeros = slice + size_t(stagedRows) * SliceColumns;
  const int32_t zeroOffset = stagedRows * SliceColumns;
  for (int i = threadIdx.x; i < SliceColumns; i += blockDim.x)
    zeros[i] = fromFloat<T>(0.f);
  int32_t *staging = reinterpret_cast<int32_t *>(zeros + SliceColumns);
  int32_t *firstRows = staging + groupsPerBlock * 2 * kStaged;
  [[maybe_unused]] uint64_t *sliceLanded = reinterpret_cast<uint64_t *>(firstRows + 4);

  // The slice: on sm_90 with tileRows set, tiles of tileRows rows by tensor
  // copies that one thread issues (the others go on to their first rows);
  // else 16 bytes per cp.async from every thread.
  bool copiesTiles = false;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  copiesTiles = tileRows > 0;
  if (copiesTiles && threadIdx.x == 0) {
    tma::initBarrier(sliceLanded, 1);
    tma::fenceBarrierInit();
    tma::arriveExpecting(sliceLanded, uint32_t(stagedRows) * SliceColumns * sizeof(T));
    for (int32_t first = 0; first < k; first += tileRows)
      tma::loadTile(slice + size_t(first) * SliceColumns, &sliceTiles, firstColumn, first,
                    sliceLanded);
  }
#endif
  if (!copiesTiles)
    detail::copySlice<T, SliceColumns>(slice, b, n, firstColumn, 0, k);

  const int group = threadIdx.x / kLanes, lane = threadIdx.x % kLanes;
  int32_t *stagedOffset = staging + group * 2 * kStaged;
  float *stagedValue = reinterpret_cast<float *>(stagedOffset + kStaged);
  const unsigned mask = detail::tileGroupMask<kLanes>();
  const T *columnsOfSlice = slice + lane * VectorWidth;
  const int32_t column = firstColumn + lane * VectorWidth;

  // A lane's entries of a round from `first`: each column as its row's
  // offset in the slice, so the sums below only add.
  using Round = detail::StagedRound<kPerLane>;
  auto loadRound = [&](Round &round, int32_t first, int32_t end) {
#pragma unroll
    for (int i = 0; i < kPerLane; ++i) {
      const int32_t entry = first + i * kLanes + lane;
      const bool inRow = entry < end;
      round.offset[i] = inRow ? a.coordinates[entry] * SliceColumns : zeroOffset;
      round.value[i] = inRow ? toFloat(a.values[entry]) : 0.f;
    }
  };
  // Adds the entries [first, end) to acc, a round at a time, the round at
  // `first` already in `round`; each round stages, loads the next and sums.
  auto sumLoaded = [&](Round &round, int32_t first, int32_t end, float(&acc)[VectorWidth]) {
    for (; first < end; first += kStaged) {
#pragma unroll
      for (int i = 0; i < kPerLane; ++i) {
        stagedOffset[i * kLanes + lane] = round.offset[i];
        stagedValue[i * kLanes + lane] = round.value[i];
      }
      __syncwarp(mask);
      if (first + kStaged < end)
        loadRound(round, first + kStaged, end);
      // Entries past the row's end read the row of zeros (rounding up to 4).
      detail::sumStagedEntries<T, VectorWidth>(columnsOfSlice, stagedOffset, stagedValue,
                                               min(int32_t(kStaged), end - first), acc);
      __syncwarp(mask); // the next round overwrites the staged entries
    }
  };
  // The group's first row: its bounds and first round load while the
  // slice's copies land.
  Round next;
  int64_t slot = blockIdx.y + int64_t(group) * groups, row = 0;
  int32_t begin = 0, end = 0;
  auto startRow = [&] {
    if (slot >= a.rows)
      return;
    row = rowOfSlot(rowOrder, slot);
    begin = a.positions[row], end = a.positions[row + 1];
    loadRound(next, begin, end);
  };
  startRow();
  // The first two groups' first rows are the block's first two slots
  // (blockIdx.y and + groups: its two longest rows when the rows are
  // ordered by length); their lengths and the first one's start go through
  // shared memory, so that deciding costs no loads of its own.
  // (First row's length and start, second's length.)
  if (shareLongHead && lane == 0 && group < 2) {
    firstRows[2 * group] = slot < a.rows ? end - begin : 0;
    if (group == 0)
      firstRows[1] = begin;
  }
  // Thread 0 alone waits for the tensor copies (the others cannot know
  // the barrier initialized); the block's barrier below hands the slice on.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if (copiesTiles && threadIdx.x == 0)
    tma::wait(sliceLanded, 0);
#endif
  if (!copiesTiles)
    tensor_core::waitCopies<0>();
  __syncthreads();

  // (The same in every thread of the block.)
  const bool shareHead =
      shareLongHead &&
      firstRows[0] > max(2 * (groupsPerBlock > 1 ? firstRows[2] : 0) + kStaged, 2 * kStaged);
  if (shareHead) {
    // Group g's share of the first row: g q + min(g, r) on, q and r from
    // its length over the groups.
    const int32_t headLength = firstRows[0], headBegin = firstRows[1];
    const int32_t quotient = headLength / groupsPerBlock, remainder = headLength % groupsPerBlock;
    const int32_t shareBegin = headBegin + group * quotient + min(group, remainder);
    const int32_t shareEnd = shareBegin + quotient + (group < remainder ? 1 : 0);
    Round share;
    loadRound(share, shareBegin, shareEnd);
    float acc[VectorWidth] = {};
    sumLoaded(share, shareBegin, shareEnd, acc);
    // Each group's share sums where its staged entries were (VectorWidth
    // floats per lane fit in the 2 kStaged words of its staging area).
    static_assert(kLanes * VectorWidth <= 2 * kStaged, "a share's sums fit its staging area");
    storeVector<VectorWidth>(reinterpret_cast<float *>(stagedOffset) + lane * VectorWidth, acc);
    __syncthreads(); // every share is in shared memory
    if (group == 0) {
      const float *shares = reinterpret_cast<const float *>(staging);
      float part[VectorWidth];
#pragma unroll 4
      for (int g = 1; g < groupsPerBlock; ++g) {
        loadVector<VectorWidth>(shares + g * 2 * kStaged + lane * VectorWidth, part);
#pragma unroll
        for (int v = 0; v < VectorWidth; ++v)
          acc[v] += part[v];
      }
      detail::storeOutputVector<T, VectorWidth, TransposeC>(c, n, a.rows, row, column, acc,
                                                            epilogue);
    }
    __syncthreads(); // the shares are read: the staging areas are free again
    if (group == 0) { // the shared row was its first slot
      slot += int64_t(groupsPerBlock) * groups;
      startRow();
    }
  }

  for (; slot < a.rows; slot += int64_t(groupsPerBlock) * groups, startRow()) {
    float acc[VectorWidth] = {};
    sumLoaded(next, begin, end, acc);
    detail::storeOutputVector<T, VectorWidth, TransposeC>(c, n, a.rows, row, column, acc,
                                                          epilogue);
  }
}

/// How launchSpmmSlices copies its slices and shares rows: the defaults
/// are what the compiler's schedules run, the others exist to measure
/// against.
struct SpmmSlicesOptions {
  /// Whole-slice blocks share a long first row among their groups.
  bool shareLongHead = true;
  /// Whole-slice blocks on sm_90 and newer copy their slice with tensor
  /// copies where n is a multiple of the slice's width (else, and off,
  /// 16 bytes per cp.async from every thread).
  bool tensorCopies = true;
};

/// Launches the staged-slice SpMM: blocks of `threads` threads (a multiple
/// of 32 up to kMaxStagedSliceThreads), one slice of `SliceColumns` columns
/// of B each, rows in `rowOrder` (nullptr for row 0 first), enough blocks
/// per slice for one wave of the device; a slice longer than the device's
/// shared memory allows is copied in chunks of k. C row-major or, with
/// `TransposeC`, column-major. cudaErrorInvalidValue when the shapes break
/// the requirements above.
template <typename T, int SliceColumns, int VectorWidth, bool TransposeC = false,
          typename Epilogue = StoreProduct>
cudaError_t launchSpmmSlices(const CsrMatrix<T> &a, const T *b, int64_t n, T *c,
                             const int32_t *rowOrder, int threads, cudaStream_t stream,
                             Epilogue epilogue = {}, SpmmSlicesOptions options = {}) {
  if (n % VectorWidth != 0 || n < 0 || n > INT32_MAX || a.cols * n > INT32_MAX ||
      a.rows < 0 || a.cols < 0 || threads < 32 || threads % 32 != 0 ||
      threads > kMaxStagedSliceThreads)
    return cudaErrorInvalidValue;
  if (a.rows == 0 || n == 0)
    return cudaSuccess;
  int device = 0, sharedLimit = 0, multiprocessors = 0, major = 0;
  cudaError_t status = cudaGetDevice(&device);
  if (status == cudaSuccess)
    status = cudaDeviceGetAttribute(&sharedLimit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  if (status == cudaSuccess)
    status = cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device);
  if (status == cudaSuccess)
    status = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  if (status != cudaSuccess)
    return status;
  // The whole slice where it fits beside the staging areas, else as many
  // rows as fit, a chunk at a time.
  // (The staging areas, and the row of zeros after the slice.)
  constexpr size_t kRowBytes = SliceColumns * sizeof(T);
  const size_t staging = spmmSliceStagingBytes<SliceColumns, VectorWidth>(threads) + kRowBytes;
  if (staging + kRowBytes > size_t(sharedLimit))
    return cudaErrorInvalidValue;
  const int64_t chunkRows =
      std::max<int64_t>(1, std::min<int64_t>(a.cols, (size_t(sharedLimit) - staging) / kRowBytes));
  const int64_t slices = (n + SliceColumns - 1) / SliceColumns;
  // One wave: as many blocks per slice as the SMs hold at once.
  auto wave = [&](auto kernel, size_t shared, dim3 &grid) {
    int perMultiprocessor = 0;
    cudaError_t status = cudaSuccess;
    if (shared > 48 * 1024)
      status = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    int(shared));
    if (status == cudaSuccess)
      status = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perMultiprocessor, kernel, threads,
                                                             shared);
    const int64_t blocks = int64_t(multiprocessors) * std::max(perMultiprocessor, 1);
    grid = dim3(unsigned(slices),
                unsigned(std::clamp<int64_t>(blocks / slices, 1, std::min<int64_t>(a.rows, 65535))));
    return status;
  };
  dim3 grid;
  if (chunkRows < a.cols) {
    auto kernel = detail::spmmChunkedSlicesKernel<T, SliceColumns, VectorWidth, TransposeC, Epilogue>;
    const size_t shared = size_t(chunkRows) * kRowBytes + staging;
    if ((status = wave(kernel, shared, grid)) != cudaSuccess)
      return status;
    return launchKernel(kernel, grid, threads, shared, stream, a, b, int32_t(n), c, rowOrder,
                        int32_t(grid.y), int32_t(chunkRows), epilogue);
  }

  // Tensor copies in tiles of up to 256 rows (the hardware's limit), each
  // a multiple of 8 rows so that every tile starts 128-byte aligned; the
  // last tile's rows past k land as zeros in rows the slice reserves. Only
  // where every slice is whole: a slice cut by n (and rows of B that are
  // not 128-byte multiples) copies slower than cp.async.
  const bool tensorCopies = options.tensorCopies && major >= 9 && n % SliceColumns == 0 &&
                            a.cols > 0 && reinterpret_cast<uintptr_t>(b) % 16 == 0;
  CUtensorMap sliceTiles{};
  int64_t tileRows = 0, stagedRows = a.cols;
  if (tensorCopies) {
    const int64_t tiles = (a.cols + 255) / 256;
    tileRows = std::min<int64_t>(256, ((a.cols + tiles - 1) / tiles + 7) / 8 * 8);
    stagedRows = (a.cols + tileRows - 1) / tileRows * tileRows;
    // (tileRows = 0 tells the kernel to copy with cp.async.)
    if (size_t(stagedRows) * kRowBytes + staging > size_t(sharedLimit) ||
        !tma::encodeTiles(&sliceTiles, b, sizeof(T), a.cols, n, uint32_t(tileRows),
                          SliceColumns, CU_TENSOR_MAP_SWIZZLE_NONE))
      tileRows = 0, stagedRows = a.cols;
  }

  auto kernel = spmmSlicesKernel<T, SliceColumns, VectorWidth, TransposeC, Epilogue>;
  const size_t shared = size_t(stagedRows) * kRowBytes + staging;
  if ((status = wave(kernel, shared, grid)) != cudaSuccess)
    return status;
  return launchKernel(kernel, grid, threads, shared, stream, a, b, int32_t(n), c, rowOrder,
                      int32_t(grid.y), options.shareLongHead, sliceTiles, int32_t(tileRows),
                      int32_t(stagedRows), epilogue);
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_SPMMSLICES_CUH
