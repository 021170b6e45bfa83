//===- Reduce.cuh - row reductions for fused kernels ------------*- CUDA -*-===//
//
// Device building blocks the generated memory-bound kernels call: all-reduce
// of a value over the threads that share a row (a sub-warp, a warp, or a
// whole block). Every participating thread gets the result.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_REDUCE_CUH
#define SPARSE_OPT_RUNTIME_REDUCE_CUH

#include <cmath>

namespace sopt {

struct SumOp {
  static __device__ __forceinline__ float identity() { return 0.f; }
  static __device__ __forceinline__ float combine(float a, float b) { return a + b; }
};
struct MaxOp {
  static __device__ __forceinline__ float identity() { return -INFINITY; }
  static __device__ __forceinline__ float combine(float a, float b) { return fmaxf(a, b); }
};
struct MinOp {
  static __device__ __forceinline__ float identity() { return INFINITY; }
  static __device__ __forceinline__ float combine(float a, float b) { return fminf(a, b); }
};

/// All-reduce over aligned groups of `Width` consecutive lanes (a power of
/// two up to 32). Every lane of the warp must call it: the butterfly
/// exchanges stay inside each group, so groups never mix.
template <typename Op, int Width>
__device__ __forceinline__ float subwarpAllReduce(float value) {
  static_assert(Width >= 1 && Width <= 32 && (Width & (Width - 1)) == 0,
                "a sub-warp is a power of two of at most 32 lanes");
#pragma unroll
  for (int offset = Width / 2; offset > 0; offset /= 2)
    value = Op::combine(value, __shfl_xor_sync(0xffffffffu, value, offset));
  return value;
}

/// All-reduce over a block whose rows each span `ThreadsPerRow` threads (a
/// multiple of 32; the block holds whole rows). `scratch` holds one float
/// per warp. Every thread of the block must call it.
template <typename Op, int ThreadsPerRow>
__device__ __forceinline__ float blockRowAllReduce(float value, float *scratch) {
  static_assert(ThreadsPerRow % 32 == 0, "block rows are whole warps");
  constexpr int kWarpsPerRow = ThreadsPerRow / 32;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  value = subwarpAllReduce<Op, 32>(value);
  __syncthreads(); // the previous reduction's readers are done with scratch
  if (lane == 0)
    scratch[warp] = value;
  __syncthreads();
  const int firstWarp = warp / kWarpsPerRow * kWarpsPerRow;
  float total = scratch[firstWarp];
#pragma unroll
  for (int w = 1; w < kWarpsPerRow; ++w)
    total = Op::combine(total, scratch[firstWarp + w]);
  return total;
}

/// All-reduce over the `Slices` threads of a block that share a column: the
/// block is `Slices` rows of `ColumnThreads` threads, and thread t works on
/// column t % ColumnThreads. `scratch` holds one float per thread. Every
/// thread of the block must call it.
template <typename Op, int ColumnThreads, int Slices>
__device__ __forceinline__ float sliceAllReduce(float value, float *scratch) {
  const int column = threadIdx.x % ColumnThreads;
  const int slice = threadIdx.x / ColumnThreads;
  __syncthreads(); // the previous reduction's readers are done with scratch
  scratch[slice * ColumnThreads + column] = value;
  __syncthreads();
  float total = scratch[column];
#pragma unroll
  for (int s = 1; s < Slices; ++s)
    total = Op::combine(total, scratch[s * ColumnThreads + column]);
  return total;
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_REDUCE_CUH
