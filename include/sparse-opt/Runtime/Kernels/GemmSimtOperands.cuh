//===- GemmSimtOperands.cuh - operand slices into shared memory -*- CUDA -*-===//
//
// The f32 GEMM (GemmSimt.cuh) keeps both operands in shared memory as
// K-major slices: row k of a slice holds `Wide` consecutive elements along
// the operand's other dimension (m for A, n for B), so a thread reads the
// four rows or columns of a 4x4 sub-tile with one 16-byte load. Each slice
// row is padded to `Wide + kSlicePad` floats.
//
// An operand reaches such a slice in one of three ways, chosen per operand
// at compile time from its layout in global memory:
//  - KContiguous: consecutive k are adjacent (row-major A, transposed B).
//    The slice is the transpose of what is stored: each element is its own
//    4-byte cp.async.
//  - WideVectors: consecutive m/n are adjacent (row-major B, transposed A)
//    with a leading dimension and base 16-byte aligned: 16-byte cp.asyncs,
//    4-byte ones only where a vector straddles the matrix's edge.
//  - WideScalars: the same without the alignment: 4-byte cp.asyncs.
// Elements past the matrix (or past the K slice a split owns) are written
// as zeros, so the product needs no edge tests.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_KERNELS_GEMMSIMTOPERANDS_CUH
#define SPARSE_OPT_RUNTIME_KERNELS_GEMMSIMTOPERANDS_CUH

#include "sparse-opt/Runtime/Device/TensorCore.cuh"

#include <cstdint>

namespace sopt::gemm_simt {

enum class OperandLayout { KContiguous, WideVectors, WideScalars };

/// Padding of a slice row, in floats. One 16-byte vector keeps the 16-byte
/// loads aligned; and in the transposing copy below, the two k-runs a pair
/// of lanes writes land 4 rows apart, 4 · (Wide + 4) ≡ 16 (mod 32) banks,
/// so the 32 lanes of a warp hit 32 different banks.
inline constexpr int kSlicePad = 4;

/// Consecutive k one thread copies in the transposing copy: the 16 bytes
/// a sector-friendly read of a row-major A row covers.
inline constexpr int kTransposeRun = 4;

/// Copies the KStep x Wide slice starting at (wideBegin, kBegin) of an
/// operand whose element (w, k) lives at `base[w * ld + k]` (KContiguous)
/// or `base[k * ld + w]` (Wide*) into `slice` (row k at slice + k * Stride).
/// Elements with w >= wideEnd or k >= kEnd become zeros. Every one of the
/// `Threads` threads calls it; the copies are left uncommitted.
template <OperandLayout Layout, int Wide, int KStep, int Threads>
__device__ __forceinline__ void copySlice(float *slice, const float *__restrict__ base, int64_t ld,
                                          int wideBegin, int wideEnd, int kBegin, int kEnd,
                                          int thread) {
  constexpr int Stride = Wide + kSlicePad;
  if constexpr (Layout == OperandLayout::KContiguous) {
    static_assert(KStep % kTransposeRun == 0, "K step in whole runs");
    constexpr int runsPerRow = KStep / kTransposeRun;
    constexpr int rowsPerPass = Threads / runsPerRow;
    static_assert(Threads % runsPerRow == 0 && Wide % rowsPerPass == 0, "whole passes");
    const int run = thread % runsPerRow;
#pragma unroll
    for (int pass = 0; pass < Wide / rowsPerPass; ++pass) {
      const int w = thread / runsPerRow + pass * rowsPerPass;
      const int wide = wideBegin + w;
#pragma unroll
      for (int j = 0; j < kTransposeRun; ++j) {
        const int kk = run * kTransposeRun + j;
        const int k = kBegin + kk;
        const bool inside = wide < wideEnd && k < kEnd;
        tensor_core::copyAsync<4>(slice + kk * Stride + w,
                                  inside ? base + int64_t(wide) * ld + k : base, inside);
      }
    }
  } else {
    constexpr int vectorsPerRow = Wide / 4;
    constexpr int vectors = KStep * vectorsPerRow;
    static_assert(Wide % 4 == 0 && vectors % Threads == 0, "whole passes");
#pragma unroll
    for (int pass = 0; pass < vectors / Threads; ++pass) {
      const int v = thread + pass * Threads;
      const int kk = v / vectorsPerRow, w = (v % vectorsPerRow) * 4;
      const int k = kBegin + kk, wide = wideBegin + w;
      float *dst = slice + kk * Stride + w;
      const float *src = base + int64_t(k) * ld + wide;
      if (Layout == OperandLayout::WideVectors && k < kEnd && wide + 4 <= wideEnd) {
        tensor_core::copyAsync<16>(dst, src, true);
      } else if (Layout == OperandLayout::WideVectors && (k >= kEnd || wide >= wideEnd)) {
        tensor_core::copyAsync<16>(dst, base, false);
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          const bool inside = k < kEnd && wide + j < wideEnd;
          tensor_core::copyAsync<4>(dst + j, inside ? src + j : base, inside);
        }
      }
    }
  }
}

} // namespace sopt::gemm_simt

#endif // SPARSE_OPT_RUNTIME_KERNELS_GEMMSIMTOPERANDS_CUH
