//===- Tma.cuh - Hopper tensor memory access building blocks ----*- CUDA -*-===//
//
// The tensor memory accelerator of sm_90 copies a tile of a row-major
// matrix from global to shared memory by itself: one thread issues the copy
// with a tensor map (the matrix's address, shape and strides, the tile's
// shape, the shared-memory swizzle), zero-fills what lies past the matrix,
// and the copy's completion is counted in bytes on an mbarrier that the
// consumers wait on. Here: the mbarrier operations a producer / consumer
// ring of stages needs, the 2-D tile copy, a barrier over one warpgroup,
// and on the host the tensor maps (through the driver entry point, so that
// nothing links libcuda).
//
// The device functions exist for sm_90 and newer; callers compile them
// only there.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_TMA_CUH
#define SPARSE_OPT_RUNTIME_TMA_CUH

#include <cuda.h>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>

#include <cstdint>

namespace sopt::tma {

__device__ __forceinline__ uint32_t sharedAddress(const void *p) {
  return uint32_t(__cvta_generic_to_shared(p));
}

/// Sets up an mbarrier whose phase completes after `arrivals` arrivals
/// (and, with arriveExpecting, the bytes announced).
__device__ __forceinline__ void initBarrier(uint64_t *barrier, uint32_t arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(sharedAddress(barrier)),
               "r"(arrivals)
               : "memory");
}

/// Makes initialized barriers visible to the other threads and to the
/// tensor copies (a __syncthreads must follow).
__device__ __forceinline__ void fenceBarrierInit() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

/// Arrives and announces `bytes` that tensor copies will complete on the
/// barrier in this phase.
__device__ __forceinline__ void arriveExpecting(uint64_t *barrier, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(
                   sharedAddress(barrier)),
               "r"(bytes)
               : "memory");
}

__device__ __forceinline__ void arrive(uint64_t *barrier) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(sharedAddress(barrier))
               : "memory");
}

/// Waits until the barrier's phase of parity `parity` has completed.
__device__ __forceinline__ void wait(uint64_t *barrier, uint32_t parity) {
  asm volatile("{\n"
               ".reg .pred done;\n"
               "WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
               "@!done bra WAIT;\n"
               "}\n" ::"r"(sharedAddress(barrier)),
               "r"(parity)
               : "memory");
}

/// Copies the tile at column `x`, row `y` of `map`'s matrix to `tile`
/// (aligned as the map's swizzle needs), completing on `barrier`.
__device__ __forceinline__ void loadTile(void *tile, const CUtensorMap *map, int32_t x,
                                         int32_t y, uint64_t *barrier) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
               " [%0], [%1, {%2, %3}], [%4];\n" ::"r"(sharedAddress(tile)),
               "l"(reinterpret_cast<uint64_t>(map)), "r"(x), "r"(y),
               "r"(sharedAddress(barrier))
               : "memory");
}

/// A barrier over the 128 threads of one warpgroup (named barrier `id`,
/// 1-15; 0 is __syncthreads').
__device__ __forceinline__ void syncWarpgroup(int id) {
  asm volatile("bar.sync %0, 128;\n" ::"r"(id) : "memory");
}

/// The tensor map of `tileRows` x `tileColumns` tiles of a row-major
/// matrix of `rows` x `columns` elements of `elementBytes` (2 or 4) each,
/// zero-filled past the edges (copies only: zero bits are zero in every
/// element type, so the map names an integer or f32 type by size). False
/// when the driver cannot encode it (no sm_90 driver, a row stride that is
/// not a multiple of 16 bytes, a misaligned base, a tile the swizzle or the
/// hardware's 256 rows and columns do not allow).
inline bool encodeTiles(CUtensorMap *map, const void *base, int elementBytes, int64_t rows,
                        int64_t columns, uint32_t tileRows, uint32_t tileColumns,
                        CUtensorMapSwizzle swizzle) {
  static const PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
    void *function = nullptr;
    cudaDriverEntryPointQueryResult found;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000,
                                         cudaEnableDefault, &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess)
      function = nullptr;
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
  }();
  if (!encode || rows < 1 || columns < 1 || (elementBytes != 2 && elementBytes != 4))
    return false;
  const cuuint64_t shape[2] = {cuuint64_t(columns), cuuint64_t(rows)};
  const cuuint64_t stride[1] = {cuuint64_t(columns) * elementBytes};
  const cuuint32_t tile[2] = {tileColumns, tileRows};
  const cuuint32_t step[2] = {1, 1};
  return encode(map,
                elementBytes == 4 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
                                  : CU_TENSOR_MAP_DATA_TYPE_UINT16,
                2, const_cast<void *>(base), shape, stride, tile, step,
                CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

/// The tensor map of `Rows` x `Columns` tiles of a row-major f32 matrix,
/// copied into 128-byte-swizzled shared memory (Columns * 4 must be 128).
template <int Rows, int Columns>
bool encodeRowTiles(CUtensorMap *map, const float *base, int64_t rows, int64_t columns) {
  static_assert(Columns * sizeof(float) == 128, "the 128-byte swizzle spans one tile row");
  return encodeTiles(map, base, sizeof(float), rows, columns, Rows, Columns,
                     CU_TENSOR_MAP_SWIZZLE_128B);
}

} // namespace sopt::tma

#endif // SPARSE_OPT_RUNTIME_TMA_CUH
