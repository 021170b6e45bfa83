//===- CaptureMode.h - Relaxed stream-capture mode for one scope --*- C++ -*-===//
//
// The generated host code creates things on a function's first call (the
// temporaries' pool, library handles, pattern tables' device copies), and
// that call may be made while the caller's stream is being captured into a
// CUDA graph. A global capture refuses cudaMalloc and the like on every
// thread; relaxed mode for this thread, for the scope of a RelaxedCapture,
// lets them through (they are not stream work: nothing enters the graph).
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_CAPTUREMODE_H
#define SPARSE_OPT_RUNTIME_CAPTUREMODE_H

#include <cuda_runtime.h>

namespace sopt {

/// This thread in relaxed capture mode until the end of the scope, then in
/// the mode it had.
class RelaxedCapture {
public:
  RelaxedCapture() { status = cudaThreadExchangeStreamCaptureMode(&mode); }
  ~RelaxedCapture() {
    if (status == cudaSuccess)
      cudaThreadExchangeStreamCaptureMode(&mode);
  }
  RelaxedCapture(const RelaxedCapture &) = delete;
  RelaxedCapture &operator=(const RelaxedCapture &) = delete;
  /// Whether the mode could be changed.
  cudaError_t status;

private:
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
};

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_CAPTUREMODE_H
