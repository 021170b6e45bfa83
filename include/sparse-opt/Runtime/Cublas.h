//===- Cublas.h - cuBLAS handles for the generated host code ------*- C++ -*-===//
//
// The generated host functions call cuBLAS for dense matmuls. A cuBLAS
// handle belongs to the device that was current when it was created and
// carries a stream and a workspace, so one handle shared by every caller
// would run a second device's products on the first, and two host threads
// would race on its stream (a product landing on the other thread's
// stream, out of order with the kernels around it). Here each host thread
// gets a handle per device, created on first use (creation costs
// milliseconds) and destroyed when the thread exits.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_CUBLAS_H
#define SPARSE_OPT_RUNTIME_CUBLAS_H

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <map>

namespace sopt {

namespace detail {

/// This thread's cuBLAS handles by device.
struct CublasHandles {
  std::map<int, cublasHandle_t> byDevice;
  ~CublasHandles() {
    for (auto &[device, handle] : byDevice)
      cublasDestroy(handle);
  }
};

} // namespace detail

/// This thread's handle for the current device, bound to `stream`; nullptr
/// when it cannot be created (the cuBLAS call then fails with
/// CUBLAS_STATUS_NOT_INITIALIZED).
inline cublasHandle_t cublasFor(cudaStream_t stream) {
  thread_local detail::CublasHandles handles;
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess)
    return nullptr;
  auto [it, added] = handles.byDevice.try_emplace(device, nullptr);
  if (added && cublasCreate(&it->second) != CUBLAS_STATUS_SUCCESS) {
    handles.byDevice.erase(it); // try again on the next call
    return nullptr;
  }
  if (cublasSetStream(it->second, stream) != CUBLAS_STATUS_SUCCESS)
    return nullptr;
  return it->second;
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_CUBLAS_H
