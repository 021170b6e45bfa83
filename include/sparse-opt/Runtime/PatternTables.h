//===- PatternTables.h - Compile-time pattern tables on each device -*- C++ -*-===//
//
// For a sparsity pattern known when compiling, the generated host code holds
// tables prepared from it (row order, column windows, row segments, a
// transpose, the rows' positions) as static arrays, which the kernels read
// from device memory. Each table is copied to a device on its first use
// there and kept for the life of the process; a device that has not seen it
// gets its own copy, so a function can run on several devices.
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

#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

namespace sopt {

namespace detail {

/// Copies `bytes` from `host` into a new device allocation, outside any
/// stream capture of this thread.
inline cudaError_t uploadOutsideCapture(const void *host, size_t bytes, void **device) {
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  cudaError_t status = cudaThreadExchangeStreamCaptureMode(&mode);
  if (status != cudaSuccess)
    return status;
  cudaStream_t stream = nullptr;
  *device = nullptr;
  status = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  if (status == cudaSuccess)
    status = cudaMalloc(device, bytes ? bytes : 1);
  if (status == cudaSuccess && bytes)
    status = cudaMemcpyAsync(*device, host, bytes, cudaMemcpyHostToDevice, stream);
  if (status == cudaSuccess)
    status = cudaStreamSynchronize(stream);
  if (status != cudaSuccess && *device) {
    cudaFree(*device);
    *device = nullptr;
  }
  if (stream)
    cudaStreamDestroy(stream);
  cudaThreadExchangeStreamCaptureMode(&mode); // the caller's mode back
  return status;
}

/// What a device copy holds: the host table itself, or the entries' rows
/// expanded from a table of positions.
enum class TableKind { Copy, EntryRows };

/// The device copies made so far, by (host table, kind, device).
struct DeviceTables {
  std::mutex lock;
  std::map<std::tuple<const void *, TableKind, int>, void *> copies;
};
inline DeviceTables &deviceTables() {
  static DeviceTables tables;
  return tables;
}

/// The current device's copy of what `fill` makes (a host vector of
/// int32_t) from the table at `host`, made on first use.
template <typename Fill>
cudaError_t deviceCopy(const void *host, TableKind kind, const int32_t **out, Fill fill) {
  int device = 0;
  cudaError_t status = cudaGetDevice(&device);
  if (status != cudaSuccess)
    return status;
  DeviceTables &tables = deviceTables();
  std::lock_guard<std::mutex> guard(tables.lock);
  const auto key = std::make_tuple(host, kind, device);
  auto it = tables.copies.find(key);
  if (it == tables.copies.end()) {
    const std::vector<int32_t> values = fill();
    void *copy = nullptr;
    status = uploadOutsideCapture(values.data(), values.size() * sizeof(int32_t), &copy);
    if (status != cudaSuccess)
      return status;
    it = tables.copies.emplace(key, copy).first;
  }
  *out = static_cast<const int32_t *>(it->second);
  return cudaSuccess;
}

} // namespace detail

/// The current device's copy of a compile-time table of `count` integers.
inline cudaError_t deviceTable(const int32_t *host, size_t count, const int32_t **out) {
  return detail::deviceCopy(host, detail::TableKind::Copy, out,
                            [&] { return std::vector<int32_t>(host, host + count); });
}

/// The row of every entry of a pattern whose `rows + 1` positions are
/// `positions` (a compile-time table), on the current device: entry e of
/// row r is r.
inline cudaError_t deviceEntryRows(const int32_t *positions, int64_t rows,
                                   const int32_t **out) {
  return detail::deviceCopy(positions, detail::TableKind::EntryRows, out, [&] {
    const size_t nnz = size_t(positions[rows]);
    std::vector<int32_t> entryRows(nnz);
    for (int64_t r = 0; r < rows; ++r)
      for (int32_t e = positions[r]; e < positions[r + 1]; ++e)
        entryRows[size_t(e)] = int32_t(r);
    return entryRows;
  });
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_PATTERNTABLES_H
