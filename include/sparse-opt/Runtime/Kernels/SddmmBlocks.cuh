//===- SddmmBlocks.cuh - SDDMM by dense tensor-core blocks -----*- CUDA -*-===//
//
// D = epilogue((A · Bᵀ) ⊙ S) for patterns dense enough that computing whole
// square blocks of A · Bᵀ (64 x 64 or 32 x 32) on tensor cores, then keeping
// the entries S samples, beats one dot product per nonzero: the per-nonzero
// kernel (Sddmm.cuh) reads a row of B from L2 for every output, a 64 x 64
// block reads each of its 64 rows of A and B once for 4096 outputs.
//
// launchSddmmBlocks (this file) runs one of three kernels:
// - sddmmBlocksKernel (SddmmBlocksKernel.cuh): cp.async stages, mma.sync, or
//   wgmma for 64 x 64 blocks on sm_90a; k optionally split over a cluster.
// - sddmmBlocksSplitKernel (SddmmBlocksTmaKernel.cuh): f32 64 x 64 blocks
//   without k splits, given a workspace: B split into TF32 planes once, the
//   chunks brought by TMA.
// - SddmmDirect.cuh's kernel: f32 32 x 32 blocks without k splits, fragments
//   loaded straight from global memory.
// Their shared parts are in SddmmBlockChunks.cuh; the rules that choose the
// block size and k splits in lib/Runtime/Schedule/SddmmScheduleRules.cpp.
//
// f16/bf16 use m16n8k16 with f32 accumulation; f32 uses TF32 three times per
// product (each operand split into a TF32 part and remainder, the remainders'
// product dropped: about 21 of f32's 24 significand bits). Every path computes
// the same products in the same order, so their outputs are bit for bit equal.
//
// Where a row's entries reach the block's columns comes from `windows`,
// prepared once per pattern (sopt_csr_column_windows, RowOrder.h; embedded in
// the generated code for a pattern known at compile time), or else from a
// search of the row's column indices inside the kernel. `occupied` launches
// only the blocks that hold entries (OccupiedBlocks.cuh).
//
// Requires sm_80 or newer. A, B and S's values must be aligned to 16 bytes and
// k a multiple of 16 bytes' elements for the vector loads (launchSddmmBlocks
// checks and otherwise loads element by element). Measurements:
// docs/benchmarks/sparse.md; the variants tried: docs/benchmarks/history.md.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_SDDMMBLOCKS_CUH
#define SPARSE_OPT_RUNTIME_SDDMMBLOCKS_CUH

#include "sparse-opt/Runtime/Kernels/SddmmBlocksTmaKernel.cuh"

namespace sopt {

/// Launches (A · Bᵀ) ⊙ S by dense Block x Block blocks (32 or 64; A[m, k],
/// B[n, k] row-major). The rows of S must be sorted by column. `windows`:
/// sopt_csr_column_windows of S for blocks of Block columns (with
/// `occupied`, sopt_csr_block_windows of its list), or nullptr to search
/// the rows. Splits > 1 divides k among a cluster of that many
/// blocks per output block (sm_90 and newer; elsewhere one block does all).
/// `workspace`: sddmmWorkspaceElements (SparseSchedule.h) floats, 16-byte
/// aligned, or nullptr. With it, prepared windows, k a multiple of 4 and an
/// sm_90 device, f32 64 x 64 blocks without k splits split B once per call
/// (splitTf32PlanesKernel, into the workspace) and run the TMA-fed
/// sddmmBlocksSplitKernel, in blocks of 128 x 64 where tallBlocksFrom
/// allows; otherwise, and for every other shape, the workspace is not
/// touched. `occupied`, if given, lists the Block x Block blocks holding
/// entries (sopt_csr_occupied_blocks): one thread block each, instead of
/// one per block of the shape (OccupiedBlocks.cuh), and `windows` is then
/// that list's table.
template <typename T, int Block = 64, int Splits = 1, typename Epilogue = ScaleByPattern>
cudaError_t launchSddmmBlocks(const CsrMatrix<T> &s, const T *lhs, const T *rhs, int64_t k,
                              T *out, cudaStream_t stream, Epilogue epilogue = {},
                              const int32_t *windows = nullptr, T *workspace = nullptr,
                              OccupiedBlocks occupied = {}) {
  using namespace sddmm_blocks;
  const int64_t rowBlocks = (s.rows + Block - 1) / Block;
  const int64_t colBlocks = (s.cols + Block - 1) / Block;
  if (s.rows < 0 || s.cols < 0 || k < 0 || k > INT32_MAX || colBlocks > INT32_MAX ||
      s.nnz > INT32_MAX ||
      (occupied.given() ? occupied.count < 0 || occupied.count > INT32_MAX : rowBlocks > 65535))
    return cudaErrorInvalidValue;
  if (s.rows == 0 || s.nnz == 0 || (occupied.given() && occupied.count == 0))
    return cudaSuccess;
  if (k == 0) // every product is an empty sum
    return launchSddmm<T, 1, 1, 1, 32>(s, lhs, rhs, 0, out, 4, stream, epilogue);
  if constexpr (std::is_same_v<T, float> && Block == 32 && Splits == 1) // SddmmDirect.cuh
    return launchSddmmDirect(s, lhs, rhs, int32_t(k), out, stream, epilogue, windows, occupied);
  if constexpr (Splits > 1) {
    int device = 0, clusters = 0;
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess)
      e = cudaDeviceGetAttribute(&clusters, cudaDevAttrClusterLaunch, device);
    if (e != cudaSuccess)
      return e;
    if (!clusters) // before sm_90: one block per output block
      return launchSddmmBlocks<T, Block, 1>(s, lhs, rhs, k, out, stream, epilogue, windows,
                                            nullptr, occupied);
  }
  auto aligned = [](const void *p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; };
  constexpr size_t kBytes = kDynamicBytes<T, Block>;
  // Launches `kernel` over the occupied blocks, or colBlocks x `gridRows`
  // blocks (a cluster of Splits along z), with `bytes` of dynamic shared
  // memory; `dependent`: it may start before the split launched ahead of
  // it ends (its copying thread waits for the planes); otherwise a
  // dependent launch where Launch.cuh allows (the kernel then waits for
  // the earlier ones first).
  auto launch = [&](auto kernel, int threads, size_t bytes, bool dependent, int64_t gridRows,
                    auto... extra) {
    // The stages exceed the 48 KB a block gets without asking.
    cudaError_t e =
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes));
    if (e != cudaSuccess)
      return e;
    cudaLaunchConfig_t config = {};
    config.gridDim = gridOfBlocks(occupied, gridRows, colBlocks, Splits);
    config.blockDim = dim3(unsigned(threads));
    config.dynamicSmemBytes = bytes;
    config.stream = stream;
    cudaLaunchAttribute cluster;
    if (Splits > 1) {
      cluster.id = cudaLaunchAttributeClusterDimension;
      cluster.val.clusterDim.x = 1;
      cluster.val.clusterDim.y = 1;
      cluster.val.clusterDim.z = Splits;
      config.attrs = &cluster;
      config.numAttrs = 1;
    }
    return launchKernelWith(config, dependent, kernel, s, lhs, rhs, int32_t(k), out, epilogue,
                            windows, occupied.list, extra...);
  };
  const bool vectorLoads = k % Shape<T, Block>::kVector == 0 && aligned(lhs) && aligned(rhs);
  if constexpr (std::is_same_v<T, float> && Block == 64 && Splits == 1) {
    if (workspace && windows && vectorLoads && aligned(workspace)) {
      int device = 0, major = 0, sms = 0;
      cudaError_t e = cudaGetDevice(&device);
      if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
      if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
      if (e != cudaSuccess)
        return e;
      // (The occupied blocks are listed as 64 x 64.)
      const int64_t tallRowBlocks = (rowBlocks + 1) / 2; // of 128 rows
      const bool tall = !occupied.given() && tallRowBlocks * colBlocks >= tallBlocksFrom(sms);
      float *parts = workspace, *remainders = workspace + s.cols * k;
      CUtensorMap lhsTiles, partTiles, remainderTiles;
      const bool encoded = major == 9 &&
                           (tall ? tma::encodeRowTiles<128, 32>(&lhsTiles, lhs, s.rows, k)
                                 : tma::encodeRowTiles<64, 32>(&lhsTiles, lhs, s.rows, k)) &&
                           tma::encodeRowTiles<64, 32>(&partTiles, parts, s.cols, k) &&
                           tma::encodeRowTiles<64, 32>(&remainderTiles, remainders, s.cols, k);
      if (encoded) {
        const int64_t vectors = s.cols * k / 4;
        const unsigned splitBlocks = unsigned(std::min<int64_t>((vectors + 255) / 256, 4096));
        e = launchKernel(splitTf32PlanesKernel<float4>, splitBlocks, 256, 0, stream,
                         reinterpret_cast<const float4 *>(rhs), vectors,
                         reinterpret_cast<float4 *>(parts), reinterpret_cast<float4 *>(remainders));
        if (e != cudaSuccess)
          return e;
        // Room for either body (a target without wgmma runs the other);
        // dependent on the split: its prologue overlaps the split.
        if (tall)
          return launch(sddmmBlocksSplitKernel<128, Epilogue>, kSplitThreads<128>,
                        std::max(kSplitDynamicBytes<128>, kBytes), true, tallRowBlocks,
                        lhsTiles, partTiles, remainderTiles);
        return launch(sddmmBlocksSplitKernel<64, Epilogue>, kSplitThreads<64>,
                      std::max(kSplitDynamicBytes<64>, kBytes), true, rowBlocks, lhsTiles,
                      partTiles, remainderTiles);
      }
    }
  }
  if (vectorLoads)
    return launch(sddmmBlocksKernel<T, Block, Splits, true, Epilogue>, kThreads, kBytes, false,
                  rowBlocks);
  return launch(sddmmBlocksKernel<T, Block, Splits, false, Epilogue>, kThreads, kBytes, false,
                rowBlocks);
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_SDDMMBLOCKS_CUH
