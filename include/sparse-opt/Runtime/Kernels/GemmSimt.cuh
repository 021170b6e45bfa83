//===- GemmSimt.cuh - register-tiled f32 GEMM on CUDA cores ------*- CUDA -*-===//
//
// C = alpha · op(A) · op(B) + beta · C in f32 on CUDA cores: the design's
// technique 4, the register-tiled SGEMM of seed 001. Row-major A[M,K], B[K,N], C[M,N]; op()
// optionally transposes A (stored [K,M]) or B (stored [N,K]).
//
// A block computes a BlockM x BlockN tile of C with (BlockM/8)·(BlockN/8)
// threads. Thread (tx, ty) holds an 8x8 tile as 2x2 sub-tiles of 4x4: rows
// ty·4 + [0,4) and BlockM/2 + ty·4 + [0,4), columns tx·4 + [0,4) and
// BlockN/2 + tx·4 + [0,4); per k it reads its 8 values of A and 8 of B with
// four 16-byte shared loads (both slices are K-major: GemmSimtOperands.cuh
// transposes row-major A on the way in) and does 64 FMAs.
//
// K advances KStep at a time through `Stages` shared-memory buffers filled by
// cp.async: slice t + Stages - 1 is copied while slice t is multiplied, one
// barrier per slice. C is written back through shared memory, a warp at a
// time, so that each store instruction covers 32 consecutive columns of one
// row (coalesced at any alignment of C).
//
// Batches: blockIdx.z / splits is the matrix of the batch, each operand
// `stride` elements after the one before.
//
// Split-K: blockIdx.z % splits owns `tilesPerSplit` K steps; with more than one
// slice the launcher first scales C by beta and every slice adds
// alpha · its partial product with atomics (the order of those additions,
// hence the last bits of C, may differ between runs).
//
// Epilogue: with one K slice each element of C is stored once, so a functor
// `epilogue(row, col, alpha · (A·B)[row, col])` (bias, activation, residual,
// scale: what the compiler fuses) can replace the plain store, writing any
// element type; the product itself is then never stored.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_KERNELS_GEMMSIMT_CUH
#define SPARSE_OPT_RUNTIME_KERNELS_GEMMSIMT_CUH

#include "sparse-opt/Runtime/Device/Convert.cuh"
#include "sparse-opt/Runtime/Host/DeviceInfo.h"
#include "sparse-opt/Runtime/Kernels/GemmSimtOperands.cuh"
#include "sparse-opt/Runtime/Schedule/GemmSchedule.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace sopt::gemm_simt {

/// Each thread's tile of C: 2x2 sub-tiles of kSubTile x kSubTile.
inline constexpr int kSubTile = 4;
inline constexpr int kThreadTile = 2 * kSubTile;
inline constexpr int kWarp = 32;

/// Registers a thread may use so that 512 threads' tiles fit one SM's
/// 64K registers (the 128x128 tile: two blocks of 256 per SM).
inline constexpr int kThreadsPerSmTarget = 512;

/// Compile-time shape of one kernel instance.
template <int BlockM_, int BlockN_, int KStep_ = 8, int Stages_ = 2> struct Tiling {
  static constexpr int BlockM = BlockM_, BlockN = BlockN_, KStep = KStep_, Stages = Stages_;
  static constexpr int threadsN = BlockN / kThreadTile, threadsM = BlockM / kThreadTile;
  static constexpr int threads = threadsN * threadsM;
  static constexpr int minBlocks = kThreadsPerSmTarget / threads > 0 ? kThreadsPerSmTarget / threads : 1;
  static constexpr int strideA = BlockM + kSlicePad, strideB = BlockN + kSlicePad;
  static constexpr int stageFloats = KStep * (strideA + strideB);
  /// Write-back: a warp's rows of one sub-tile row, BlockN wide.
  static constexpr int warpRows = kWarp / threadsN;
  static constexpr int stagingFloats = (threads / kWarp) * warpRows * BlockN;
  static constexpr int sharedFloats =
      Stages * stageFloats > stagingFloats ? Stages * stageFloats : stagingFloats;
  static_assert(threads % kWarp == 0 && kWarp % threadsN == 0, "warps own whole thread rows");
  static_assert(Stages >= 2, "at least double buffering");
};

/// What the kernel reads; sizes already checked by the launcher.
struct GemmArguments {
  int m = 0, n = 0, k = 0;
  const float *a = nullptr;
  int64_t lda = 0;
  const float *b = nullptr;
  int64_t ldb = 0;
  float *c = nullptr;
  int64_t ldc = 0;
  float alpha = 1, beta = 0;
  int tilesPerSplit = 0; ///< K steps per K slice
  int splits = 1;        ///< K slices per matrix (blockIdx.z = matrix · splits + slice)
  int64_t strideA = 0, strideB = 0, strideC = 0; ///< elements between matrices of a batch
  bool accumulate = false; ///< add alpha·AB into C atomically (split K)
};

/// The plain store of one element: C = alpha·AB + beta·C, or an atomic add
/// of a K slice's alpha·AB.
struct StoreProduct {
  __device__ __forceinline__ void operator()(const GemmArguments &args, int row, int col,
                                             float product) const {
    float *out = args.c + int64_t(row) * args.ldc + col;
    const float value = args.alpha * product;
    if (args.accumulate)
      atomicAdd(out, value);
    else // beta = 0 never reads C (it may hold NaNs), as in BLAS
      *out = args.beta == 0.0f ? value : fmaf(args.beta, *out, value);
  }
};

/// The store through an epilogue: out[row, col] = epilogue(row, col,
/// alpha·AB), converted to Out. One K slice only (each element stored once).
template <class Out, class Epilogue> struct StoreEpilogue {
  Out *out;
  int64_t ldOut;
  Epilogue epilogue;
  __device__ __forceinline__ void operator()(const GemmArguments &args, int row, int col,
                                             float product) const {
    out[int64_t(row) * ldOut + col] = fromFloat<Out>(epilogue(row, col, args.alpha * product));
  }
};

/// acc += the slice's outer products: per k, 8 values of A and 8 of B.
template <class T>
__device__ __forceinline__ void multiplySlice(const float *sliceA, const float *sliceB, int ty,
                                              int tx, float (&acc)[kThreadTile][kThreadTile]) {
#pragma unroll
  for (int kk = 0; kk < T::KStep; ++kk) {
    const float *rowA = sliceA + kk * T::strideA + ty * kSubTile;
    const float *rowB = sliceB + kk * T::strideB + tx * kSubTile;
    const float4 a0 = *reinterpret_cast<const float4 *>(rowA);
    const float4 a1 = *reinterpret_cast<const float4 *>(rowA + T::BlockM / 2);
    const float4 b0 = *reinterpret_cast<const float4 *>(rowB);
    const float4 b1 = *reinterpret_cast<const float4 *>(rowB + T::BlockN / 2);
    const float a[kThreadTile] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
    const float b[kThreadTile] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
    for (int i = 0; i < kThreadTile; ++i)
#pragma unroll
      for (int j = 0; j < kThreadTile; ++j)
        acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
  }
}

/// Writes the block's tile of C through `staging` (the idle stage buffers):
/// for each of a thread's 8 rows, the warp parks its rows of the tile there
/// and stores them back lane by lane along the row.
template <class T, class Store>
__device__ __forceinline__ void writeBack(const GemmArguments &args, const Store &store,
                                          float *staging, int rowBegin, int colBegin, int ty,
                                          int tx,
                                          const float (&acc)[kThreadTile][kThreadTile]) {
  const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  const int warpTy = warp * T::warpRows;
  float *rows = staging + warp * T::warpRows * T::BlockN;
  float *own = rows + (ty - warpTy) * T::BlockN + tx * kSubTile;
#pragma unroll
  for (int i = 0; i < kThreadTile; ++i) {
    const int half = i / kSubTile, sub = i % kSubTile;
    __syncwarp();
    *reinterpret_cast<float4 *>(own) = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
    *reinterpret_cast<float4 *>(own + T::BlockN / 2) =
        make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]);
    __syncwarp();
#pragma unroll
    for (int e = lane; e < T::warpRows * T::BlockN; e += kWarp) {
      const int r = e / T::BlockN, col = colBegin + e % T::BlockN;
      const int row = rowBegin + half * (T::BlockM / 2) + (warpTy + r) * kSubTile + sub;
      if (row < args.m && col < args.n)
        store(args, row, col, rows[e]);
    }
  }
}

template <class T, OperandLayout LayoutA, OperandLayout LayoutB, class Store>
__global__ void __launch_bounds__(T::threads, T::minBlocks)
    gemmSimtKernel(GemmArguments args, Store store) {
  __shared__ __align__(16) float shared[T::sharedFloats];
  const int thread = threadIdx.x;
  const int tx = thread % T::threadsN, ty = thread / T::threadsN;
  const int rowBegin = blockIdx.y * T::BlockM, colBegin = blockIdx.x * T::BlockN;
  const int slice = blockIdx.z % args.splits, matrix = blockIdx.z / args.splits;
  args.a += matrix * args.strideA, args.b += matrix * args.strideB, args.c += matrix * args.strideC;
  const int kBegin = slice * args.tilesPerSplit * T::KStep;
  const int kEnd = min(args.k, kBegin + args.tilesPerSplit * T::KStep);
  const int tiles = kEnd > kBegin ? (kEnd - kBegin + T::KStep - 1) / T::KStep : 0;

  auto sliceA = [&](int t) { return shared + (t % T::Stages) * T::stageFloats; };
  auto sliceB = [&](int t) { return sliceA(t) + T::KStep * T::strideA; };
  auto copyTile = [&](int t) {
    const int k0 = kBegin + t * T::KStep;
    copySlice<LayoutA, T::BlockM, T::KStep, T::threads>(sliceA(t), args.a, args.lda, rowBegin,
                                                         args.m, k0, kEnd, thread);
    copySlice<LayoutB, T::BlockN, T::KStep, T::threads>(sliceB(t), args.b, args.ldb, colBegin,
                                                         args.n, k0, kEnd, thread);
  };

  float acc[kThreadTile][kThreadTile] = {};
#pragma unroll
  for (int t = 0; t < T::Stages - 1; ++t) {
    if (t < tiles)
      copyTile(t);
    tensor_core::commitCopies(); // empty groups keep the wait count uniform
  }
  for (int t = 0; t < tiles; ++t) {
    tensor_core::waitCopies<T::Stages - 2>();
    // Slice t has landed for everyone, and everyone is done with slice t-1,
    // whose buffer the next copy reuses.
    __syncthreads();
    if (t + T::Stages - 1 < tiles)
      copyTile(t + T::Stages - 1);
    tensor_core::commitCopies();
    multiplySlice<T>(sliceA(t), sliceB(t), ty, tx, acc);
  }
  tensor_core::waitCopies<0>();
  __syncthreads(); // the stage buffers become the write-back staging
  writeBack<T>(args, store, shared, rowBegin, colBegin, ty, tx, acc);
}

/// C = beta · C (zeros for beta = 0, whatever C held): split K's first step,
/// and the whole product when K = 0. Static: every unit that includes this
/// header (two generated modules linked into one program) has its own.
static __global__ void scaleMatrixKernel(float *c, int m, int n, int64_t ldc, float beta) {
  const int64_t count = int64_t(m) * n;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x) {
    float *out = c + (i / n) * ldc + i % n;
    *out = beta == 0.0f ? 0.0f : beta * *out;
  }
}

/// The whole problem as the caller states it.
struct GemmProblem {
  int64_t m = 0, n = 0, k = 0;
  const float *a = nullptr;
  int64_t lda = 0;
  bool transposeA = false; ///< A stored [K, M]
  const float *b = nullptr;
  int64_t ldb = 0;
  bool transposeB = false; ///< B stored [N, K]
  float *c = nullptr;
  int64_t ldc = 0;
  float alpha = 1, beta = 0;
  /// Matrices of a batch, each operand `stride` elements after the one
  /// before (the same leading dimensions).
  int64_t batch = 1, strideA = 0, strideB = 0, strideC = 0;
};

/// 16-byte copies need every matrix of the batch 16-byte aligned.
inline bool vectorReady(const float *p, int64_t ld, int64_t batch, int64_t stride) {
  return ld % 4 == 0 && (batch == 1 || stride % 4 == 0) &&
         reinterpret_cast<uintptr_t>(p) % 16 == 0;
}

template <class T, OperandLayout LayoutA, OperandLayout LayoutB, class Store>
cudaError_t launchTiled(const GemmArguments &args, const Store &store, int gridZ,
                        cudaStream_t stream) {
  const dim3 grid((args.n + T::BlockN - 1) / T::BlockN, (args.m + T::BlockM - 1) / T::BlockM,
                  gridZ);
  gemmSimtKernel<T, LayoutA, LayoutB><<<grid, T::threads, 0, stream>>>(args, store);
  return cudaGetLastError();
}

/// The transposes a launcher serves: any (read from the problem; every
/// operand layout compiled), or fixed ones (known when the code was
/// generated: only the alignment of a wide operand is read at run time, so
/// at most four kernel instances instead of nine).
struct AnyTransposes {
  static constexpr bool fixed = false, a = false, b = false;
};
template <bool TransposeA, bool TransposeB> struct FixedTransposes {
  static constexpr bool fixed = true, a = TransposeA, b = TransposeB;
};

/// B's layout at run time, A's already chosen.
template <class T, class Transposes, OperandLayout LayoutA, class Store>
cudaError_t launchLayoutB(OperandLayout layoutB, const GemmArguments &args, const Store &store,
                          int gridZ, cudaStream_t stream) {
  using L = OperandLayout;
  if constexpr (!Transposes::fixed || Transposes::b)
    if (layoutB == L::KContiguous)
      return launchTiled<T, LayoutA, L::KContiguous>(args, store, gridZ, stream);
  if constexpr (!Transposes::fixed || !Transposes::b) {
    if (layoutB == L::WideVectors)
      return launchTiled<T, LayoutA, L::WideVectors>(args, store, gridZ, stream);
    if (layoutB == L::WideScalars)
      return launchTiled<T, LayoutA, L::WideScalars>(args, store, gridZ, stream);
  }
  return cudaErrorInvalidValue;
}

/// Picks the operand layouts at run time (transposes, alignment).
template <class T, class Transposes, class Store>
cudaError_t launchLayouts(const GemmProblem &p, const GemmArguments &args, const Store &store,
                          int gridZ, cudaStream_t stream) {
  using L = OperandLayout;
  if (Transposes::fixed && (p.transposeA != Transposes::a || p.transposeB != Transposes::b))
    return cudaErrorInvalidValue;
  const L wideA = vectorReady(p.a, p.lda, p.batch, p.strideA) ? L::WideVectors : L::WideScalars;
  const L wideB = vectorReady(p.b, p.ldb, p.batch, p.strideB) ? L::WideVectors : L::WideScalars;
  const L layoutA = p.transposeA ? wideA : L::KContiguous;
  const L layoutB = p.transposeB ? L::KContiguous : wideB;
  if constexpr (!Transposes::fixed || !Transposes::a)
    if (layoutA == L::KContiguous)
      return launchLayoutB<T, Transposes, L::KContiguous>(layoutB, args, store, gridZ, stream);
  if constexpr (!Transposes::fixed || Transposes::a) {
    if (layoutA == L::WideVectors)
      return launchLayoutB<T, Transposes, L::WideVectors>(layoutB, args, store, gridZ, stream);
    if (layoutA == L::WideScalars)
      return launchLayoutB<T, Transposes, L::WideScalars>(layoutB, args, store, gridZ, stream);
  }
  return cudaErrorInvalidValue;
}

/// Runs `p` with the block tile of `T` and K cut into `kSplits` slices, on
/// `stream`. cudaErrorInvalidValue for negative sizes, leading dimensions
/// shorter than a stored row, sizes past int, fewer than one split, or more
/// matrices times slices than a grid holds.
/// M = 0 or N = 0 returns at once; K = 0 scales C by beta. `store` writes
/// each element (StoreProduct: into C); another store needs one K slice.
/// `Transposes` fixed ones must match the problem's.
template <class T, class Store = StoreProduct, class Transposes = AnyTransposes>
cudaError_t gemmSimtTiled(const GemmProblem &p, int kSplits, cudaStream_t stream = nullptr,
                          const Store &store = Store()) {
  constexpr int64_t intMax = 0x7fffffff;
  if (p.m < 0 || p.n < 0 || p.k < 0 || p.m > intMax || p.n > intMax || p.k > intMax ||
      kSplits < 1 || p.batch < 0)
    return cudaErrorInvalidValue;
  if (p.m == 0 || p.n == 0 || p.batch == 0)
    return cudaSuccess;
  const int64_t rowA = p.transposeA ? p.m : p.k, rowB = p.transposeB ? p.k : p.n;
  if (p.ldc < p.n || (p.k > 0 && (p.lda < rowA || p.ldb < rowB)))
    return cudaErrorInvalidValue;

  GemmArguments args;
  args.m = int(p.m), args.n = int(p.n), args.k = int(p.k);
  args.a = p.a, args.lda = p.lda, args.b = p.b, args.ldb = p.ldb, args.c = p.c, args.ldc = p.ldc;
  args.alpha = p.alpha, args.beta = p.beta;
  args.strideA = p.strideA, args.strideB = p.strideB, args.strideC = p.strideC;
  // Whole K steps per slice; trailing slices left empty are not launched.
  const int64_t kTiles = (p.k + T::KStep - 1) / T::KStep;
  const int64_t slices = std::min<int64_t>(kSplits, std::max<int64_t>(kTiles, 1));
  args.tilesPerSplit = int((kTiles + slices - 1) / slices);
  const int splits =
      args.tilesPerSplit > 0 ? int((kTiles + args.tilesPerSplit - 1) / args.tilesPerSplit) : 0;
  constexpr int maxGridZ = 65535;
  if (int64_t(std::max(splits, 1)) * p.batch > maxGridZ ||
      (p.m + T::BlockM - 1) / T::BlockM > maxGridZ)
    return cudaErrorInvalidValue;
  args.splits = std::max(splits, 1);

  constexpr bool plainStore = std::is_same_v<Store, StoreProduct>;
  if (!plainStore && (splits != 1 || p.batch != 1)) // an epilogue sees each whole sum once
    return cudaErrorInvalidValue;
  if (splits != 1) { // K = 0 or split K: C = beta·C first
    constexpr int threads = 256, maxBlocks = 4096; // a grid-stride pass, enough to fill any GPU
    const int64_t blocks = std::min<int64_t>((p.m * p.n + threads - 1) / threads, maxBlocks);
    for (int64_t matrix = 0; matrix < p.batch; ++matrix)
      scaleMatrixKernel<<<int(blocks), threads, 0, stream>>>(p.c + matrix * p.strideC, args.m,
                                                             args.n, p.ldc, p.beta);
    if (cudaError_t status = cudaGetLastError(); status != cudaSuccess || splits == 0)
      return status;
    args.accumulate = true;
  }
  return launchLayouts<T, Transposes>(p, args, store, int(splits * p.batch), stream);
}

/// Runs `p` under `s` (one of kGemmTiles' shapes, double buffered), each
/// element written by `store`; cudaErrorInvalidValue for another shape,
/// else as gemmSimtTiled.
template <class Store = StoreProduct>
cudaError_t gemmSimt(const GemmProblem &p, const GemmSchedule &s, cudaStream_t stream = nullptr,
                     const Store &store = Store()) {
  auto is = [&](int m, int n, int k) { return s.blockM == m && s.blockN == n && s.kStep == k; };
  if (is(128, 128, 16))
    return gemmSimtTiled<Tiling<128, 128, 16>>(p, s.kSplits, stream, store);
  if (is(128, 128, 8))
    return gemmSimtTiled<Tiling<128, 128, 8>>(p, s.kSplits, stream, store);
  if (is(64, 128, 8))
    return gemmSimtTiled<Tiling<64, 128, 8>>(p, s.kSplits, stream, store);
  if (is(64, 64, 8))
    return gemmSimtTiled<Tiling<64, 64, 8>>(p, s.kSplits, stream, store);
  if (is(32, 128, 8))
    return gemmSimtTiled<Tiling<32, 128, 8>>(p, s.kSplits, stream, store);
  return cudaErrorInvalidValue;
}

/// The compiler's call: block tile, K step and transposes fixed when the
/// code was generated (the schedule attribute), K slices and the store given
/// here; as gemmSimtTiled.
template <int BlockM, int BlockN, int KStep, bool TransposeA, bool TransposeB,
          class Store = StoreProduct>
cudaError_t gemmSimtFixed(const GemmProblem &p, int kSplits, cudaStream_t stream,
                          const Store &store = Store()) {
  return gemmSimtTiled<Tiling<BlockM, BlockN, KStep>, Store,
                       FixedTransposes<TransposeA, TransposeB>>(p, kSplits, stream, store);
}

/// The store through `epilogue` into `out` (row-major, leading dimension
/// `ldOut`): a fused GEMM epilogue, for one K slice.
template <class Out, class Epilogue>
StoreEpilogue<Out, Epilogue> storeThrough(Out *out, int64_t ldOut, const Epilogue &epilogue) {
  return {out, ldOut, epilogue};
}

/// Runs `p` under chooseGemmSchedule's choice for the current device. (A
/// template, so that a unit that never calls it does not compile every
/// tile's kernels.)
template <class Store = StoreProduct>
cudaError_t gemmSimt(const GemmProblem &p, cudaStream_t stream = nullptr) {
  int sms = 0;
  if (cudaError_t status = currentMultiprocessors(&sms); status != cudaSuccess)
    return status;
  return gemmSimt(p, chooseGemmSchedule(p.m, p.n, p.k, sms), stream);
}

} // namespace sopt::gemm_simt

#endif // SPARSE_OPT_RUNTIME_KERNELS_GEMMSIMT_CUH
