//===- SpmmBlocks.cuh - SpMM by dense tensor-core blocks --------*- CUDA -*-===//
//
// C[m, n] = epilogue(A[m, k] · B[k, n]) for patterns dense enough, where
// they hold entries, that multiplying dense blocks on tensor cores beats
// one FMA per stored entry and output column: the row kernel (Spmm.cuh)
// reads a slice of B's row from L1/L2 for every stored entry; a block here
// reads each of its chunk's 64 rows of B once for all its output rows.
//
// A block owns output rows [BlockRows by, +BlockRows) and columns
// [BlockCols bx, +BlockCols) and walks its rows' window of k (from the
// chunk of their first column to that of their last, so a banded pattern
// such as a sliding-window attention mask multiplies only its band) in
// chunks of 64. B's chunk (64 x BlockCols) is copied to shared memory by
// cp.async two chunks ahead of the one the warps multiply; A's chunk is
// densified from CSR: each warp owns BlockRows / 8 rows, reads the next up
// to 64 entries of each (one coalesced load per lane and 32 entries) a
// chunk ahead into registers, and after the multiply scatters those that
// fall in the chunk into a zeroed row of shared memory; a ballot counts
// them and moves the row's cursor. Rows must therefore be sorted by column
// without duplicates.
//
// Each of the 8 warps multiplies a 32 x 32 piece of the block with
// mma.sync: f32 in m16n8k8 TF32 steps, three products per product (each
// operand split into a TF32 part and a TF32 remainder as the warps read
// it, TensorCore.cuh); f16/bf16 in m16n8k16 steps, fragments by ldmatrix,
// f32 accumulation. When the block has fewer pieces than warps, the warps
// of one piece take every 2nd, 4th or 8th step along k (16-bit 32 x 32
// blocks: four of the warps, one of the chunk's four steps each; the other
// four only load) and their sums meet in shared memory before the epilogue.
//
// Requires sm_80. B's rows are copied 16 bytes at a time when a row's
// bytes are a multiple of 16 and B is 16-byte aligned; otherwise f32 4
// bytes at a time (cp.async) and 16-bit elements by plain loads.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_SPMMBLOCKS_CUH
#define SPARSE_OPT_RUNTIME_SPMMBLOCKS_CUH

#include "sparse-opt/Runtime/Host/Launch.cuh"
#include "sparse-opt/Runtime/Kernels/Spmm.cuh"
#include "sparse-opt/Runtime/Device/TensorCore.cuh"

#include <climits>
#include <cuda_runtime.h>

namespace sopt {

namespace spmm_blocks {

using namespace tensor_core;

constexpr int kWarps = 8, kThreads = 32 * kWarps;
/// Elements of k per chunk.
constexpr int kChunk = 64;
/// Elements of k per mma step (m16n8k8 TF32, m16n8k16 16-bit) and the steps
/// of a chunk.
template <typename T> constexpr int kStepK = sizeof(T) == 4 ? 8 : 16;
template <typename T> constexpr int kSteps = kChunk / kStepK<T>;
/// Chunks in shared memory: the one multiplied and two arriving (a fourth
/// stage buys nothing).
constexpr int kStages = 3;
/// A warp's piece: 2 x 4 tiles of 16 x 8.
constexpr int kPiece = 32, kTilesM = 2, kTilesN = 4;
/// Row strides in elements, padded so that a warp's fragment loads hit
/// every bank: f32 A's (rows g, columns t) at 4 g + t, B's (rows t, columns
/// g) at 8 t + g; 16-bit rows 16 bytes apart modulo 128 for ldmatrix.
template <typename T> constexpr int kAStride = kChunk + (sizeof(T) == 4 ? 4 : 8);
template <int BlockCols> constexpr int kBStride = BlockCols + 8;

template <typename T, int BlockRows, int BlockCols> struct Shape {
  static_assert((BlockRows == 32 || BlockRows == 64) &&
                    (BlockCols == 32 || BlockCols == 64 || BlockCols == 128),
                "blocks of 32 or 64 rows and 32 to 128 columns");
  static_assert(BlockCols != 128 || sizeof(T) == 2, "blocks of 128 columns in 16-bit only");
  static constexpr int kPiecesN = BlockCols / kPiece;
  static constexpr int kPieces = (BlockRows / kPiece) * kPiecesN;
  /// Warps per piece, each on every kSlices-th step of a chunk (warps past
  /// kPieces * kSlices only load).
  static constexpr int kSlices =
      kWarps / kPieces < kSteps<T> ? kWarps / kPieces : kSteps<T>;
  /// Rows of A each warp densifies.
  static constexpr int kRowsPerWarp = BlockRows / kWarps;
  /// Product columns in shared memory, padded against bank conflicts.
  static constexpr int kSumStride = BlockCols + 4;
};

/// Blocks per SM the register budget is set for: blocks of 32 rows fit two
/// (128 registers, no spills); blocks of 64 rows would spill and run one.
/// Two blocks of 32 rows per SM hide each other's waits.
template <int BlockRows> constexpr int kMinBlocksPerSm = BlockRows == 32 ? 2 : 1;

/// One chunk of both operands, A densified. (Splitting f32 A into its TF32
/// planes once at the scatter and loading its fragments by ldmatrix is
/// slower: larger stages, more work after the multiply.)
template <typename T, int BlockRows, int BlockCols> struct Stage {
  T a[BlockRows][kAStride<T>];
  T b[kChunk][kBStride<BlockCols>];
};

template <typename T, int BlockRows, int BlockCols>
constexpr size_t kStageBytes = sizeof(Stage<T, BlockRows, BlockCols>) * kStages;
template <typename T, int BlockRows, int BlockCols>
constexpr size_t kSumBytes = sizeof(float) * Shape<T, BlockRows, BlockCols>::kSlices *
                             BlockRows * Shape<T, BlockRows, BlockCols>::kSumStride;
template <typename T, int BlockRows, int BlockCols>
constexpr size_t kDynamicBytes = kStageBytes<T, BlockRows, BlockCols> >
                                         kSumBytes<T, BlockRows, BlockCols>
                                     ? kStageBytes<T, BlockRows, BlockCols>
                                     : kSumBytes<T, BlockRows, BlockCols>;

/// Elements of T in one 16-byte copy.
template <typename T> constexpr int kVector = 16 / int(sizeof(T));

/// Starts copying chunk `k0` of B's rows (zeros past k or n) into `tile`.
template <int BlockCols, bool VectorLoads, typename T>
__device__ __forceinline__ void loadChunkOfB(T (*tile)[kBStride<BlockCols>],
                                             const T *__restrict__ b, int32_t k, int32_t n,
                                             int32_t k0, int32_t col0) {
  constexpr int kWidth = VectorLoads ? kVector<T> : 1;
  constexpr int kPerRow = BlockCols / kWidth;
  constexpr int kPerThread = kChunk * kPerRow / kThreads;
#pragma unroll
  for (int j = 0; j < kPerThread; ++j) {
    const int v = threadIdx.x + j * kThreads;
    const int r = v / kPerRow, column = (v % kPerRow) * kWidth;
    const bool inside = k0 + r < k && col0 + column < n;
    const T *src = inside ? b + int64_t(k0 + r) * n + col0 + column : b;
    if constexpr (VectorLoads || sizeof(T) == 4)
      copyAsync<kWidth * sizeof(T)>(&tile[r][column], src, inside);
    else // cp.async copies 4 bytes at least; the barrier before the multiply publishes these
      tile[r][column] = inside ? *src : fromFloat<T>(0.f);
  }
}

/// The next entries of a warp's rows of A, in registers until they are
/// scattered: lane l holds entries cursor + l and cursor + 32 + l of each.
template <typename T, int Rows> struct RowEntries {
  int32_t cursor[Rows], end[Rows];
  int32_t column[Rows][2];
  T value[Rows][2];

  /// Loads the entries from each row's cursor (column INT_MAX past its end).
  __device__ __forceinline__ void fetch(const CsrMatrix<T> &a) {
    const int lane = threadIdx.x % 32;
#pragma unroll
    for (int i = 0; i < Rows; ++i)
#pragma unroll
      for (int j = 0; j < 2; ++j) {
        const int32_t entry = cursor[i] + j * 32 + lane;
        const bool inRow = entry < end[i];
        column[i][j] = inRow ? a.coordinates[entry] : INT_MAX;
        value[i][j] = inRow ? a.values[entry] : fromFloat<T>(0.f);
      }
  }

  /// Writes chunk `k0` of the rows into `tile` (rows `firstRow`..), zeros
  /// where they have no entry, and moves the cursors past the chunk.
  __device__ __forceinline__ void scatter(T (*tile)[kAStride<T>], int firstRow, int32_t k0) {
    const int lane = threadIdx.x % 32;
    // Two elements per lane: 8 bytes of f32, 4 of 16-bit.
    using Pair = std::conditional_t<sizeof(T) == 4, float2, uint32_t>;
#pragma unroll
    for (int i = 0; i < Rows; ++i)
      *reinterpret_cast<Pair *>(&tile[firstRow + i][2 * lane]) = Pair{};
    __syncwarp();
#pragma unroll
    for (int i = 0; i < Rows; ++i) {
      int32_t taken = 0;
#pragma unroll
      for (int j = 0; j < 2; ++j) {
        // Columns are sorted: the entries in the chunk are a prefix.
        const bool inChunk = unsigned(column[i][j] - k0) < unsigned(kChunk);
        if (inChunk)
          tile[firstRow + i][column[i][j] - k0] = value[i][j];
        taken += __popc(__ballot_sync(0xffffffffu, inChunk));
      }
      cursor[i] += taken;
    }
  }
};

/// One chunk for the warp's piece at (pieceRow, pieceCol): steps `slice`,
/// `slice + Slices`, ... along k, sums added to `part`.
template <int Slices, typename T, int BlockRows, int BlockCols>
__device__ __forceinline__ void multiplyChunk(const Stage<T, BlockRows, BlockCols> &stage,
                                              int pieceRow, int pieceCol, int slice,
                                              float (&part)[kTilesM][kTilesN][4]) {
  const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
#pragma unroll
  for (int step = 0; step < kSteps<T> / Slices; ++step) {
    const int kk = (step * Slices + slice) * kStepK<T>;
    if constexpr (sizeof(T) == 4) {
      uint32_t aBig[kTilesM][4], aSmall[kTilesM][4], bBig[kTilesN][2], bSmall[kTilesN][2];
#pragma unroll
      for (int mi = 0; mi < kTilesM; ++mi)
        splitFragmentA(stage.a, pieceRow + mi * 16, kk, aBig[mi], aSmall[mi]);
#pragma unroll
      for (int ni = 0; ni < kTilesN; ++ni) {
        const int c = pieceCol + ni * 8 + g;
        splitTf32(stage.b[kk + t][c], bBig[ni][0], bSmall[ni][0]);
        splitTf32(stage.b[kk + t + 4][c], bBig[ni][1], bSmall[ni][1]);
      }
      mmaSplitTf32(part, aBig, aSmall, bBig, bSmall);
    } else {
      // A: rows lane % 16, k halves lane / 16 of each 16 x 16 tile; B (rows
      // of k): the four 8 x 8 matrices of a 16 x 16 tile transposed, k
      // halves (lane / 8) % 2 and column halves lane / 16, i.e. both k
      // halves of two 8-column tiles.
      uint32_t a[kTilesM][4], b[kTilesN][2];
#pragma unroll
      for (int mi = 0; mi < kTilesM; ++mi)
        loadMatrices(a[mi], &stage.a[pieceRow + mi * 16 + lane % 16][kk + (lane / 16) * 8]);
#pragma unroll
      for (int nj = 0; nj < kTilesN / 2; ++nj) {
        uint32_t m[4];
        loadMatricesTransposed(m, &stage.b[kk + lane % 16][pieceCol + nj * 16 + (lane / 16) * 8]);
        b[2 * nj][0] = m[0], b[2 * nj][1] = m[1];
        b[2 * nj + 1][0] = m[2], b[2 * nj + 1][1] = m[3];
      }
#pragma unroll
      for (int mi = 0; mi < kTilesM; ++mi)
#pragma unroll
        for (int ni = 0; ni < kTilesN; ++ni)
          mma16<T>(part[mi][ni], a[mi], b[ni]);
    }
  }
}

/// The chunks of k the block's rows [row0, row0 + BlockRows) hold entries
/// in, [first, first + count). Every warp finds them itself, lane l from
/// rows l and l + 32 (rows sorted by column: a row's first and last entries
/// bound it), reduced across the warp: no barrier, and the bounds stay
/// warp-uniform for the compiler. (Read from shared memory after a barrier
/// they were not, nor the loop's control, and the window cost more than it
/// saved; this way its cost is the loads before the first copies.)
template <int BlockRows, typename T>
__device__ __forceinline__ void windowOfRows(const CsrMatrix<T> &a, int64_t row0,
                                             int32_t &first, int32_t &count) {
  int32_t lowest = INT_MAX, highest = -1;
#pragma unroll
  for (int half = 0; half < BlockRows / 32; ++half) {
    const int64_t row = row0 + half * 32 + threadIdx.x % 32;
    if (row < a.rows) {
      const int32_t begin = a.positions[row], end = a.positions[row + 1];
      if (begin < end) {
        lowest = min(lowest, a.coordinates[begin]);
        highest = max(highest, a.coordinates[end - 1]);
      }
    }
  }
  lowest = __reduce_min_sync(0xffffffffu, lowest);
  highest = __reduce_max_sync(0xffffffffu, highest);
  first = highest < 0 ? 0 : lowest / kChunk;
  count = highest < 0 ? 0 : highest / kChunk - first + 1;
}

} // namespace spmm_blocks

template <typename T, int BlockRows, int BlockCols, bool VectorLoads, bool TransposeC,
          typename Epilogue>
__global__ void __launch_bounds__(spmm_blocks::kThreads,
                                  spmm_blocks::kMinBlocksPerSm<BlockRows>)
    spmmBlocksKernel(CsrMatrix<T> a, const T *__restrict__ b, int32_t n, T *__restrict__ c,
                     Epilogue epilogue) {
  awaitPrecedingKernels();
  using namespace spmm_blocks;
  using S = Shape<T, BlockRows, BlockCols>;
  static_assert(sizeof(T) == 4 || sizeof(T) == 2, "f32, f16 or bf16 storage");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  __trap(); // mma.sync m16n8k8 (TF32) and m16n8k16 (bf16) need sm_80
#else
  extern __shared__ __align__(16) unsigned char spmmBlocksShared[];
  auto *stages = reinterpret_cast<Stage<T, BlockRows, BlockCols> *>(spmmBlocksShared);
  const int warp = threadIdx.x / 32;
  const int64_t row0 = int64_t(blockIdx.y) * BlockRows;
  const int32_t col0 = int32_t(blockIdx.x) * BlockCols;
  const int32_t k = int32_t(a.cols);
  // The block walks its rows' window of k, chunks [firstChunk, +chunks).
  int32_t firstChunk, chunks;
  windowOfRows<BlockRows>(a, row0, firstChunk, chunks);
  auto startOf = [&](int32_t chunk) { return (firstChunk + chunk) * kChunk; };

  // The warp's rows of A (empty past m).
  const int firstRow = warp * S::kRowsPerWarp;
  RowEntries<T, S::kRowsPerWarp> rows;
#pragma unroll
  for (int i = 0; i < S::kRowsPerWarp; ++i) {
    const int64_t row = row0 + firstRow + i;
    rows.cursor[i] = row < a.rows ? a.positions[row] : 0;
    rows.end[i] = row < a.rows ? a.positions[row + 1] : 0;
  }

  // The first kStages - 1 chunks, A's densified right away.
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < chunks) {
      loadChunkOfB<BlockCols, VectorLoads>(stages[s].b, b, k, n, startOf(s), col0);
      rows.fetch(a);
      rows.scatter(stages[s].a, firstRow, startOf(s));
    }
    commitCopies();
  }
  rows.fetch(a); // chunk kStages - 1's entries

  const int piece = warp % S::kPieces, slice = warp / S::kPieces;
  // (Known true at compile time where every warp multiplies.)
  const bool multiplies = S::kPieces * S::kSlices == kWarps || slice < S::kSlices;
  const int pieceRow = (piece / S::kPiecesN) * kPiece, pieceCol = (piece % S::kPiecesN) * kPiece;
  float acc[kTilesM][kTilesN][4] = {};
  for (int32_t chunk = 0; chunk < chunks; ++chunk) {
    waitCopies<kStages - 2>(); // B's chunk has landed (this thread's part)
    __syncthreads();           // ... every thread's, and A's; chunk - 1 is consumed
    const int32_t next = chunk + kStages - 1;
    auto &nextStage = stages[next % kStages];
    if (next < chunks)
      loadChunkOfB<BlockCols, VectorLoads>(nextStage.b, b, k, n, startOf(next), col0);
    commitCopies(); // an empty group past the end keeps the count uniform

    // The chunk's sum apart, then into `acc` (addAccumulators says why).
    if (multiplies) {
      float part[kTilesM][kTilesN][4] = {};
      multiplyChunk<S::kSlices>(stages[chunk % kStages], pieceRow, pieceCol, slice, part);
      addAccumulators(acc, part);
    }

    // The entries fetched during the multiply become chunk `next`.
    if (next < chunks) {
      rows.scatter(nextStage.a, firstRow, startOf(next));
      rows.fetch(a);
    }
  }
  waitCopies<0>();
  __syncthreads(); // the stages become the slices' sums

  float *sums = reinterpret_cast<float *>(spmmBlocksShared);
  auto sumAt = [&](int s, int r, int col) -> float & {
    return sums[(s * BlockRows + r) * S::kSumStride + col];
  };
  if (multiplies)
    storeAccumulators(acc, &sumAt(slice, 0, 0), S::kSumStride, pieceRow, pieceCol);
  __syncthreads();

  // Consecutive threads store consecutive elements of C (rows of C, or
  // columns with TransposeC).
  for (int e = threadIdx.x; e < BlockRows * BlockCols; e += kThreads) {
    const int r = TransposeC ? e % BlockRows : e / BlockCols;
    const int col = TransposeC ? e / BlockRows : e % BlockCols;
    const int64_t row = row0 + r, column = col0 + col;
    if (row >= a.rows || column >= n)
      continue;
    float sum = sumAt(0, r, col);
#pragma unroll
    for (int s = 1; s < S::kSlices; ++s)
      sum += sumAt(s, r, col);
    const float out = epilogue(row, column, sum);
    if constexpr (TransposeC)
      c[column * a.rows + row] = fromFloat<T>(out);
    else
      c[row * n + column] = fromFloat<T>(out);
  }
#endif
}

/// Launches C = A · B by dense BlockRows x BlockCols blocks (A CSR with rows
/// sorted by column, B[k, n] row-major; C row-major, or column-major with
/// `TransposeC`). Returns cudaErrorInvalidValue when the shapes exceed the
/// kernel's index types.
template <typename T, int BlockRows, int BlockCols, bool TransposeC = false,
          typename Epilogue = StoreProduct>
cudaError_t launchSpmmBlocks(const CsrMatrix<T> &a, const T *b, int64_t n, T *c,
                             cudaStream_t stream, Epilogue epilogue = {}) {
  using namespace spmm_blocks;
  const int64_t rowBlocks = (a.rows + BlockRows - 1) / BlockRows;
  const int64_t colBlocks = (n + BlockCols - 1) / BlockCols;
  if (a.rows < 0 || a.cols < 0 || n < 0 || a.cols > INT32_MAX - kChunk || n > INT32_MAX ||
      rowBlocks > 65535 || colBlocks > INT32_MAX)
    return cudaErrorInvalidValue;
  if (a.rows == 0 || n == 0)
    return cudaSuccess;
  const bool vectorLoads =
      n % kVector<T> == 0 && reinterpret_cast<uintptr_t>(b) % 16 == 0;
  const dim3 grid{unsigned(colBlocks), unsigned(rowBlocks)};
  auto launch = [&](auto kernel) {
    constexpr size_t kBytes = kDynamicBytes<T, BlockRows, BlockCols>;
    // The stages exceed the 48 KB a block gets without asking.
    cudaError_t e =
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kBytes));
    if (e != cudaSuccess)
      return e;
    return launchKernel(kernel, grid, kThreads, kBytes, stream, a, b, int32_t(n), c, epilogue);
  };
  if (vectorLoads)
    return launch(spmmBlocksKernel<T, BlockRows, BlockCols, true, TransposeC, Epilogue>);
  return launch(spmmBlocksKernel<T, BlockRows, BlockCols, false, TransposeC, Epilogue>);
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_SPMMBLOCKS_CUH
