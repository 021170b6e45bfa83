//===- Launch.cuh - launches that start as the kernel before ends -*- CUDA -*-===//
//
// Programmatic dependent launch (sm_90 and newer): a kernel launched with
// cudaLaunchAttributeProgrammaticStreamSerialization may be scheduled
// before the kernel ahead of it in the stream has finished and flushed its
// writes; the new kernel's first instruction, griddepcontrol.wait, then
// holds it until they have. Every runtime kernel begins with that wait
// (awaitPrecedingKernels), so a launch means what a plain launch means —
// every write of earlier work is visible, in any stream, graph or not —
// and only the gap between kernels shrinks: the next grid is set up while
// the last blocks of the one before drain.
//
// The kernels wait at their first instruction, not after their first
// loads: a kernel before may have written the pattern, and waiting later
// bought nothing measurable (docs/benchmarks/sparse.md, launch overhead).
// The wait returns at once in a kernel launched without the attribute, and
// compiles to nothing for targets below sm_90.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_LAUNCH_CUH
#define SPARSE_OPT_RUNTIME_LAUNCH_CUH

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <utility>

namespace sopt {

/// Holds a kernel launched as a dependent until the kernels before it in
/// its stream have finished and their writes show. The first statement of
/// every runtime kernel: nothing before it may touch global memory.
__device__ __forceinline__ void awaitPrecedingKernels() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;\n" ::: "memory");
#endif
}

/// Lets the kernel launched after this one (as a dependent) start before
/// this one ends. Only for a kernel whose dependent reads nothing of its
/// output before waiting for it; called after awaitPrecedingKernels, so
/// that the dependent's early work also follows everything before.
__device__ __forceinline__ void allowFollowingKernels() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#endif
}

namespace detail {
/// The process-wide switch behind setDependentLaunch.
inline std::atomic<bool> dependentLaunchWanted{true};
} // namespace detail

/// Turns dependent launches on (the default) or off for the launches that
/// follow, process-wide: for measuring what they save, and a way out should
/// a driver mishandle them.
inline void setDependentLaunch(bool on) { detail::dependentLaunchWanted.store(on); }

/// Whether the runtime's launches on the current device are dependent
/// launches: asked for, and the device has them (sm_90 and newer).
inline cudaError_t dependentLaunchOn(bool *on) {
  *on = false;
  if (!detail::dependentLaunchWanted.load(std::memory_order_relaxed))
    return cudaSuccess;
  int device = 0, major = 0;
  cudaError_t status = cudaGetDevice(&device);
  if (status == cudaSuccess)
    status = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  *on = status == cudaSuccess && major >= 9;
  return status;
}

/// Whether `kernel` as the current device runs it was compiled with its
/// wait: from PTX of sm_90 or newer. (A binary built for sm_80 alone runs
/// on an sm_90 device from PTX without one, where a dependent launch would race
/// with the kernel before it; which code a device runs can differ between
/// devices.) Cached per device and kernel: the attributes cost a driver
/// call.
inline cudaError_t kernelAwaits(const void *kernel, bool *awaits) {
  int device = 0;
  cudaError_t status = cudaGetDevice(&device);
  if (status != cudaSuccess)
    return status;
  static std::mutex guard;
  static std::map<std::pair<int, const void *>, bool> known;
  std::lock_guard<std::mutex> lock(guard);
  const std::pair<int, const void *> key{device, kernel};
  if (auto it = known.find(key); it != known.end()) {
    *awaits = it->second;
    return cudaSuccess;
  }
  cudaFuncAttributes attributes{};
  status = cudaFuncGetAttributes(&attributes, kernel);
  if (status != cudaSuccess)
    return status;
  *awaits = known[key] = attributes.ptxVersion >= 90;
  return cudaSuccess;
}

/// Launches `kernel` under `config` (grid, block, shared memory, stream
/// and up to three attributes of its own) as a dependent launch where
/// dependentLaunchOn and kernelAwaits allow, or always with
/// `alwaysDependent` (a kernel that waits itself where it needs the writes
/// of the one before); the launch's error, or the last error after it.
template <typename... Params, typename... Args>
cudaError_t launchKernelWith(cudaLaunchConfig_t config, bool alwaysDependent,
                             void (*kernel)(Params...), Args &&...args) {
  constexpr unsigned kOwnAttributes = 3;
  if (config.numAttrs > kOwnAttributes)
    return cudaErrorInvalidValue;
  bool dependent = alwaysDependent;
  cudaError_t status = cudaSuccess;
  if (!dependent)
    status = dependentLaunchOn(&dependent);
  if (status == cudaSuccess && dependent && !alwaysDependent)
    status = kernelAwaits(reinterpret_cast<const void *>(kernel), &dependent);
  if (status != cudaSuccess)
    return status;
  cudaLaunchAttribute attributes[kOwnAttributes + 1];
  std::copy(config.attrs, config.attrs + config.numAttrs, attributes);
  config.attrs = attributes;
  if (dependent) {
    cudaLaunchAttribute &serialization = attributes[config.numAttrs++];
    serialization.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    serialization.val.programmaticStreamSerializationAllowed = 1;
  }
  status = cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
  return status != cudaSuccess ? status : cudaGetLastError();
}

/// launchKernelWith for a kernel that begins with awaitPrecedingKernels
/// and needs no attributes of its own.
template <typename... Params, typename... Args>
cudaError_t launchKernel(void (*kernel)(Params...), dim3 grid, dim3 block, size_t sharedBytes,
                         cudaStream_t stream, Args &&...args) {
  cudaLaunchConfig_t config = {};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = sharedBytes;
  config.stream = stream;
  return launchKernelWith(config, /*alwaysDependent=*/false, kernel,
                          std::forward<Args>(args)...);
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_LAUNCH_CUH
