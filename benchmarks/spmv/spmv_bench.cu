// SpMV y = A*x (alpha = 1, beta = 0): the prepared SpMV of sparse-opt
// (include/sparse-opt/Runtime/Host/SpmvPlan.h: its automatic choice, and
// the HBP and row-vector kernels forced) against cuSPARSE SpMV (default
// algorithm and CUSPARSE_SPMV_CSR_ALG2), f32 and f64, 32-bit indices, on
// the same device arrays in one run. Per call CUDA-event medians; the
// preparation (ours: sopt_spmv_prepare; cuSPARSE: buffer size, allocation
// and cusparseSpMV_preprocess) timed apart, wall clock. Effective bandwidth
// counts what must move once: values and column indices, row positions,
// x and y written. A device-to-device copy in the same run gives the
// reachable bandwidth.
//
// usage: spmv_bench <out.csv> [directory of .mtx files]
// Prints a table, then the ratios; the CSV keeps every measurement.

#include "sparse-opt/Runtime/Host/SpmvPlan.h"

#include "Harness.h"
#include "SpmvCases.h"

#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#define CHECK_CUSPARSE(call)                                                               \
  do {                                                                                     \
    cusparseStatus_t st_ = (call);                                                         \
    if (st_ != CUSPARSE_STATUS_SUCCESS) {                                                  \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                  \
                   cusparseGetErrorString(st_));                                           \
      std::exit(2);                                                                        \
    }                                                                                      \
  } while (0)

using spmvcases::Csr;

namespace {

constexpr int kWarmup = 5, kReps = 31;

struct Case {
  Csr m;
  std::string family; // fit / heldout / mtx / awkward
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

/// Median per-call time in microseconds of `call` in the default stream.
template <typename Call> double timeCalls(Call call) {
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  for (int i = 0; i < kWarmup; ++i)
    call();
  std::vector<double> times;
  for (int i = 0; i < kReps; ++i) {
    CHECK_CUDA(cudaEventRecord(start));
    call();
    CHECK_CUDA(cudaEventRecord(stop));
    CHECK_CUDA(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms * 1e3);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return median(times);
}

double wallMicroseconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - since)
      .count();
}

struct Row {
  std::string matrix, family, type, impl, chosen;
  int64_t rows, cols, nnz, maxLength;
  double mean, cov, us, prepUs, gflops, gbps, maxErr;
};

double copyBandwidth() {
  const size_t bytes = size_t(1) << 30;
  void *a, *b;
  CHECK_CUDA(cudaMalloc(&a, bytes));
  CHECK_CUDA(cudaMalloc(&b, bytes));
  CHECK_CUDA(cudaMemset(a, 1, bytes));
  const double us = timeCalls([&] { CHECK_CUDA(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice)); });
  cudaFree(a);
  cudaFree(b);
  return 2.0 * double(bytes) / (us * 1e-6) / 1e9;
}

FILE *csv = nullptr;
double copyGbps = 0;

/// One CSV line, written at once (a run cut short keeps what it measured).
void writeCsv(const Row &r) {
  std::fprintf(csv, "%s,%s,%lld,%lld,%lld,%.3f,%.4f,%lld,%s,%s,%s,%.3f,%.1f,%.2f,%.1f,%.0f,%.2e\n",
               r.matrix.c_str(), r.family.c_str(), (long long)r.rows, (long long)r.cols,
               (long long)r.nnz, r.mean, r.cov, (long long)r.maxLength, r.type.c_str(),
               r.impl.c_str(), r.chosen.c_str(), r.us, r.prepUs, r.gflops, r.gbps, copyGbps,
               r.maxErr);
  std::fflush(csv);
}

template <typename T>
void measure(const Case &c, cusparseHandle_t handle, std::vector<Row> &rows) {
  const Csr &m = c.m;
  const bool f64 = sizeof(T) == 8;
  const cudaDataType valueType = f64 ? CUDA_R_64F : CUDA_R_32F;
  std::vector<int32_t> positions(m.positions.begin(), m.positions.end());
  std::vector<int32_t> coordinates(m.coordinates.begin(), m.coordinates.end());
  std::vector<T> values(size_t(m.nnz())), x(size_t(m.cols));
  spmvcases::RowRandom random(7, 0, 3);
  for (T &v : values)
    v = T(random.uniform() * 2 - 1);
  for (T &v : x)
    v = T(random.uniform() * 2 - 1);
  int32_t *dPos, *dCol;
  T *dVal, *dX, *dY, *dRef;
  CHECK_CUDA(cudaMalloc(&dPos, positions.size() * 4));
  CHECK_CUDA(cudaMalloc(&dCol, std::max<size_t>(1, coordinates.size()) * 4));
  CHECK_CUDA(cudaMalloc(&dVal, std::max<size_t>(1, values.size()) * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&dX, std::max<size_t>(1, x.size()) * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&dY, std::max<int64_t>(1, m.rows) * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&dRef, std::max<int64_t>(1, m.rows) * sizeof(T)));
  CHECK_CUDA(cudaMemcpy(dPos, positions.data(), positions.size() * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dCol, coordinates.data(), coordinates.size() * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dVal, values.data(), values.size() * sizeof(T), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dX, x.data(), x.size() * sizeof(T), cudaMemcpyHostToDevice));

  double mean, cov;
  spmvcases::lengthStats(m, mean, cov);
  int64_t maxLength = 0;
  for (int64_t r = 0; r < m.rows; ++r)
    maxLength = std::max(maxLength, m.positions[r + 1] - m.positions[r]);
  const double bytes = double(m.nnz()) * (sizeof(T) + 4) + double(m.rows + 1) * 4 +
                       double(m.cols) * sizeof(T) + double(m.rows) * sizeof(T);
  const double flops = 2.0 * double(m.nnz());
  auto record = [&](const std::string &impl, const std::string &chosen, double us, double prepUs,
                    double maxErr) {
    rows.push_back({m.name, c.family, f64 ? "f64" : "f32", impl, chosen, m.rows, m.cols, m.nnz(),
                    maxLength, mean, cov, us, prepUs, flops / (us * 1e-6) / 1e9,
                    bytes / (us * 1e-6) / 1e9, maxErr});
    writeCsv(rows.back());
  };
  // Largest relative difference to cuSPARSE's default result (a sanity
  // check of the timed runs; the tests check against float64).
  auto compare = [&]() {
    std::vector<T> y(size_t(m.rows)), ref(size_t(m.rows));
    CHECK_CUDA(cudaMemcpy(y.data(), dY, y.size() * sizeof(T), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(ref.data(), dRef, ref.size() * sizeof(T), cudaMemcpyDeviceToHost));
    double worst = 0, norm = 0;
    for (size_t i = 0; i < y.size(); ++i)
      norm = std::max(norm, std::fabs(double(ref[i])));
    for (size_t i = 0; i < y.size(); ++i)
      worst = std::max(worst, std::fabs(double(y[i]) - double(ref[i])) / std::max(norm, 1e-30));
    return worst;
  };

  // cuSPARSE, default algorithm first: its y is the reference of the rest.
  cusparseSpMatDescr_t a;
  cusparseDnVecDescr_t vx, vy, vref;
  CHECK_CUSPARSE(cusparseCreateCsr(&a, m.rows, m.cols, m.nnz(), dPos, dCol, dVal,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_BASE_ZERO, valueType));
  CHECK_CUSPARSE(cusparseCreateDnVec(&vx, m.cols, dX, valueType));
  CHECK_CUSPARSE(cusparseCreateDnVec(&vy, m.rows, dY, valueType));
  CHECK_CUSPARSE(cusparseCreateDnVec(&vref, m.rows, dRef, valueType));
  const T one = 1, zero = 0;
  for (cusparseSpMVAlg_t alg : {CUSPARSE_SPMV_ALG_DEFAULT, CUSPARSE_SPMV_CSR_ALG2}) {
    const bool isDefault = alg == CUSPARSE_SPMV_ALG_DEFAULT;
    cusparseDnVecDescr_t out = isDefault ? vref : vy;
    CHECK_CUDA(cudaDeviceSynchronize());
    const auto start = std::chrono::steady_clock::now();
    size_t bufferBytes = 0;
    CHECK_CUSPARSE(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, vx,
                                           &zero, out, valueType, alg, &bufferBytes));
    void *buffer = nullptr;
    CHECK_CUDA(cudaMalloc(&buffer, std::max<size_t>(bufferBytes, 1)));
    CHECK_CUSPARSE(cusparseSpMV_preprocess(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, vx,
                                           &zero, out, valueType, alg, buffer));
    CHECK_CUDA(cudaDeviceSynchronize());
    const double prepUs = wallMicroseconds(start);
    const double us = timeCalls([&] {
      CHECK_CUSPARSE(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, vx, &zero,
                                  out, valueType, alg, buffer));
    });
    record(isDefault ? "cusparse" : "cusparse_alg2", "", us, prepUs, isDefault ? 0 : compare());
    cudaFree(buffer);
  }

  // The automatic choice, each kernel forced, and each kernel with other
  // numbers of entries a lane (the default is 8).
  struct Variant {
    sopt_spmv_kernel kernel;
    int64_t laneEntries;
    std::string name;
    sopt_spmv_schedule schedule = SOPT_SPMV_SCHEDULE_AUTO;
    double parallelShare = 0;
  };
  std::vector<Variant> variants = {{SOPT_SPMV_AUTO, 0, "ours"},
                                   {SOPT_SPMV_HBP, 0, "ours_hbp"},
                                   {SOPT_SPMV_ROW_VECTOR, 0, "ours_row_vector"}};
  for (int64_t e : {2, 4, 16}) {
    variants.push_back({SOPT_SPMV_HBP, e, "ours_hbp_e" + std::to_string(e)});
    variants.push_back({SOPT_SPMV_ROW_VECTOR, e, "ours_row_vector_e" + std::to_string(e)});
  }
  variants.push_back({SOPT_SPMV_HBP, 0, "ours_hbp_by_tile", SOPT_SPMV_BY_TILE});
  // The parallel part alone (nothing competed for) and the competitive alone.
  variants.push_back({SOPT_SPMV_HBP, 0, "ours_hbp_parallel_only", SOPT_SPMV_SCHEDULE_AUTO, 1.0});
  variants.push_back(
      {SOPT_SPMV_HBP, 0, "ours_hbp_competitive_only", SOPT_SPMV_SCHEDULE_AUTO, 1e-9});
  for (const Variant &variant : variants) {
    sopt_spmv_options options{};
    options.kernel = variant.kernel;
    options.lane_entries = variant.laneEntries;
    options.schedule = variant.schedule;
    options.parallel_share = variant.parallelShare;
    sopt_spmv_plan *plan = nullptr;
    char error[512];
    CHECK_CUDA(cudaDeviceSynchronize());
    const auto start = std::chrono::steady_clock::now();
    if (sopt_spmv_prepare(&plan, m.rows, m.cols, m.nnz(), dPos, dCol, SOPT_SPMV_I32,
                          f64 ? SOPT_SPMV_F64 : SOPT_SPMV_F32, &options, 0, error,
                          sizeof error)) {
      std::fprintf(stderr, "%s\n", error);
      std::exit(1);
    }
    const double prepUs = wallMicroseconds(start);
    sopt_spmv_summary s{};
    sopt_spmv_describe(plan, &s);
    CHECK_CUDA(cudaMemset(dY, 0xff, std::max<int64_t>(1, m.rows) * sizeof(T)));
    const double us = timeCalls([&] {
      if (sopt_spmv_run(plan, dVal, 1.0, dX, 0.0, dY, 0, error, sizeof error)) {
        std::fprintf(stderr, "%s\n", error);
        std::exit(1);
      }
    });
    record(variant.name, s.kernel == SOPT_SPMV_HBP ? "hbp" : "row_vector", us, prepUs, compare());
    sopt_spmv_free(plan);
  }
  cusparseDestroySpMat(a);
  cusparseDestroyDnVec(vx);
  cusparseDestroyDnVec(vy);
  cusparseDestroyDnVec(vref);
  cudaFree(dPos);
  cudaFree(dCol);
  cudaFree(dVal);
  cudaFree(dX);
  cudaFree(dY);
  cudaFree(dRef);
}


double geomean(const std::vector<double> &v) {
  double s = 0;
  for (double e : v)
    s += std::log(e);
  return v.empty() ? 0 : std::exp(s / double(v.size()));
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <out.csv> [mtx directory]\n", argv[0]);
    return 1;
  }
  using namespace spmvcases;
  const int64_t n = 2000000; // rows (and columns) of the generated matrices
  std::vector<Case> cases;
  // Fit family: two row lengths mixed, the spread rising.
  for (auto [shortLength, longLength, share] :
       std::vector<std::tuple<int64_t, int64_t, double>>{{12, 12, 0.0},
                                                         {10, 24, 0.15},
                                                         {8, 48, 0.08},
                                                         {8, 96, 0.04},
                                                         {6, 160, 0.03},
                                                         {4, 400, 0.02},
                                                         {4, 1500, 0.005}})
    cases.push_back({bimodal(n, n, shortLength, longLength, share, 11), "fit"});
  // Held-out family: power-law graphs, uniform, banded (FEM-like), blocks.
  for (double alpha : {3.0, 2.5, 2.2, 2.0})
    cases.push_back({powerLaw(n, n, 4, alpha, 12), "heldout"});
  for (int64_t k : {4, 16, 48})
    cases.push_back({uniform(n, n, k, 13), "heldout"});
  cases.push_back({banded(n, 13), "heldout"});
  cases.push_back({blockDiagonal(n / 32, 32), "heldout"});
  cases.push_back({uniform(n / 2, 8000000, 12, 14), "heldout"}); // x beyond L2 in f64
  cases.push_back({oneDenseRow(n, n / 4, 15), "heldout"});
  if (argc > 2) {
    for (const std::string &f : matrixMarketFiles(argv[2])) {
      Case c{{}, "mtx"};
      std::string error;
      if (!readMatrixFile(f, c.m, error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
      }
      cases.push_back(std::move(c));
    }
  }

  int device = 0;
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, device));
  cusparseHandle_t handle;
  CHECK_CUSPARSE(cusparseCreate(&handle));
  copyGbps = copyBandwidth();
  csv = std::fopen(argv[1], "w");
  if (!csv) {
    std::perror(argv[1]);
    return 1;
  }
  std::fprintf(csv, "matrix,family,rows,cols,nnz,mean_length,cov_length,max_length,type,impl,"
                    "chosen,median_us,prepare_us,gflops,effective_gbps,copy_gbps,max_rel_diff\n");
  std::printf("device %s, %d SMs; device-to-device copy %.0f GB/s\n", prop.name,
              prop.multiProcessorCount, copyGbps);
  std::vector<Row> rows;
  for (const Case &c : cases) {
    measure<float>(c, handle, rows);
    measure<double>(c, handle, rows);
  }
  cusparseDestroy(handle);

  std::fclose(csv);

  // Table: one line per matrix and type.
  std::map<std::string, std::map<std::string, const Row *>> byKey;
  std::vector<std::string> order;
  for (const Row &r : rows) {
    const std::string key = r.matrix + " " + r.type;
    if (!byKey.count(key))
      order.push_back(key);
    byKey[key][r.impl] = &r;
  }
  std::printf("%-44s %5s %7s %6s %10s %9s %9s %9s %9s | %8s %8s %6s %7s\n", "matrix", "type",
              "nnz/M", "cov", "chosen", "ours us", "hbp us", "rowv us", "cusp us", "ours GB/s",
              "x cusp", "%copy", "prep/call");
  for (const std::string &key : order) {
    auto &k = byKey[key];
    const Row &o = *k["ours"], &h = *k["ours_hbp"], &v = *k["ours_row_vector"],
              &cd = *k["cusparse"], &c2 = *k["cusparse_alg2"];
    const double bestCusparse = std::min(cd.us, c2.us);
    std::printf("%-44s %5s %7.2f %6.2f %10s %9.1f %9.1f %9.1f %9.1f | %8.0f %8.2f %5.0f%% %7.1f%s\n",
                o.matrix.c_str(), o.type.c_str(), double(o.nnz) / 1e6, o.cov, o.chosen.c_str(),
                o.us, h.us, v.us, bestCusparse, o.gbps, bestCusparse / o.us,
                100 * o.gbps / copyGbps, o.prepUs / o.us,
                std::max({o.maxErr, h.maxErr, v.maxErr}) > (o.type == "f32" ? 1e-4 : 1e-10)
                    ? "  DIFFERS"
                    : "");
  }
  // Ratios last: ours over the better cuSPARSE algorithm, geomean per group.
  std::printf("\nspeedup of ours (automatic choice) over the faster cuSPARSE algorithm, geomean:\n");
  for (const char *type : {"f32", "f64"}) {
    std::map<std::string, std::vector<double>> groups;
    for (const std::string &key : order) {
      auto &k = byKey[key];
      const Row &o = *k["ours"];
      if (o.type != type)
        continue;
      const double ratio = std::min(k["cusparse"]->us, k["cusparse_alg2"]->us) / o.us;
      groups[o.cov > 1 ? "irregular (cov > 1)" : "regular (cov <= 1)"].push_back(ratio);
      groups[o.family == "mtx" ? "SuiteSparse .mtx" : "generated"].push_back(ratio);
      groups["all"].push_back(ratio);
    }
    for (auto &[group, ratios] : groups)
      std::printf("  %s %-22s %5.2fx over %zu matrices\n", type, group.c_str(), geomean(ratios),
                  ratios.size());
  }
  return 0;
}
