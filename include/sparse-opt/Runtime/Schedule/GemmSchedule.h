//===- GemmSchedule.h - tile and split-k choice for the f32 GEMM -*- C++ -*-===//
//
// Host-side rule that picks, from the problem's shape and the device's
// multiprocessor count, which block tile of the register-tiled f32 GEMM
// (Kernels/GemmSimt.cuh) runs, its K step, and into how many slices K is
// split:
//  1. The block tile by M: 32 x 128 for M <= 32, 64 x 128 for M <= 128,
//     else 128 x 128 (the most reuse per loaded element). Wide tiles along
//     N because a linear layer's N is its long side.
//  2. When the 128 x 128 tiles fill every multiprocessor at least once, no
//     split and a K step of 16 (half the barriers of 8).
//  3. Otherwise K cut into enough slices that the tiles times the slices
//     reach kTargetBlocksPerMultiprocessor blocks per multiprocessor, each
//     slice at least kMinSliceDepth deep; a K step of 16 with the 128 x 128
//     tile (the only one compiled with it), else 8.
// The constants were fitted on one family of shapes (BERT linear layers and
// skinny M) and checked on another (LLaMA linear layers, squares):
// docs/benchmarks/gemm.md.
//
// Plain C++: the compiler's schedule pass can call it without CUDA.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_SCHEDULE_GEMMSCHEDULE_H
#define SPARSE_OPT_RUNTIME_SCHEDULE_GEMMSCHEDULE_H

#include <algorithm>
#include <cstdint>

namespace sopt {

/// One launch of the f32 SIMT GEMM: the block tile (blockM x blockN of C),
/// the K step of its shared-memory slices, and the number of K slices (1:
/// no split; more: each slice adds its partial product into C atomically
/// after C was scaled by beta).
struct GemmSchedule {
  int blockM = 128;
  int blockN = 128;
  int kStep = 8;
  int kSplits = 1;
};

/// The tile shapes Kernels/GemmSimt.cuh instantiates (any kSplits).
inline constexpr GemmSchedule kGemmTiles[] = {
    {128, 128, 16, 1}, {128, 128, 8, 1}, {64, 128, 8, 1}, {64, 64, 8, 1}, {32, 128, 8, 1}};

/// Split-k aims at this many blocks per multiprocessor: the skinny and
/// mid-sized products are bound by loads in flight, and the measured best
/// split gave every SM about 8 blocks (the most the tuning grid tried).
inline constexpr int64_t kTargetBlocksPerMultiprocessor = 8;

/// Slices shallower than this many elements of K lost to fewer, deeper
/// ones in the tuning grid (each slice pays an atomic write-back of its
/// tile and a pipeline fill).
inline constexpr int64_t kMinSliceDepth = 96;

/// Largest M served by the 32-row and the 64-row tiles.
inline constexpr int64_t kMaxRowsFor32 = 32, kMaxRowsFor64 = 128;

/// CUDA's grid limit in y and z: the tile rows of C, and the K slices
/// times the matrices of a batch.
inline constexpr int64_t kMaxGemmGridYZ = 65535;

inline int64_t gemmTileCount(int64_t m, int64_t n, const GemmSchedule &tile) {
  return ((m + tile.blockM - 1) / tile.blockM) * ((n + tile.blockN - 1) / tile.blockN);
}

/// The schedule for C[m,n] = A[m,k]·B[k,n] on `multiprocessors` SMs, for
/// `batch` such products in one grid (their tiles count together).
inline GemmSchedule chooseGemmSchedule(int64_t m, int64_t n, int64_t k, int multiprocessors,
                                       int64_t batch = 1) {
  const int64_t sms = std::max(multiprocessors, 1);
  GemmSchedule choice{128, 128, 8, 1};
  if (m <= kMaxRowsFor32)
    choice.blockM = 32;
  else if (m <= kMaxRowsFor64)
    choice.blockM = 64;
  const int64_t tiles = gemmTileCount(m, n, choice) * batch;
  if (tiles <= 0) // nothing to compute
    return choice;
  if (choice.blockM == 128 && tiles >= sms) {
    choice.kStep = 16;
    return choice;
  }
  if (choice.blockM == 128) // half the barriers per slice, split or not
    choice.kStep = 16;
  const int64_t wanted = (kTargetBlocksPerMultiprocessor * sms + tiles - 1) / tiles;
  const int64_t deepest = std::max<int64_t>(k / kMinSliceDepth, 1);
  const int64_t gridRoom = std::max<int64_t>(kMaxGemmGridYZ / std::max<int64_t>(batch, 1), 1);
  choice.kSplits = int(std::max<int64_t>(1, std::min({wanted, deepest, gridRoom})));
  return choice;
}

/// Whether Kernels/GemmSimt.cuh compiles `s`'s block tile and K step.
inline bool isGemmTile(const GemmSchedule &s) {
  for (const GemmSchedule &tile : kGemmTiles)
    if (tile.blockM == s.blockM && tile.blockN == s.blockN && tile.kStep == s.kStep)
      return true;
  return false;
}

/// Why `s` cannot run `batch` products C[m,n] = A[m,k]·B[k,n] (the
/// launcher would refuse it), or null when it can: sizes past int, more
/// tile rows or matrices times slices than a grid holds, a tile the kernel
/// does not compile, a split count out of range.
inline const char *gemmScheduleProblem(const GemmSchedule &s, int64_t m, int64_t n, int64_t k,
                                       int64_t batch = 1) {
  constexpr int64_t intMax = 0x7fffffff;
  if (!isGemmTile(s))
    return "the block tile and K step are not one the kernel compiles";
  if (s.kSplits < 1 || s.kSplits > kMaxGemmGridYZ)
    return "k_splits must be 1 to 65535";
  if (m > intMax || n > intMax || k > intMax)
    return "the kernel takes sizes up to 2^31 - 1";
  if ((m + s.blockM - 1) / s.blockM > kMaxGemmGridYZ)
    return "M needs more than 65535 tile rows";
  if (batch * s.kSplits > kMaxGemmGridYZ)
    return "the batch times k_splits exceeds 65535";
  return nullptr;
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_SCHEDULE_GEMMSCHEDULE_H
