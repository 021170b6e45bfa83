//===- SpmmBlocks.cuh - SpMM by dense tensor-core blocks --------*- CUDA -*-===//
//
// C[m, n] = epilogue(A[m, k] · B[k, n]) for f32 patterns dense enough that
// multiplying dense blocks on tensor cores beats one FMA per stored entry
// and output column: the row kernel (Spmm.cuh) reads a slice of B's row
// from L1/L2 for every stored entry; a block here reads each of its chunk's
// 64 rows of B once for all its output rows.
//
// A block owns output rows [BlockRows by, +BlockRows) and columns
// [BlockCols bx, +BlockCols) and walks k in chunks of 64. B's chunk
// (64 x BlockCols) is copied to shared memory by cp.async two chunks ahead of
// the one the warps multiply; A's chunk is densified from CSR: each warp
// owns BlockRows / 8 rows, reads the next up to 64 entries of each (one
// coalesced load per lane and 32 entries) a chunk ahead into registers,
// and after the multiply scatters those that fall in the chunk into a
// zeroed row of shared memory; a ballot counts them and moves the row's
// cursor. Rows must therefore be sorted by column without duplicates.
//
// Each of the 8 warps multiplies a 32 x 32 piece of the block with m16n8k8
// TF32 mma.sync, three products per product (each operand split into a TF32
// part and a TF32 remainder as the warps read it, TensorCore.cuh); when the
// block has fewer than 8 pieces, the warps of one piece take every 2nd, 4th
// or 8th step of 8 along k and their sums meet in shared memory before the
// epilogue.
//
// f32 storage only (16-bit inputs keep the row kernel). Requires sm_80.
// B's rows are copied 16 bytes at a time when n is a multiple of 4 and B is
// 16-byte aligned, 4 bytes at a time otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_SPMMBLOCKS_CUH
#define SPARSE_OPT_RUNTIME_SPMMBLOCKS_CUH

#include "sparse-opt/Runtime/Spmm.cuh"
#include "sparse-opt/Runtime/TensorCore.cuh"

#include <climits>
#include <cuda_runtime.h>

namespace sopt {

namespace spmm_blocks {

using namespace tensor_core;

constexpr int kWarps = 8, kThreads = 32 * kWarps;
/// Elements of k per chunk, and the m16n8k8 steps they make.
constexpr int kChunk = 64, kSteps = kChunk / 8;
/// Chunks in shared memory: the one multiplied and two arriving (four
/// stages ran no faster on the H100).
constexpr int kStages = 3;
/// A warp's piece: 2 x 4 tiles of 16 x 8.
constexpr int kPiece = 32, kTilesM = 2, kTilesN = 4;
/// Row strides in floats, padded so that a warp's fragment loads hit 32
/// banks: A's (rows g, columns t) at 4 g + t, B's (rows t, columns g) at
/// 8 t + g.
constexpr int kAStride = kChunk + 4;
template <int BlockCols> constexpr int kBStride = BlockCols + 8;

template <int BlockRows, int BlockCols> struct Shape {
  static_assert((BlockRows == 32 || BlockRows == 64) && (BlockCols == 32 || BlockCols == 64),
                "blocks of 32 or 64 rows and columns");
  static constexpr int kPiecesN = BlockCols / kPiece;
  static constexpr int kPieces = (BlockRows / kPiece) * kPiecesN;
  /// Warps per piece, each on every kSlices-th step of a chunk.
  static constexpr int kSlices = kWarps / kPieces;
  /// Rows of A each warp densifies.
  static constexpr int kRowsPerWarp = BlockRows / kWarps;
  /// Product columns in shared memory, padded against bank conflicts.
  static constexpr int kSumStride = BlockCols + 4;
};

/// Blocks per SM the register budget is set for: blocks of 32 rows fit two
/// (128 registers, no spills); blocks of 64 rows would spill and run one
/// (H100, DLMC patterns: two blocks of 32 rows per SM ran a median 1.13x
/// (32 x 64) and 1.21x (32 x 32) faster than one).
template <int BlockRows> constexpr int kMinBlocksPerSm = BlockRows == 32 ? 2 : 1;

/// One chunk of both operands, A densified. (Splitting A into its TF32
/// planes once at the scatter and loading its fragments by ldmatrix ran
/// 0.85-0.97x as fast on the H100: larger stages, more work after the
/// multiply.)
template <int BlockRows, int BlockCols> struct Stage {
  float a[BlockRows][kAStride];
  float b[kChunk][kBStride<BlockCols>];
};

template <int BlockRows, int BlockCols>
constexpr size_t kDynamicBytes =
    sizeof(Stage<BlockRows, BlockCols>) * kStages >
            sizeof(float) * Shape<BlockRows, BlockCols>::kSlices * BlockRows *
                Shape<BlockRows, BlockCols>::kSumStride
        ? sizeof(Stage<BlockRows, BlockCols>) * kStages
        : sizeof(float) * Shape<BlockRows, BlockCols>::kSlices * BlockRows *
              Shape<BlockRows, BlockCols>::kSumStride;

/// Starts copying chunk `k0` of B's rows (zeros past k or n) into `tile`.
template <int BlockCols, bool VectorLoads, typename T>
__device__ __forceinline__ void loadChunkOfB(float (*tile)[kBStride<BlockCols>],
                                             const T *__restrict__ b, int32_t k, int32_t n,
                                             int32_t k0, int32_t col0) {
  constexpr int kWidth = VectorLoads ? 4 : 1;
  constexpr int kPerRow = BlockCols / kWidth;
  constexpr int kPerThread = kChunk * kPerRow / kThreads;
#pragma unroll
  for (int j = 0; j < kPerThread; ++j) {
    const int v = threadIdx.x + j * kThreads;
    const int r = v / kPerRow, column = (v % kPerRow) * kWidth;
    const bool inside = k0 + r < k && col0 + column < n;
    const T *src = inside ? b + int64_t(k0 + r) * n + col0 + column : b;
    copyAsync<kWidth * sizeof(float)>(&tile[r][column], src, inside);
  }
}

/// The next entries of a warp's rows of A, in registers until they are
/// scattered: lane l holds entries cursor + l and cursor + 32 + l of each.
template <int Rows> struct RowEntries {
  int32_t cursor[Rows], end[Rows];
  int32_t column[Rows][2];
  float value[Rows][2];

  /// Loads the entries from each row's cursor (column INT_MAX past its end).
  template <typename T> __device__ __forceinline__ void fetch(const CsrMatrix<T> &a) {
    const int lane = threadIdx.x % 32;
#pragma unroll
    for (int i = 0; i < Rows; ++i)
#pragma unroll
      for (int j = 0; j < 2; ++j) {
        const int32_t entry = cursor[i] + j * 32 + lane;
        const bool inRow = entry < end[i];
        column[i][j] = inRow ? a.coordinates[entry] : INT_MAX;
        value[i][j] = inRow ? toFloat(a.values[entry]) : 0.f;
      }
  }

  /// Writes chunk `k0` of the rows into `tile` (rows `firstRow`..), zeros
  /// where they have no entry, and moves the cursors past the chunk.
  __device__ __forceinline__ void scatter(float (*tile)[kAStride], int firstRow, int32_t k0) {
    const int lane = threadIdx.x % 32;
#pragma unroll
    for (int i = 0; i < Rows; ++i)
      *reinterpret_cast<float2 *>(&tile[firstRow + i][2 * lane]) = make_float2(0.f, 0.f);
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
/// `slice + Slices`, ... of 8 along k, sums added to `part`.
template <int BlockRows, int BlockCols, int Slices>
__device__ __forceinline__ void multiplyChunk(const Stage<BlockRows, BlockCols> &stage,
                                              int pieceRow, int pieceCol, int slice,
                                              float (&part)[kTilesM][kTilesN][4]) {
  const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
#pragma unroll
  for (int step = 0; step < kSteps / Slices; ++step) {
    const int kk = (step * Slices + slice) * 8;
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
  }
}

} // namespace spmm_blocks

template <typename T, int BlockRows, int BlockCols, bool VectorLoads, bool TransposeC,
          typename Epilogue>
__global__ void __launch_bounds__(spmm_blocks::kThreads,
                                  spmm_blocks::kMinBlocksPerSm<BlockRows>)
    spmmBlocksKernel(CsrMatrix<T> a, const T *__restrict__ b, int32_t n, T *__restrict__ c,
                     Epilogue epilogue) {
  using namespace spmm_blocks;
  using S = Shape<BlockRows, BlockCols>;
  static_assert(std::is_same_v<T, float>, "f32 storage");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  __trap(); // mma.sync m16n8k8 on TF32 needs sm_80
#else
  extern __shared__ __align__(16) unsigned char spmmBlocksShared[];
  auto *stages = reinterpret_cast<Stage<BlockRows, BlockCols> *>(spmmBlocksShared);
  const int warp = threadIdx.x / 32;
  const int64_t row0 = int64_t(blockIdx.y) * BlockRows;
  const int32_t col0 = int32_t(blockIdx.x) * BlockCols;
  const int32_t k = int32_t(a.cols);
  const int32_t chunks = (k + kChunk - 1) / kChunk;

  // The warp's rows of A (empty past m).
  const int firstRow = warp * S::kRowsPerWarp;
  RowEntries<S::kRowsPerWarp> rows;
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
      loadChunkOfB<BlockCols, VectorLoads>(stages[s].b, b, k, n, s * kChunk, col0);
      rows.fetch(a);
      rows.scatter(stages[s].a, firstRow, s * kChunk);
    }
    commitCopies();
  }
  rows.fetch(a); // chunk kStages - 1's entries

  const int piece = warp % S::kPieces, slice = warp / S::kPieces;
  const int pieceRow = (piece / S::kPiecesN) * kPiece, pieceCol = (piece % S::kPiecesN) * kPiece;
  float acc[kTilesM][kTilesN][4] = {};
  for (int32_t chunk = 0; chunk < chunks; ++chunk) {
    waitCopies<kStages - 2>(); // B's chunk has landed (this thread's part)
    __syncthreads();           // ... every thread's, and A's; chunk - 1 is consumed
    const int32_t next = chunk + kStages - 1;
    auto &nextStage = stages[next % kStages];
    if (next < chunks)
      loadChunkOfB<BlockCols, VectorLoads>(nextStage.b, b, k, n, next * kChunk, col0);
    commitCopies(); // an empty group past the end keeps the count uniform

    // The chunk's sum apart, then into `acc` (addAccumulators says why).
    float part[kTilesM][kTilesN][4] = {};
    multiplyChunk<BlockRows, BlockCols, S::kSlices>(stages[chunk % kStages], pieceRow,
                                                     pieceCol, slice, part);
    addAccumulators(acc, part);

    // The entries fetched during the multiply become chunk `next`.
    if (next < chunks) {
      rows.scatter(nextStage.a, firstRow, next * kChunk);
      rows.fetch(a);
    }
  }
  waitCopies<0>();
  __syncthreads(); // the stages become the slices' sums

  float *sums = reinterpret_cast<float *>(spmmBlocksShared);
  auto sumAt = [&](int s, int r, int col) -> float & {
    return sums[(s * BlockRows + r) * S::kSumStride + col];
  };
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
  const bool vectorLoads = n % 4 == 0 && reinterpret_cast<uintptr_t>(b) % 16 == 0;
  const dim3 grid{unsigned(colBlocks), unsigned(rowBlocks)};
  auto launch = [&](auto kernel) {
    constexpr size_t kBytes = kDynamicBytes<BlockRows, BlockCols>;
    // The stages exceed the 48 KB a block gets without asking.
    cudaError_t e =
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kBytes));
    if (e != cudaSuccess)
      return e;
    kernel<<<grid, kThreads, kBytes, stream>>>(a, b, int32_t(n), c, epilogue);
    return cudaGetLastError();
  };
  if (vectorLoads)
    return launch(spmmBlocksKernel<T, BlockRows, BlockCols, true, TransposeC, Epilogue>);
  return launch(spmmBlocksKernel<T, BlockRows, BlockCols, false, TransposeC, Epilogue>);
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_SPMMBLOCKS_CUH
