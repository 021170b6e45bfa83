// The prepared SpMV (include/sparse-opt/Runtime/Host/SpmvPlan.h) against a
// float64 reference: y = alpha*A*x + beta*y, f32 against a float64 sum of
// the same rounded inputs, f64 against a compensated (Neumaier) sum, each
// by ||y - ref|| over the norm of the terms' magnitudes. Fresh random
// values every run; y poisoned with NaN where beta = 0 (it must then be
// only written). Every pattern under the automatic choice, the HBP kernel
// and the row-vector kernel; HBP also with narrow bands (several bands,
// x segments staged in shared memory, band partials merged), a small long-
// row limit (rows cut into chunks) and no parallel part (all tiles
// competed for), one entry a lane (every lane-group width), under both
// schedules (blocks take tiles, warps take batches); 32- and 64-bit
// indices. Then a plan run many times with
// new values, a run captured in a CUDA graph, and malformed input, which
// must get located messages. With a directory argument, also every .mtx
// in it.
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/spmv | FileCheck %s
// CHECK: sopt_spmv_prepare: positions[0] is 1, expected 0
// CHECK: sopt_spmv_prepare: row 2: positions decrease (positions[2] = 5, positions[3] = 4)
// CHECK: sopt_spmv_prepare: positions[4] (rows) is 6, expected nnz = 7
// CHECK: sopt_spmv_prepare: row 1, entry 3: column 9 outside [0, 8)
// CHECK: sopt_spmv_prepare: row 3, entry 6: column 2 after column 5
// CHECK: sopt_spmv_prepare: positions is not device memory
// CHECK: sopt_spmv_prepare: negative size
// CHECK: sopt_spmv_run: x is NULL
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "sparse-opt/Runtime/Host/SpmvPlan.h"

#include "Harness.h"
#include "SpmvCases.h"

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>


using spmvcases::Csr;

namespace {

int failures = 0, checks = 0;
std::mt19937_64 rng(std::random_device{}());

template <typename T> struct DeviceArray {
  T *data = nullptr;
  size_t count = 0;
  explicit DeviceArray(size_t n) : count(n) {
    CHECK_CUDA(cudaMalloc(&data, std::max<size_t>(n, 1) * sizeof(T)));
  }
  DeviceArray(const std::vector<T> &host) : DeviceArray(host.size()) { upload(host); }
  DeviceArray(const DeviceArray &) = delete;
  ~DeviceArray() { cudaFree(data); }
  void upload(const std::vector<T> &host) {
    CHECK_CUDA(cudaMemcpy(data, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> host(count);
    CHECK_CUDA(cudaMemcpy(host.data(), data, count * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }
};

template <typename T> std::vector<T> randomValues(size_t n) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<T> v(n);
  for (T &e : v)
    e = T(u(rng));
  return v;
}

/// alpha*A*x + beta*y0 per row, and the sum of its terms' magnitudes.
template <typename T>
void reference(const Csr &m, const std::vector<T> &values, const std::vector<T> &x, double alpha,
               double beta, const std::vector<T> &y0, std::vector<double> &ref,
               std::vector<double> &scale) {
  ref.assign(size_t(m.rows), 0);
  scale.assign(size_t(m.rows), 0);
  for (int64_t r = 0; r < m.rows; ++r) {
    double sum = 0, compensation = 0, magnitude = 0;
    for (int64_t j = m.positions[r]; j < m.positions[r + 1]; ++j) {
      const double term = double(values[j]) * double(x[m.coordinates[j]]);
      const double t = sum + term; // Neumaier's compensated sum
      compensation += std::fabs(sum) >= std::fabs(term) ? (sum - t) + term : (term - t) + sum;
      sum = t;
      magnitude += std::fabs(term);
    }
    sum += compensation;
    const double old = beta == 0 ? 0 : beta * double(y0[r]);
    ref[r] = alpha * sum + old;
    scale[r] = std::fabs(alpha) * magnitude + std::fabs(old);
  }
}

template <typename T> double tolerance();
template <> double tolerance<float>() { return 2e-6; }
template <> double tolerance<double>() { return 1e-14; }


const char *kernelName(sopt_spmv_kernel k) {
  return k == SOPT_SPMV_HBP ? "hbp" : k == SOPT_SPMV_ROW_VECTOR ? "row_vector" : "auto";
}

struct Variant {
  const char *name;
  sopt_spmv_options options;
};

std::vector<Variant> variants(const Csr &m) {
  std::vector<Variant> out;
  out.push_back({"auto", {}});
  out.push_back({"hbp", {SOPT_SPMV_HBP}});
  out.push_back({"row_vector", {SOPT_SPMV_ROW_VECTOR}});
  // Bands narrower than x, so that several exist and are staged.
  sopt_spmv_options narrow{SOPT_SPMV_HBP};
  narrow.band_columns = std::max<int64_t>(1, m.cols / 5 + 1);
  out.push_back({"hbp_bands", narrow});
  sopt_spmv_options chunks{SOPT_SPMV_HBP};
  chunks.long_row_limit = 7;
  chunks.band_columns = std::max<int64_t>(1, m.cols / 2 + 1);
  out.push_back({"hbp_chunks", chunks});
  sopt_spmv_options competitive{SOPT_SPMV_HBP};
  competitive.parallel_share = 1e-9; // every tile through the counter
  out.push_back({"hbp_competitive", competitive});
  // One entry a lane: every lane-group width on short rows.
  sopt_spmv_options lanes{SOPT_SPMV_HBP};
  lanes.lane_entries = 1;
  out.push_back({"hbp_lanes1", lanes});
  lanes.kernel = SOPT_SPMV_ROW_VECTOR;
  out.push_back({"row_vector_lanes1", lanes});
  // The warp-batch schedule (the tile schedule is what small patterns get
  // above, their x staged): alone, with several bands, all competed for.
  sopt_spmv_options warp{SOPT_SPMV_HBP};
  warp.schedule = SOPT_SPMV_BY_WARP_BATCH;
  out.push_back({"hbp_warp", warp});
  warp.band_columns = std::max<int64_t>(1, m.cols / 3 + 1);
  out.push_back({"hbp_warp_bands", warp});
  warp.band_columns = 0;
  warp.parallel_share = 1e-9;
  out.push_back({"hbp_warp_competitive", warp});
  // The tile schedule without staging.
  sopt_spmv_options tiles{SOPT_SPMV_HBP};
  tiles.schedule = SOPT_SPMV_BY_TILE;
  tiles.shared_bytes = 4;
  out.push_back({"hbp_tile_unstaged", tiles});
  return out;
}

template <typename T, typename Index>
void checkPattern(const Csr &m, const Variant &variant, bool quietPass) {
  const bool f64 = sizeof(T) == 8;
  const std::vector<Index> positions(m.positions.begin(), m.positions.end());
  const std::vector<Index> coordinates(m.coordinates.begin(), m.coordinates.end());
  DeviceArray<Index> dPositions(positions), dCoordinates(coordinates);
  char error[512] = "";
  sopt_spmv_plan *plan = nullptr;
  if (sopt_spmv_prepare(&plan, m.rows, m.cols, m.nnz(), dPositions.data, dCoordinates.data,
                        sizeof(Index) == 8 ? SOPT_SPMV_I64 : SOPT_SPMV_I32,
                        f64 ? SOPT_SPMV_F64 : SOPT_SPMV_F32, &variant.options, 0, error,
                        sizeof error)) {
    std::printf("FAIL %s %s: %s\n", m.name.c_str(), variant.name, error);
    ++failures;
    return;
  }
  sopt_spmv_summary s{};
  sopt_spmv_describe(plan, &s);
  const std::vector<T> values = randomValues<T>(size_t(m.nnz()));
  const std::vector<T> x = randomValues<T>(size_t(m.cols));
  DeviceArray<T> dValues(values), dX(x), dY(size_t(m.rows));
  std::uniform_real_distribution<double> u(0.5, 2.0);
  // beta = 0 on a NaN-poisoned y, then beta != 0 on random y.
  for (int withBeta = 0; withBeta < 2; ++withBeta) {
    const double alpha = u(rng), beta = withBeta ? -u(rng) : 0.0;
    std::vector<T> y0(size_t(m.rows), T(0));
    if (withBeta) {
      y0 = randomValues<T>(size_t(m.rows));
      dY.upload(y0);
    } else {
      CHECK_CUDA(cudaMemset(dY.data, 0xff, dY.count * sizeof(T)));
    }
    if (sopt_spmv_run(plan, dValues.data, alpha, dX.data, beta, dY.data, 0, error,
                      sizeof error)) {
      std::printf("FAIL %s %s: %s\n", m.name.c_str(), variant.name, error);
      ++failures;
      continue;
    }
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<double> ref, scale;
    reference(m, values, x, alpha, beta, y0, ref, scale);
    const std::vector<T> y = dY.download();
    const std::vector<double> out(y.begin(), y.end());
    const double err = harness::errorAgainstScale(out, ref, scale);
    const bool ok = err <= tolerance<T>();
    ++checks;
    failures += !ok;
    if (!ok || !quietPass)
      std::printf("%s %s %s i%d %s beta=%s: err %.2e kernel %s%s bands %lld staged %lld/%lld "
                  "long %lld\n",
                  ok ? "ok" : "FAIL", m.name.c_str(), f64 ? "f64" : "f32", int(8 * sizeof(Index)),
                  variant.name, withBeta ? "rand" : "0", err, kernelName(s.kernel),
                  s.kernel == SOPT_SPMV_HBP ? (s.by_warp_batch ? " by warp batch" : " by tile") : "",
                  (long long)s.bands, (long long)s.staged_tiles, (long long)s.tiles,
                  (long long)s.long_rows);
  }
  sopt_spmv_free(plan);
}

void checkAll(const Csr &m, bool quietPass) {
  for (const Variant &v : variants(m)) {
    checkPattern<float, int32_t>(m, v, quietPass);
    checkPattern<double, int32_t>(m, v, quietPass);
  }
  checkPattern<double, int64_t>(m, variants(m)[0], quietPass);
  checkPattern<float, int64_t>(m, variants(m)[3], quietPass);
}

/// The choice the statistics make, where it is not in doubt.
void expectKernel(const Csr &m, sopt_spmv_kernel expected, int64_t minLongRows) {
  std::vector<int32_t> positions(m.positions.begin(), m.positions.end());
  std::vector<int32_t> coordinates(m.coordinates.begin(), m.coordinates.end());
  DeviceArray<int32_t> p(positions), c(coordinates);
  sopt_spmv_plan *plan = nullptr;
  char error[256];
  sopt_spmv_summary s{};
  if (!sopt_spmv_prepare(&plan, m.rows, m.cols, m.nnz(), p.data, c.data, SOPT_SPMV_I32,
                         SOPT_SPMV_F32, nullptr, 0, error, sizeof error))
    sopt_spmv_describe(plan, &s);
  const bool ok = plan && s.kernel == expected && s.long_rows >= minLongRows;
  ++checks;
  failures += !ok;
  std::printf("%s choice %s: %s (cov %.2f, mean %.1f, max %lld, long rows %lld)\n",
              ok ? "ok" : "FAIL", m.name.c_str(), kernelName(s.kernel), s.cov_length,
              s.mean_length, (long long)s.max_length, (long long)s.long_rows);
  sopt_spmv_free(plan);
}

/// One plan, many runs with new values (a solver loop), and a run replayed
/// from a CUDA graph.
void checkReuseAndGraph() {
  const Csr m = spmvcases::powerLaw(20000, 20000, 2, 2.1, rng());
  std::vector<int32_t> positions(m.positions.begin(), m.positions.end());
  std::vector<int32_t> coordinates(m.coordinates.begin(), m.coordinates.end());
  DeviceArray<int32_t> p(positions), c(coordinates);
  sopt_spmv_plan *plan = nullptr;
  char error[256];
  if (sopt_spmv_prepare(&plan, m.rows, m.cols, m.nnz(), p.data, c.data, SOPT_SPMV_I32,
                        SOPT_SPMV_F64, nullptr, 0, error, sizeof error)) {
    std::printf("FAIL reuse: %s\n", error);
    ++failures;
    return;
  }
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  DeviceArray<double> dValues(size_t(m.nnz())), dX(size_t(m.cols)), dY(size_t(m.rows));
  for (int iteration = 0; iteration < 4; ++iteration) {
    const std::vector<double> values = randomValues<double>(size_t(m.nnz()));
    const std::vector<double> x = randomValues<double>(size_t(m.cols));
    const std::vector<double> y0 = randomValues<double>(size_t(m.rows));
    dValues.upload(values);
    dX.upload(x);
    dY.upload(y0);
    const bool graph = iteration >= 2;
    if (graph) {
      cudaGraph_t g;
      cudaGraphExec_t exec;
      CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
      const int failed =
          sopt_spmv_run(plan, dValues.data, 1.5, dX.data, 0.5, dY.data, stream, error, sizeof error);
      CHECK_CUDA(cudaStreamEndCapture(stream, &g));
      CHECK_CUDA(cudaGraphInstantiate(&exec, g, 0));
      if (!failed)
        CHECK_CUDA(cudaGraphLaunch(exec, stream));
      CHECK_CUDA(cudaStreamSynchronize(stream));
      cudaGraphExecDestroy(exec);
      cudaGraphDestroy(g);
    } else {
      sopt_spmv_run(plan, dValues.data, 1.5, dX.data, 0.5, dY.data, stream, error, sizeof error);
      CHECK_CUDA(cudaStreamSynchronize(stream));
    }
    std::vector<double> ref, scale;
    reference(m, values, x, 1.5, 0.5, y0, ref, scale);
    const double err = harness::errorAgainstScale(dY.download(), ref, scale);
    const bool ok = err <= tolerance<double>();
    ++checks;
    failures += !ok;
    std::printf("%s reuse %d%s: err %.2e\n", ok ? "ok" : "FAIL", iteration,
                graph ? " (graph)" : "", err);
  }
  CHECK_CUDA(cudaStreamDestroy(stream));
  sopt_spmv_free(plan);
}

/// Malformed input: the message, and no plan.
void expectError(const char *what, int64_t rows, int64_t cols, const std::vector<int32_t> &pos,
                 const std::vector<int32_t> &col, bool hostPositions = false) {
  DeviceArray<int32_t> p(pos), c(col);
  sopt_spmv_plan *plan = nullptr;
  char error[512] = "";
  const int failed =
      sopt_spmv_prepare(&plan, rows, cols, int64_t(col.size()), hostPositions ? pos.data() : p.data,
                        c.data, SOPT_SPMV_I32, SOPT_SPMV_F32, nullptr, 0, error, sizeof error);
  const bool ok = failed && !plan && error[0];
  ++checks;
  failures += !ok;
  std::printf("%s %s: %s\n", ok ? "ok" : "FAIL", what, error);
  sopt_spmv_free(plan);
}

void checkMalformed() {
  expectError("first position", 2, 8, {1, 2, 3}, {0, 1, 2});
  expectError("decreasing", 4, 8, {0, 2, 5, 4, 6}, {0, 1, 2, 3, 4, 5});
  expectError("last position", 4, 8, {0, 2, 3, 4, 6}, {0, 1, 2, 3, 4, 5, 6});
  expectError("column range", 4, 8, {0, 2, 4, 5, 7}, {0, 1, 2, 9, 4, 5, 6});
  expectError("column order", 4, 8, {0, 2, 4, 5, 7}, {0, 1, 2, 3, 4, 5, 2});
  expectError("host positions", 2, 8, {0, 1, 2}, {0, 1}, true);
  expectError("negative", -1, 8, {0}, {});
  // A run without x.
  DeviceArray<int32_t> p(std::vector<int32_t>{0, 1}), c(std::vector<int32_t>{0});
  sopt_spmv_plan *plan = nullptr;
  char error[256] = "";
  sopt_spmv_prepare(&plan, 1, 1, 1, p.data, c.data, SOPT_SPMV_I32, SOPT_SPMV_F32, nullptr, 0,
                    error, sizeof error);
  DeviceArray<float> v(1), y(1);
  const bool failed = sopt_spmv_run(plan, v.data, 1, nullptr, 0, y.data, 0, error, sizeof error);
  ++checks;
  failures += !failed;
  std::printf("%s null x: %s\n", failed ? "ok" : "FAIL", error);
  sopt_spmv_free(plan);
}


} // namespace

int main(int argc, char **argv) {
  // --quick: small patterns only (for compute-sanitizer).
  bool quick = false;
  std::string directory;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0)
      quick = true;
    else
      directory = argv[i];
  }
  checkMalformed();
  using namespace spmvcases;
  std::vector<Csr> patterns = {
      uniform(3001, 2999, 9, rng()),
      powerLaw(5003, 4001, 1, 2.0, rng()),
      banded(2049, 3),
      blockDiagonal(37, 24),
      emptyRows(1029, 515, 17, rng()),
      oneDenseRow(3000, 20011, rng()),
      singleColumn(1001, rng()),
      oneRow(5000, 1999, rng()),
      oneRow(7, 0, rng()),
      noEntries(777, 313),
      noEntries(0, 5),
      uniform(300, 1, 1, rng()),
  };
  if (!quick) {
    patterns.push_back(powerLaw(200003, 200003, 2, 2.2, rng()));
    patterns.push_back(uniform(150001, 150001, 24, rng()));
    patterns.push_back(oneDenseRow(100000, 300000, rng()));
    // x of 6 M doubles (48 MB) and floats (24 MB) outgrows the bands that
    // stay in L2: several bands without staging.
    patterns.push_back(uniform(40000, 6000000, 12, rng()));
  }
  for (const Csr &m : patterns)
    checkAll(m, true);
  if (!directory.empty()) {
    for (const std::string &f : matrixMarketFiles(directory)) {
      Csr m;
      std::string error;
      if (readMatrixFile(f, m, error)) {
        checkAll(m, true);
      } else {
        std::printf("FAIL reading %s\n", error.c_str());
        ++failures;
      }
    }
  }
  expectKernel(uniform(20000, 20000, 16, rng()), SOPT_SPMV_ROW_VECTOR, 0);
  expectKernel(banded(20000, 4), SOPT_SPMV_ROW_VECTOR, 0);
  expectKernel(powerLaw(100000, 100000, 1, 2.0, rng()), SOPT_SPMV_HBP, 0);
  expectKernel(oneDenseRow(100000, 50000, rng()), SOPT_SPMV_HBP, 1);
  // Too few rows to give every SM two tiles: uneven, but row-vector.
  expectKernel(powerLaw(20000, 20000, 1, 2.0, rng()), SOPT_SPMV_ROW_VECTOR, 0);
  checkReuseAndGraph();
  std::printf("%d checks\nPASSED: %d failure(s)\n", checks, failures);
  return failures != 0;
}
