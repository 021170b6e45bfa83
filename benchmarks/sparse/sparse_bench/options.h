//===- sparse_bench/options.h - errors and command line ---------*- C++ -*-===//
//
// The benchmark's error type and CUDA/cuSPARSE/cuBLAS checks, and its options:
// parsing, validation and --help.
//
// Part of sparse_bench.cu's program (SOPT_BENCH_UNIT 0 or 1): included once,
// in order, by that one translation unit, its definitions local to it (an
// anonymous namespace); not a header to include elsewhere.
//
//===----------------------------------------------------------------------===//

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

} // namespace
