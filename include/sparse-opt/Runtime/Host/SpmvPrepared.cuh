//===- SpmvPrepared.cuh - an SpMV plan made at the first call ------*- CUDA -*-===//
//
// For generated code whose sparse operand's pattern is known at compile
// time (a sopt.sparsity_pattern argument): the caller passes the same
// pattern arrays at every call, so the plan (SpmvPlan.h) is prepared at the
// first call and kept for the process, one per device and pattern arrays
// (other arrays, e.g. a second copy on another device, get a plan of their
// own). The first call synchronises its stream and may not be captured in
// a CUDA graph; later calls only launch.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_HOST_SPMVPREPARED_CUH
#define SPARSE_OPT_RUNTIME_HOST_SPMVPREPARED_CUH

#include "sparse-opt/Runtime/Host/SpmvPlanImpl.cuh"

#include <cstdio>
#include <mutex>
#include <vector>

namespace sopt::spmv {

class PreparedSpmv {
public:
  /// y = A * x; a message on stderr and an error when the pattern is
  /// malformed or the first call is being captured.
  cudaError_t run(int64_t rows, int64_t cols, int64_t nnz, const void *positions,
                  const void *coordinates, sopt_spmv_index_type indexType,
                  sopt_spmv_value_type valueType, const void *values, const void *x, void *y,
                  cudaStream_t stream) {
    const sopt_spmv_plan *plan = nullptr;
    if (cudaError_t status = planFor(rows, cols, nnz, positions, coordinates, indexType,
                                     valueType, stream, &plan))
      return status;
    char error[512];
    if (runPlan(plan, values, 1.0, x, 0.0, y, stream, error, sizeof error)) {
      std::fprintf(stderr, "%s\n", error);
      const cudaError_t status = cudaGetLastError();
      return status != cudaSuccess ? status : cudaErrorInvalidValue;
    }
    return cudaSuccess;
  }

private:
  struct Entry {
    int device;
    const void *positions, *coordinates;
    int64_t nnz;
    sopt_spmv_plan *plan;
  };

  cudaError_t planFor(int64_t rows, int64_t cols, int64_t nnz, const void *positions,
                      const void *coordinates, sopt_spmv_index_type indexType,
                      sopt_spmv_value_type valueType, cudaStream_t stream,
                      const sopt_spmv_plan **plan) {
    int device = 0;
    if (cudaError_t status = cudaGetDevice(&device))
      return status;
    std::lock_guard<std::mutex> lock(guard);
    for (const Entry &e : entries)
      if (e.device == device && e.positions == positions && e.coordinates == coordinates &&
          e.nnz == nnz) {
        *plan = e.plan;
        return cudaSuccess;
      }
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    if (cudaError_t status = cudaStreamIsCapturing(stream, &capture))
      return status;
    if (capture != cudaStreamCaptureStatusNone) {
      std::fprintf(stderr, "sopt.spmv: the first call with a pattern prepares its plan and "
                           "cannot be captured; call once before capturing\n");
      return cudaErrorStreamCaptureUnsupported;
    }
    sopt_spmv_plan *made = nullptr;
    char error[512];
    if (preparePlan(&made, rows, cols, nnz, positions, coordinates, indexType, valueType,
                    nullptr, stream, error, sizeof error)) {
      std::fprintf(stderr, "%s\n", error);
      return cudaErrorInvalidValue;
    }
    entries.push_back({device, positions, coordinates, nnz, made});
    *plan = made;
    return cudaSuccess;
  }

  std::mutex guard;
  /// Kept until the process ends: freeing them in a static destructor
  /// would run after the CUDA runtime may be gone.
  std::vector<Entry> entries;
};

} // namespace sopt::spmv

#endif // SPARSE_OPT_RUNTIME_HOST_SPMVPREPARED_CUH
