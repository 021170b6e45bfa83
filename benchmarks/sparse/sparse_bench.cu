//===- sparse_bench.cu - SpMM and SDDMM: ours, cuSPARSE and cuBLAS ---------===//
//
// Times the project's SpMM and SDDMM kernels (sopt::runSpmm / runSddmm with
// the schedules the compiler's heuristics choose) against cusparseSpMM,
// cusparseSDDMM and dense cuBLAS GEMMs on the same inputs, over sparse
// matrices read from .smtx/.mtx files. See benchmarks/sparse/README.md for
// what is measured and how; `sparse_bench --help` for the options.
//
// Build (prepare.sh does this): the host runtime sources
// lib/Runtime/*.cpp but CsrTranspose.cpp, and this file with
//   nvcc -O3 -std=c++17 -arch=sm_90a -Iinclude ... -lcusparse -lcublas
// Compiled as is, this file holds everything. To spread the long compile of
// the kernel instances over several cores, it can also be compiled three
// times with -DSOPT_BENCH_UNIT=1 (the program), =2 (the f32 kernels) and =3
// (the f16 kernels), and the three objects linked together.
//
//===----------------------------------------------------------------------===//

#include "sparse-opt/Runtime/Launch.cuh"
#include "sparse-opt/Runtime/OccupiedBlocks.cuh"
#include "sparse-opt/Runtime/RowOrder.h"
#include "sparse-opt/Runtime/SparseIO.h"
#include "sparse-opt/Runtime/SparseRow.cuh"
#include "sparse-opt/Runtime/SparseSchedule.h"

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
#include "sparse-opt/Runtime/SparseDispatch.cuh"

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

#include "sparse-opt/Runtime/Cusparse.h"

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

namespace {

// ----------------------------------------------------------------------------
// Errors
// ----------------------------------------------------------------------------

/// A failure of one measurement (or of the device: see deviceBroken()).
struct BenchError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string cudaMessage(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")";
}

#define CUDA_TRY(expr)                                                                   \
  do {                                                                                   \
    cudaError_t status_ = (expr);                                                        \
    if (status_ != cudaSuccess)                                                          \
      throw BenchError(std::string(#expr) + ": " + cudaMessage(status_));                \
  } while (0)

#define CUSPARSE_TRY(expr)                                                               \
  do {                                                                                   \
    cusparseStatus_t status_ = (expr);                                                   \
    if (status_ != CUSPARSE_STATUS_SUCCESS)                                              \
      throw BenchError(std::string(#expr) + ": " + cusparseGetErrorString(status_));     \
  } while (0)

#define CUBLAS_TRY(expr)                                                                 \
  do {                                                                                   \
    cublasStatus_t status_ = (expr);                                                     \
    if (status_ != CUBLAS_STATUS_SUCCESS)                                                \
      throw BenchError(std::string(#expr) + ": " + cublasGetStatusString(status_));      \
  } while (0)

/// After an error: whether the CUDA context is unusable (a sticky error such
/// as an illegal address), so that nothing more can be measured.
bool deviceBroken() {
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess)
    e = cudaGetLastError();
  else
    cudaGetLastError();
  // Non-sticky errors are cleared by cudaGetLastError; a second sync shows
  // whether the error stays.
  return e != cudaSuccess && cudaDeviceSynchronize() != cudaSuccess;
}

// ----------------------------------------------------------------------------
// Options
// ----------------------------------------------------------------------------

struct Options {
  std::vector<std::string> inputs;
  std::string out = "sparse-out";
  bool spmm = true, sddmm = true;
  bool sddmmAb = false; // D = (A·B) ⊙ S, B[k, n]
  std::vector<int64_t> ns = {256, 1024};
  std::vector<int64_t> ks = {256, 1024};
  bool f32 = true, f16 = true;
  bool dense = true;
  int samples = 31;
  double minSampleUs = 50;
  double warmupUs = 2000;
  int maxLaunches = 4096;
  bool graphs = true;
  bool flushL2 = false;
  bool dependentLaunch = true; // our kernels as programmatic dependent launches
  bool everyBlock = false; // SDDMM dense blocks over every block of the shape
  uint64_t seed = 20261122;
  bool explore = false, exploreAll = false;
  int exploreEvery = 4;
  std::vector<int> exploreSegments; // empty: the heuristic's segments
  std::vector<RowOrder> exploreRowOrders; // SpMM row tiles; empty: the heuristic's
  int limit = 0;
  std::string match;
  std::string commandLine;
};

const char *kUsage = R"(usage: sparse_bench [options] PATH...

Times SpMM (C = A·B, A sparse) and SDDMM (D = (A·Bᵀ) ⊙ S, S sparse) of our
kernels against cuSPARSE and dense cuBLAS over every .smtx/.mtx matrix under
each directory PATH (recursively) and every file PATH named; on request also
SDDMM with B not transposed (sddmm_ab: D = (A·B) ⊙ S, B[k, n] row-major).

  --out=DIR            output folder (default sparse-out): sparse.json,
                       sparse.csv, sparse.md, sparse_explore.csv
  --ops=LIST           spmm,sddmm,sddmm_ab (default spmm,sddmm)
  --n=LIST             SpMM dense columns N (default 256,1024)
  --k=LIST             SDDMM inner dimension K (default 256,1024)
  --types=LIST         f32,f16 (default both)
  --no-dense           skip the dense cuBLAS baselines
  --samples=S          timed samples per measurement, median reported (default 31)
  --min-sample-us=U    launches per sample so that a sample lasts >= U us (default 50)
  --warmup-us=U        warm-up per measurement, in us of work (default 2000)
  --no-graph           launch directly instead of replaying a CUDA graph
  --flush-l2           write a buffer twice the L2 size before every sample and
                       time one launch per sample (cold-L2 timing)
  --no-dependent-launch
                       launch our kernels plainly instead of as programmatic
                       dependent launches (sm_90+; see Launch.cuh), to measure
                       what those save
  --every-block        launch the SDDMM dense blocks over every block of the
                       pattern's shape, not only the occupied ones (ablation)
  --seed=N             seed of the random values (default 20261122)
  --explore            also time a grid of alternative schedules of our kernels
                       on every 4th matrix (--explore-every=E for every E-th)
  --explore-all        ... on every matrix
  --explore-segments=LIST
                       time the grid's unsplit row tiles (rows by length, by
                       row) once per segment length in LIST (0: rows whole)
                       instead of in the heuristic's segments; split row
                       tiles are left out
  --explore-row-orders=LIST
                       time the SpMM grid's row tiles and slices in each row
                       order of LIST (natural, by_length) instead of only in
                       the heuristic's
  --match=SUBSTR       only matrices whose name contains SUBSTR
  --limit=M            only the first M matrices (after --match)
  --help               this text

Exit status: 0 all measured and every check passed; 1 a correctness check
failed or a device error stopped the run (results are still written); 2 bad
usage, or no matrix could be read/measured; 3 no usable CUDA device.
)";

[[noreturn]] void usageError(const std::string &message) {
  std::fprintf(stderr, "sparse_bench: %s\n(see sparse_bench --help)\n", message.c_str());
  std::exit(2);
}

std::vector<std::string> splitList(const std::string &list) {
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    if (comma == std::string::npos)
      comma = list.size();
    if (comma > start)
      items.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

int64_t parseInteger(const std::string &text, const std::string &option, int64_t lo,
                     int64_t hi) {
  char *end = nullptr;
  errno = 0;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end || errno || v < lo || v > hi)
    usageError(option + ": expected an integer in [" + std::to_string(lo) + ", " +
               std::to_string(hi) + "], got '" + text + "'");
  return v;
}

double parseNumber(const std::string &text, const std::string &option) {
  char *end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end || !(v >= 0) || !std::isfinite(v))
    usageError(option + ": expected a non-negative number, got '" + text + "'");
  return v;
}

Options parseOptions(int argc, char **argv) {
  Options o;
  for (int i = 0; i < argc; ++i)
    o.commandLine += (i ? " " : "") + std::string(argv[i]);
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0) {
      o.inputs.push_back(arg);
      continue;
    }
    size_t eq = arg.find('=');
    std::string key = arg.substr(0, eq);
    std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    bool hasValue = eq != std::string::npos;
    auto needValue = [&] {
      if (!hasValue)
        usageError(key + " needs a value (" + key + "=...)");
    };
    auto noValue = [&] {
      if (hasValue)
        usageError(key + " takes no value");
    };
    if (key == "--help" || key == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (key == "--out") {
      needValue();
      o.out = value;
    } else if (key == "--ops") {
      needValue();
      o.spmm = o.sddmm = o.sddmmAb = false;
      for (const std::string &op : splitList(value)) {
        if (op == "spmm")
          o.spmm = true;
        else if (op == "sddmm")
          o.sddmm = true;
        else if (op == "sddmm_ab")
          o.sddmmAb = true;
        else
          usageError("--ops: unknown op '" + op + "' (spmm, sddmm, sddmm_ab)");
      }
    } else if (key == "--n" || key == "--k") {
      needValue();
      std::vector<int64_t> sizes;
      for (const std::string &s : splitList(value))
        sizes.push_back(parseInteger(s, key, 1, 1 << 16));
      if (sizes.empty())
        usageError(key + ": empty list");
      (key == "--n" ? o.ns : o.ks) = sizes;
    } else if (key == "--types") {
      needValue();
      o.f32 = o.f16 = false;
      for (const std::string &t : splitList(value)) {
        if (t == "f32")
          o.f32 = true;
        else if (t == "f16")
          o.f16 = true;
        else
          usageError("--types: unknown type '" + t + "' (f32, f16)");
      }
    } else if (key == "--no-dense") {
      noValue();
      o.dense = false;
    } else if (key == "--samples") {
      needValue();
      o.samples = int(parseInteger(value, key, 1, 10000));
    } else if (key == "--min-sample-us") {
      needValue();
      o.minSampleUs = parseNumber(value, key);
    } else if (key == "--warmup-us") {
      needValue();
      o.warmupUs = parseNumber(value, key);
    } else if (key == "--no-graph") {
      noValue();
      o.graphs = false;
    } else if (key == "--flush-l2") {
      noValue();
      o.flushL2 = true;
    } else if (key == "--no-dependent-launch") {
      noValue();
      o.dependentLaunch = false;
    } else if (key == "--every-block") {
      noValue();
      o.everyBlock = true;
    } else if (key == "--seed") {
      needValue();
      o.seed = uint64_t(parseInteger(value, key, 0, INT64_MAX));
    } else if (key == "--explore") {
      noValue();
      o.explore = true;
    } else if (key == "--explore-all") {
      noValue();
      o.explore = o.exploreAll = true;
    } else if (key == "--explore-every") {
      needValue();
      o.explore = true;
      o.exploreEvery = int(parseInteger(value, key, 1, 1 << 20));
    } else if (key == "--explore-segments") {
      needValue();
      o.explore = true;
      for (const std::string &item : splitList(value))
        o.exploreSegments.push_back(int(parseInteger(item, key, 0, 1 << 30)));
      if (o.exploreSegments.empty())
        usageError(key + ": empty list");
    } else if (key == "--explore-row-orders") {
      needValue();
      o.explore = true;
      for (const std::string &item : splitList(value)) {
        if (item == "natural")
          o.exploreRowOrders.push_back(RowOrder::Natural);
        else if (item == "by_length")
          o.exploreRowOrders.push_back(RowOrder::ByLength);
        else
          usageError(key + ": expects natural or by_length, got '" + item + "'");
      }
      if (o.exploreRowOrders.empty())
        usageError(key + ": empty list");
    } else if (key == "--match") {
      needValue();
      o.match = value;
    } else if (key == "--limit") {
      needValue();
      o.limit = int(parseInteger(value, key, 1, 1 << 30));
    } else {
      usageError("unknown option " + key);
    }
  }
  if (!o.spmm && !o.sddmm && !o.sddmmAb)
    usageError("--ops: nothing to measure");
  if (!o.f32 && !o.f16)
    usageError("--types: nothing to measure");
  if (o.inputs.empty())
    usageError("no input: name a directory of .smtx/.mtx files or the files themselves");
  return o;
}

// ----------------------------------------------------------------------------
// Inputs
// ----------------------------------------------------------------------------

struct Input {
  std::string path, name;
};

std::string lowercase(std::string s) {
  for (char &c : s)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool isMatrixFile(const fs::path &p) {
  const std::string ext = lowercase(p.extension().string());
  return ext == ".smtx" || ext == ".mtx";
}

/// The deepest directory holding every directory among `inputs` (itself
/// when there is one): matrices are named relative to it, so that
/// magnitude_pruning/0.9 and random_pruning/0.9 given together keep their
/// files' names apart.
fs::path namingRoot(const std::vector<std::string> &inputs) {
  std::optional<fs::path> root;
  for (const std::string &arg : inputs) {
    std::error_code ec;
    if (!fs::is_directory(arg, ec))
      continue;
    const fs::path dir = fs::absolute(arg, ec).lexically_normal();
    if (!root) {
      root = dir;
      continue;
    }
    while (!root->empty() && dir.lexically_relative(*root).string().rfind("..", 0) == 0)
      *root = root->parent_path() == *root ? fs::path() : root->parent_path();
  }
  return root.value_or(fs::path());
}

/// Every .smtx/.mtx under each directory (sorted, named by the path relative
/// to namingRoot, without the extension) and every file named (named by its
/// path without the extension; the reader reports a missing or unreadable
/// one).
std::vector<Input> collectInputs(const Options &o) {
  std::vector<Input> inputs;
  const fs::path root = namingRoot(o.inputs);
  for (const std::string &arg : o.inputs) {
    std::error_code ec;
    if (fs::is_directory(arg, ec)) {
      std::vector<fs::path> files;
      fs::recursive_directory_iterator it(
          arg, fs::directory_options::skip_permission_denied, ec),
          end;
      if (ec) {
        std::fprintf(stderr, "sparse_bench: %s: cannot list the directory: %s\n", arg.c_str(),
                     ec.message().c_str());
        continue;
      }
      for (; it != end; it.increment(ec)) {
        if (ec)
          break;
        if (it->is_regular_file(ec) && isMatrixFile(it->path()))
          files.push_back(it->path());
      }
      std::sort(files.begin(), files.end());
      if (files.empty())
        std::fprintf(stderr, "sparse_bench: %s: no .smtx or .mtx files in it\n", arg.c_str());
      for (const fs::path &f : files) {
        fs::path rel = fs::absolute(f, ec).lexically_normal().lexically_relative(root);
        rel.replace_extension();
        inputs.push_back({f.string(), rel.generic_string()});
      }
    } else {
      fs::path p(arg);
      fs::path name = p.lexically_normal();
      name.replace_extension();
      inputs.push_back({arg, name.generic_string()});
    }
  }
  if (!o.match.empty())
    inputs.erase(std::remove_if(inputs.begin(), inputs.end(),
                                [&](const Input &in) {
                                  return in.name.find(o.match) == std::string::npos;
                                }),
                 inputs.end());
  if (o.limit > 0 && int(inputs.size()) > o.limit)
    inputs.resize(o.limit);
  return inputs;
}

// ----------------------------------------------------------------------------
// Device memory and helper kernels
// ----------------------------------------------------------------------------

class DeviceBuffer {
public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes) { allocate(bytes); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  DeviceBuffer(DeviceBuffer &&other) noexcept { *this = std::move(other); }
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept {
    std::swap(data_, other.data_);
    std::swap(bytes_, other.bytes_);
    return *this;
  }
  ~DeviceBuffer() {
    if (data_)
      cudaFree(data_);
  }
  void allocate(size_t bytes) {
    if (data_)
      cudaFree(data_);
    data_ = nullptr;
    bytes_ = bytes;
    // At least one byte, so that empty arrays still have a valid address.
    CUDA_TRY(cudaMalloc(&data_, std::max<size_t>(bytes, 16)));
  }
  template <typename T> T *as() const { return static_cast<T *>(data_); }
  void *get() const { return data_; }
  size_t bytes() const { return bytes_; }

private:
  void *data_ = nullptr;
  size_t bytes_ = 0;
};

unsigned gridFor(int64_t count, int threads = 256) {
  int64_t blocks = (count + threads - 1) / threads;
  return unsigned(std::clamp<int64_t>(blocks, 1, 132 * 32));
}

__device__ __forceinline__ uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// Uniform values in [-1, 1), a function of (seed, index) alone: the f16
/// inputs are the f32 inputs of the same seed, rounded.
template <typename T> __global__ void fillUniformKernel(T *data, int64_t count, uint64_t seed) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x) {
    const uint64_t bits = mix64(seed ^ mix64(uint64_t(i)));
    const float u = float(bits >> 40) * (1.0f / 16777216.0f);
    data[i] = sopt::fromFloat<T>(2.0f * u - 1.0f);
  }
}

template <typename T> void fillUniform(T *data, int64_t count, uint64_t seed, cudaStream_t s) {
  if (count == 0)
    return;
  fillUniformKernel<T><<<gridFor(count), 256, 0, s>>>(data, count, seed);
  CUDA_TRY(cudaGetLastError());
}

/// dense[row * cols + column] = value for every entry (dense zeroed first).
template <typename T>
__global__ void densifyKernel(const int32_t *positions, const int32_t *coordinates,
                              const T *values, int64_t rows, int64_t cols, T *dense) {
  for (int64_t row = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; row < rows;
       row += int64_t(gridDim.x) * blockDim.x)
    for (int32_t e = positions[row]; e < positions[row + 1]; ++e)
      dense[row * cols + coordinates[e]] = values[e];
}

template <typename T> __global__ void toFloatKernel(const T *in, float *out, int64_t count) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x)
    out[i] = sopt::toFloat(in[i]);
}

/// sums[0] += Σ (x - r)², sums[1] += Σ r², r = ref · scale (scale optional),
/// in double. A NaN or Inf anywhere makes the result NaN/Inf.
template <typename X, typename R, typename S>
__global__ void errorNormsKernel(const X *x, const R *ref, const S *scale, int64_t count,
                                 double *sums) {
  double diff2 = 0, ref2 = 0;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x) {
    double r = sopt::toFloat(ref[i]);
    if (scale)
      r *= sopt::toFloat(scale[i]);
    const double d = double(sopt::toFloat(x[i])) - r;
    diff2 += d * d;
    ref2 += r * r;
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    diff2 += __shfl_down_sync(0xffffffffu, diff2, offset);
    ref2 += __shfl_down_sync(0xffffffffu, ref2, offset);
  }
  if (threadIdx.x % 32 == 0) {
    atomicAdd(&sums[0], diff2);
    atomicAdd(&sums[1], ref2);
  }
}

/// ‖x − ref·scale‖ / ‖ref·scale‖ over `count` elements.
template <typename X, typename R, typename S = float>
double relativeError(const X *x, const R *ref, int64_t count, cudaStream_t stream,
                     const S *scale = nullptr) {
  static DeviceBuffer sums(2 * sizeof(double));
  CUDA_TRY(cudaMemsetAsync(sums.get(), 0, 2 * sizeof(double), stream));
  if (count > 0) {
    errorNormsKernel<X, R, S><<<gridFor(count), 256, 0, stream>>>(x, ref, scale, count,
                                                                   sums.as<double>());
    CUDA_TRY(cudaGetLastError());
  }
  double host[2];
  CUDA_TRY(cudaMemcpyAsync(host, sums.get(), sizeof(host), cudaMemcpyDeviceToHost, stream));
  CUDA_TRY(cudaStreamSynchronize(stream));
  if (host[1] == 0)
    return host[0] == 0 ? 0.0 : INFINITY;
  return std::sqrt(host[0]) / std::sqrt(host[1]);
}

/// Fills our outputs with all-ones bytes: NaN in f32 and f16 alike, so that
/// an element our kernel never writes fails the check.
void poison(void *data, size_t bytes, cudaStream_t stream) {
  CUDA_TRY(cudaMemsetAsync(data, 0xff, bytes, stream));
}

/// Fills a library's output with large finite values (0x7b bytes: about
/// 1.3e36 in f32, 60800 in f16) before its checked call: an element it
/// never writes still shows as a mismatch, and a library that computes
/// beta·C with beta = 0 still gets 0 (NaN·0 would not).
void poisonFinite(void *data, size_t bytes, cudaStream_t stream) {
  CUDA_TRY(cudaMemsetAsync(data, 0x7b, bytes, stream));
}

// ----------------------------------------------------------------------------
// Types
// ----------------------------------------------------------------------------

template <typename T> struct TypeInfo;
template <> struct TypeInfo<float> {
  static constexpr const char *name = "f32";
  static constexpr cudaDataType cuda = CUDA_R_32F;
  static constexpr double tolerance = 1e-3;
};
template <> struct TypeInfo<__half> {
  static constexpr const char *name = "f16";
  static constexpr cudaDataType cuda = CUDA_R_16F;
  static constexpr double tolerance = 1e-2;
};

/// Tolerances of the dense baselines against cuSPARSE.
constexpr double kTf32Tolerance = 1e-2;

// ----------------------------------------------------------------------------
// Timing
// ----------------------------------------------------------------------------

/// One call of an implementation on `stream`; an empty string on success,
/// else what failed. Must only enqueue work (it may be captured in a graph).
using Call = std::function<std::string(cudaStream_t)>;

struct Timing {
  bool ok = false;
  std::string error;
  std::string mode; // "graph" or "stream"
  std::string note; // why a graph could not be used, if so
  int launches = 0; // calls per sample
  std::vector<double> samplesUs; // per-call time of each sample
  double medianUs = NAN, minUs = NAN, maxUs = NAN;
};

double median(std::vector<double> v) {
  if (v.empty())
    return NAN;
  std::sort(v.begin(), v.end());
  size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

class Timer {
public:
  Timer(const Options &o, cudaStream_t stream, size_t l2Bytes) : o(o), stream(stream) {
    if (o.flushL2)
      flush.allocate(std::max<size_t>(2 * l2Bytes, 64u << 20));
  }
  ~Timer() {
    for (cudaEvent_t e : events)
      cudaEventDestroy(e);
    destroyGraph();
  }

  Timing time(const Call &call) {
    Timing t;
    destroyGraph();
    // The first call: errors surface here, and module loading and library
    // set-up stay out of the samples.
    std::string error = call(stream);
    if (!error.empty()) {
      t.error = error;
      return t;
    }
    CUDA_TRY(cudaStreamSynchronize(stream));

    // Calls per sample: enough for a sample of at least minSampleUs (one
    // call per sample when the L2 is flushed before each).
    useGraph = o.graphs;
    int launches = 1, captured = 0;
    double sampleUs = 0;
    for (int attempt = 0;; ++attempt) {
      if (useGraph && captured != launches) {
        std::string why;
        if (capture(call, launches, why)) {
          captured = launches;
        } else {
          useGraph = false;
          t.note = "graph capture failed (" + why + "); timed direct launches";
        }
      }
      std::vector<double> trial;
      for (int r = 0; r < 3; ++r)
        trial.push_back(runSamples(call, launches, 1)[0]);
      sampleUs = median(trial);
      // (The samples below use the batch just measured.)
      if (o.flushL2 || sampleUs >= o.minSampleUs || launches >= o.maxLaunches || attempt >= 12)
        break;
      const double want = o.minSampleUs * 1.2 / std::max(sampleUs, 1e-3) * launches;
      launches = int(std::min<double>(o.maxLaunches,
                                      std::max<double>(2.0 * launches, std::ceil(want))));
    }
    // Warm-up, then the samples.
    const int warm =
        int(std::clamp(std::ceil(o.warmupUs / std::max(sampleUs, 1e-3)), 2.0, 1000.0));
    runSamples(call, launches, warm);
    std::vector<double> samples = runSamples(call, launches, o.samples);
    destroyGraph();
    for (double &s : samples)
      s /= launches;
    t.ok = true;
    t.mode = useGraph ? "graph" : "stream";
    t.launches = launches;
    t.samplesUs = samples;
    t.medianUs = median(samples);
    t.minUs = *std::min_element(samples.begin(), samples.end());
    t.maxUs = *std::max_element(samples.begin(), samples.end());
    return t;
  }

private:
  void destroyGraph() {
    if (exec)
      cudaGraphExecDestroy(exec);
    exec = nullptr;
  }

  /// Captures `launches` calls into `exec`; false (with the reason) when
  /// the calls cannot be captured.
  bool capture(const Call &call, int launches, std::string &why) {
    destroyGraph();
    cudaGraph_t graph = nullptr;
    cudaError_t e = cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
    if (e != cudaSuccess) {
      why = "cudaStreamBeginCapture: " + cudaMessage(e);
      cudaGetLastError();
      return false;
    }
    std::string error;
    for (int i = 0; i < launches && error.empty(); ++i)
      error = call(stream);
    e = cudaStreamEndCapture(stream, &graph);
    if (error.empty() && e == cudaSuccess && graph) {
      e = cudaGraphInstantiate(&exec, graph, 0);
      if (e != cudaSuccess) {
        exec = nullptr;
        error = "cudaGraphInstantiate: " + cudaMessage(e);
      }
    } else if (error.empty()) {
      error = "cudaStreamEndCapture: " + cudaMessage(e);
    }
    if (graph)
      cudaGraphDestroy(graph);
    cudaGetLastError(); // capture errors are not sticky
    if (!error.empty()) {
      why = error;
      return false;
    }
    return true;
  }

  void launchBatch(const Call &call, int launches) {
    if (useGraph) {
      CUDA_TRY(cudaGraphLaunch(exec, stream));
      return;
    }
    for (int i = 0; i < launches; ++i) {
      std::string error = call(stream);
      if (!error.empty())
        throw BenchError(error);
    }
  }

  /// `count` samples of `launches` calls each, enqueued back to back; the
  /// time of each sample in µs.
  std::vector<double> runSamples(const Call &call, int launches, int count) {
    while (events.size() < size_t(2 * count)) {
      cudaEvent_t e;
      CUDA_TRY(cudaEventCreate(&e));
      events.push_back(e);
    }
    for (int i = 0; i < count; ++i) {
      if (o.flushL2)
        CUDA_TRY(cudaMemsetAsync(flush.get(), i & 0xff, flush.bytes(), stream));
      CUDA_TRY(cudaEventRecord(events[2 * i], stream));
      launchBatch(call, launches);
      CUDA_TRY(cudaEventRecord(events[2 * i + 1], stream));
    }
    CUDA_TRY(cudaStreamSynchronize(stream));
    std::vector<double> us(count);
    for (int i = 0; i < count; ++i) {
      float ms = 0;
      CUDA_TRY(cudaEventElapsedTime(&ms, events[2 * i], events[2 * i + 1]));
      us[i] = 1000.0 * ms;
    }
    return us;
  }

  const Options &o;
  cudaStream_t stream;
  DeviceBuffer flush;
  std::vector<cudaEvent_t> events;
  cudaGraphExec_t exec = nullptr;
  bool useGraph = true;
};

// ----------------------------------------------------------------------------
// Results
// ----------------------------------------------------------------------------

struct MatrixRecord {
  std::string name, path, error;
  int64_t rows = 0, cols = 0, nnz = 0;
  double sparsity = NAN;
  sopt_row_stats stats{};
  bool read = false, explored = false;
};

struct Measurement {
  int matrix = -1;
  std::string op, type; // "spmm"/"sddmm"/"sddmm_ab", "f32"/"f16"
  int64_t size = 0;     // N (SpMM) or K (SDDMM)
  std::string impl;     // ours, cusparse, cublas, cublas_tf32
  std::string schedule, scheduleJson;
  Timing timing;
  double relErr = NAN, relErrAfter = NAN, tolerance = NAN;
  std::string reference; // what the output was compared with
  std::string check;     // ok, FAIL, unchecked
  std::string error, note;
  bool usable() const { return timing.ok && check != "FAIL"; }
};

struct ExploreRecord {
  int matrix = -1;
  std::string op, type;
  int64_t size = 0;
  std::string schedule, scheduleJson;
  bool heuristic = false;
  double medianUs = NAN, relErr = NAN;
  std::string status; // ok, FAIL, refused, error
};

struct ExploreSummary {
  int matrix = -1;
  std::string op, type;
  int64_t size = 0;
  int tried = 0, passed = 0, failed = 0;
  std::string heuristicSchedule, heuristicScheduleJson;
  double heuristicUs = NAN;          // the main measurement
  double heuristicInGridUs = NAN;    // the same schedule timed within the grid
  std::string bestSchedule, bestScheduleJson;
  double bestUs = NAN;
};

struct Results {
  std::vector<MatrixRecord> matrices;
  std::vector<Measurement> measurements;
  std::vector<ExploreRecord> explored;
  std::vector<ExploreSummary> exploreSummaries;
  bool checkFailed = false;
  std::string fatal;
};

// ----------------------------------------------------------------------------
// Schedules as text
// ----------------------------------------------------------------------------

std::string describe(const SpmmSchedule &s) {
  if (s.tiling == sopt::SpmmTiling::DenseBlocks)
    return "dense_blocks" + std::to_string(s.blockRows) + "x" + std::to_string(s.tileColumns);
  if (s.tiling == sopt::SpmmTiling::StagedSlices)
    return "staged_slices" + std::to_string(s.tileColumns) + "/vw" +
           std::to_string(s.vectorWidth) + "/tpb" + std::to_string(s.tilesPerBlock) + "/" +
           sopt::rowOrderName(s.rowOrder);
  std::string text = "tpt" + std::to_string(s.threadsPerTile) + "/cpt" +
                     std::to_string(s.columnsPerThread()) + "/vw" +
                     std::to_string(s.vectorWidth) + "/tpb" +
                     std::to_string(s.tilesPerBlock) + "/" + sopt::rowOrderName(s.rowOrder);
  if (s.rowSplits > 1)
    text += "/split" + std::to_string(s.rowSplits);
  if (s.tileOrder == sopt::TileOrder::ByColumn)
    text += "/by_column";
  if (s.rowSegment > 0)
    text += "/seg" + std::to_string(s.rowSegment);
  return text;
}

std::string toJson(const SpmmSchedule &s) {
  if (s.tiling == sopt::SpmmTiling::DenseBlocks)
    return "{\"tiling\": \"dense_blocks\", \"block_rows\": " + std::to_string(s.blockRows) +
           ", \"tile_columns\": " + std::to_string(s.tileColumns) + "}";
  if (s.tiling == sopt::SpmmTiling::StagedSlices)
    return "{\"tiling\": \"staged_slices\", \"tile_columns\": " + std::to_string(s.tileColumns) +
           ", \"vector_width\": " + std::to_string(s.vectorWidth) +
           ", \"tiles_per_block\": " + std::to_string(s.tilesPerBlock) +
           ", \"row_order\": \"" + sopt::rowOrderName(s.rowOrder) + "\"}";
  return "{\"tile_columns\": " + std::to_string(s.tileColumns) +
         ", \"threads_per_tile\": " + std::to_string(s.threadsPerTile) +
         ", \"columns_per_thread\": " + std::to_string(s.columnsPerThread()) +
         ", \"vector_width\": " + std::to_string(s.vectorWidth) +
         ", \"tiles_per_block\": " + std::to_string(s.tilesPerBlock) +
         ", \"threads_per_block\": " + std::to_string(s.threadsPerBlock()) +
         ", \"row_order\": \"" + sopt::rowOrderName(s.rowOrder) + "\"" +
         ", \"row_splits\": " + std::to_string(s.rowSplits) + ", \"tile_order\": \"" +
         (s.tileOrder == sopt::TileOrder::ByColumn ? "by_column" : "by_row") + "\"" +
         ", \"row_segment\": " + std::to_string(s.rowSegment) + "}";
}

std::string describe(const SddmmSchedule &s, bool transposeRhs = true) {
  // (A · B) ⊙ S: "bt+" when B is transposed first, "gather/..." otherwise.
  const std::string first = s.transposeRhsFirst ? "bt+" : "";
  if (!transposeRhs && !s.transposeRhsFirst)
    return "gather/tpb" + std::to_string(s.tilesPerBlock) + "/" +
           sopt::rowOrderName(s.rowOrder);
  if (s.tiling == sopt::SddmmTiling::DenseBlocks)
    return first + "dense_blocks" + std::to_string(s.blockSize) +
           (s.kSplits > 1 ? "/k_splits" + std::to_string(s.kSplits) : "");
  return first + "tpn" + std::to_string(s.threadsPerNonzero) + "/tile" +
         std::to_string(s.tileNonzeros) + "/vw" + std::to_string(s.vectorWidth) + "/tpb" +
         std::to_string(s.tilesPerBlock) + "/" + sopt::rowOrderName(s.rowOrder) +
         (s.columnPanel > 0 ? "/panel" + std::to_string(s.columnPanel) : "");
}

std::string toJson(const SddmmSchedule &s) {
  const std::string first =
      s.transposeRhsFirst ? ", \"transpose_rhs_first\": true}" : "}";
  if (s.tiling == sopt::SddmmTiling::DenseBlocks)
    return "{\"tiling\": \"dense_blocks\", \"block_size\": " + std::to_string(s.blockSize) +
           ", \"k_splits\": " + std::to_string(s.kSplits) + first;
  return "{\"tiling\": \"nonzeros\", \"threads_per_nonzero\": " + std::to_string(s.threadsPerNonzero) +
         ", \"tile_nonzeros\": " + std::to_string(s.tileNonzeros) +
         ", \"vector_width\": " + std::to_string(s.vectorWidth) +
         ", \"tiles_per_block\": " + std::to_string(s.tilesPerBlock) +
         ", \"row_order\": \"" + sopt::rowOrderName(s.rowOrder) + "\"" +
         (s.columnPanel > 0 ? ", \"column_panel\": " + std::to_string(s.columnPanel) : "") +
         first;
}

/// The grid --explore times for SpMM: every schedule checkSpmmSchedule
/// accepts with 8..32 lanes per tile, 1..16 columns per lane, the widest
/// vector those allow, blocks of 64, 128 or 256 threads,
/// rows split 1..8 ways, both tile orders; rows in `order` (exploreSpmm
/// passes the heuristic's, or each of --explore-row-orders: the DLMC
/// sweeps never preferred rows in order where they differ);
/// the dense tensor-core blocks of 32 or 64 rows and columns; and
/// staged slices of B 16 to 128 columns wide (in chunks of k where needed), in vectors of
/// 1, 2 or 4 (4 to 32 lanes a row), blocks of 256 or 1024 threads.
std::vector<SpmmSchedule> spmmGrid(int64_t n, int elementBytes, RowOrder order) {
  std::vector<SpmmSchedule> grid;
  for (int columns : {16, 32, 64, 128})
    for (int vector : {1, 2, 4})
      for (int block : {256, sopt::kMaxStagedSliceThreads}) {
        SpmmSchedule s;
        s.tiling = sopt::SpmmTiling::StagedSlices;
        s.tileColumns = columns;
        s.vectorWidth = vector;
        s.threadsPerTile = columns / vector;
        s.tilesPerBlock = block / std::max(s.threadsPerTile, 1);
        s.rowOrder = order;
        if (sopt::checkSpmmSchedule(s, n, elementBytes).empty())
          grid.push_back(s);
      }
  for (int rows : {32, 64})
    for (int columns : {32, 64, 128}) {
      const SpmmSchedule blocks = sopt::spmmDenseBlocks(rows, columns);
      if (sopt::checkSpmmSchedule(blocks, n, elementBytes).empty())
        grid.push_back(blocks);
    }
  for (int threads : {8, 16, 32})
    for (int columns : {1, 2, 4, 8, 16})
      for (int vector : {1, 2, 4})
        for (int block : {64, 128, 256})
          for (int splits : {1, 2, 4, 8})
            for (sopt::TileOrder tiles : {sopt::TileOrder::ByRow, sopt::TileOrder::ByColumn}) {
              SpmmSchedule s;
              s.threadsPerTile = threads;
              s.tileColumns = threads * columns;
              s.vectorWidth = vector;
              s.rowSplits = splits;
              s.tilesPerBlock = block / (threads * splits);
              s.rowOrder = order;
              s.tileOrder = tiles;
              const int widest = std::min({columns, 16 / elementBytes,
                                           n % 4 == 0 ? 4 : n % 2 == 0 ? 2 : 1});
              if (vector == widest && s.tilesPerBlock >= 1 &&
                  sopt::checkSpmmSchedule(s, n, elementBytes).empty())
                grid.push_back(s);
            }
  return grid;
}

/// The grid for SDDMM (B transposed): 1..32 lanes per output, tiles of one
/// or two outputs per lane group or of 32 nonzeros (one output per lane,
/// the transposed butterfly), vectors of 1, 2 or 4, 2/4/8 warps per
/// block, either row order; those checkSddmmSchedule accepts; and the dense
/// tensor-core blocks of 32 x 32 and 64 x 64, k whole or split in two.
/// For (A · B) ⊙ S (not `transposeRhs`): the gather, in both row orders and
/// with 2-8 warps per block, and each of those with B transposed first.
std::vector<SddmmSchedule> sddmmGrid(int64_t k, int elementBytes, bool transposeRhs = true) {
  std::vector<SddmmSchedule> grid;
  if (!transposeRhs) {
    for (int warps : {2, 4, 8})
      for (RowOrder order : {RowOrder::Natural, RowOrder::ByLength}) {
        SddmmSchedule gather;
        gather.threadsPerNonzero = 1;
        gather.vectorWidth = 1;
        gather.tilesPerBlock = warps;
        gather.rowOrder = order;
        grid.push_back(gather);
      }
    for (SddmmSchedule s : sddmmGrid(k, elementBytes)) {
      s.transposeRhsFirst = true;
      grid.push_back(s);
    }
    return grid;
  }
  for (int side : {32, 64})
    for (int splits : {1, 2}) {
      SddmmSchedule blocks;
      blocks.tiling = sopt::SddmmTiling::DenseBlocks;
      blocks.blockSize = side;
      blocks.kSplits = splits;
      grid.push_back(blocks);
    }
  for (int threads : {1, 2, 4, 8, 16, 32}) {
    for (int tile : sopt::dispatchedSddmmTiles(threads))
      for (int vector : {1, 2, 4})
        for (int warps : {2, 4, 8})
          for (RowOrder order : {RowOrder::Natural, RowOrder::ByLength}) {
            SddmmSchedule s;
            s.threadsPerNonzero = threads;
            s.tileNonzeros = tile;
            s.vectorWidth = vector;
            s.tilesPerBlock = warps;
            s.rowOrder = order;
            if (sopt::checkSddmmSchedule(s, k, true, elementBytes).empty())
              grid.push_back(s);
          }
  }
  // Tiles of 32 taken by column panels, one block per SM of 16 or 32 warps.
  for (int threads : {8, 16, 32})
    for (int panel : {64, 128, 256})
      for (int warps : {16, 32}) {
        SddmmSchedule s;
        s.threadsPerNonzero = threads;
        s.tileNonzeros = 32;
        s.vectorWidth = std::min(4, 16 / elementBytes);
        s.tilesPerBlock = warps;
        s.columnPanel = panel;
        if (sopt::checkSddmmSchedule(s, k, true, elementBytes).empty())
          grid.push_back(s);
      }
  return grid;
}

bool sameSchedule(const SpmmSchedule &a, const SpmmSchedule &b) {
  if (a.tiling != b.tiling)
    return false;
  if (a.tiling == sopt::SpmmTiling::DenseBlocks)
    return a.blockRows == b.blockRows && a.tileColumns == b.tileColumns;
  if (a.tiling == sopt::SpmmTiling::StagedSlices)
    return a.tileColumns == b.tileColumns && a.vectorWidth == b.vectorWidth &&
           a.tilesPerBlock == b.tilesPerBlock && a.rowOrder == b.rowOrder;
  return a.tileColumns == b.tileColumns && a.threadsPerTile == b.threadsPerTile &&
         a.tilesPerBlock == b.tilesPerBlock && a.vectorWidth == b.vectorWidth &&
         a.rowOrder == b.rowOrder && a.rowSplits == b.rowSplits &&
         a.tileOrder == b.tileOrder && a.rowSegment == b.rowSegment;
}
bool sameSchedule(const SddmmSchedule &a, const SddmmSchedule &b) {
  if (a.tiling != b.tiling || a.transposeRhsFirst != b.transposeRhsFirst)
    return false;
  if (a.tiling == sopt::SddmmTiling::DenseBlocks)
    return a.blockSize == b.blockSize && a.kSplits == b.kSplits;
  return a.tileNonzeros == b.tileNonzeros && a.threadsPerNonzero == b.threadsPerNonzero &&
         a.tilesPerBlock == b.tilesPerBlock && a.vectorWidth == b.vectorWidth &&
         a.rowOrder == b.rowOrder && a.columnPanel == b.columnPanel;
}

// ----------------------------------------------------------------------------
// The benchmark
// ----------------------------------------------------------------------------

/// A table prepared once per pattern on the host, copied into `buffer`
/// and complete on the device when this returns: a copy from pageable
/// memory may return before its DMA lands, and the products run on a
/// non-blocking stream that does not wait for the legacy stream (a panel
/// order prepared right before its first call was once read half copied).
void uploadTable(DeviceBuffer &buffer, const std::vector<int32_t> &host) {
  buffer.allocate(std::max<size_t>(host.size(), 1) * sizeof(int32_t));
  CUDA_TRY(cudaMemcpy(buffer.get(), host.data(), host.size() * sizeof(int32_t),
                      cudaMemcpyHostToDevice));
  CUDA_TRY(cudaDeviceSynchronize());
}

/// A matrix's pattern on the device, shared by every product measured on it.
struct DeviceMatrix {
  int index = 0;
  int64_t rows = 0, cols = 0, nnz = 0;
  DeviceBuffer positions, coordinates, rowOrder;
  /// sopt_csr_column_windows for the SDDMM dense blocks of 32 and 64, the
  /// blocks of each size holding entries (sopt_csr_occupied_blocks) and
  /// their windows (sopt_csr_block_windows).
  /// (Their number is in `stats`.)
  DeviceBuffer windows32, windows64, occupied32, occupied64, blockWindows32, blockWindows64;
  /// sopt_csr_entry_rows for the SDDMM tiles of nonzeros.
  DeviceBuffer entryRows;
  sopt::SparsityStats stats;
  /// The pattern's positions, columns and row order on the host, for the
  /// SpMM long rows' segments and the SDDMM tiles' column-panel orders
  /// (prepared on first use per segment length or panel, not timed).
  std::vector<int32_t> hostPositions, hostCoordinates, hostOrder;
  std::map<int, DeviceBuffer> panelOrders;
  struct Segments {
    DeviceBuffer table, partials;
    int64_t count = 0, rows = 0;
  };
  std::map<int, Segments> segments;

  /// The long rows' segments of `entries` entries for n output columns
  /// (none when no row is that long).
  sopt::RowSegments rowSegments(int entries, int64_t n) {
    if (entries <= 0)
      return {};
    auto [at, added] = segments.try_emplace(entries);
    Segments &g = at->second;
    if (added) {
      g.count = sopt_csr_row_segments(hostPositions.data(), hostOrder.data(), rows, entries,
                                      &g.rows, nullptr);
      std::vector<int32_t> table(2 * g.count + g.rows + 1);
      sopt_csr_row_segments(hostPositions.data(), hostOrder.data(), rows, entries, &g.rows,
                            table.data());
      uploadTable(g.table, table);
    }
    // Grown only between products of different n: no call holds the old one.
    const size_t partials = size_t(g.count) * size_t(n) * sizeof(float);
    if (g.partials.bytes() < partials || !g.partials.get())
      g.partials.allocate(partials);
    if (g.count == 0)
      return {};
    return {g.table.as<int32_t>(), g.count, g.rows, entries, g.partials.as<float>()};
  }

  /// sopt_csr_panel_order for panels of `panel` columns (none for 0).
  const int32_t *panelOrder(int panel) {
    if (panel <= 0)
      return nullptr;
    auto [at, added] = panelOrders.try_emplace(panel);
    if (added) {
      std::vector<int32_t> order(static_cast<size_t>(nnz));
      sopt_csr_panel_order(hostPositions.data(), hostCoordinates.data(), rows, cols, panel,
                           order.data());
      uploadTable(at->second, order);
    }
    return at->second.as<int32_t>();
  }

  /// The windows the dense blocks read: the listed blocks' with `occupied`.
  const int32_t *columnWindows(int blockSize, const sopt::OccupiedBlocks &occupied) const {
    if (occupied.given())
      return (blockSize == 32 ? blockWindows32 : blockWindows64).as<int32_t>();
    return (blockSize == 32 ? windows32 : windows64).as<int32_t>();
  }
  /// Given, as the generated code gives it, only where some blocks of the
  /// shape are empty (and every block index fits int32).
  sopt::OccupiedBlocks occupiedBlocks(int blockSize) const {
    const int64_t count = blockSize == 32 ? stats.occupiedBlocks32 : stats.occupiedBlocks64;
    if (!sopt::launchesOccupiedBlocks(count, rows, cols, blockSize))
      return {};
    return {(blockSize == 32 ? occupied32 : occupied64).as<int32_t>(), count};
  }
};

std::string cusparseMessage(const char *what, cusparseStatus_t s) {
  return std::string(what) + ": " + cusparseGetErrorString(s);
}

class Bench {
public:
  Bench(const Options &o, Results &r, cudaStream_t stream, size_t l2Bytes)
      : o(o), results(r), stream(stream), timer(o, stream, l2Bytes) {
    CUSPARSE_TRY(cusparseCreate(&sparse));
    CUSPARSE_TRY(cusparseSetStream(sparse, stream));
    CUBLAS_TRY(cublasCreate(&blas));
    CUBLAS_TRY(cublasSetStream(blas, stream));
    // A workspace of our own, so that captured GEMMs allocate nothing.
    blasWorkspace.allocate(64u << 20);
    CUBLAS_TRY(cublasSetWorkspace(blas, blasWorkspace.get(), blasWorkspace.bytes()));
  }
  ~Bench() {
    cublasDestroy(blas);
    cusparseDestroy(sparse);
  }

  int cusparseVersion() {
    int v = 0;
    cusparseGetVersion(sparse, &v);
    return v;
  }
  int cublasVersion() {
    int v = 0;
    cublasGetVersion(blas, &v);
    return v;
  }

  /// Every product of one matrix; a line of ratios for the progress report.
  /// An error in one product (say, memory for the dense baseline) is
  /// recorded and the next product goes on, unless the device is broken.
  std::string run(DeviceMatrix &m, bool explore) {
    std::string line;
    auto add = [&](const char *op, const char *type, int64_t size, auto &&product) {
      std::string part;
      try {
        part = product();
      } catch (const BenchError &e) {
        if (deviceBroken())
          throw;
        part = std::string(op) + " " + type + " " + (op[1] == 'p' ? "n" : "k") +
               std::to_string(size) + " ERROR";
        std::fprintf(stderr, "sparse_bench: %s %s %lld on %s: %s\n", op, type,
                     (long long)size, results.matrices[m.index].name.c_str(), e.what());
        bool marked = false;
        for (Measurement &meas : results.measurements)
          if (meas.matrix == m.index && meas.op == op && meas.type == type &&
              meas.size == size && !meas.timing.ok && meas.error.empty()) {
            meas.error = e.what();
            marked = true;
          }
        if (!marked)
          results.measurements[record(m, op, type, size, "ours")].error = e.what();
      }
      line += (line.empty() ? "" : " | ") + part;
    };
    if (o.spmm)
      for (int64_t n : o.ns) {
        if (o.f32)
          add("spmm", "f32", n, [&] { return spmm<float>(m, n, explore); });
        if (o.f16)
          add("spmm", "f16", n, [&] { return spmm<__half>(m, n, explore); });
      }
    if (o.sddmm)
      for (int64_t k : o.ks) {
        if (o.f32)
          add("sddmm", "f32", k, [&] { return sddmm<float>(m, k, explore); });
        if (o.f16)
          add("sddmm", "f16", k, [&] { return sddmm<__half>(m, k, explore); });
      }
    if (o.sddmmAb)
      for (int64_t k : o.ks) {
        if (o.f32)
          add("sddmm_ab", "f32", k, [&] { return sddmm<float>(m, k, explore, false); });
        if (o.f16)
          add("sddmm_ab", "f16", k, [&] { return sddmm<__half>(m, k, explore, false); });
      }
    return line;
  }

private:
  uint64_t seedFor(const DeviceMatrix &m, int purpose) const {
    return o.seed * 0x100000001b3ull ^ (uint64_t(m.index) << 8) ^ uint64_t(purpose);
  }

  /// Appends a measurement; its index (the vector may grow later, so
  /// measurements are referred to by index).
  size_t record(const DeviceMatrix &m, const char *op, const char *type, int64_t size,
                const std::string &impl) {
    Measurement meas;
    meas.matrix = m.index;
    meas.op = op;
    meas.type = type;
    meas.size = size;
    meas.impl = impl;
    results.measurements.push_back(meas);
    return results.measurements.size() - 1;
  }

  /// Sets the check fields of `meas` from a relative error.
  void judge(Measurement &meas, double err, double tolerance, const std::string &reference) {
    meas.relErr = err;
    meas.tolerance = tolerance;
    meas.reference = reference;
    meas.check = err <= tolerance ? "ok" : "FAIL";
    if (meas.check == "FAIL") {
      results.checkFailed = true;
      std::fprintf(stderr,
                   "sparse_bench: CHECK FAILED: %s %s %s=%lld %s on %s: relative error %.3g "
                   "> %.0e (vs %s)\n",
                   meas.op.c_str(), meas.type.c_str(), meas.op == "spmm" ? "N" : "K",
                   (long long)meas.size, meas.impl.c_str(),
                   results.matrices[meas.matrix].name.c_str(), err, tolerance,
                   reference.c_str());
    }
  }

  static std::string ratioText(const Measurement *ours, const Measurement *peer,
                               const char *label) {
    if (!ours || !peer || !ours->timing.ok || !peer->timing.ok)
      return "";
    char text[64];
    std::snprintf(text, sizeof(text), " %.2fx %s", peer->timing.medianUs / ours->timing.medianUs,
                  label);
    return text;
  }

  // --------------------------------------------------------------------------
  // SpMM: C[m, n] = A[m, k] · B[k, n], A in CSR, B and C row-major.
  // --------------------------------------------------------------------------
  template <typename T> std::string spmm(DeviceMatrix &m, int64_t n, bool explore) {
    using Info = TypeInfo<T>;
    const int64_t rows = m.rows, k = m.cols, nnz = m.nnz;
    const char *type = Info::name;
    const size_t cBytes = size_t(rows) * n * sizeof(T);

    DeviceBuffer values(nnz * sizeof(T)), b(size_t(k) * n * sizeof(T));
    fillUniform(values.as<T>(), nnz, seedFor(m, 1), stream);
    fillUniform(b.as<T>(), k * n, seedFor(m, 2), stream);
    sopt::CsrMatrix<T> a;
    a.rows = rows;
    a.cols = k;
    a.nnz = nnz;
    a.positions = m.positions.as<int32_t>();
    a.coordinates = m.coordinates.as<int32_t>();
    a.values = values.as<T>();

    // --- ours: the schedule the compiler would choose for this matrix.
    const SpmmSchedule schedule = sopt::chooseSpmmSchedule(m.stats, n, sizeof(T));
    DeviceBuffer cOurs(cBytes);
    const int32_t *order = m.rowOrder.as<int32_t>();
    auto oursWith = [&](const SpmmSchedule &s) -> Call {
      const sopt::RowSegments segments = m.rowSegments(s.rowSegment, n);
      return [&, s, segments](cudaStream_t st) -> std::string {
        cudaError_t e =
            bench::oursSpmm<T>(s, a, b.as<T>(), n, cOurs.as<T>(), order, segments, st);
        return e == cudaSuccess ? "" : "sopt::runSpmm: " + cudaMessage(e);
      };
    };
    const Call ours = oursWith(schedule);

    // --- cuSPARSE: CSR times row-major dense, ALG_DEFAULT, f32 compute.
    DeviceBuffer cSparse(cBytes), sparseBuffer;
    sopt::CusparseCsr descA;
    sopt::CusparseDnMat descB, descC;
    const float alpha = 1.0f, beta = 0.0f;
    std::string sparseError, sparseNote;
    {
      cusparseStatus_t s = cusparseCreateCsr(
          &descA.descriptor, rows, k, nnz, m.positions.get(), m.coordinates.get(),
          values.get(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
          Info::cuda);
      if (s == CUSPARSE_STATUS_SUCCESS)
        s = cusparseCreateDnMat(&descB.descriptor, k, n, n, b.get(), Info::cuda,
                                CUSPARSE_ORDER_ROW);
      if (s == CUSPARSE_STATUS_SUCCESS)
        s = cusparseCreateDnMat(&descC.descriptor, rows, n, n, cSparse.get(), Info::cuda,
                                CUSPARSE_ORDER_ROW);
      size_t bytes = 0;
      if (s == CUSPARSE_STATUS_SUCCESS)
        s = cusparseSpMM_bufferSize(sparse, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                    CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, descA.descriptor,
                                    descB.descriptor, &beta, descC.descriptor, CUDA_R_32F,
                                    CUSPARSE_SPMM_ALG_DEFAULT, &bytes);
      if (s != CUSPARSE_STATUS_SUCCESS) {
        sparseError = cusparseMessage("cusparseSpMM set-up", s);
      } else {
        sparseBuffer.allocate(bytes);
        s = cusparseSpMM_preprocess(sparse, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                    CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, descA.descriptor,
                                    descB.descriptor, &beta, descC.descriptor, CUDA_R_32F,
                                    CUSPARSE_SPMM_ALG_DEFAULT, sparseBuffer.get());
        if (s != CUSPARSE_STATUS_SUCCESS)
          sparseNote = cusparseMessage("cusparseSpMM_preprocess (ignored)", s);
      }
    }
    const Call cusparse = [&](cudaStream_t) -> std::string {
      cusparseStatus_t s = cusparseSpMM(
          sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
          descA.descriptor, descB.descriptor, &beta, descC.descriptor, CUDA_R_32F,
          CUSPARSE_SPMM_ALG_DEFAULT, sparseBuffer.get());
      return s == CUSPARSE_STATUS_SUCCESS ? "" : cusparseMessage("cusparseSpMM", s);
    };

    // --- cuBLAS on A densified. Row-major C = A·B is column-major
    // Cᵀ = Bᵀ·Aᵀ: GEMM of (n x k)·(k x m) with B and A as stored.
    DeviceBuffer dense, cDense, cTf32;
    auto gemm = [&](cublasComputeType_t compute, DeviceBuffer *out) -> Call {
      return [&, compute, out](cudaStream_t) -> std::string {
        cublasStatus_t s = cublasGemmEx(blas, CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(rows),
                                        int(k), &alpha, b.get(), Info::cuda, int(n),
                                        dense.get(), Info::cuda, int(k), &beta, out->get(),
                                        Info::cuda, int(n), compute, CUBLAS_GEMM_DEFAULT);
        return s == CUBLAS_STATUS_SUCCESS
                   ? ""
                   : std::string("cublasGemmEx: ") + cublasGetStatusString(s);
      };
    };
    const bool withTf32 = std::is_same_v<T, float>;
    if (o.dense) {
      dense.allocate(size_t(rows) * k * sizeof(T));
      CUDA_TRY(cudaMemsetAsync(dense.get(), 0, dense.bytes(), stream));
      densifyKernel<T><<<gridFor(rows), 256, 0, stream>>>(
          a.positions, a.coordinates, a.values, rows, k, dense.as<T>());
      CUDA_TRY(cudaGetLastError());
      cDense.allocate(cBytes);
      if (withTf32)
        cTf32.allocate(cBytes);
    }
    const Call gemmPlain = gemm(CUBLAS_COMPUTE_32F, &cDense);
    const Call gemmTf32 = gemm(CUBLAS_COMPUTE_32F_FAST_TF32, &cTf32);

    // --- Check: one call of each on poisoned outputs.
    const size_t iOurs = record(m, "spmm", type, n, "ours");
    const size_t iSparse = record(m, "spmm", type, n, "cusparse");
    const size_t iDense = o.dense ? record(m, "spmm", type, n, "cublas") : SIZE_MAX;
    const size_t iTf32 =
        o.dense && withTf32 ? record(m, "spmm", type, n, "cublas_tf32") : SIZE_MAX;
    auto M = [&](size_t i) -> Measurement * {
      return i == SIZE_MAX ? nullptr : &results.measurements[i];
    };
    M(iOurs)->schedule = describe(schedule);
    M(iOurs)->scheduleJson = toJson(schedule);
    M(iSparse)->error = sparseError;
    M(iSparse)->note = sparseNote;

    struct Impl {
      size_t index;
      const Call *call;
      DeviceBuffer *out;
    };
    std::vector<Impl> impls = {{iOurs, &ours, &cOurs}};
    if (sparseError.empty())
      impls.push_back({iSparse, &cusparse, &cSparse});
    if (iDense != SIZE_MAX)
      impls.push_back({iDense, &gemmPlain, &cDense});
    if (iTf32 != SIZE_MAX)
      impls.push_back({iTf32, &gemmTf32, &cTf32});
    for (Impl &impl : impls) {
      if (impl.index == iOurs)
        poison(impl.out->get(), cBytes, stream);
      else
        poisonFinite(impl.out->get(), cBytes, stream);
      std::string e = (*impl.call)(stream);
      if (e.empty()) {
        cudaError_t ce = cudaStreamSynchronize(stream);
        if (ce != cudaSuccess)
          throw BenchError("after " + M(impl.index)->impl + ": " + cudaMessage(ce));
      }
      if (!e.empty())
        M(impl.index)->error = e;
    }
    // The reference: cuSPARSE's output, or the dense GEMM's if cuSPARSE
    // could not run.
    const DeviceBuffer *ref = nullptr;
    std::string refName;
    if (M(iSparse)->error.empty()) {
      ref = &cSparse;
      refName = "cusparse";
    } else if (M(iDense) && M(iDense)->error.empty()) {
      ref = &cDense;
      refName = "cublas";
    }
    const int64_t cCount = rows * n;
    auto check = [&](size_t i, const DeviceBuffer &out, double tol) {
      Measurement *meas = M(i);
      if (!meas || !meas->error.empty())
        return;
      if (ref == &out)
        meas->check = "reference";
      else if (!ref)
        meas->check = "unchecked";
      else
        judge(*meas, relativeError(out.as<T>(), ref->as<T>(), cCount, stream), tol, refName);
    };
    check(iSparse, cSparse, Info::tolerance);
    check(iOurs, cOurs, Info::tolerance);
    check(iDense, cDense, Info::tolerance);
    check(iTf32, cTf32, kTf32Tolerance);
    if (!ref) {
      M(iOurs)->check = "unchecked";
      results.checkFailed = true;
      std::fprintf(stderr, "sparse_bench: CHECK IMPOSSIBLE: spmm %s N=%lld on %s: no reference ran\n",
                   type, (long long)n, results.matrices[m.index].name.c_str());
    }

    // --- Time.
    for (Impl &impl : impls) {
      Measurement *meas = M(impl.index);
      if (!meas->error.empty())
        continue;
      if (impl.index == iOurs)
        poison(cOurs.get(), cBytes, stream);
      meas->timing = timer.time(*impl.call);
      if (!meas->timing.ok && meas->error.empty())
        meas->error = meas->timing.error;
    }
    // Our output as the timed launches left it.
    if (M(iOurs)->timing.ok && ref)
      M(iOurs)->relErrAfter = relativeError(cOurs.as<T>(), ref->as<T>(), cCount, stream);
    if (M(iOurs)->timing.ok && ref && !(M(iOurs)->relErrAfter <= Info::tolerance)) {
      M(iOurs)->check = "FAIL";
      results.checkFailed = true;
      std::fprintf(stderr, "sparse_bench: CHECK FAILED after timing: spmm %s N=%lld on %s: %.3g\n",
                   type, (long long)n, results.matrices[m.index].name.c_str(),
                   M(iOurs)->relErrAfter);
    }

    // --- Explore other schedules of ours.
    if (explore && ref)
      exploreSpmm<T>(m, n, schedule, oursWith, cOurs, *ref, M(iOurs)->timing.medianUs);

    char head[64];
    std::snprintf(head, sizeof(head), "spmm %s n%lld ours", type, (long long)n);
    std::string text = head;
    text += ratioText(M(iOurs), M(iSparse), "cuSPARSE");
    text += ratioText(M(iOurs), M(iDense), withTf32 ? "SGEMM" : "HGEMM");
    text += ratioText(M(iOurs), M(iTf32), "TF32");
    if (M(iOurs)->check == "FAIL")
      text += " CHECK FAILED";
    if (!M(iOurs)->error.empty())
      text += " ERROR";
    return text;
  }

  template <typename T, typename MakeCall>
  void exploreSpmm(DeviceMatrix &m, int64_t n, const SpmmSchedule &heuristic,
                   MakeCall &oursWith, DeviceBuffer &out, const DeviceBuffer &ref,
                   double heuristicUs) {
    using Info = TypeInfo<T>;
    ExploreSummary sum;
    sum.matrix = m.index;
    sum.op = "spmm";
    sum.type = Info::name;
    sum.size = n;
    sum.heuristicSchedule = describe(heuristic);
    sum.heuristicScheduleJson = toJson(heuristic);
    sum.heuristicUs = heuristicUs;
    const int64_t count = m.rows * n;
    // Row tiles in the order the heuristic would give them, their long
    // rows in the heuristic's segments (a hub row left whole sets every
    // schedule's time).
    // With --explore-segments, the unsplit row tiles once per listed
    // segment length instead (rows by length: segments need the order).
    const SpmmSchedule rowTiles = sopt::chooseSpmmRowTiles(m.stats, n, sizeof(T));
    std::vector<RowOrder> orders = o.exploreRowOrders;
    if (orders.empty())
      orders.push_back(rowTiles.rowOrder);
    std::vector<SpmmSchedule> candidates;
    for (size_t i = 0; i < orders.size(); ++i)
      for (const SpmmSchedule &s : spmmGrid(n, sizeof(T), orders[i]))
        // (The dense blocks take no row order: once.)
        if (i == 0 || s.tiling != sopt::SpmmTiling::DenseBlocks)
          candidates.push_back(s);
    std::vector<SpmmSchedule> grid;
    for (SpmmSchedule s : candidates) {
      if (s.tiling != sopt::SpmmTiling::RowTiles) {
        grid.push_back(s);
      } else if (o.exploreSegments.empty()) {
        if (s.rowOrder == RowOrder::ByLength)
          s.rowSegment = rowTiles.rowSegment;
        grid.push_back(s);
      } else if (s.rowSplits == 1 && s.tileOrder == sopt::TileOrder::ByRow) {
        s.rowOrder = RowOrder::ByLength;
        for (int segment : o.exploreSegments) {
          s.rowSegment = segment;
          if (sopt::checkSpmmSchedule(s, n, sizeof(T)).empty())
            grid.push_back(s);
        }
      }
    }
    for (const SpmmSchedule &s : grid) {
      ExploreRecord r;
      r.matrix = m.index;
      r.op = "spmm";
      r.type = Info::name;
      r.size = n;
      r.schedule = describe(s);
      r.scheduleJson = toJson(s);
      r.heuristic = sameSchedule(s, heuristic);
      exploreOne(r, sum, oursWith(s), out, [&] {
        return relativeError(out.as<T>(), ref.as<T>(), count, stream);
      }, Info::tolerance);
      if (r.status == "ok" && (std::isnan(sum.bestUs) || r.medianUs < sum.bestUs)) {
        sum.bestUs = r.medianUs;
        sum.bestSchedule = r.schedule;
        sum.bestScheduleJson = r.scheduleJson;
      }
      if (r.heuristic)
        sum.heuristicInGridUs = r.medianUs;
      results.explored.push_back(r);
    }
    reportExplore(sum);
  }

  template <typename Check>
  void exploreOne(ExploreRecord &r, ExploreSummary &sum, const Call &call, DeviceBuffer &out,
                  Check relErr, double tolerance) {
    ++sum.tried;
    poison(out.get(), out.bytes(), stream);
    std::string e = call(stream);
    if (!e.empty()) {
      r.status = "refused: " + e;
      return;
    }
    CUDA_TRY(cudaStreamSynchronize(stream));
    r.relErr = relErr();
    if (!(r.relErr <= tolerance)) {
      r.status = "FAIL";
      ++sum.failed;
      results.checkFailed = true;
      std::fprintf(stderr, "sparse_bench: CHECK FAILED (explore): %s %s %lld %s on %s: %.3g\n",
                   r.op.c_str(), r.type.c_str(), (long long)r.size, r.schedule.c_str(),
                   results.matrices[r.matrix].name.c_str(), r.relErr);
      return;
    }
    Timing t = timer.time(call);
    if (!t.ok) {
      r.status = "error: " + t.error;
      return;
    }
    r.status = "ok";
    r.medianUs = t.medianUs;
    ++sum.passed;
  }

  void reportExplore(const ExploreSummary &sum) {
    std::fprintf(stderr,
                 "  explore %s %s %s=%lld: %d schedules (%d failed); heuristic %s %.2f us, "
                 "best %s %.2f us (%.2fx)\n",
                 sum.op.c_str(), sum.type.c_str(), sum.op == "spmm" ? "N" : "K",
                 (long long)sum.size, sum.tried, sum.failed, sum.heuristicSchedule.c_str(),
                 sum.heuristicUs, sum.bestSchedule.c_str(), sum.bestUs,
                 sum.heuristicUs / sum.bestUs);
    results.exploreSummaries.push_back(sum);
  }

  // --------------------------------------------------------------------------
  // SDDMM: D = (A · Bᵀ) ⊙ S, A[m, k] and B[n, k] row-major, S (m x n) CSR;
  // without `transposeRhs` D = (A · B) ⊙ S with B[k, n] row-major (op
  // "sddmm_ab").
  // --------------------------------------------------------------------------
  template <typename T>
  std::string sddmm(DeviceMatrix &m, int64_t kdim, bool explore, bool transposeRhs = true) {
    using Info = TypeInfo<T>;
    const int64_t rows = m.rows, n = m.cols, nnz = m.nnz;
    const char *type = Info::name;
    const char *op = transposeRhs ? "sddmm" : "sddmm_ab";

    DeviceBuffer sValues(nnz * sizeof(T)), lhs(size_t(rows) * kdim * sizeof(T)),
        rhs(size_t(n) * kdim * sizeof(T));
    fillUniform(sValues.as<T>(), nnz, seedFor(m, 3), stream);
    fillUniform(lhs.as<T>(), rows * kdim, seedFor(m, 4), stream);
    fillUniform(rhs.as<T>(), n * kdim, seedFor(m, 5), stream);
    sopt::CsrMatrix<T> pattern;
    pattern.rows = rows;
    pattern.cols = n;
    pattern.nnz = nnz;
    pattern.positions = m.positions.as<int32_t>();
    pattern.coordinates = m.coordinates.as<int32_t>();
    pattern.values = sValues.as<T>();

    const SddmmSchedule schedule =
        sopt::chooseSddmmSchedule(m.stats, kdim, transposeRhs, sizeof(T));
    DeviceBuffer outOurs(nnz * sizeof(T));
    const int32_t *order = m.rowOrder.as<int32_t>();
    // The workspace a schedule can use (f32 64 x 64 blocks: B split once
    // per call), allocated once like cuSPARSE's buffer; the split itself
    // runs inside every timed call. Sized for any schedule --explore tries.
    SddmmSchedule widest;
    widest.tiling = sopt::SddmmTiling::DenseBlocks;
    widest.blockSize = 64;
    widest.kSplits = 1;
    widest.transposeRhsFirst = !transposeRhs;
    DeviceBuffer workspace(sopt::sddmmWorkspaceElements(widest, n, kdim, sizeof(T)) * sizeof(T));
    auto oursWith = [&](const SddmmSchedule &s) -> Call {
      const int32_t *panelOrder = m.panelOrder(s.columnPanel); // prepared here, not timed
      return [&, s, panelOrder](cudaStream_t st) -> std::string {
        T *scratch = sopt::sddmmWorkspaceElements(s, n, kdim, sizeof(T)) > 0
                         ? workspace.as<T>()
                         : nullptr;
        const sopt::OccupiedBlocks occupied =
            o.everyBlock ? sopt::OccupiedBlocks{} : m.occupiedBlocks(s.blockSize);
        cudaError_t e = bench::oursSddmm<T>(s, pattern, lhs.as<T>(), rhs.as<T>(), kdim,
                                            transposeRhs, outOurs.as<T>(), order,
                                            m.columnWindows(s.blockSize, occupied),
                                            m.entryRows.as<int32_t>(), scratch, occupied,
                                            panelOrder, st);
        return e == cudaSuccess ? "" : "sopt::runSddmm: " + cudaMessage(e);
      };
    };
    const Call ours = oursWith(schedule);

    // --- cuSPARSE. It computes alpha·(op(A)·op(B)) ∘ spy(C) + beta·C: the
    // sampled product without S's values (beta = 0); the check multiplies
    // its output by S's values.
    SparseSddmm cus(*this, m, rows, n, kdim, Info::cuda, lhs.get(), rhs.get(), transposeRhs);
    std::string sparseError = cus.error;

    const size_t iOurs = record(m, op, type, kdim, "ours");
    const size_t iSparse = record(m, op, type, kdim, "cusparse");
    auto M = [&](size_t i) { return &results.measurements[i]; };
    M(iOurs)->schedule = describe(schedule, transposeRhs);
    M(iOurs)->scheduleJson = toJson(schedule);
    M(iSparse)->error = sparseError;
    M(iSparse)->note = cus.note;

    // --- Check.
    poison(outOurs.get(), outOurs.bytes(), stream);
    if (std::string e = ours(stream); !e.empty())
      M(iOurs)->error = e;
    if (sparseError.empty()) {
      poisonFinite(cus.out.get(), cus.out.bytes(), stream);
      if (std::string e = cus.call(stream); !e.empty())
        M(iSparse)->error = sparseError = e;
    }
    // cuSPARSE's CSR SDDMM may not take f16 operands: then the reference
    // is cuSPARSE in f32 on the f16 inputs converted to f32.
    std::unique_ptr<SparseSddmm> f32Ref;
    DeviceBuffer lhs32, rhs32;
    if (!sparseError.empty() && !std::is_same_v<T, float>) {
      lhs32.allocate(size_t(rows) * kdim * sizeof(float));
      rhs32.allocate(size_t(n) * kdim * sizeof(float));
      toFloatKernel<T><<<gridFor(rows * kdim), 256, 0, stream>>>(lhs.as<T>(), lhs32.as<float>(),
                                                                  rows * kdim);
      toFloatKernel<T><<<gridFor(n * kdim), 256, 0, stream>>>(rhs.as<T>(), rhs32.as<float>(),
                                                               n * kdim);
      CUDA_TRY(cudaGetLastError());
      f32Ref = std::make_unique<SparseSddmm>(*this, m, rows, n, kdim, CUDA_R_32F, lhs32.get(),
                                             rhs32.get(), transposeRhs);
      if (f32Ref->error.empty()) {
        poisonFinite(f32Ref->out.get(), f32Ref->out.bytes(), stream);
        if (std::string e = f32Ref->call(stream); !e.empty())
          f32Ref->error = e;
      }
    }
    CUDA_TRY(cudaStreamSynchronize(stream));
    std::function<double()> oursError;
    std::string refName;
    if (sparseError.empty()) {
      refName = "cusparse x S values";
      oursError = [&] {
        return relativeError(outOurs.as<T>(), cus.out.as<T>(), nnz, stream, sValues.as<T>());
      };
    } else if (f32Ref && f32Ref->error.empty()) {
      refName = "cusparse f32 (on the f16 inputs) x S values";
      oursError = [&] {
        return relativeError(outOurs.as<T>(), f32Ref->out.as<float>(), nnz, stream,
                             sValues.as<T>());
      };
    }
    if (M(iOurs)->error.empty()) {
      if (oursError) {
        judge(*M(iOurs), oursError(), Info::tolerance, refName);
      } else {
        M(iOurs)->check = "unchecked";
        results.checkFailed = true;
        std::fprintf(stderr,
                     "sparse_bench: CHECK IMPOSSIBLE: %s %s K=%lld on %s: no reference ran\n",
                     op, type, (long long)kdim, results.matrices[m.index].name.c_str());
      }
    }
    if (sparseError.empty())
      M(iSparse)->check = "reference";

    // --- Time.
    if (M(iOurs)->error.empty()) {
      poison(outOurs.get(), outOurs.bytes(), stream);
      M(iOurs)->timing = timer.time(ours);
      if (!M(iOurs)->timing.ok)
        M(iOurs)->error = M(iOurs)->timing.error;
      else if (oursError) {
        M(iOurs)->relErrAfter = oursError();
        if (!(M(iOurs)->relErrAfter <= Info::tolerance)) {
          M(iOurs)->check = "FAIL";
          results.checkFailed = true;
          std::fprintf(stderr,
                       "sparse_bench: CHECK FAILED after timing: %s %s K=%lld on %s: %.3g\n",
                       op, type, (long long)kdim, results.matrices[m.index].name.c_str(),
                       M(iOurs)->relErrAfter);
        }
      }
    }
    if (sparseError.empty()) {
      const Call call = [&](cudaStream_t st) { return cus.call(st); };
      M(iSparse)->timing = timer.time(call);
      if (!M(iSparse)->timing.ok)
        M(iSparse)->error = M(iSparse)->timing.error;
    }

    if (explore && oursError) {
      ExploreSummary sum;
      sum.matrix = m.index;
      sum.op = op;
      sum.type = type;
      sum.size = kdim;
      sum.heuristicSchedule = describe(schedule, transposeRhs);
      sum.heuristicScheduleJson = toJson(schedule);
      sum.heuristicUs = M(iOurs)->timing.medianUs;
      for (const SddmmSchedule &s : sddmmGrid(kdim, sizeof(T), transposeRhs)) {
        ExploreRecord r;
        r.matrix = m.index;
        r.op = op;
        r.type = type;
        r.size = kdim;
        r.schedule = describe(s, transposeRhs);
        r.scheduleJson = toJson(s);
        r.heuristic = sameSchedule(s, schedule);
        exploreOne(r, sum, oursWith(s), outOurs, oursError, Info::tolerance);
        if (r.status == "ok" && (std::isnan(sum.bestUs) || r.medianUs < sum.bestUs)) {
          sum.bestUs = r.medianUs;
          sum.bestSchedule = r.schedule;
          sum.bestScheduleJson = r.scheduleJson;
        }
        if (r.heuristic)
          sum.heuristicInGridUs = r.medianUs;
        results.explored.push_back(r);
      }
      reportExplore(sum);
    }

    char head[64];
    std::snprintf(head, sizeof(head), "%s %s k%lld ours", op, type, (long long)kdim);
    std::string text = head;
    text += ratioText(M(iOurs), M(iSparse), "cuSPARSE");
    if (!sparseError.empty() && f32Ref)
      text += " (cuSPARSE: no f16)";
    if (M(iOurs)->check == "FAIL")
      text += " CHECK FAILED";
    if (!M(iOurs)->error.empty())
      text += " ERROR";
    return text;
  }

  /// cusparseSDDMM set up for one pattern and dense operands: descriptors,
  /// buffer (allocated here, outside timing) and the preprocessing call.
  /// The operands are described as the task states them first (A row-major
  /// m x k not transposed; B row-major n x k transposed, or with
  /// `transposeRhs` false k x n not transposed); if cuSPARSE refuses that,
  /// the same memory described column-major (Aᵀ k x m transposed; Bᵀ k x n
  /// not transposed, or n x k transposed).
  struct SparseSddmm {
    Bench &bench;
    sopt::CusparseCsr descC;
    sopt::CusparseDnMat descA, descB;
    cusparseOperation_t opA = CUSPARSE_OPERATION_NON_TRANSPOSE,
                        opB = CUSPARSE_OPERATION_TRANSPOSE;
    DeviceBuffer out, buffer;
    std::string error, note;
    const float alpha = 1.0f, beta = 0.0f;

    SparseSddmm(Bench &b, DeviceMatrix &m, int64_t rows, int64_t n, int64_t k,
                cudaDataType type, void *lhs, void *rhs, bool transposeRhs)
        : bench(b) {
      const size_t elementBytes = type == CUDA_R_32F ? 4 : 2;
      out.allocate(m.nnz * elementBytes);
      // beta = 0, but C's old values must not be NaN should they be read.
      CUDA_TRY(cudaMemsetAsync(out.get(), 0, out.bytes(), b.stream));
      cusparseStatus_t s = cusparseCreateCsr(
          &descC.descriptor, rows, n, m.nnz, m.positions.get(), m.coordinates.get(), out.get(),
          CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, type);
      if (s != CUSPARSE_STATUS_SUCCESS) {
        error = cusparseMessage("cusparseCreateCsr", s);
        return;
      }
      std::string firstError;
      for (int layout = 0; layout < 2; ++layout) {
        if (descA.descriptor)
          cusparseDestroyDnMat(descA.descriptor);
        if (descB.descriptor)
          cusparseDestroyDnMat(descB.descriptor);
        descA.descriptor = descB.descriptor = nullptr;
        const cusparseOperation_t same = CUSPARSE_OPERATION_NON_TRANSPOSE,
                                  swapped = CUSPARSE_OPERATION_TRANSPOSE;
        if (layout == 0) {
          opA = same;
          opB = transposeRhs ? swapped : same;
          s = cusparseCreateDnMat(&descA.descriptor, rows, k, k, lhs, type, CUSPARSE_ORDER_ROW);
          if (s == CUSPARSE_STATUS_SUCCESS)
            s = transposeRhs ? cusparseCreateDnMat(&descB.descriptor, n, k, k, rhs, type,
                                                   CUSPARSE_ORDER_ROW)
                             : cusparseCreateDnMat(&descB.descriptor, k, n, n, rhs, type,
                                                   CUSPARSE_ORDER_ROW);
        } else {
          opA = swapped;
          opB = transposeRhs ? same : swapped;
          s = cusparseCreateDnMat(&descA.descriptor, k, rows, k, lhs, type, CUSPARSE_ORDER_COL);
          if (s == CUSPARSE_STATUS_SUCCESS)
            s = transposeRhs ? cusparseCreateDnMat(&descB.descriptor, k, n, k, rhs, type,
                                                   CUSPARSE_ORDER_COL)
                             : cusparseCreateDnMat(&descB.descriptor, n, k, n, rhs, type,
                                                   CUSPARSE_ORDER_COL);
        }
        size_t bytes = 0;
        if (s == CUSPARSE_STATUS_SUCCESS)
          s = cusparseSDDMM_bufferSize(bench.sparse, opA, opB, &alpha, descA.descriptor,
                                       descB.descriptor, &beta, descC.descriptor, CUDA_R_32F,
                                       CUSPARSE_SDDMM_ALG_DEFAULT, &bytes);
        if (s != CUSPARSE_STATUS_SUCCESS) {
          std::string e = cusparseMessage(
              layout == 0 ? (transposeRhs ? "cusparseSDDMM (row-major A, Bᵀ)"
                                          : "cusparseSDDMM (row-major A, B)")
                          : (transposeRhs ? "cusparseSDDMM (column-major Aᵀ, Bᵀ)"
                                          : "cusparseSDDMM (column-major Aᵀ, B)"),
              s);
          firstError += (firstError.empty() ? "" : "; ") + e;
          continue;
        }
        buffer.allocate(bytes);
        s = cusparseSDDMM_preprocess(bench.sparse, opA, opB, &alpha, descA.descriptor,
                                     descB.descriptor, &beta, descC.descriptor, CUDA_R_32F,
                                     CUSPARSE_SDDMM_ALG_DEFAULT, buffer.get());
        // Preprocessing is optional: without it cusparseSDDMM still runs.
        if (s != CUSPARSE_STATUS_SUCCESS)
          note = cusparseMessage("cusparseSDDMM_preprocess (ignored)", s);
        if (layout == 1)
          note += std::string(note.empty() ? "" : "; ") + "row-major operands refused (" +
                  firstError + "); timed with the same memory described column-major";
        error.clear();
        return;
      }
      error = firstError;
    }

    std::string call(cudaStream_t) {
      cusparseStatus_t s =
          cusparseSDDMM(bench.sparse, opA, opB, &alpha, descA.descriptor, descB.descriptor,
                        &beta, descC.descriptor, CUDA_R_32F, CUSPARSE_SDDMM_ALG_DEFAULT,
                        buffer.get());
      return s == CUSPARSE_STATUS_SUCCESS ? "" : cusparseMessage("cusparseSDDMM", s);
    }
  };

  const Options &o;
  Results &results;
  cudaStream_t stream;
  Timer timer;
  cusparseHandle_t sparse = nullptr;
  cublasHandle_t blas = nullptr;
  DeviceBuffer blasWorkspace;
};

// ----------------------------------------------------------------------------
// Output
// ----------------------------------------------------------------------------

std::string jsonEscape(const std::string &s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    case '\r': out += "\\r"; break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof(buf), "\\u%04x", c);
        out += buf;
      } else {
        out += char(c);
      }
    }
  }
  return out + "\"";
}

std::string num(double v, const char *format = "%.6g") {
  if (!std::isfinite(v))
    return "null";
  char buf[64];
  std::snprintf(buf, sizeof(buf), format, v);
  return buf;
}

std::string csvField(const std::string &s) {
  if (s.find_first_of(",\"\n") == std::string::npos)
    return s;
  std::string out = "\"";
  for (char c : s)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string csvNum(double v, const char *format = "%.6g") {
  return std::isfinite(v) ? num(v, format) : "";
}

struct Meta {
  std::string device, date, git, commandLine;
  int sms = 0, ccMajor = 0, ccMinor = 0;
  size_t l2Bytes = 0, memoryBytes = 0;
  int runtime = 0, driver = 0, cusparse = 0, cublas = 0;
};

std::string cudaVersionText(int v) {
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}
std::string cusparseVersionText(int v) {
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 100) + "." +
         std::to_string(v % 100);
}
std::string cublasVersionText(int v) {
  return std::to_string(v / 10000) + "." + std::to_string(v % 10000 / 100) + "." +
         std::to_string(v % 100);
}

void writeText(const fs::path &path, const std::string &text) {
  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f || std::fwrite(text.data(), 1, text.size(), f) != text.size() || std::fclose(f)) {
    std::fprintf(stderr, "sparse_bench: cannot write %s: %s\n", path.c_str(),
                 std::strerror(errno));
    return;
  }
}

/// What the tables show per (op, size, type).
struct Group {
  std::string op, type;
  int64_t size;
  /// SpMM first, then by size, f32 before f16.
  bool operator<(const Group &g) const {
    return std::make_tuple(op != "spmm", op, size, type != "f32", type) <
           std::make_tuple(g.op != "spmm", g.op, g.size, g.type != "f32", g.type);
  }
};

struct Row {
  const Measurement *ours = nullptr, *cusparse = nullptr, *cublas = nullptr, *tf32 = nullptr;
};

/// Sparsity from which "faster than dense" is judged (the DLMC 90% files
/// have 90.00006%; 1e-4 of slack for other sources' rounding).
constexpr double kDenseCheckSparsity = 0.9 - 1e-4;

double speedup(const Measurement *ours, const Measurement *peer) {
  if (!ours || !peer || !ours->usable() || !peer->timing.ok)
    return NAN;
  return peer->timing.medianUs / ours->timing.medianUs;
}

double geomean(const std::vector<double> &v) {
  double s = 0;
  int count = 0;
  for (double x : v)
    if (std::isfinite(x) && x > 0) {
      s += std::log(x);
      ++count;
    }
  return count ? std::exp(s / count) : NAN;
}

std::string ratio(double v) { return std::isfinite(v) ? num(v, "%.2f") + "×" : "–"; }
std::string micros(const Measurement *m) {
  if (!m)
    return "–";
  if (!m->timing.ok)
    return m->error.empty() ? "–"
           : m->error.find("not supported") != std::string::npos ? "unsupported"
                                                                 : "error";
  return num(m->timing.medianUs, m->timing.medianUs < 100 ? "%.2f" : "%.1f");
}

struct Summary {
  Group group;
  int matrices = 0, failed = 0;
  double vsSparse = NAN, vsDense = NAN, vsTf32 = NAN;
  int denseCount = 0, denseFaster = 0; // matrices >= 90% sparse; of them faster than dense
  std::string denseLabel;              // what "dense" is for the check (TF32 / HGEMM)
  double crossover = NAN; // lowest sparsity from which ours beats that dense on all
  int sparseMissing = 0;  // ours measured, cuSPARSE not
};

std::map<Group, std::map<int, Row>> groupRows(const Results &r) {
  std::map<Group, std::map<int, Row>> groups;
  for (const Measurement &m : r.measurements) {
    Row &row = groups[{m.op, m.type, m.size}][m.matrix];
    if (m.impl == "ours")
      row.ours = &m;
    else if (m.impl == "cusparse")
      row.cusparse = &m;
    else if (m.impl == "cublas")
      row.cublas = &m;
    else if (m.impl == "cublas_tf32")
      row.tf32 = &m;
  }
  return groups;
}

std::vector<Summary> summarize(const Results &r) {
  std::vector<Summary> out;
  for (const auto &[group, rows] : groupRows(r)) {
    Summary s;
    s.group = group;
    std::vector<double> sp, de, tf;
    std::vector<std::pair<double, bool>> denseBySparsity; // (sparsity, ours faster)
    s.denseLabel = group.type == "f32" ? "TF32" : "cuBLAS f16";
    for (const auto &[index, row] : rows) {
      if (!row.ours)
        continue;
      ++s.matrices;
      if (row.ours->check == "FAIL" || row.ours->check == "unchecked")
        ++s.failed;
      if (!row.cusparse || !row.cusparse->timing.ok)
        ++s.sparseMissing;
      sp.push_back(speedup(row.ours, row.cusparse));
      de.push_back(speedup(row.ours, row.cublas));
      tf.push_back(speedup(row.ours, row.tf32));
      const double vsDense = speedup(row.ours, group.type == "f32" ? row.tf32 : row.cublas);
      if (std::isfinite(vsDense)) {
        const double sparsity = r.matrices[index].sparsity;
        denseBySparsity.push_back({sparsity, vsDense > 1});
        if (sparsity >= kDenseCheckSparsity) {
          ++s.denseCount;
          s.denseFaster += vsDense > 1;
        }
      }
    }
    s.vsSparse = geomean(sp);
    s.vsDense = geomean(de);
    s.vsTf32 = geomean(tf);
    // The crossover: walking from the sparsest matrix down, the lowest
    // sparsity reached before the first matrix where dense is as fast.
    std::sort(denseBySparsity.begin(), denseBySparsity.end(),
              [](auto &a, auto &b) { return a.first > b.first; });
    for (auto &[sparsity, faster] : denseBySparsity) {
      if (!faster)
        break;
      s.crossover = sparsity;
    }
    out.push_back(s);
  }
  return out;
}

std::string sizeName(const std::string &op) { return op == "spmm" ? "N" : "K"; }

std::string percent(double v) { return std::isfinite(v) ? num(100 * v, "%.1f") + "%" : "–"; }

/// The summary table and the targets (also printed last on stdout).
std::string summaryMarkdown(const Results &r, const std::vector<Summary> &sums) {
  std::string md;
  md += "| op | size | type | matrices | ours / cuSPARSE | ours / cuBLAS | ours / TF32 | "
        "faster than dense at ≥ 90% sparsity | ours faster than dense from | checks |\n";
  md += "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const Summary &s : sums) {
    std::string dense = s.denseCount ? std::to_string(s.denseFaster) + " of " +
                                           std::to_string(s.denseCount) + " (vs " +
                                           s.denseLabel + ")"
                                     : "–";
    std::string checks = s.failed ? "**" + std::to_string(s.failed) + " FAILED**" : "ok";
    md += "| " + s.group.op + " | " + sizeName(s.group.op) + "=" + std::to_string(s.group.size) +
          " | " + s.group.type + " | " + std::to_string(s.matrices) + " | " +
          (std::isfinite(s.vsSparse) ? "**" + ratio(s.vsSparse) + "**" : "–") + " | " + ratio(s.vsDense) + " | " + ratio(s.vsTf32) + " | " +
          dense + " | " + (std::isfinite(s.crossover) ? percent(s.crossover) : "–") + " | " +
          checks + " |\n";
  }
  md += "\nRatios are speed-ups, the other's median time over ours (above 1: ours is "
        "faster), geometric means over the matrices where both ran and our check passed. "
        "cuBLAS is SGEMM for f32 and f16 GEMM (f32 accumulation) for f16; TF32 is cuBLAS "
        "with CUBLAS_COMPUTE_32F_FAST_TF32. \"from\": the lowest sparsity from which ours beats "
        "the dense product (TF32 for f32, f16 GEMM for f16) on every sparser matrix.\n\n";
  md += "Targets:\n\n";
  for (const Summary &s : sums) {
    const std::string name = s.group.op + " " + s.group.type + " " + sizeName(s.group.op) +
                             "=" + std::to_string(s.group.size);
    if (s.group.op == "spmm") {
      md += "- " + name + ": ≥ 1.7× cuSPARSE (geomean): " + ratio(s.vsSparse) + " — " +
            (std::isfinite(s.vsSparse) ? (s.vsSparse >= 1.7 ? "met" : "not met") : "n/a") +
            "\n";
      if (s.group.type == "f32")
        md += "- " + name + ": faster than dense TF32 from 90% sparsity: " +
              (s.denseCount ? std::to_string(s.denseFaster) + " of " +
                                  std::to_string(s.denseCount) + " matrices — " +
                                  (s.denseFaster == s.denseCount ? "met" : "not met")
                            : "n/a (no matrix ≥ 90% sparse with both measured)") +
              "\n";
    } else {
      md += "- " + name + ": ≥ 2× cuSPARSE (geomean): " + ratio(s.vsSparse) + " — " +
            (std::isfinite(s.vsSparse) ? (s.vsSparse >= 2.0 ? "met" : "not met")
                                       : "n/a (cuSPARSE did not run: see the errors)") +
            "\n";
    }
  }
  if (r.checkFailed)
    md += "\n**Some correctness checks FAILED or could not be made: see the tables and "
          "sparse.json; those rows are left out of the geometric means.**\n";
  if (!r.fatal.empty())
    md += "\n**The run stopped early: " + r.fatal + "**\n";
  return md;
}

std::string commonPrefix(const Results &r) {
  std::string prefix;
  bool first = true;
  for (const MatrixRecord &m : r.matrices) {
    if (!m.read)
      continue;
    if (first) {
      prefix = m.name.substr(0, m.name.rfind('/') + 1);
      first = false;
      continue;
    }
    size_t i = 0;
    while (i < prefix.size() && i < m.name.size() && prefix[i] == m.name[i])
      ++i;
    prefix = prefix.substr(0, i);
  }
  return prefix.substr(0, prefix.rfind('/') + 1);
}

std::string markdown(const Results &r, const Meta &meta, const Options &o,
                     const std::vector<Summary> &sums) {
  std::string md = "# Sparse products: SpMM and SDDMM against cuSPARSE and cuBLAS\n\n";
  md += meta.device + " (" + std::to_string(meta.sms) + " SMs), " + meta.date +
        "; CUDA runtime " + cudaVersionText(meta.runtime) + ", driver " +
        cudaVersionText(meta.driver) + ", cuSPARSE " + cusparseVersionText(meta.cusparse) +
        ", cuBLAS " + cublasVersionText(meta.cublas) + "; sparse-opt " + meta.git + ".\n\n";
  md += "Median of " + std::to_string(o.samples) + " samples per measurement, CUDA events " +
        (o.graphs ? "around CUDA-graph replays" : "around direct launches") +
        ", each sample ≥ " + num(o.minSampleUs, "%g") + " µs of back-to-back calls" +
        (o.flushL2 ? " (one call per sample after an L2 flush)" : "") +
        (o.dependentLaunch ? "; our kernels launched as programmatic dependent launches "
                             "(each waits for the kernels before it as it starts)"
                           : "; our kernels launched plainly (--no-dependent-launch)") +
        "; every implementation on the same inputs in this run. Random values in [-1, 1) "
        "for the sparse matrix and the dense operands (seed " + std::to_string(o.seed) +
        "). Our row order (longest rows first), the SDDMM dense blocks' column windows, "
        "the SDDMM tiles' entries' rows and their column-panel order are prepared once per "
        "matrix on the host and not timed; cuSPARSE's buffer is allocated and its "
        "preprocessing done before timing.\n\n";
  md += "## Summary\n\n" + summaryMarkdown(r, sums);

  const std::string prefix = commonPrefix(r);
  if (!prefix.empty())
    md += "\nMatrix names below are relative to `" + prefix + "`.\n";
  for (const auto &[group, rows] : groupRows(r)) {
    const bool spmm = group.op == "spmm";
    const char *title = spmm                      ? "SpMM"
                        : group.op == "sddmm_ab" ? "SDDMM (A · B) ⊙ S"
                                                 : "SDDMM";
    md += "\n## " + std::string(title) + " " + group.type + ", " + sizeName(group.op) + " = " +
          std::to_string(group.size) + "\n\n";
    if (spmm) {
      md += "| matrix | rows×cols | sparsity | ours µs | cuSPARSE µs | cuBLAS µs | TF32 µs | "
            "ours / cuSPARSE | ours / cuBLAS | ours / TF32 | schedule | check (rel. err) |\n";
      md += "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    } else {
      md += "| matrix | rows×cols | sparsity | ours µs | cuSPARSE µs | ours / cuSPARSE | "
            "schedule | check (rel. err) |\n";
      md += "|---|---|---|---|---|---|---|---|\n";
    }
    for (const auto &[index, row] : rows) {
      const MatrixRecord &mr = r.matrices[index];
      std::string name = mr.name.substr(prefix.size());
      std::string check = "–";
      if (row.ours) {
        check = row.ours->check.empty() ? (row.ours->error.empty() ? "–" : "error")
                                        : row.ours->check;
        if (check == "FAIL")
          check = "**FAIL**";
        if (std::isfinite(row.ours->relErr))
          check += " (" + num(row.ours->relErr, "%.1e") + ")";
      }
      md += "| " + name + " | " + std::to_string(mr.rows) + "×" + std::to_string(mr.cols) +
            " | " + percent(mr.sparsity) + " | " + micros(row.ours) + " | " +
            micros(row.cusparse) + " | ";
      if (spmm)
        md += micros(row.cublas) + " | " + micros(row.tf32) + " | " +
              ratio(speedup(row.ours, row.cusparse)) + " | " +
              ratio(speedup(row.ours, row.cublas)) + " | " +
              ratio(speedup(row.ours, row.tf32)) + " | ";
      else
        md += ratio(speedup(row.ours, row.cusparse)) + " | ";
      md += "`" + (row.ours ? row.ours->schedule : std::string()) + "` | " + check + " |\n";
    }
  }

  // Errors worth reading.
  std::string errors;
  for (const MatrixRecord &m : r.matrices)
    if (!m.error.empty())
      errors += "- " + m.name + ": " + m.error + "\n";
  std::map<std::string, int> libraryErrors;
  for (const Measurement &m : r.measurements)
    if (!m.error.empty())
      ++libraryErrors[m.op + " " + m.type + " " + m.impl + ": " + m.error];
  for (const auto &[text, count] : libraryErrors)
    errors += "- " + text + " (" + std::to_string(count) + " measurement" +
              (count > 1 ? "s" : "") + ")\n";
  if (!errors.empty())
    md += "\n## Errors and skipped inputs\n\n" + errors;

  if (!r.exploreSummaries.empty()) {
    md += "\n## Schedule exploration\n\nFor the explored matrices, the best valid schedule "
          "of the grid (see the README) against the heuristic's choice; `heuristic µs` is "
          "the main measurement, `best / heuristic` its time over the best's. Every "
          "schedule's time is in sparse_explore.csv.\n\n";
    std::map<Group, std::vector<double>> gains;
    md += "| op | size | type | matrix | heuristic | heuristic µs | best | best µs | "
          "heuristic / best |\n|---|---|---|---|---|---|---|---|---|\n";
    for (const ExploreSummary &s : r.exploreSummaries) {
      const double gain = s.heuristicUs / s.bestUs;
      gains[{s.op, s.type, s.size}].push_back(gain);
      md += "| " + s.op + " | " + sizeName(s.op) + "=" + std::to_string(s.size) + " | " +
            s.type + " | " + r.matrices[s.matrix].name.substr(prefix.size()) + " | `" +
            s.heuristicSchedule + "` | " + num(s.heuristicUs, "%.2f") + " | `" +
            s.bestSchedule + "` | " + num(s.bestUs, "%.2f") + " | " + ratio(gain) + " |\n";
    }
    md += "\nGeometric mean of heuristic / best per (op, size, type): ";
    bool first = true;
    for (const auto &[g, v] : gains) {
      md += (first ? "" : ", ") + g.op + " " + sizeName(g.op) + "=" + std::to_string(g.size) +
            " " + g.type + " " + ratio(geomean(v));
      first = false;
    }
    md += ".\n";
  }
  return md;
}

std::string timingJson(const Timing &t) {
  std::string j = "{\"median_us\": " + num(t.medianUs) + ", \"min_us\": " + num(t.minUs) +
                  ", \"max_us\": " + num(t.maxUs) + ", \"launches_per_sample\": " +
                  std::to_string(t.launches) + ", \"mode\": " + jsonEscape(t.mode) +
                  ", \"samples_us\": [";
  for (size_t i = 0; i < t.samplesUs.size(); ++i)
    j += (i ? ", " : "") + num(t.samplesUs[i], "%.5g");
  j += "]";
  if (!t.note.empty())
    j += ", \"note\": " + jsonEscape(t.note);
  return j + "}";
}

std::string json(const Results &r, const Meta &meta, const Options &o,
                 const std::vector<Summary> &sums) {
  std::string j = "{\n\"meta\": {";
  j += "\"device\": " + jsonEscape(meta.device) + ", \"sms\": " + std::to_string(meta.sms) +
       ", \"compute_capability\": \"" + std::to_string(meta.ccMajor) + "." +
       std::to_string(meta.ccMinor) + "\", \"l2_bytes\": " + std::to_string(meta.l2Bytes) +
       ", \"memory_bytes\": " + std::to_string(meta.memoryBytes) +
       ", \"cuda_runtime\": " + jsonEscape(cudaVersionText(meta.runtime)) +
       ", \"cuda_runtime_raw\": " + std::to_string(meta.runtime) +
       ", \"cuda_driver\": " + jsonEscape(cudaVersionText(meta.driver)) +
       ", \"cuda_driver_raw\": " + std::to_string(meta.driver) +
       ", \"cusparse\": " + jsonEscape(cusparseVersionText(meta.cusparse)) +
       ", \"cusparse_raw\": " + std::to_string(meta.cusparse) +
       ", \"cublas\": " + jsonEscape(cublasVersionText(meta.cublas)) +
       ", \"cublas_raw\": " + std::to_string(meta.cublas) +
       ", \"date\": " + jsonEscape(meta.date) + ", \"sparse_opt_git\": " +
       jsonEscape(meta.git) + ", \"command_line\": " + jsonEscape(meta.commandLine) +
       ", \"seed\": " + std::to_string(o.seed) + ", \"samples\": " +
       std::to_string(o.samples) + ", \"min_sample_us\": " + num(o.minSampleUs) +
       ", \"warmup_us\": " + num(o.warmupUs) + ", \"graphs\": " +
       (o.graphs ? "true" : "false") + ", \"flush_l2\": " + (o.flushL2 ? "true" : "false") +
       ", \"dependent_launch\": " + (o.dependentLaunch ? "true" : "false") +
       ", \"check_failed\": " + (r.checkFailed ? "true" : "false") +
       ", \"fatal\": " + (r.fatal.empty() ? "null" : jsonEscape(r.fatal)) + "},\n";

  j += "\"matrices\": [";
  for (size_t i = 0; i < r.matrices.size(); ++i) {
    const MatrixRecord &m = r.matrices[i];
    j += std::string(i ? "," : "") + "\n {\"index\": " + std::to_string(i) +
         ", \"name\": " + jsonEscape(m.name) + ", \"path\": " + jsonEscape(m.path);
    if (m.read)
      j += ", \"rows\": " + std::to_string(m.rows) + ", \"cols\": " + std::to_string(m.cols) +
           ", \"nnz\": " + std::to_string(m.nnz) + ", \"sparsity\": " +
           num(m.sparsity, "%.8g") + ", \"empty_rows\": " +
           std::to_string(m.stats.empty_rows) + ", \"max_row_length\": " +
           std::to_string(m.stats.max_length) + ", \"mean_row_length\": " +
           num(m.stats.mean_length) + ", \"stddev_row_length\": " +
           num(m.stats.stddev_length) + ", \"explored\": " + (m.explored ? "true" : "false");
    j += ", \"error\": " + (m.error.empty() ? std::string("null") : jsonEscape(m.error)) + "}";
  }
  j += "\n],\n\"measurements\": [";
  for (size_t i = 0; i < r.measurements.size(); ++i) {
    const Measurement &m = r.measurements[i];
    j += std::string(i ? "," : "") + "\n {\"matrix\": " + jsonEscape(r.matrices[m.matrix].name) +
         ", \"op\": " + jsonEscape(m.op) + ", \"type\": " + jsonEscape(m.type) + ", \"" +
         (m.op == "spmm" ? "n" : "k") + "\": " + std::to_string(m.size) +
         ", \"impl\": " + jsonEscape(m.impl);
    if (!m.scheduleJson.empty())
      j += ", \"schedule\": " + m.scheduleJson;
    j += ", \"check\": " + jsonEscape(m.check.empty() ? "none" : m.check) +
         ", \"rel_err\": " + num(m.relErr) + ", \"rel_err_after_timing\": " +
         num(m.relErrAfter) + ", \"tolerance\": " + num(m.tolerance) +
         ", \"reference\": " + jsonEscape(m.reference);
    if (m.timing.ok)
      j += ", \"timing\": " + timingJson(m.timing);
    j += ", \"error\": " + (m.error.empty() ? std::string("null") : jsonEscape(m.error));
    if (!m.note.empty())
      j += ", \"note\": " + jsonEscape(m.note);
    j += "}";
  }
  j += "\n],\n\"summary\": [";
  for (size_t i = 0; i < sums.size(); ++i) {
    const Summary &s = sums[i];
    j += std::string(i ? "," : "") + "\n {\"op\": " + jsonEscape(s.group.op) +
         ", \"type\": " + jsonEscape(s.group.type) + ", \"size\": " +
         std::to_string(s.group.size) + ", \"matrices\": " + std::to_string(s.matrices) +
         ", \"checks_failed\": " + std::to_string(s.failed) +
         ", \"geomean_vs_cusparse\": " + num(s.vsSparse) +
         ", \"geomean_vs_cublas\": " + num(s.vsDense) +
         ", \"geomean_vs_tf32\": " + num(s.vsTf32) + ", \"dense_check_against\": " +
         jsonEscape(s.denseLabel) + ", \"matrices_at_least_90pct\": " +
         std::to_string(s.denseCount) + ", \"faster_than_dense_at_least_90pct\": " +
         std::to_string(s.denseFaster) + ", \"faster_than_dense_from_sparsity\": " +
         num(s.crossover) + "}";
  }
  j += "\n],\n\"explore\": [";
  for (size_t i = 0; i < r.exploreSummaries.size(); ++i) {
    const ExploreSummary &s = r.exploreSummaries[i];
    j += std::string(i ? "," : "") + "\n {\"matrix\": " + jsonEscape(r.matrices[s.matrix].name) +
         ", \"op\": " + jsonEscape(s.op) + ", \"type\": " + jsonEscape(s.type) + ", \"" +
         (s.op == "spmm" ? "n" : "k") + "\": " + std::to_string(s.size) +
         ", \"schedules_tried\": " + std::to_string(s.tried) +
         ", \"schedules_timed\": " + std::to_string(s.passed) +
         ", \"schedules_failed_check\": " + std::to_string(s.failed) +
         ", \"heuristic\": {\"schedule\": " + s.heuristicScheduleJson +
         ", \"median_us\": " + num(s.heuristicUs) + ", \"median_us_in_grid\": " +
         num(s.heuristicInGridUs) + "}, \"best\": {\"schedule\": " +
         (s.bestScheduleJson.empty() ? "null" : s.bestScheduleJson) +
         ", \"median_us\": " + num(s.bestUs) + "}}";
  }
  j += "\n]\n}\n";
  return j;
}

std::string csv(const Results &r) {
  std::string c = "matrix,rows,cols,nnz,sparsity,op,type,size,impl,median_us,min_us,max_us,"
                  "samples,launches_per_sample,timing_mode,rel_err,rel_err_after_timing,"
                  "tolerance,check,reference,schedule,error\n";
  for (const Measurement &m : r.measurements) {
    const MatrixRecord &mr = r.matrices[m.matrix];
    c += csvField(mr.name) + "," + std::to_string(mr.rows) + "," + std::to_string(mr.cols) +
         "," + std::to_string(mr.nnz) + "," + csvNum(mr.sparsity, "%.8g") + "," + m.op + "," +
         m.type + "," + std::to_string(m.size) + "," + m.impl + "," +
         csvNum(m.timing.medianUs) + "," + csvNum(m.timing.minUs) + "," +
         csvNum(m.timing.maxUs) + "," + std::to_string(m.timing.samplesUs.size()) + "," +
         std::to_string(m.timing.launches) + "," + m.timing.mode + "," + csvNum(m.relErr) +
         "," + csvNum(m.relErrAfter) + "," + csvNum(m.tolerance) + "," + m.check + "," +
         csvField(m.reference) + "," + csvField(m.schedule) + "," + csvField(m.error) + "\n";
  }
  return c;
}

std::string exploreCsv(const Results &r) {
  std::string c = "matrix,sparsity,op,type,size,schedule,heuristic,median_us,rel_err,status\n";
  for (const ExploreRecord &e : r.explored)
    c += csvField(r.matrices[e.matrix].name) + "," +
         csvNum(r.matrices[e.matrix].sparsity, "%.8g") + "," + e.op + "," + e.type + "," +
         std::to_string(e.size) + "," + e.schedule + "," + (e.heuristic ? "1" : "0") + "," +
         csvNum(e.medianUs) + "," + csvNum(e.relErr) + "," + csvField(e.status) + "\n";
  return c;
}

std::string utcNow() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

} // namespace

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
