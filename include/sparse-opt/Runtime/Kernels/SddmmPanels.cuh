//===- SddmmPanels.cuh - SDDMM tiles taken panel by panel --------*- CUDA -*-===//
//
// D = epilogue((A · Bᵀ) ⊙ S) by the tiles of 32 nonzeros of Sddmm.cuh (one
// output per lane in the end, the same sums in the same order), with S's
// entries taken in column-panel order: all entries whose column falls in
// the first `panel` columns, row by row, then the next panel's, and so on
// (sopt_csr_panel_order, prepared once per pattern). One block per SM takes
// a contiguous run of that order, so each SM's warps gather the rows of B
// of one or two panels only, which its L1 then serves: in S's own order a
// warp's 32 entries reach across all of B, and with B larger than L1
// (512 columns of 256 floats: 512 KB) most rows come from L2 again.
//
// Outputs are bit for bit those of the tiles in S's order with the same
// lanes per output; the panel order, not the one-block-per-SM grid, makes
// the difference. It pays from about 12 tiles per SM (SddmmScheduleRules.cpp):
// with fewer, a warp's 32 outputs run one after another where the tiles of
// 1-4 nonzeros the rule gives them run side by side.
//
// Where a block has 16 tiles or fewer (the DLMC 2048 x 512 and 512 x 2048
// patterns at 95 %), f32 blocks launch only as many warps as tiles under a
// 512-thread bound instead of 1024: ptxas holds the 16-lane tiles of k =
// 256 to 64 registers under the larger bound and gives them 72 under the
// smaller, which spills less; loading the rows of B of two or four outputs
// ahead of their products added nothing in a prototype.
//
// Requirements (checked by launchSddmmPanels) as for launchSddmm, and the
// order and entry rows prepared for this pattern.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_SDDMMPANELS_CUH
#define SPARSE_OPT_RUNTIME_SDDMMPANELS_CUH

#include "sparse-opt/Runtime/Host/DeviceInfo.h"
#include "sparse-opt/Runtime/Host/Launch.cuh"
#include "sparse-opt/Runtime/Kernels/Sddmm.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <type_traits>

namespace sopt {

/// Launched with at most MaxThreads threads: the default lets one block
/// hold every warp a schedule asks for, a smaller bound gives each thread
/// more registers.
template <typename T, int ThreadsPerNonzero, int VectorWidth, int VectorsPerLane,
          typename Epilogue, int MaxThreads = sddmmPanelMaxThreads(VectorWidth * VectorsPerLane)>
__global__ void __launch_bounds__(MaxThreads, 1)
    sddmmPanelsKernel(CsrMatrix<T> s, const T *__restrict__ lhs, const T *__restrict__ rhs,
                      int32_t k, T *__restrict__ out, Epilogue epilogue,
                      const int32_t *__restrict__ entryRows, const int32_t *__restrict__ order,
                      int64_t tilesPerBlock) {
  awaitPrecedingKernels();
  const int lane = threadIdx.x % 32, warps = blockDim.x / 32;
  const int64_t tiles = (s.nnz + 31) / 32;
  const int64_t begin = int64_t(blockIdx.x) * tilesPerBlock;
  const int64_t end = begin + tilesPerBlock < tiles ? begin + tilesPerBlock : tiles;
  for (int64_t tile = begin + threadIdx.x / 32; tile < end; tile += warps) {
    const int64_t at = tile * 32 + lane;
    const bool stored = at < s.nnz;
    const int32_t entry = stored ? order[at] : 0;
    sddmmLaneOutputsOf<ThreadsPerNonzero, VectorWidth, VectorsPerLane>(
        s, lhs, rhs, k, out, epilogue, entry, stored ? entryRows[entry] : -1,
        stored ? s.coordinates[entry] : 0);
  }
}

/// Launches (A · Bᵀ) ⊙ S by tiles of 32 nonzeros in the column-panel
/// `order` (sopt_csr_panel_order; any permutation of S's entries gives the
/// same outputs), `warpsPerBlock` warps in each of one block per SM;
/// `entryRows` as for launchSddmm (required here).
template <typename T, int ThreadsPerNonzero, int VectorWidth, int VectorsPerLane,
          typename Epilogue = ScaleByPattern>
cudaError_t launchSddmmPanels(const CsrMatrix<T> &s, const T *lhs, const T *rhs, int64_t k,
                              T *out, int warpsPerBlock, cudaStream_t stream,
                              Epilogue epilogue, const int32_t *entryRows,
                              const int32_t *order) {
  constexpr int kMaxThreads = sddmmPanelMaxThreads(VectorWidth * VectorsPerLane);
  if (k % VectorWidth != 0 || k > int64_t(ThreadsPerNonzero) * VectorWidth * VectorsPerLane ||
      warpsPerBlock < 1 || warpsPerBlock * 32 > kMaxThreads || s.rows < 0 ||
      s.nnz > INT32_MAX || !entryRows || !order)
    return cudaErrorInvalidValue;
  if (s.rows == 0 || s.nnz == 0)
    return cudaSuccess;
  int blocks = 0; // one a multiprocessor
  if (cudaError_t status = currentMultiprocessors(&blocks); status != cudaSuccess)
    return status;
  const int64_t tiles = (s.nnz + 31) / 32;
  const int64_t tilesPerBlock = (tiles + blocks - 1) / blocks;
  auto launch = [&](auto kernel, int64_t warps) {
    return launchKernel(kernel, unsigned((tiles + tilesPerBlock - 1) / tilesPerBlock),
                        unsigned(warps * 32), 0, stream, s, lhs, rhs, int32_t(k), out, epilogue,
                        entryRows, order, tilesPerBlock);
  };
  // A block of 16 tiles or fewer runs as many warps under a 512-thread
  // bound, which leaves a thread more registers (see the file comment).
  constexpr int kNarrowThreads = 512;
  if constexpr (std::is_same_v<T, float> && kMaxThreads > kNarrowThreads)
    if (tilesPerBlock <= kNarrowThreads / 32)
      return launch(sddmmPanelsKernel<T, ThreadsPerNonzero, VectorWidth, VectorsPerLane,
                                      Epilogue, kNarrowThreads>,
                    std::min<int64_t>(warpsPerBlock, tilesPerBlock));
  return launch(sddmmPanelsKernel<T, ThreadsPerNonzero, VectorWidth, VectorsPerLane, Epilogue>,
                warpsPerBlock);
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_SDDMMPANELS_CUH
