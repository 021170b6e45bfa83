//===- DeviceInfo.h - what the launchers ask of the current device -*- C++ -*-===//
//
// Host helpers shared by kernel launchers that size their grids by the
// device they run on.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_DEVICEINFO_H
#define SPARSE_OPT_RUNTIME_DEVICEINFO_H

#include <cuda_runtime.h>

namespace sopt {

/// The streaming multiprocessors of the current device.
inline cudaError_t currentMultiprocessors(int *count) {
  int device = 0;
  cudaError_t status = cudaGetDevice(&device);
  if (status == cudaSuccess)
    status = cudaDeviceGetAttribute(count, cudaDevAttrMultiProcessorCount, device);
  return status;
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_DEVICEINFO_H
