//===- Cublas.h - cuBLAS handles for the generated host code ------*- C++ -*-===//
//
// The generated host functions call cuBLAS for dense matmuls, with a handle
// per host thread and device (LibraryHandle.h says why).
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_CUBLAS_H
#define SPARSE_OPT_RUNTIME_CUBLAS_H

#include "sparse-opt/Runtime/Host/LibraryHandle.h"

#include <cublas_v2.h>

namespace sopt {

/// This thread's cuBLAS handle for the current device, bound to `stream`.
inline cublasHandle_t cublasFor(cudaStream_t stream) {
  return LibraryHandles<cublasHandle_t, cublasStatus_t, CUBLAS_STATUS_SUCCESS, cublasCreate_v2,
                        cublasDestroy_v2, cublasSetStream_v2>::forStream(stream);
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_CUBLAS_H
