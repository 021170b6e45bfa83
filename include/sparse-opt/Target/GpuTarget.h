//===- GpuTarget.h - the GPU the kernels are planned for --------*- C++ -*-===//

#ifndef SPARSE_OPT_TARGET_GPUTARGET_H
#define SPARSE_OPT_TARGET_GPUTARGET_H

#include <algorithm>
#include <cstdint>
#include <string>

namespace mlir::sopt {

/// What the mapping and reuse decisions depend on. The defaults describe the
/// H100 SXM we measure on (sm_90a, 132 SMs, 227 KiB of opt-in shared memory
/// per block, 2048 resident threads per SM).
struct GpuTarget {
  std::string smArch = "sm_90a";
  int64_t smCount = 132;
  int64_t sharedMemoryPerBlock = 227 * 1024;
  int64_t maxThreadsPerBlock = 1024;
  int64_t maxThreadsPerSM = 2048;
  int64_t warpSize = 32;
  /// Row elements one thread may keep in registers across a reduction
  /// (beyond this a row is cached in shared memory or re-read).
  int64_t registerElementsPerThread = 32;

  int64_t sharedMemoryPerSM = 228 * 1024;
  int64_t maxBlocksPerSM = 32;

  /// Blocks that are resident at once when each uses `threadsPerBlock`
  /// threads and `sharedBytes` of shared memory: the largest grid that can
  /// wait at a grid-wide barrier without deadlock.
  int64_t blocksPerWave(int64_t threadsPerBlock, int64_t sharedBytes) const {
    int64_t perSM = std::min(maxBlocksPerSM, maxThreadsPerSM / threadsPerBlock);
    // The runtime reserves 1 KiB of shared memory per resident block.
    if (sharedBytes > 0)
      perSM = std::min(perSM, sharedMemoryPerSM / (sharedBytes + 1024));
    return perSM * smCount;
  }
};

} // namespace mlir::sopt

#endif // SPARSE_OPT_TARGET_GPUTARGET_H
