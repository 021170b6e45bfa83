//===- sparse_bench.cu - SpMM and SDDMM: ours, cuSPARSE and cuBLAS ---------===//
//
// Times the project's SpMM and SDDMM kernels (sopt::runSpmm / runSddmm with
// the schedules the compiler's heuristics choose) against cusparseSpMM,
// cusparseSDDMM and dense cuBLAS GEMMs on the same inputs, over sparse
// matrices read from .smtx/.mtx files. See benchmarks/sparse/README.md for
// what is measured and how; `sparse_bench --help` for the options.
//
// Build (prepare.sh does this): the host runtime sources
// lib/Runtime/{SparseIO,RowOrder,SparseSchedule}.cpp, and this file with
//   nvcc -O3 -std=c++17 -arch=sm_90a -Iinclude ... -lcusparse -lcublas
// Compiled as is, this file holds everything. To spread the long compile of
// the kernel instances over several cores, it can also be compiled three
// times with -DSOPT_BENCH_UNIT=1 (the program), =2 (the f32 kernels) and =3
// (the f16 kernels), and the three objects linked together.
//
//===----------------------------------------------------------------------===//

#include "sparse-opt/Runtime/Host/Launch.cuh"
#include "sparse-opt/Runtime/Device/OccupiedBlocks.cuh"
#include "sparse-opt/Runtime/Pattern/RowOrder.h"
#include "sparse-opt/Runtime/Pattern/SparseIO.h"
#include "sparse-opt/Runtime/Device/SparseRow.cuh"
#include "sparse-opt/Runtime/Schedule/SparseSchedule.h"

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

#ifndef SOPT_BENCH_UNIT
#define SOPT_BENCH_UNIT 0 // everything in this translation unit
#endif

namespace bench {

// Our kernels, through the run-time dispatch (every schedule that
// checkSpmmSchedule / checkSddmmSchedule accepts). Instantiated for float
// and __half only: each type compiles a few hundred kernel instances.
template <typename T>
cudaError_t oursSpmm(const sopt::SpmmSchedule &s, const sopt::CsrMatrix<T> &a, const T *b,
                     int64_t n, T *c, const int32_t *rowOrder, const sopt::RowSegments &segments,
                     cudaStream_t stream);
template <typename T>
cudaError_t oursSddmm(const sopt::SddmmSchedule &s, const sopt::CsrMatrix<T> &pattern,
                      const T *lhs, const T *rhs, int64_t k, bool transposeRhs, T *out,
                      const int32_t *rowOrder, const int32_t *columnWindows,
                      const int32_t *entryRows, T *workspace,
                      const sopt::OccupiedBlocks &occupied, const int32_t *panelOrder,
                      cudaStream_t stream);

} // namespace bench

#if SOPT_BENCH_UNIT != 1
#include "sparse-opt/Runtime/Kernels/SparseDispatch.cuh"

template <typename T>
cudaError_t bench::oursSpmm(const sopt::SpmmSchedule &s, const sopt::CsrMatrix<T> &a,
                            const T *b, int64_t n, T *c, const int32_t *rowOrder,
                            const sopt::RowSegments &segments, cudaStream_t stream) {
  return sopt::runSpmm<T>(s, a, b, n, c, rowOrder, stream, segments);
}

template <typename T>
cudaError_t bench::oursSddmm(const sopt::SddmmSchedule &s, const sopt::CsrMatrix<T> &pattern,
                             const T *lhs, const T *rhs, int64_t k, bool transposeRhs, T *out,
                             const int32_t *rowOrder, const int32_t *columnWindows,
                             const int32_t *entryRows, T *workspace,
                             const sopt::OccupiedBlocks &occupied, const int32_t *panelOrder,
                             cudaStream_t stream) {
  return sopt::runSddmm<T>(s, pattern, lhs, rhs, k, transposeRhs, out, rowOrder, stream,
                           columnWindows, entryRows, workspace, occupied, panelOrder);
}
#endif

#if SOPT_BENCH_UNIT == 0 || SOPT_BENCH_UNIT == 2
template cudaError_t bench::oursSpmm<float>(const sopt::SpmmSchedule &,
                                            const sopt::CsrMatrix<float> &, const float *,
                                            int64_t, float *, const int32_t *,
                                            const sopt::RowSegments &, cudaStream_t);
template cudaError_t bench::oursSddmm<float>(const sopt::SddmmSchedule &,
                                             const sopt::CsrMatrix<float> &, const float *,
                                             const float *, int64_t, bool, float *,
                                             const int32_t *, const int32_t *, const int32_t *,
                                             float *, const sopt::OccupiedBlocks &, const int32_t *,
                                             cudaStream_t);
#endif
#if SOPT_BENCH_UNIT == 0 || SOPT_BENCH_UNIT == 3
template cudaError_t bench::oursSpmm<__half>(const sopt::SpmmSchedule &,
                                             const sopt::CsrMatrix<__half> &, const __half *,
                                             int64_t, __half *, const int32_t *,
                                             const sopt::RowSegments &, cudaStream_t);
template cudaError_t bench::oursSddmm<__half>(const sopt::SddmmSchedule &,
                                              const sopt::CsrMatrix<__half> &, const __half *,
                                              const __half *, int64_t, bool, __half *,
                                              const int32_t *, const int32_t *, const int32_t *,
                                              __half *, const sopt::OccupiedBlocks &, const int32_t *,
                                              cudaStream_t);
#endif

#if SOPT_BENCH_UNIT == 0 || SOPT_BENCH_UNIT == 1
// ============================================================================
// The program.
// ============================================================================

#include "sparse-opt/Runtime/Host/Cusparse.h"

#include <cublas_v2.h>
#include <cusparse.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <optional>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#ifndef SOPT_BENCH_GIT
#define SOPT_BENCH_GIT "unknown"
#endif

namespace fs = std::filesystem;
using sopt::RowOrder;
using sopt::SddmmSchedule;
using sopt::SpmmSchedule;

#include "sparse_bench/options.h"
#include "sparse_bench/inputs.h"
#include "sparse_bench/device.h"
#include "sparse_bench/timer.h"
#include "sparse_bench/results.h"
#include "sparse_bench/schedule_grid.h"
#include "sparse_bench/bench.h"
#include "sparse_bench/bench_spmm.h"
#include "sparse_bench/bench_sddmm.h"
#include "sparse_bench/report.h"

int main(int argc, char **argv) {
  const Options o = parseOptions(argc, argv);

  // The device first: without one nothing else matters.
  int devices = 0;
  cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "sparse_bench: no CUDA device (cudaGetDeviceCount: %s)\n",
                 e != cudaSuccess ? cudaMessage(e).c_str() : "0 devices");
    return 3;
  }
  cudaDeviceProp prop{};
  if ((e = cudaGetDeviceProperties(&prop, 0)) != cudaSuccess || (e = cudaSetDevice(0)) != cudaSuccess) {
    std::fprintf(stderr, "sparse_bench: no usable CUDA device: %s\n", cudaMessage(e).c_str());
    return 3;
  }
  if (prop.major != 9 || prop.minor != 0) {
    std::fprintf(stderr,
                 "sparse_bench: this binary holds sm_90a code only; device 0 (%s) is sm_%d%d\n",
                 prop.name, prop.major, prop.minor);
    return 3;
  }

  sopt::setDependentLaunch(o.dependentLaunch);

  const std::vector<Input> inputs = collectInputs(o);
  if (inputs.empty()) {
    std::fprintf(stderr, "sparse_bench: no input matrix to measure\n");
    return 2;
  }
  std::error_code ec;
  fs::create_directories(o.out, ec);
  if (ec) {
    std::fprintf(stderr, "sparse_bench: cannot create %s: %s\n", o.out.c_str(),
                 ec.message().c_str());
    return 2;
  }

  Meta meta;
  meta.device = prop.name;
  meta.sms = prop.multiProcessorCount;
  meta.ccMajor = prop.major;
  meta.ccMinor = prop.minor;
  meta.l2Bytes = prop.l2CacheSize;
  meta.memoryBytes = prop.totalGlobalMem;
  meta.date = utcNow();
  meta.git = SOPT_BENCH_GIT;
  meta.commandLine = o.commandLine;
  cudaRuntimeGetVersion(&meta.runtime);
  cudaDriverGetVersion(&meta.driver);

  Results results;
  int measured = 0;
  try {
    cudaStream_t stream;
    CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    Bench bench(o, results, stream, size_t(prop.l2CacheSize));
    meta.cusparse = bench.cusparseVersion();
    meta.cublas = bench.cublasVersion();
    {
      // Busy the GPU for a moment first, so that the first matrix does not
      // meet it idling at low clocks.
      DeviceBuffer spin(size_t(64) << 20);
      const auto start = std::chrono::steady_clock::now();
      for (uint64_t i = 0; std::chrono::steady_clock::now() - start < std::chrono::milliseconds(300); ++i) {
        for (int j = 0; j < 10; ++j)
          fillUniform(spin.as<float>(), int64_t(16) << 20, i * 10 + j, stream);
        CUDA_TRY(cudaStreamSynchronize(stream));
      }
    }
    std::fprintf(stderr, "sparse_bench: %s, CUDA %s, cuSPARSE %s, cuBLAS %s; %zu matri%s\n",
                 prop.name, cudaVersionText(meta.runtime).c_str(),
                 cusparseVersionText(meta.cusparse).c_str(),
                 cublasVersionText(meta.cublas).c_str(), inputs.size(),
                 inputs.size() == 1 ? "x" : "ces");

    for (size_t i = 0; i < inputs.size(); ++i) {
      MatrixRecord record;
      record.name = inputs[i].name;
      record.path = inputs[i].path;
      char error[512] = "";
      sopt_csr csr{};
      if (sopt_csr_read(inputs[i].path.c_str(), &csr, error, sizeof(error)) != 0) {
        std::fprintf(stderr, "[%zu/%zu] %s\n", i + 1, inputs.size(), error);
        std::fprintf(stderr, "sparse_bench: skipped %s\n", inputs[i].path.c_str());
        record.error = error;
        results.matrices.push_back(record);
        continue;
      }
      record.read = true;
      record.rows = csr.rows;
      record.cols = csr.cols;
      record.nnz = csr.nnz;
      record.sparsity = csr.rows && csr.cols ? 1.0 - double(csr.nnz) / (double(csr.rows) * csr.cols)
                                             : NAN;
      record.stats = sopt_csr_row_stats(csr.positions, csr.rows);
      const int index = int(results.matrices.size());
      const bool explore =
          o.explore && (o.exploreAll || index % std::max(o.exploreEvery, 1) == 0);
      record.explored = explore;
      results.matrices.push_back(record);

      std::string line;
      try {
        DeviceMatrix m;
        m.index = index;
        m.rows = csr.rows;
        m.cols = csr.cols;
        m.nnz = csr.nnz;
        m.stats = sopt::sparsityStats(csr.positions, csr.coordinates, csr.rows, csr.cols);
        // The row order (longest rows first) is prepared once per pattern
        // on the host, as generated code does; not timed.
        std::vector<int32_t> order(csr.rows);
        sopt_csr_row_order(csr.positions, csr.rows, order.data());
        m.positions.allocate((csr.rows + 1) * sizeof(int32_t));
        m.coordinates.allocate(csr.nnz * sizeof(int32_t));
        m.rowOrder.allocate(csr.rows * sizeof(int32_t));
        CUDA_TRY(cudaMemcpyAsync(m.positions.get(), csr.positions, m.positions.bytes(),
                                 cudaMemcpyHostToDevice, stream));
        CUDA_TRY(cudaMemcpyAsync(m.coordinates.get(), csr.coordinates, m.coordinates.bytes(),
                                 cudaMemcpyHostToDevice, stream));
        CUDA_TRY(cudaMemcpyAsync(m.rowOrder.get(), order.data(), m.rowOrder.bytes(),
                                 cudaMemcpyHostToDevice, stream));
        m.hostPositions.assign(csr.positions, csr.positions + csr.rows + 1);
        m.hostCoordinates.assign(csr.coordinates, csr.coordinates + csr.nnz);
        m.hostOrder = order;
        // So are the SDDMM dense blocks' column windows, for either block size.
        for (int block : {32, 64}) {
          std::vector<int32_t> windows(sopt_csr_column_windows_size(csr.rows, csr.cols, block));
          sopt_csr_column_windows(csr.positions, csr.coordinates, csr.rows, csr.cols, block,
                                  windows.data());
          uploadTable(block == 32 ? m.windows32 : m.windows64, windows);
          // And the blocks holding entries, which the dense blocks launch
          // (counted in m.stats).
          const int64_t count = block == 32 ? m.stats.occupiedBlocks32 : m.stats.occupiedBlocks64;
          std::vector<int32_t> list(size_t(std::max<int64_t>(count, 0)));
          sopt_csr_occupied_blocks(csr.positions, csr.coordinates, csr.rows, csr.cols, block,
                                   list.data());
          uploadTable(block == 32 ? m.occupied32 : m.occupied64, list);
          std::vector<int32_t> listedWindows(list.size() * 2 * size_t(block));
          sopt_csr_block_windows(csr.positions, csr.coordinates, csr.rows, csr.cols, block,
                                 list.data(), int64_t(list.size()), listedWindows.data());
          uploadTable(block == 32 ? m.blockWindows32 : m.blockWindows64, listedWindows);
        }
        // And the row of every entry, for the SDDMM tiles.
        std::vector<int32_t> entryRows(csr.nnz);
        sopt_csr_entry_rows(csr.positions, csr.rows, entryRows.data());
        uploadTable(m.entryRows, entryRows);
        CUDA_TRY(cudaStreamSynchronize(stream));
        sopt_csr_free(&csr);
        line = bench.run(m, explore);
        ++measured;
      } catch (const BenchError &err) {
        sopt_csr_free(&csr);
        results.matrices[index].error = err.what();
        std::fprintf(stderr, "sparse_bench: %s: %s\n", inputs[i].name.c_str(), err.what());
        if (deviceBroken()) {
          results.fatal = "device error on " + inputs[i].name + ": " + err.what();
          std::fprintf(stderr, "sparse_bench: the CUDA context is broken; stopping\n");
          break;
        }
      }
      std::fprintf(stderr, "[%zu/%zu] %s (%lldx%lld, %.1f%%)  %s\n", i + 1, inputs.size(),
                   inputs[i].name.c_str(), (long long)record.rows, (long long)record.cols,
                   100 * record.sparsity, line.c_str());
    }
  } catch (const BenchError &err) {
    results.fatal = err.what();
    std::fprintf(stderr, "sparse_bench: %s\n", err.what());
  }

  const std::vector<Summary> sums = summarize(results);
  const fs::path out(o.out);
  writeText(out / "sparse.json", json(results, meta, o, sums));
  writeText(out / "sparse.csv", csv(results));
  writeText(out / "sparse.md", markdown(results, meta, o, sums));
  if (o.explore)
    writeText(out / "sparse_explore.csv", exploreCsv(results));
  std::fprintf(stderr, "sparse_bench: wrote %s/{sparse.json,sparse.csv,sparse.md%s}\n",
               o.out.c_str(), o.explore ? ",sparse_explore.csv" : "");

  // The ratios last on stdout.
  std::printf("%s, %s\n\n%s", meta.device.c_str(), meta.date.c_str(),
              summaryMarkdown(results, sums).c_str());
  std::fflush(stdout);

  // Nothing measured: no matrix could be read, or no timing succeeded.
  const bool anyTiming = std::any_of(results.measurements.begin(), results.measurements.end(),
                                     [](const Measurement &m) { return m.timing.ok; });
  if (measured == 0 || !anyTiming) {
    std::fprintf(stderr, "sparse_bench: nothing could be measured\n");
    return 2;
  }
  return results.checkFailed || !results.fatal.empty() ? 1 : 0;
}

#endif // SOPT_BENCH_UNIT == 0 || SOPT_BENCH_UNIT == 1
