//===- TensorCore.cuh - mma.sync and cp.async building blocks ---*- CUDA -*-===//
//
// The warp-level tensor-core pieces the dense-block kernels share
// (SddmmBlocks.cuh, SpmmBlocks.cuh): asynchronous copies into shared memory,
// the mma.sync shapes they use, and the split of an f32 value into two TF32
// values so that three TF32 products keep (nearly) f32 accuracy.
//
// Fragment layouts are those of the PTX ISA for mma.m16n8k8 (TF32) and
// mma.m16n8k16 (f16/bf16): lane l is in group g = l / 4 (rows g and g + 8 of
// A and C, column g of B) with thread index t = l % 4 (k or column pairs).
//
// Requires sm_80 or newer.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_TENSORCORE_CUH
#define SPARSE_OPT_RUNTIME_TENSORCORE_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

namespace sopt::tensor_core {

/// Starts copying `Bytes` (4, 8 or 16) from `src` to shared `dst`; with
/// `inside` false, writes zeros and reads nothing (`src` need not be valid).
template <int Bytes>
__device__ __forceinline__ void copyAsync(void *dst, const void *src, bool inside) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async sizes");
  const unsigned address = unsigned(__cvta_generic_to_shared(dst));
  if constexpr (Bytes == 16) // .cg: through L2 only, the operands are read once per block
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(address),
                 "l"(src), "r"(inside ? 16 : 0));
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(address), "l"(src),
                 "n"(Bytes), "r"(inside ? Bytes : 0));
}

/// Closes the group of copies started since the last commit.
__device__ __forceinline__ void commitCopies() { asm volatile("cp.async.commit_group;\n" ::); }

/// Waits until at most `Pending` committed groups are still being copied.
template <int Pending> __device__ __forceinline__ void waitCopies() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending));
}

/// c += a · b for one 16 x 8 tile, 16-bit inputs (m16n8k16).
template <typename T>
__device__ __forceinline__ void mma16(float (&c)[4], const uint32_t (&a)[4],
                                      const uint32_t (&b)[2]) {
  if constexpr (std::is_same_v<T, __half>)
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  else
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/// c += a · b for one 16 x 8 tile of TF32 inputs (m16n8k8).
__device__ __forceinline__ void mmaTf32(float (&c)[4], const uint32_t (&a)[4],
                                        const uint32_t (&b)[2]) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
               "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
               : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/// x as a TF32 value (`big`, rounded to nearest, ties away from zero) and
/// what that rounding lost (`small`, exact in f32; the mma reads its top 19
/// bits): big + small carries about 21 of x's 24 significand bits. Integer
/// rounding instead of cvt.rna.tf32.f32, whose conversions limited the f32
/// dense-block kernels' issue rate. A NaN x
/// makes `small` NaN, so it still reaches the sum. An infinite x, or one
/// within 2^-12 of FLT_MAX, rounds `big` to infinity and `small` to -Inf or
/// NaN: its products come out NaN where f32 has an infinity or a finite
/// value. Clamping the rounding below the infinities (two integer minimums)
/// costs the dense-block kernels several percent, so they document the NaN
/// instead.
__device__ __forceinline__ void splitTf32(float x, uint32_t &big, uint32_t &small) {
  big = (__float_as_uint(x) + 0x1000u) & 0xffffe000u;
  small = __float_as_uint(x - __uint_as_float(big));
}

/// The TF32 parts of the m16n8k8 A fragment at rows row0.., k kk.. of an
/// f32 tile whose element (row, k) is `element(row, k)` (any layout): lane
/// (g, t) takes rows g and g + 8, columns t and t + 4.
template <typename Element>
__device__ __forceinline__ void splitFragmentAFrom(const Element &element, int row0, int kk,
                                                   uint32_t (&big)[4], uint32_t (&small)[4]) {
  const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  splitTf32(element(row0 + g, kk + t), big[0], small[0]);
  splitTf32(element(row0 + g + 8, kk + t), big[1], small[1]);
  splitTf32(element(row0 + g, kk + t + 4), big[2], small[2]);
  splitTf32(element(row0 + g + 8, kk + t + 4), big[3], small[3]);
}

/// The same for a row-major f32 tile of `Stride` floats per row.
template <int Stride>
__device__ __forceinline__ void splitFragmentA(const float (*tile)[Stride], int row0, int kk,
                                               uint32_t (&big)[4], uint32_t (&small)[4]) {
  splitFragmentAFrom([tile](int row, int k) { return tile[row][k]; }, row0, kk, big, small);
}

/// acc += part, tile by tile, in ordinary (rounded) f32 additions: the
/// tensor cores' own f32 accumulation is not rounded to nearest, so the
/// dense-block kernels sum each chunk apart and fold it in here, and the
/// error does not grow with k.
template <int TilesM, int TilesN>
__device__ __forceinline__ void addAccumulators(float (&acc)[TilesM][TilesN][4],
                                                const float (&part)[TilesM][TilesN][4]) {
#pragma unroll
  for (int mi = 0; mi < TilesM; ++mi)
#pragma unroll
    for (int ni = 0; ni < TilesN; ++ni)
#pragma unroll
      for (int e = 0; e < 4; ++e)
        acc[mi][ni][e] += part[mi][ni][e];
}

/// c[mi][ni] += a[mi] · b[ni] for a warp's TilesM x TilesN tiles in three
/// TF32 products each (the two operands' remainders' product dropped); the
/// small cross terms first, so they are not lost against the large one.
/// (Issuing each product for all tiles before the next is no faster: ptxas
/// already interleaves the independent tiles.)
template <int TilesM, int TilesN>
__device__ __forceinline__ void mmaSplitTf32(float (&c)[TilesM][TilesN][4],
                                             const uint32_t (&aBig)[TilesM][4],
                                             const uint32_t (&aSmall)[TilesM][4],
                                             const uint32_t (&bBig)[TilesN][2],
                                             const uint32_t (&bSmall)[TilesN][2]) {
#pragma unroll
  for (int mi = 0; mi < TilesM; ++mi)
#pragma unroll
    for (int ni = 0; ni < TilesN; ++ni) {
      mmaTf32(c[mi][ni], aSmall[mi], bBig[ni]);
      mmaTf32(c[mi][ni], aBig[mi], bSmall[ni]);
      mmaTf32(c[mi][ni], aBig[mi], bBig[ni]);
    }
}

/// Loads four 8 x 8 matrices of 16-bit elements (ldmatrix): lane l names
/// row l % 8 of matrix l / 8.
__device__ __forceinline__ void loadMatrices(uint32_t (&m)[4], const void *row) {
  const unsigned address = unsigned(__cvta_generic_to_shared(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(m[0]), "=r"(m[1]), "=r"(m[2]), "=r"(m[3])
               : "r"(address));
}

/// The same, each matrix transposed (ldmatrix .trans): lane (g, t) gets
/// elements (2t, g) and (2t + 1, g) of each, the m16n8k16 B fragment of a
/// row-major k x n tile.
__device__ __forceinline__ void loadMatricesTransposed(uint32_t (&m)[4], const void *row) {
  const unsigned address = unsigned(__cvta_generic_to_shared(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(m[0]), "=r"(m[1]), "=r"(m[2]), "=r"(m[3])
               : "r"(address));
}

/// Writes a warp's accumulators (16 x 8 tiles: tile [mi][ni] at rows
/// row0 + 16 mi, columns col0 + 8 ni) into the row-major `out`, `stride`
/// floats per row. Lane (g, t) holds rows g and g + 8, columns 2t and 2t + 1.
template <int TilesM, int TilesN>
__device__ __forceinline__ void storeAccumulators(const float (&acc)[TilesM][TilesN][4],
                                                  float *out, int stride, int row0, int col0) {
  const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
#pragma unroll
  for (int mi = 0; mi < TilesM; ++mi)
#pragma unroll
    for (int ni = 0; ni < TilesN; ++ni) {
      float *at = out + (row0 + mi * 16 + g) * stride + col0 + ni * 8 + 2 * t;
      *reinterpret_cast<float2 *>(at) = make_float2(acc[mi][ni][0], acc[mi][ni][1]);
      *reinterpret_cast<float2 *>(at + 8 * stride) = make_float2(acc[mi][ni][2], acc[mi][ni][3]);
    }
}

} // namespace sopt::tensor_core

#endif // SPARSE_OPT_RUNTIME_TENSORCORE_CUH
