//===- PatternTables.h - Compile-time pattern tables on each device -*- C++ -*-===//
//
// For a sparsity pattern known when compiling, the generated host code holds
// tables prepared from it (row order, column windows, row segments, a
// transpose, the rows' positions) as static arrays, which the kernels read
// from device memory. Each table (a DeviceTable) is copied to a device on
// its first use there and kept for the life of the process; a device that
// has not seen it gets its own copy, so a function can run on several
// devices. One table is not static: the SDDMM tiles' column-panel order
// needs the pattern's columns, which the generated code does not hold (nnz
// integers would dwarf its source), so it reads them once from the caller's
// device array on that first use.
//
// The first use may come while the caller's stream is being captured into a
// CUDA graph: the copy then must not become part of the graph (it is done
// once, not per replay) nor touch the capturing stream. So it runs on a
// stream of its own with the thread in relaxed capture mode (cudaMalloc is
// otherwise refused during a global capture) and waits for the copy before
// returning. A failed copy is not remembered: the next call tries again.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_PATTERNTABLES_H
#define SPARSE_OPT_RUNTIME_PATTERNTABLES_H

#include "sparse-opt/Runtime/Host/CaptureMode.h"
#include "sparse-opt/Runtime/Pattern/PanelOrder.h"

#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

namespace sopt {

namespace detail {

/// Copies `bytes` between host and device on a stream of its own and waits
/// for it: the caller's stream, perhaps being captured, is not touched.
/// (Called in relaxed capture mode.)
inline cudaError_t copyOnOwnStream(void *to, const void *from, size_t bytes,
                                   cudaMemcpyKind kind) {
  if (bytes == 0)
    return cudaSuccess;
  cudaStream_t stream = nullptr;
  cudaError_t status = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  if (status == cudaSuccess)
    status = cudaMemcpyAsync(to, from, bytes, kind, stream);
  if (status == cudaSuccess)
    status = cudaStreamSynchronize(stream);
  if (stream)
    cudaStreamDestroy(stream);
  return status;
}

/// Copies `bytes` from `host` into a new device allocation, outside any
/// stream capture of this thread.
inline cudaError_t uploadOutsideCapture(const void *host, size_t bytes, void **device) {
  RelaxedCapture relaxed;
  *device = nullptr;
  cudaError_t status = relaxed.status;
  if (status == cudaSuccess)
    status = cudaMalloc(device, bytes ? bytes : 1);
  if (status == cudaSuccess)
    status = copyOnOwnStream(*device, host, bytes, cudaMemcpyHostToDevice);
  if (status != cudaSuccess && *device) {
    cudaFree(*device);
    *device = nullptr;
  }
  return status;
}

/// Copies `bytes` from device memory at `device` to `host`, outside any
/// stream capture of this thread.
inline cudaError_t downloadOutsideCapture(const void *device, size_t bytes, void *host) {
  RelaxedCapture relaxed;
  if (relaxed.status != cudaSuccess)
    return relaxed.status;
  return copyOnOwnStream(host, device, bytes, cudaMemcpyDeviceToHost);
}

} // namespace detail

/// One compile-time table's copies, a device pointer per device, made on
/// first use there. The generated code keeps one of these per table as a
/// static of its own file, so a module unloaded and loaded again starts
/// afresh (a cache keyed by the host table's address could hand a reloaded
/// module another table's copy). The copies live as long as the process.
class DeviceTable {
public:
  /// The current device's copy of `count` integers at `host`.
  cudaError_t copy(const int32_t *host, size_t count, const int32_t **out) {
    return get(out, [&](std::vector<int32_t> &table) {
      table.assign(host, host + count);
      return cudaSuccess;
    });
  }

  /// The current device's copy of the row of every entry of a pattern
  /// whose `rows + 1` positions are `positions`: entry e of row r is r.
  cudaError_t entryRows(const int32_t *positions, int64_t rows, const int32_t **out) {
    return get(out, [&](std::vector<int32_t> &rowOf) {
      rowOf.resize(size_t(positions[rows]));
      for (int64_t r = 0; r < rows; ++r)
        for (int32_t e = positions[r]; e < positions[r + 1]; ++e)
          rowOf[size_t(e)] = int32_t(r);
      return cudaSuccess;
    });
  }

  /// The current device's copy of the column-panel order
  /// (columnPanelOrder) of the pattern whose `rows + 1` positions are
  /// `positions`, its `nnz` columns read once from the device array
  /// `coordinates` (the caller's pattern, of the compiled nnz): the order
  /// is a permutation of the entries whatever those columns hold.
  cudaError_t panelOrder(const int32_t *positions, int64_t rows, int64_t cols, int64_t panel,
                         const int32_t *coordinates, const int32_t **out) {
    return get(out, [&](std::vector<int32_t> &order) {
      const size_t nnz = size_t(positions[rows]);
      std::vector<int32_t> columns(nnz);
      order.resize(nnz);
      cudaError_t read =
          detail::downloadOutsideCapture(coordinates, nnz * sizeof(int32_t), columns.data());
      if (read == cudaSuccess)
        columnPanelOrder(positions, columns.data(), rows, cols, panel, order.data());
      return read;
    });
  }

private:
  std::mutex lock;
  std::map<int, const int32_t *> byDevice;

  /// The current device's copy of what `fill` makes (a host vector of
  /// int32_t, which fill(vector) fills, returning cudaSuccess or why not),
  /// made on first use.
  template <typename Fill> cudaError_t get(const int32_t **out, Fill fill) {
    int device = 0;
    cudaError_t status = cudaGetDevice(&device);
    if (status != cudaSuccess)
      return status;
    std::lock_guard<std::mutex> guard(lock);
    auto it = byDevice.find(device);
    if (it == byDevice.end()) {
      std::vector<int32_t> values;
      if (status = fill(values); status != cudaSuccess)
        return status;
      void *copy = nullptr;
      status = detail::uploadOutsideCapture(values.data(), values.size() * sizeof(int32_t),
                                            &copy);
      if (status != cudaSuccess)
        return status;
      it = byDevice.emplace(device, static_cast<const int32_t *>(copy)).first;
    }
    *out = it->second;
    return cudaSuccess;
  }
};

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_PATTERNTABLES_H
