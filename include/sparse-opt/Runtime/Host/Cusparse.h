//===- Cusparse.h - cuSPARSE handles and descriptors for host code -*- C++ -*-===//
//
// The generated host functions call cuSPARSE for sparse products that have no
// kernel of our own yet. These wrappers release descriptors and work buffers
// on every path out of a call, errors included. Handles are per host thread
// and device (LibraryHandle.h says why).
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_CUSPARSE_H
#define SPARSE_OPT_RUNTIME_CUSPARSE_H

#include "sparse-opt/Runtime/Host/LibraryHandle.h"
#include "sparse-opt/Runtime/Host/TemporaryPool.h"

#include <cuda_runtime.h>
#include <cusparse.h>

namespace sopt {

/// This thread's cuSPARSE handle for the current device, bound to `stream`.
inline cusparseHandle_t cusparseFor(cudaStream_t stream) {
  return LibraryHandles<cusparseHandle_t, cusparseStatus_t, CUSPARSE_STATUS_SUCCESS,
                        cusparseCreate, cusparseDestroy, cusparseSetStream>::forStream(stream);
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
