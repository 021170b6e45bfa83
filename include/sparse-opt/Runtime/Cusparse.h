//===- Cusparse.h - cuSPARSE handles and descriptors for host code -*- C++ -*-===//
//
// The generated host functions call cuSPARSE for sparse products that have no
// kernel of our own yet. These wrappers release descriptors and work buffers
// on every path out of a call, errors included. Handles are per host thread
// and device, as for cuBLAS (Cublas.h says why).
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_CUSPARSE_H
#define SPARSE_OPT_RUNTIME_CUSPARSE_H

#include "sparse-opt/Runtime/TemporaryPool.h"

#include <cuda_runtime.h>
#include <cusparse.h>

#include <map>

namespace sopt {

namespace detail {

/// This thread's cuSPARSE handles by device.
struct CusparseHandles {
  std::map<int, cusparseHandle_t> byDevice;
  ~CusparseHandles() {
    for (auto &[device, handle] : byDevice)
      cusparseDestroy(handle);
  }
};

} // namespace detail

/// This thread's handle for the current device, created on first use and
/// bound to `stream`; nullptr when it cannot be created (the cuSPARSE call
/// then fails).
inline cusparseHandle_t cusparseFor(cudaStream_t stream) {
  thread_local detail::CusparseHandles handles;
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess)
    return nullptr;
  auto [it, added] = handles.byDevice.try_emplace(device, nullptr);
  if (added && cusparseCreate(&it->second) != CUSPARSE_STATUS_SUCCESS) {
    handles.byDevice.erase(it); // try again on the next call
    return nullptr;
  }
  if (cusparseSetStream(it->second, stream) != CUSPARSE_STATUS_SUCCESS)
    return nullptr;
  return it->second;
}

struct CusparseCsr {
  cusparseSpMatDescr_t descriptor = nullptr;
  ~CusparseCsr() {
    if (descriptor)
      cusparseDestroySpMat(descriptor);
  }
};

struct CusparseDnMat {
  cusparseDnMatDescr_t descriptor = nullptr;
  ~CusparseDnMat() {
    if (descriptor)
      cusparseDestroyDnMat(descriptor);
  }
};

struct CusparseDnVec {
  cusparseDnVecDescr_t descriptor = nullptr;
  ~CusparseDnVec() {
    if (descriptor)
      cusparseDestroyDnVec(descriptor);
  }
};

/// Stream-ordered scratch: allocated on `stream` (from the temporaries'
/// pool), freed on it when done.
struct StreamBuffer {
  void *data = nullptr;
  cudaStream_t stream;
  cudaError_t status = cudaSuccess;
  StreamBuffer(size_t bytes, cudaStream_t stream) : stream(stream) {
    if (bytes)
      status = allocateTemporary(&data, bytes, stream);
  }
  ~StreamBuffer() {
    if (data)
      cudaFreeAsync(data, stream);
  }
};

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_CUSPARSE_H
