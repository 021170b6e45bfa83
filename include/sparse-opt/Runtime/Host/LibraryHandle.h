//===- LibraryHandle.h - CUDA library handles per thread and device -*- C++ -*-===//
//
// A cuBLAS or cuSPARSE handle belongs to the device that was current when it
// was created and carries a stream and a workspace: one handle shared by
// every caller would run a second device's work on the first, and two host
// threads would race on its stream (work landing on the other thread's
// stream, out of order with the kernels around it). LibraryHandles gives each
// host thread a handle per device, created on first use (creation costs
// milliseconds) and destroyed when the thread exits.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_LIBRARYHANDLE_H
#define SPARSE_OPT_RUNTIME_LIBRARYHANDLE_H

#include "sparse-opt/Runtime/Host/CaptureMode.h"

#include <cuda_runtime.h>

#include <map>

namespace sopt {

/// The library's handle type and calls, e.g. cuBLAS's: Handle =
/// cublasHandle_t, Status = cublasStatus_t, Ok = CUBLAS_STATUS_SUCCESS.
template <typename Handle, typename Status, Status Ok, Status (*Create)(Handle *),
          Status (*Destroy)(Handle), Status (*SetStream)(Handle, cudaStream_t)>
struct LibraryHandles {
  /// This thread's handle for the current device, bound to `stream`;
  /// nullptr when it cannot be created (the library's call then fails).
  static Handle forStream(cudaStream_t stream) {
    thread_local ByDevice handles;
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess)
      return nullptr;
    auto [it, added] = handles.map.try_emplace(device, nullptr);
    if (added) {
      // Creating a handle allocates memory, which a global stream capture
      // (a first call being captured into a graph) would refuse.
      bool created;
      {
        RelaxedCapture relaxed;
        created = Create(&it->second) == Ok;
      }
      if (!created) {
        handles.map.erase(it); // try again on the next call
        return nullptr;
      }
    }
    if (SetStream(it->second, stream) != Ok)
      return nullptr;
    return it->second;
  }

private:
  struct ByDevice {
    std::map<int, Handle> map;
    ~ByDevice() {
      for (auto &[device, handle] : map)
        Destroy(handle);
    }
  };
};

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_LIBRARYHANDLE_H
