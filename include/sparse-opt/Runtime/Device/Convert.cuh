//===- Convert.cuh - storage types to and from f32 --------------*- CUDA -*-===//
//
// Fused kernels compute in f32 and store in the tensor's element type; these
// overloads keep the generated code free of per-type spellings. Vector loads
// and stores move `N` consecutive elements in one access (the address must be
// aligned to N elements, at most 16 bytes).
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_CONVERT_CUH
#define SPARSE_OPT_RUNTIME_CONVERT_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace sopt {

__device__ __forceinline__ float toFloat(float x) { return x; }
__device__ __forceinline__ float toFloat(double x) { return static_cast<float>(x); }
__device__ __forceinline__ float toFloat(__half x) { return __half2float(x); }
__device__ __forceinline__ float toFloat(__nv_bfloat16 x) { return __bfloat162float(x); }

template <typename T> __device__ __forceinline__ T fromFloat(float x);
template <> __device__ __forceinline__ float fromFloat<float>(float x) { return x; }
template <> __device__ __forceinline__ double fromFloat<double>(float x) { return x; }
template <> __device__ __forceinline__ __half fromFloat<__half>(float x) {
  return __float2half_rn(x);
}
template <> __device__ __forceinline__ __nv_bfloat16 fromFloat<__nv_bfloat16>(float x) {
  return __float2bfloat16_rn(x);
}

/// The unsigned type as wide as `N` elements of `T` (what one access moves).
template <int Bytes> struct VectorStorage;
template <> struct VectorStorage<2> { using type = unsigned short; };
template <> struct VectorStorage<4> { using type = unsigned int; };
template <> struct VectorStorage<8> { using type = uint2; };
template <> struct VectorStorage<16> { using type = uint4; };

template <int N, typename T>
__device__ __forceinline__ void loadVector(const T *__restrict__ src, float (&dst)[N]) {
  using V = typename VectorStorage<N * sizeof(T)>::type;
  const V vector = *reinterpret_cast<const V *>(src);
  const T *elements = reinterpret_cast<const T *>(&vector);
#pragma unroll
  for (int i = 0; i < N; ++i)
    dst[i] = toFloat(elements[i]);
}

template <int N, typename T>
__device__ __forceinline__ void storeVector(T *__restrict__ dst, const float (&src)[N]) {
  using V = typename VectorStorage<N * sizeof(T)>::type;
  V vector;
  T *elements = reinterpret_cast<T *>(&vector);
#pragma unroll
  for (int i = 0; i < N; ++i)
    elements[i] = fromFloat<T>(src[i]);
  *reinterpret_cast<V *>(dst) = vector;
}

/// Reads a value that other blocks of this kernel wrote before a grid-wide
/// barrier: through L2 (`ld.global.cg`), never the non-coherent read-only
/// path. The assembly is volatile so that the compiler cannot execute the
/// load ahead of the bounds test guarding it: CUDA's `__ldcg` for 16-bit
/// types is plain inline assembly, which it may speculate, reading past the
/// end of the buffer.
template <typename T>
__device__ __forceinline__ T loadFromGrid(const T *__restrict__ src) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                "exchanged values are 8, 16, 32 or 64 bits wide");
  T value;
  if constexpr (sizeof(T) == 1) {
    unsigned int bits; // a byte load widens into a 32-bit register
    asm volatile("ld.global.cg.u8 %0, [%1];" : "=r"(bits) : "l"(src));
    __builtin_memcpy(&value, &bits, sizeof(T));
  } else if constexpr (sizeof(T) == 2) {
    unsigned short bits;
    asm volatile("ld.global.cg.b16 %0, [%1];" : "=h"(bits) : "l"(src));
    __builtin_memcpy(&value, &bits, sizeof(T));
  } else if constexpr (sizeof(T) == 4) {
    unsigned int bits;
    asm volatile("ld.global.cg.b32 %0, [%1];" : "=r"(bits) : "l"(src));
    __builtin_memcpy(&value, &bits, sizeof(T));
  } else {
    unsigned long long bits;
    asm volatile("ld.global.cg.b64 %0, [%1];" : "=l"(bits) : "l"(src));
    __builtin_memcpy(&value, &bits, sizeof(T));
  }
  return value;
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_CONVERT_CUH
