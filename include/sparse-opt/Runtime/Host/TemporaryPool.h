//===- TemporaryPool.h - Stream-ordered temporaries kept between calls -*- C++ -*-===//
//
// The generated host functions allocate their intermediates, partial sums
// and cuSPARSE buffers on the caller's stream and free them there at the end
// of the call. From the device's default memory pool that is slow for a
// function called again and again: the default pool hands its unused memory
// back to the driver at every synchronization (its release threshold is 0),
// so each call after a cudaStreamSynchronize maps its temporaries again.
// Here they come from a pool of our own per device, created on first use,
// that keeps what it has (release threshold: all of it), like a caching
// allocator: the memory held is the largest any one call has needed at
// once. The caller's default pool is left as it is.
//
// Under stream capture the allocation becomes a node of the graph, owned by
// the graph (CUDA's rule for every stream-ordered allocation). The pool
// itself may be created during a capture (a function's first call): the
// thread is then put in relaxed capture mode for that, since a global
// capture refuses cudaMemPoolCreate.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_TEMPORARYPOOL_H
#define SPARSE_OPT_RUNTIME_TEMPORARYPOOL_H

#include "sparse-opt/Runtime/Host/CaptureMode.h"

#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <mutex>

namespace sopt {

/// The pool of the current device, created on first use; nullptr and the
/// error in `status` when the device has no memory pools.
inline cudaMemPool_t temporaryPool(cudaError_t &status) {
  static std::mutex lock;
  static std::map<int, cudaMemPool_t> pools;
  int device = 0;
  status = cudaGetDevice(&device);
  if (status != cudaSuccess)
    return nullptr;
  std::lock_guard<std::mutex> guard(lock);
  auto [it, added] = pools.try_emplace(device, nullptr);
  if (added) {
    cudaMemPool_t pool = nullptr;
    {
      RelaxedCapture relaxed;
      status = relaxed.status;
      cudaMemPoolProps props = {};
      props.allocType = cudaMemAllocationTypePinned;
      props.location.type = cudaMemLocationTypeDevice;
      props.location.id = device;
      if (status == cudaSuccess)
        status = cudaMemPoolCreate(&pool, &props);
      if (status == cudaSuccess) {
        uint64_t keepAll = UINT64_MAX;
        status = cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keepAll);
      }
    }
    if (status != cudaSuccess) {
      if (pool)
        cudaMemPoolDestroy(pool);
      pools.erase(it); // try again next time
      return nullptr;
    }
    it->second = pool;
  }
  return it->second;
}

/// `bytes` (at least one) on `stream` from the current device's pool; free
/// with cudaFreeAsync on the same stream.
template <typename T>
inline cudaError_t allocateTemporary(T **pointer, size_t bytes, cudaStream_t stream) {
  cudaError_t status = cudaSuccess;
  cudaMemPool_t pool = temporaryPool(status);
  if (!pool)
    return status;
  return cudaMallocFromPoolAsync(reinterpret_cast<void **>(pointer), bytes ? bytes : 1, pool,
                                 stream);
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_TEMPORARYPOOL_H
