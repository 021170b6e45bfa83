//===- Fill.cuh - a splat constant written on the device ----------*- CUDA -*-===//
//
// A splat constant is one value: the generated code passes its bytes and
// the element count, and a grid-stride kernel writes the copies, instead of
// the host spelling out (and uploading) every element.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_FILL_CUH
#define SPARSE_OPT_RUNTIME_FILL_CUH

#include "sparse-opt/Runtime/Host/Launch.cuh"

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>

namespace sopt {

template <typename T> __global__ void fillKernel(T *out, T value, int64_t count) {
  awaitPrecedingKernels();
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x)
    out[i] = value;
}

/// Writes `count` copies of the sizeof(T) bytes at `bits` (host memory) to
/// `out` (device memory), in `stream`.
template <typename T>
cudaError_t launchFill(T *out, const void *bits, int64_t count, cudaStream_t stream) {
  if (count <= 0)
    return cudaSuccess;
  T value;
  std::memcpy(static_cast<void *>(&value), bits, sizeof(T));
  constexpr int kThreads = 256;
  // Grid-stride: beyond a few waves more blocks add only scheduling cost.
  constexpr int64_t kMaxBlocks = 4096;
  const int64_t blocks = std::min<int64_t>((count + kThreads - 1) / kThreads, kMaxBlocks);
  return launchKernel(fillKernel<T>, dim3(unsigned(blocks)), dim3(kThreads), 0, stream, out,
                      value, count);
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_FILL_CUH
