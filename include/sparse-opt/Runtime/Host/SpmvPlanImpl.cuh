//===- SpmvPlanImpl.cuh - the prepared SpMV, header-only ----------*- CUDA -*-===//
//
// The implementation behind include/sparse-opt/Runtime/Host/SpmvPlan.h, as
// inline C++ (sopt::spmv::preparePlan / runPlan / describePlan / freePlan)
// so that generated code can use it without a library to link:
// argument checks with located messages, the device-side pattern check and
// statistics, the kernel choice, the HBP layout's construction on the
// device, and the launches of a run. lib/Runtime/Spmv/SpmvPlan.cu wraps it
// in the C API.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_HOST_SPMVPLANIMPL_CUH
#define SPARSE_OPT_RUNTIME_HOST_SPMVPLANIMPL_CUH

#include "sparse-opt/Runtime/Host/SpmvPlan.h"

#include "sparse-opt/Runtime/Kernels/SpmvHbp.cuh"
#include "sparse-opt/Runtime/Kernels/SpmvPrepare.cuh"
#include "sparse-opt/Runtime/Kernels/SpmvRowVector.cuh"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <vector>

namespace sopt::spmv::plan_detail {

using namespace sopt;
using namespace sopt::spmv;

/// Defaults of sopt_spmv_options.
constexpr int64_t kDefaultLongRowLimit = 1024;
/// 48 KiB: four executing blocks (32 warps) still fit on an SM.
constexpr int64_t kDefaultSharedBytes = 48 << 10;
/// A band is at most this many bytes of x when x is wider than shared
/// memory allows: it then stays in L2 (50 MB on an H100/H200) beside the
/// streamed matrix.
constexpr int64_t kL2BandBytes = 16 << 20;
constexpr double kDefaultParallelShare = 0.75;
/// Fitted on generated matrices of two row lengths (docs/benchmarks/spmv.md):
/// the HBP kernel overtook the row-vector one between 0.97 and 1.5.
constexpr double kDefaultMaxRegularCov = 1.2;
/// A tile stages its x segment when it has at least one entry per this many
/// columns of its band: below that, loading the segment costs more than the
/// scattered reads it saves.
constexpr int64_t kStageColumnsPerEntry = 4;
constexpr int kThreads = 256;
/// Below two tiles of rows per SM the HBP kernel leaves SMs idle (its
/// blocks take whole tiles), and the row-vector kernel is chosen.
constexpr int kMinTilesPerSm = 2;
/// Entries a lane of the row-vector kernel takes in f64 by default (f32 and
/// the HBP kernel take 2^kDefaultLaneEntriesLog2): with 12 bytes an entry
/// fewer per lane keep as many bytes in flight (docs/benchmarks/spmv.md).
constexpr int64_t kRowVectorF64LaneEntries = 2;

inline int fail(char *error, size_t size, const char *function, const char *format, ...) {
  if (error && size) {
    int n = std::snprintf(error, size, "%s: ", function);
    if (n >= 0 && size_t(n) < size) {
      va_list args;
      va_start(args, format);
      std::vsnprintf(error + n, size - n, format, args);
      va_end(args);
    }
  }
  return 1;
}

inline bool onDevice(const void *p) {
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return attributes.type == cudaMemoryTypeDevice || attributes.type == cudaMemoryTypeManaged;
}

inline int blocksFor(int64_t work, int threads) {
  return int(std::max<int64_t>(1, std::min<int64_t>((work + threads - 1) / threads, 1 << 16)));
}

} // namespace sopt::spmv::plan_detail

struct sopt_spmv_plan {
  sopt_spmv_summary summary{};
  sopt_spmv_index_type indexType = SOPT_SPMV_I32;
  sopt_spmv_value_type valueType = SOPT_SPMV_F32;
  const void *positions = nullptr, *coordinates = nullptr;
  std::vector<void *> allocations;
  sopt::spmv::HbpLayout<int32_t> layout32;
  sopt::spmv::HbpLayout<int64_t> layout64;
  unsigned long long *tileCounter = nullptr;
  void *bandPartials = nullptr, *chunkPartials = nullptr;
  size_t sharedBytes = 0;
  int rowVectorBlocks = 0, rowVectorLanesLog2 = 0;

  template <typename U> U *allocate(int64_t count, cudaError_t &status) {
    void *p = nullptr;
    if (status == cudaSuccess)
      status = cudaMalloc(&p, size_t(std::max<int64_t>(count, 1)) * sizeof(U));
    if (status == cudaSuccess)
      allocations.push_back(p);
    return static_cast<U *>(p);
  }
  ~sopt_spmv_plan() {
    for (void *p : allocations)
      cudaFree(p);
  }
};

namespace sopt::spmv::plan_detail {

inline constexpr const char *kPrepare = "sopt_spmv_prepare";
inline constexpr const char *kRun = "sopt_spmv_run";

template <typename Index> HbpLayout<Index> &layoutOf(sopt_spmv_plan &plan);
template <> inline HbpLayout<int32_t> &layoutOf(sopt_spmv_plan &plan) { return plan.layout32; }
template <> inline HbpLayout<int64_t> &layoutOf(sopt_spmv_plan &plan) { return plan.layout64; }

template <typename Index> Index readOne(const Index *device, int64_t i) {
  Index value{};
  cudaMemcpy(&value, device + i, sizeof(Index), cudaMemcpyDeviceToHost);
  return value;
}

/// The located message for the first fault found, or 0.
template <typename Index>
int reportFault(const PatternFaults &faults, const Index *positions, const Index *coordinates,
                int64_t rows, int64_t cols, int64_t nnz, char *error, size_t size) {
  const unsigned long long none = ~0ull;
  if (faults.first[kFirstPositionNotZero] != none)
    return fail(error, size, kPrepare, "positions[0] is %lld, expected 0",
                (long long)readOne(positions, 0));
  if (faults.first[kPositionsDecrease] != none) {
    const long long r = (long long)faults.first[kPositionsDecrease];
    return fail(error, size, kPrepare,
                "row %lld: positions decrease (positions[%lld] = %lld, positions[%lld] = %lld)",
                r, r, (long long)readOne(positions, r), r + 1,
                (long long)readOne(positions, r + 1));
  }
  if (faults.first[kLastPositionNotNnz] != none)
    return fail(error, size, kPrepare, "positions[%lld] (rows) is %lld, expected nnz = %lld",
                (long long)rows, (long long)readOne(positions, rows), (long long)nnz);
  for (int kind : {int(kColumnOutOfRange), int(kColumnsDecrease)}) {
    if (faults.first[kind] == none)
      continue;
    const int64_t entry = int64_t(faults.first[kind]);
    std::vector<Index> host(size_t(rows) + 1);
    cudaMemcpy(host.data(), positions, host.size() * sizeof(Index), cudaMemcpyDeviceToHost);
    const int64_t row =
        int64_t(std::upper_bound(host.begin(), host.end(), Index(entry)) - host.begin()) - 1;
    const long long column = (long long)readOne(coordinates, entry);
    if (kind == kColumnOutOfRange)
      return fail(error, size, kPrepare, "row %lld, entry %lld: column %lld outside [0, %lld)",
                  (long long)row, (long long)entry, column, (long long)cols);
    return fail(error, size, kPrepare,
                "row %lld, entry %lld: column %lld after column %lld (columns must not decrease "
                "within a row)",
                (long long)row, (long long)entry, column,
                (long long)readOne(coordinates, entry - 1));
  }
  return 0;
}

template <typename Index>
int prepareTyped(sopt_spmv_plan &plan, const sopt_spmv_options &options, cudaStream_t stream,
                 char *error, size_t size) {
  const Index *positions = static_cast<const Index *>(plan.positions);
  const Index *coordinates = static_cast<const Index *>(plan.coordinates);
  sopt_spmv_summary &s = plan.summary;
  const int64_t rows = s.rows, cols = s.cols, nnz = s.nnz;
  const size_t valueBytes = plan.valueType == SOPT_SPMV_F64 ? 8 : 4;
  cudaError_t status = cudaSuccess;
  auto cudaFailure = [&](const char *what) {
    return fail(error, size, kPrepare, "%s: %s", what, cudaGetErrorString(status));
  };

  // The pattern check.
  PatternFaults *faults = plan.allocate<PatternFaults>(1, status);
  PatternStats *stats = plan.allocate<PatternStats>(1, status);
  const int64_t longLimit = options.long_row_limit;
  const int64_t longCapacity = std::min<int64_t>(rows, nnz / (longLimit + 1) + 1);
  int32_t *longRowsFound = plan.allocate<int32_t>(longCapacity, status);
  if (status != cudaSuccess)
    return cudaFailure("allocating");
  cudaMemsetAsync(faults, 0xff, sizeof(PatternFaults), stream);
  cudaMemsetAsync(stats, 0, sizeof(PatternStats), stream);
  status = launchKernel(checkPositionsKernel<Index>, dim3(blocksFor(rows + 1, kThreads)),
                        dim3(kThreads), 0, stream, positions, rows, nnz, faults);
  PatternFaults found{};
  if (status == cudaSuccess)
    status = cudaMemcpyAsync(&found, faults, sizeof found, cudaMemcpyDeviceToHost, stream);
  if (status == cudaSuccess)
    status = cudaStreamSynchronize(stream);
  if (status != cudaSuccess)
    return cudaFailure("checking the positions");
  if (int failed = reportFault(found, positions, coordinates, rows, cols, nnz, error, size))
    return failed;
  if (rows > 0)
    status = launchKernel(checkColumnsKernel<Index>,
                          dim3(blocksFor(rows * kWarpSize, kThreads)), dim3(kThreads), 0,
                          stream, positions, coordinates, rows, cols, faults);
  if (status == cudaSuccess && rows > 0)
    status = launchKernel(patternStatsKernel<Index>, dim3(blocksFor(rows, kThreads)),
                          dim3(kThreads), 0, stream, positions, rows, longLimit, stats,
                          longRowsFound);
  PatternStats measured{};
  if (status == cudaSuccess)
    status = cudaMemcpyAsync(&found, faults, sizeof found, cudaMemcpyDeviceToHost, stream);
  if (status == cudaSuccess)
    status = cudaMemcpyAsync(&measured, stats, sizeof measured, cudaMemcpyDeviceToHost, stream);
  if (status == cudaSuccess)
    status = cudaStreamSynchronize(stream);
  if (status != cudaSuccess)
    return cudaFailure("checking the columns");
  if (int failed = reportFault(found, positions, coordinates, rows, cols, nnz, error, size))
    return failed;

  // Statistics and the kernel choice.
  s.mean_length = rows ? double(nnz) / double(rows) : 0;
  const double variance =
      rows ? std::max(0.0, measured.sumSquares / double(rows) - s.mean_length * s.mean_length)
           : 0;
  s.cov_length = s.mean_length > 0 ? std::sqrt(variance) / s.mean_length : 0;
  s.max_length = int64_t(measured.maxLength);
  s.empty_rows = int64_t(measured.emptyRows);
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  const bool fillsDevice = rows >= int64_t(kMinTilesPerSm) * kTileRows * sms;
  s.kernel = options.kernel != SOPT_SPMV_AUTO ? options.kernel
             : s.cov_length > options.max_regular_cov && fillsDevice ? SOPT_SPMV_HBP
                                                                      : SOPT_SPMV_ROW_VECTOR;
  const int64_t laneEntries =
      options.lane_entries > 0 ? options.lane_entries
      : s.kernel == SOPT_SPMV_ROW_VECTOR && plan.valueType == SOPT_SPMV_F64
          ? kRowVectorF64LaneEntries
          : int64_t(1) << kDefaultLaneEntriesLog2;
  int laneEntriesLog2 = 0;
  while ((int64_t(2) << laneEntriesLog2) <= laneEntries)
    ++laneEntriesLog2;
  s.lane_entries = 1 << laneEntriesLog2;

  if (s.kernel == SOPT_SPMV_ROW_VECTOR) {
    plan.rowVectorLanesLog2 = rowVectorLanesLog2(s.mean_length, laneEntriesLog2);
    s.row_vector_lanes = 1 << plan.rowVectorLanesLog2;
    // Enough blocks for every row's group, at most a few full waves.
    const int64_t groups = rows << plan.rowVectorLanesLog2;
    plan.rowVectorBlocks = int(std::min<int64_t>(blocksFor(groups, kThreads), int64_t(sms) * 16));
    return 0;
  }

  // The HBP layout: bands, tiles, then the tiles built on the device.
  HbpLayout<Index> &layout = layoutOf<Index>(plan);
  layout.rows = rows;
  layout.cols = cols;
  layout.longRowLimit = longLimit;
  layout.laneEntriesLog2 = laneEntriesLog2;
  const int64_t sharedColumns = options.shared_bytes / int64_t(valueBytes);
  int64_t bandCols = options.band_columns;
  if (bandCols <= 0)
    bandCols = cols <= sharedColumns ? cols
               : cols * int64_t(valueBytes) <= kL2BandBytes ? cols
                                                            : kL2BandBytes / int64_t(valueBytes);
  bandCols = std::max<int64_t>(bandCols, 1);
  layout.bandCols = bandCols;
  layout.bands = std::max<int64_t>(1, (cols + bandCols - 1) / bandCols);
  layout.rowBlocks = (rows + kTileRows - 1) / kTileRows;
  layout.tiles = layout.rowBlocks * layout.bands;
  const bool stageable = bandCols <= sharedColumns && options.schedule != SOPT_SPMV_BY_WARP_BATCH;
  const int64_t stageMinEntries =
      stageable ? std::max<int64_t>(1, std::min(bandCols, cols) / kStageColumnsPerEntry) : 0;
  plan.sharedBytes = stageable ? size_t(bandCols) * valueBytes : 0;

  const int64_t slots = layout.tiles * kTileRows;
  HbpTileOutputs<Index> out{};
  out.slotRow = plan.allocate<int32_t>(slots, status);
  out.segBegin = plan.allocate<Index>(slots, status);
  out.segEnd = plan.allocate<Index>(slots, status);
  out.batches = plan.allocate<uint32_t>(slots, status);
  out.batchCount = plan.allocate<int32_t>(layout.tiles, status);
  out.tileFlags = plan.allocate<uint8_t>(layout.tiles, status);
  plan.tileCounter = plan.allocate<unsigned long long>(1, status);
  if (layout.bands > 1)
    plan.bandPartials = plan.allocate<unsigned char>(layout.bands * rows * int64_t(valueBytes), status);
  if (status != cudaSuccess)
    return cudaFailure("allocating the layout");
  layout.slotRow = out.slotRow;
  layout.segBegin = out.segBegin;
  layout.segEnd = out.segEnd;
  layout.batches = out.batches;
  layout.batchCount = out.batchCount;
  layout.tileFlags = out.tileFlags;
  if (layout.tiles > 0)
    status = launchKernel(buildTilesKernel<Index>, dim3(unsigned(layout.tiles)), dim3(kTileRows),
                          0, stream, positions, coordinates, layout, out, stageMinEntries);
  if (status != cudaSuccess)
    return cudaFailure("building the tiles");

  // Long rows: their chunks, cut here (they are few).
  s.long_rows = int64_t(measured.longRows);
  if (s.long_rows > 0) {
    std::vector<int32_t> longRows(size_t(s.long_rows));
    status = cudaMemcpyAsync(longRows.data(), longRowsFound, longRows.size() * sizeof(int32_t),
                             cudaMemcpyDeviceToHost, stream);
    if (status == cudaSuccess)
      status = cudaStreamSynchronize(stream);
    std::sort(longRows.begin(), longRows.end());
    if (status == cudaSuccess)
      status = cudaMemcpy(longRowsFound, longRows.data(), longRows.size() * sizeof(int32_t),
                          cudaMemcpyHostToDevice);
    Index *bounds = plan.allocate<Index>(2 * s.long_rows, status);
    if (status == cudaSuccess)
      status = launchKernel(gatherRowBoundsKernel<Index>, dim3(blocksFor(s.long_rows, kThreads)),
                            dim3(kThreads), 0, stream, positions, longRowsFound, s.long_rows,
                            bounds);
    std::vector<Index> hostBounds(size_t(2 * s.long_rows));
    if (status == cudaSuccess)
      status = cudaMemcpyAsync(hostBounds.data(), bounds, hostBounds.size() * sizeof(Index),
                               cudaMemcpyDeviceToHost, stream);
    if (status == cudaSuccess)
      status = cudaStreamSynchronize(stream);
    std::vector<int32_t> owner, chunkStart{0};
    std::vector<Index> chunkBegin;
    for (int64_t i = 0; i < s.long_rows; ++i) {
      for (Index j = hostBounds[2 * i]; j < hostBounds[2 * i + 1]; j += Index(longLimit)) {
        owner.push_back(int32_t(i));
        chunkBegin.push_back(j);
      }
      chunkStart.push_back(int32_t(owner.size()));
    }
    int32_t *ownerDevice = plan.allocate<int32_t>(int64_t(owner.size()), status);
    Index *beginDevice = plan.allocate<Index>(int64_t(chunkBegin.size()), status);
    int32_t *startDevice = plan.allocate<int32_t>(int64_t(chunkStart.size()), status);
    plan.chunkPartials = plan.allocate<unsigned char>(int64_t(owner.size() * valueBytes), status);
    if (status == cudaSuccess)
      status = cudaMemcpy(ownerDevice, owner.data(), owner.size() * 4, cudaMemcpyHostToDevice);
    if (status == cudaSuccess)
      status = cudaMemcpy(beginDevice, chunkBegin.data(), chunkBegin.size() * sizeof(Index),
                          cudaMemcpyHostToDevice);
    if (status == cudaSuccess)
      status = cudaMemcpy(startDevice, chunkStart.data(), chunkStart.size() * 4,
                          cudaMemcpyHostToDevice);
    if (status != cudaSuccess)
      return cudaFailure("cutting the long rows");
    layout.longRowCount = s.long_rows;
    layout.chunkCount = int64_t(owner.size());
    layout.longRows = longRowsFound;
    layout.chunkOwner = ownerDevice;
    layout.chunkBegin = beginDevice;
    layout.longChunkStart = startDevice;
  }

  std::vector<uint8_t> flags(size_t(layout.tiles));
  if (layout.tiles > 0)
    status = cudaMemcpyAsync(flags.data(), out.tileFlags, flags.size(), cudaMemcpyDeviceToHost,
                             stream);
  if (status == cudaSuccess)
    status = cudaStreamSynchronize(stream);
  if (status != cudaSuccess)
    return cudaFailure("building the tiles");
  s.staged_tiles =
      std::count_if(flags.begin(), flags.end(), [](uint8_t f) { return f & kTileStagesX; });
  layout.byWarpBatch = options.schedule == SOPT_SPMV_BY_WARP_BATCH;
  if (s.staged_tiles == 0)
    plan.sharedBytes = 0;

  // The executing grid: as many blocks as fit at once, and no more than
  // the work needs.
  auto residentBlocks = [&](auto kernel) {
    // Asked for whenever a segment is staged: with the kernel's own
    // shared variables even 48 KiB of segment exceeds the default limit.
    if (status == cudaSuccess && plan.sharedBytes > 0)
      status = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    int(plan.sharedBytes));
    int perSm = 0;
    if (status == cudaSuccess)
      status = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, kExecWarps * kWarpSize,
                                                             plan.sharedBytes);
    return int64_t(std::max(perSm, 1)) * sms;
  };
  const bool f64 = plan.valueType == SOPT_SPMV_F64;
  if (layout.byWarpBatch) {
    // The flat batch list: per-tile offsets (a scan of tiles counts, here),
    // then the list written on the device.
    std::vector<int32_t> counts(size_t(layout.tiles));
    if (layout.tiles > 0)
      status = cudaMemcpy(counts.data(), out.batchCount, counts.size() * 4, cudaMemcpyDeviceToHost);
    std::vector<int64_t> offsets(size_t(layout.tiles) + 1, 0);
    for (size_t t = 0; t < counts.size(); ++t)
      offsets[t + 1] = offsets[t] + counts[t];
    layout.flatBatchCount = offsets.back();
    int64_t *offsetsDevice = plan.allocate<int64_t>(int64_t(offsets.size()), status);
    uint64_t *flat = plan.allocate<uint64_t>(layout.flatBatchCount, status);
    if (status == cudaSuccess)
      status = cudaMemcpy(offsetsDevice, offsets.data(), offsets.size() * 8, cudaMemcpyHostToDevice);
    if (status == cudaSuccess && layout.tiles > 0)
      status = launchKernel(flattenBatchesKernel<Index>, dim3(unsigned(layout.tiles)),
                            dim3(kTileRows), 0, stream, layout, offsetsDevice, flat);
    layout.flatBatches = flat;
    const int64_t resident = f64 ? residentBlocks(spmvHbpWarpKernel<double, Index>)
                                 : residentBlocks(spmvHbpWarpKernel<float, Index>);
    const int64_t warpsNeeded = std::max<int64_t>(1, layout.flatBatchCount);
    layout.executingBlocks = int(std::max<int64_t>(
        1, std::min(resident, (warpsNeeded + kExecWarps - 1) / kExecWarps)));
    layout.executingWarps = int64_t(layout.executingBlocks) * kExecWarps;
    layout.parallelBatchesPerWarp = int64_t(
        std::floor(options.parallel_share * double(layout.flatBatchCount) / layout.executingWarps));
  } else {
    const int64_t resident = f64 ? residentBlocks(spmvHbpKernel<double, Index>)
                                 : residentBlocks(spmvHbpKernel<float, Index>);
    layout.executingBlocks = int(std::max<int64_t>(1, std::min(resident, layout.tiles)));
    layout.parallelTilesPerBlock = int64_t(
        std::floor(options.parallel_share * double(layout.tiles) / layout.executingBlocks));
  }
  if (status == cudaSuccess)
    status = cudaStreamSynchronize(stream);
  if (status != cudaSuccess)
    return cudaFailure("configuring the kernel");
  s.bands = layout.bands;
  s.band_columns = layout.bandCols;
  s.tiles = layout.tiles;
  s.executing_blocks = layout.executingBlocks;
  s.parallel_tiles = layout.parallelTilesPerBlock * layout.executingBlocks;
  s.by_warp_batch = layout.byWarpBatch;
  s.warp_batches = layout.flatBatchCount;
  s.parallel_batches = layout.parallelBatchesPerWarp * layout.executingWarps;
  return 0;
}

template <typename T, typename Index>
cudaError_t runTyped(const sopt_spmv_plan &plan, const T *values, T alpha, const T *x, T beta,
                     T *y, cudaStream_t stream) {
  const Index *positions = static_cast<const Index *>(plan.positions);
  const Index *coordinates = static_cast<const Index *>(plan.coordinates);
  const sopt_spmv_summary &s = plan.summary;
  if (s.kernel == SOPT_SPMV_ROW_VECTOR)
    return launchKernel(spmvRowVectorKernel<T, Index>, dim3(plan.rowVectorBlocks), dim3(kThreads),
                        0, stream, s.rows, plan.rowVectorLanesLog2, positions, coordinates, values,
                        x, alpha, beta, y);
  const HbpLayout<Index> &layout = layoutOf<Index>(const_cast<sopt_spmv_plan &>(plan));
  T *bandPartials = static_cast<T *>(plan.bandPartials);
  cudaError_t status = cudaSuccess;
  if (layout.tiles > 0) {
    status = cudaMemsetAsync(plan.tileCounter, 0, sizeof(unsigned long long), stream);
    if (status == cudaSuccess && layout.byWarpBatch)
      status = launchKernel(spmvHbpWarpKernel<T, Index>, dim3(layout.executingBlocks),
                            dim3(kExecWarps * kWarpSize), 0, stream, layout, coordinates, values,
                            x, alpha, beta, y, bandPartials, plan.tileCounter);
    else if (status == cudaSuccess)
      status = launchKernel(spmvHbpKernel<T, Index>, dim3(layout.executingBlocks),
                            dim3(kExecWarps * kWarpSize), plan.sharedBytes, stream, layout,
                            coordinates, values, x, alpha, beta, y, bandPartials,
                            plan.tileCounter);
  }
  if (status == cudaSuccess && layout.bands > 1)
    status = launchKernel(spmvMergeBandsKernel<T, Index>, dim3(blocksFor(s.rows, kThreads)),
                          dim3(kThreads), 0, stream, positions, s.rows, layout.bands,
                          layout.longRowLimit, static_cast<const T *>(bandPartials), alpha, beta,
                          y);
  if (status == cudaSuccess && layout.chunkCount > 0) {
    T *chunkPartials = static_cast<T *>(plan.chunkPartials);
    status = launchKernel(spmvLongChunksKernel<T, Index>,
                          dim3(blocksFor(layout.chunkCount * kWarpSize, kThreads)), dim3(kThreads),
                          0, stream, layout, positions, coordinates, values, x, chunkPartials);
    if (status == cudaSuccess)
      status = launchKernel(spmvLongRowsKernel<T, Index>,
                            dim3(blocksFor(layout.longRowCount * kWarpSize, kThreads)),
                            dim3(kThreads), 0, stream, layout,
                            static_cast<const T *>(chunkPartials), alpha, beta, y);
  }
  return status;
}

inline int preparePlan(sopt_spmv_plan **plan, int64_t rows, int64_t cols, int64_t nnz,
                       const void *positions, const void *coordinates,
                       sopt_spmv_index_type index_type, sopt_spmv_value_type value_type,
                       const sopt_spmv_options *options, cudaStream_t stream, char *error,
                       size_t error_size) {
  if (!plan)
    return fail(error, error_size, kPrepare, "plan is NULL");
  *plan = nullptr;
  if (rows < 0 || cols < 0 || nnz < 0)
    return fail(error, error_size, kPrepare, "negative size (rows %lld, cols %lld, nnz %lld)",
                (long long)rows, (long long)cols, (long long)nnz);
  if (index_type != SOPT_SPMV_I32 && index_type != SOPT_SPMV_I64)
    return fail(error, error_size, kPrepare, "index_type %d is neither I32 nor I64",
                int(index_type));
  if (value_type != SOPT_SPMV_F32 && value_type != SOPT_SPMV_F64)
    return fail(error, error_size, kPrepare, "value_type %d is neither F32 nor F64",
                int(value_type));
  // Slots hold row numbers in 32 bits.
  if (rows >= INT32_MAX)
    return fail(error, error_size, kPrepare, "%lld rows: at most %d are supported",
                (long long)rows, INT32_MAX - 1);
  if (index_type == SOPT_SPMV_I32 && (nnz > INT32_MAX || cols > INT32_MAX))
    return fail(error, error_size, kPrepare,
                "nnz %lld or cols %lld beyond 32-bit indices: use SOPT_SPMV_I64",
                (long long)nnz, (long long)cols);
  if (!positions || !onDevice(positions))
    return fail(error, error_size, kPrepare, "positions is %s", positions ? "not device memory" : "NULL");
  if (nnz > 0 && (!coordinates || !onDevice(coordinates)))
    return fail(error, error_size, kPrepare, "coordinates is %s",
                coordinates ? "not device memory" : "NULL");
  sopt_spmv_options chosen{};
  if (options)
    chosen = *options;
  if (chosen.schedule != SOPT_SPMV_SCHEDULE_AUTO && chosen.schedule != SOPT_SPMV_BY_TILE &&
      chosen.schedule != SOPT_SPMV_BY_WARP_BATCH)
    return fail(error, error_size, kPrepare, "options->schedule %d is not a schedule",
                int(chosen.schedule));
  if (chosen.kernel != SOPT_SPMV_AUTO && chosen.kernel != SOPT_SPMV_HBP &&
      chosen.kernel != SOPT_SPMV_ROW_VECTOR)
    return fail(error, error_size, kPrepare, "options->kernel %d is not a kernel", int(chosen.kernel));
  if (chosen.band_columns < 0 || chosen.long_row_limit < 0 || chosen.shared_bytes < 0 ||
      !(chosen.parallel_share >= 0 && chosen.parallel_share <= 1) ||
      !(chosen.max_regular_cov >= 0) || chosen.lane_entries < 0 || chosen.lane_entries > 64 ||
      (chosen.lane_entries & (chosen.lane_entries - 1)) != 0)
    return fail(error, error_size, kPrepare,
                "options out of range (band_columns, long_row_limit, shared_bytes >= 0; "
                "parallel_share in [0, 1]; max_regular_cov >= 0; lane_entries a power of two "
                "up to 64, or 0)");
  if (chosen.long_row_limit == 0)
    chosen.long_row_limit = kDefaultLongRowLimit;
  if (chosen.shared_bytes == 0)
    chosen.shared_bytes = kDefaultSharedBytes;
  if (chosen.parallel_share == 0)
    chosen.parallel_share = kDefaultParallelShare;
  if (chosen.max_regular_cov == 0)
    chosen.max_regular_cov = kDefaultMaxRegularCov;
  int device = 0, sharedOptIn = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sharedOptIn, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  // The kernel's own shared variables need a few bytes beside the segment.
  chosen.shared_bytes = std::min<int64_t>(chosen.shared_bytes, sharedOptIn - 64);

  auto *made = new sopt_spmv_plan;
  made->summary.rows = rows;
  made->summary.cols = cols;
  made->summary.nnz = nnz;
  made->indexType = index_type;
  made->valueType = value_type;
  made->positions = positions;
  made->coordinates = coordinates;
  const int failed = index_type == SOPT_SPMV_I32
                         ? prepareTyped<int32_t>(*made, chosen, stream, error, error_size)
                         : prepareTyped<int64_t>(*made, chosen, stream, error, error_size);
  if (failed) {
    cudaStreamSynchronize(stream);
    delete made;
    return failed;
  }
  *plan = made;
  return 0;
}

inline int runPlan(const sopt_spmv_plan *plan, const void *values, double alpha, const void *x,
                   double beta, void *y, cudaStream_t stream, char *error, size_t error_size) {
  if (!plan)
    return fail(error, error_size, kRun, "plan is NULL");
  const sopt_spmv_summary &s = plan->summary;
  if (s.rows == 0)
    return 0;
  if (!y)
    return fail(error, error_size, kRun, "y is NULL");
  if (s.nnz > 0 && !values)
    return fail(error, error_size, kRun, "values is NULL");
  if (s.cols > 0 && s.nnz > 0 && !x)
    return fail(error, error_size, kRun, "x is NULL");
  cudaError_t status;
  const bool wide = plan->indexType == SOPT_SPMV_I64;
  if (plan->valueType == SOPT_SPMV_F64) {
    auto *v = static_cast<const double *>(values), *xs = static_cast<const double *>(x);
    auto *ys = static_cast<double *>(y);
    status = wide ? runTyped<double, int64_t>(*plan, v, alpha, xs, beta, ys, stream)
                  : runTyped<double, int32_t>(*plan, v, alpha, xs, beta, ys, stream);
  } else {
    auto *v = static_cast<const float *>(values), *xs = static_cast<const float *>(x);
    auto *ys = static_cast<float *>(y);
    status = wide ? runTyped<float, int64_t>(*plan, v, float(alpha), xs, float(beta), ys, stream)
                  : runTyped<float, int32_t>(*plan, v, float(alpha), xs, float(beta), ys, stream);
  }
  if (status != cudaSuccess)
    return fail(error, error_size, kRun, "launch failed: %s", cudaGetErrorString(status));
  return 0;
}

inline int describePlan(const sopt_spmv_plan *plan, sopt_spmv_summary *summary) {
  if (!plan || !summary)
    return 1;
  *summary = plan->summary;
  return 0;
}

inline void freePlan(sopt_spmv_plan *plan) {
  if (!plan)
    return;
  // Work queued on the plan's arrays must finish before they go.
  cudaDeviceSynchronize();
  delete plan;
}

} // namespace sopt::spmv::plan_detail

namespace sopt::spmv {
/// The C API's functions (SpmvPlan.h), as inline C++.
using plan_detail::describePlan;
using plan_detail::freePlan;
using plan_detail::preparePlan;
using plan_detail::runPlan;
} // namespace sopt::spmv

#endif // SPARSE_OPT_RUNTIME_HOST_SPMVPLANIMPL_CUH
