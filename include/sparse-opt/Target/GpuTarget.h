//===- GpuTarget.h - the GPU the kernels are planned for --------*- C++ -*-===//

#ifndef SPARSE_OPT_TARGET_GPUTARGET_H
#define SPARSE_OPT_TARGET_GPUTARGET_H

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

namespace mlir::sopt {

/// What the mapping and reuse decisions depend on. The defaults describe the
/// sm_90a GPUs the project targets (132 SMs, 227 KiB of opt-in shared memory
/// per block, 2048 resident threads per SM).
struct GpuTarget {
  std::string smArch = "sm_90a";
  int64_t smCount = 132;
  int64_t sharedMemoryPerBlock = 227 * 1024;
  int64_t maxThreadsPerBlock = 1024;
  int64_t maxThreadsPerSM = 2048;
  int64_t warpSize = 32;
  /// Row elements one thread may keep in registers across a reduction
  /// (beyond this a row is cached in shared memory or re-read): a cap on
  /// what the row mappings choose.
  int64_t registerElementsPerThread = 32;
  /// Bytes of a row value one thread of a row mapping keeps: 16 f32 or 32
  /// f16/bf16 elements (halved for arithmetic-heavy rows).
  int64_t rowBytesPerThread = 64;

  int64_t sharedMemoryPerSM = 228 * 1024;
  int64_t maxBlocksPerSM = 32;

  /// Blocks that are resident at once when each uses `threadsPerBlock`
  /// threads and `sharedBytes` of shared memory.
  int64_t blocksPerWave(int64_t threadsPerBlock, int64_t sharedBytes) const {
    int64_t perSM = std::min(maxBlocksPerSM, maxThreadsPerSM / threadsPerBlock);
    // The runtime reserves 1 KiB of shared memory per resident block.
    if (sharedBytes > 0)
      perSM = std::min(perSM, sharedMemoryPerSM / (sharedBytes + 1024));
    return perSM * smCount;
  }

  /// Registers per SM, and the registers per thread that a kernel waiting
  /// at grid-wide barriers is planned with: its launch bounds then ask the
  /// compiler for no more, so that the whole grid stays resident without
  /// squeezing the row values a thread keeps into spills.
  int64_t registersPerSM = 65536;
  int64_t registersPerThreadAtBarriers = 64;

  /// The largest grid that can wait at a grid-wide barrier: every block
  /// resident at once, by threads, shared memory and registers.
  /// The first of the user-settable fields outside the range the planning
  /// arithmetic divides by and the CUDA launch limits allow, as its option
  /// name and that range ("sm-count must be 1 to 4096"); empty when all are
  /// in range.
  std::string checkOptionRanges() const {
    const std::pair<const char *, std::pair<int64_t, int64_t>> ranges[] = {
        {"sm-count", {1, 4096}},
        {"shared-memory-per-block", {0, 1 << 20}},
        {"register-elements-per-thread", {1, 1024}}};
    const int64_t values[] = {smCount, sharedMemoryPerBlock, registerElementsPerThread};
    for (int i = 0; i < 3; ++i)
      if (values[i] < ranges[i].second.first || values[i] > ranges[i].second.second)
        return std::string(ranges[i].first) + " = " + std::to_string(values[i]) +
               " is out of range: expected " + std::to_string(ranges[i].second.first) +
               " to " + std::to_string(ranges[i].second.second);
    return "";
  }
  int64_t residentBlocksPerWave(int64_t threadsPerBlock, int64_t sharedBytes) const {
    int64_t byRegisters =
        registersPerSM / (threadsPerBlock * registersPerThreadAtBarriers);
    return std::min(blocksPerWave(threadsPerBlock, sharedBytes),
                    std::max<int64_t>(byRegisters, 1) * smCount);
  }
};

} // namespace mlir::sopt

#endif // SPARSE_OPT_TARGET_GPUTARGET_H
