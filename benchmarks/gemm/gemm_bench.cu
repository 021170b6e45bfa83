// The f32 SIMT GEMM (Runtime/Kernels/GemmSimt.cuh) under the schedule rule
// (Runtime/Schedule/GemmSchedule.h) against cuBLAS SGEMM and cuBLAS TF32 on
// the same inputs, in one run: row-major C[M,N] = A[M,K]·B[K,N], beta = 0.
//
//   gemm_bench [--explore] [--reps=N] [--csv=FILE] [--families=a,b,...]
//
// Families: square (1024-8192), bert (tokens x {768,3072}), llama (tokens
// x {4096,11008}), skinny (M = 1..64). Times are CUDA-event medians over
// --reps launches (default 25) after warm-up, rotating among input sets
// that together exceed twice the L2 where memory allows. --explore also
// times every instantiated tile x split count (and, where 128x128 tiles
// fill the GPU, that tile with three stages), which the rule was tuned on. Each of our
// results is checked against cuBLAS SGEMM (‖ours − sgemm‖/‖sgemm‖ column).
// CSV on --csv (default gemm.csv); the ratios are printed last. Exit
// status: 0 all checks passed, 1 a check failed, 2 usage or a CUDA or
// cuBLAS error, 3 no usable GPU.

#include "Harness.h" // CHECK_CUDA (test/GPU/lib)

#include "sparse-opt/Runtime/Kernels/GemmSimt.cuh"

#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#define CHECK_CUBLAS(call)                                                                         \
  do {                                                                                             \
    cublasStatus_t st_ = (call);                                                                   \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                                            \
      std::fprintf(stderr, "%s:%d: %s: cuBLAS status %d\n", __FILE__, __LINE__, #call, int(st_)); \
      std::exit(2);                                                                                \
    }                                                                                              \
  } while (0)

using sopt::GemmSchedule;
using namespace sopt::gemm_simt;

namespace {

/// Largest ‖ours − sgemm‖/‖sgemm‖ accepted: two f32 summation orders over
/// K <= 11008 differ by ~1e-6; a wrong index differs by ~1.
constexpr double kAgreement = 5e-5;

struct Shape {
  std::string family;
  int64_t m, n, k;
};

std::vector<Shape> shapes(const std::string &families) {
  auto wanted = [&](const char *f) { return families.find(f) != std::string::npos; };
  std::vector<Shape> list;
  if (wanted("square"))
    for (int64_t s : {1024, 2048, 4096, 8192})
      list.push_back({"square", s, s, s});
  // Linear layers: M = tokens, (N, K) = (out, in) features.
  const int64_t tokens[] = {128, 512, 2048, 8192, 16384};
  if (wanted("bert"))
    for (int64_t t : tokens)
      for (auto nk : {std::pair<int64_t, int64_t>{768, 768}, {3072, 768}, {768, 3072}})
        list.push_back({"bert", t, nk.first, nk.second});
  if (wanted("llama"))
    for (int64_t t : tokens)
      for (auto nk : {std::pair<int64_t, int64_t>{4096, 4096}, {11008, 4096}, {4096, 11008}})
        list.push_back({"llama", t, nk.first, nk.second});
  if (wanted("skinny"))
    for (int64_t m : {1, 8, 32, 64})
      for (auto nk : {std::pair<int64_t, int64_t>{768, 3072}, {4096, 4096}, {11008, 4096}})
        list.push_back({"skinny", m, nk.first, nk.second});
  return list;
}

__global__ void fillUniform(float *x, int64_t n, uint64_t seed) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    uint64_t h = (uint64_t(i) + seed) * 0x9E3779B97F4A7C15ull; // splitmix64
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
    h ^= h >> 31;
    x[i] = float(h >> 40) / float(1 << 24) * 2.0f - 1.0f; // uniform [-1, 1)
  }
}

struct Sets {
  std::vector<float *> a, b, c;
  ~Sets() {
    for (auto *v : {&a, &b, &c})
      for (float *p : *v)
        cudaFree(p);
  }
};

double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Median milliseconds of `launch(set)` over `reps`, after warm-up.
double timeIt(const std::function<void(int)> &launch, int sets, int reps) {
  for (int i = 0; i < 3; ++i)
    launch(i % sets);
  CHECK_CUDA(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  std::vector<float> ms(reps);
  for (int r = 0; r < reps; ++r) {
    CHECK_CUDA(cudaEventRecord(start));
    launch(r % sets);
    CHECK_CUDA(cudaEventRecord(stop));
    CHECK_CUDA(cudaEventSynchronize(stop));
    CHECK_CUDA(cudaEventElapsedTime(&ms[r], start, stop));
  }
  CHECK_CUDA(cudaGetLastError());
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return median(ms);
}

/// Accumulates Σ(x − y)² into sums[0] and Σy² into sums[1]; a non-finite x
/// counts into sums[2].
__global__ void differenceSums(const float *x, const float *y, int64_t n, double *sums) {
  double err = 0, norm = 0, bad = 0;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    const double d = double(x[i]) - y[i];
    err += d * d;
    norm += double(y[i]) * y[i];
    bad += isfinite(x[i]) ? 0 : 1;
  }
  atomicAdd(&sums[0], err);
  atomicAdd(&sums[1], norm);
  atomicAdd(&sums[2], bad);
}

/// ‖x − y‖ / ‖y‖ on the device (infinite if x holds a non-finite value).
double relativeDifference(const float *x, const float *y, int64_t count, double *sums) {
  CHECK_CUDA(cudaMemset(sums, 0, 3 * sizeof(double)));
  differenceSums<<<512, 256>>>(x, y, count, sums);
  double host[3];
  CHECK_CUDA(cudaMemcpy(host, sums, sizeof host, cudaMemcpyDeviceToHost));
  return host[2] > 0 ? INFINITY : std::sqrt(host[0] / std::max(host[1], 1e-300));
}

std::string name(const GemmSchedule &s) {
  return std::to_string(s.blockM) + "x" + std::to_string(s.blockN) + "k" +
         std::to_string(s.kStep) + "/s" + std::to_string(s.kSplits);
}

} // namespace

int main(int argc, char **argv) {
  bool explore = false;
  int reps = 25;
  std::string csvPath = "gemm.csv", families = "square,bert,llama,skinny";
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--explore")
      explore = true;
    else if (arg.rfind("--reps=", 0) == 0)
      reps = std::max(20, std::atoi(arg.c_str() + 7));
    else if (arg.rfind("--csv=", 0) == 0)
      csvPath = arg.substr(6);
    else if (arg.rfind("--families=", 0) == 0)
      families = arg.substr(11);
    else {
      std::fprintf(stderr, "usage: %s [--explore] [--reps=N>=20] [--csv=FILE] [--families=...]\n",
                   argv[0]);
      return 2;
    }
  }
  int device = 0;
  cudaDeviceProp prop;
  if (cudaGetDevice(&device) != cudaSuccess || cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    std::fprintf(stderr, "no usable GPU\n");
    return 3;
  }
  std::printf("# device %s, %d SMs, L2 %d MB\n", prop.name, prop.multiProcessorCount,
              prop.l2CacheSize >> 20);
  FILE *csv = std::fopen(csvPath.c_str(), "w");
  if (!csv) {
    std::fprintf(stderr, "cannot write %s\n", csvPath.c_str());
    return 2;
  }
  std::fprintf(csv, "device,family,m,n,k,impl,config,median_ms,tflops,diff_vs_sgemm\n");
  cublasHandle_t handle;
  CHECK_CUBLAS(cublasCreate(&handle));
  std::random_device seeds;
  double *sums;
  CHECK_CUDA(cudaMalloc(&sums, 3 * sizeof(double)));

  struct Row {
    Shape shape;
    std::string config;
    double ours, sgemm, tf32, bestGrid;
    std::string bestConfig;
  };
  std::vector<Row> rows;
  int failures = 0;
  for (const Shape &shape : shapes(families)) {
    const int64_t m = shape.m, n = shape.n, k = shape.k;
    const double flops = 2.0 * m * n * k;
    const int64_t bytesPerSet = 4 * (m * k + k * n + m * n);
    size_t freeBytes = 0, totalBytes = 0;
    CHECK_CUDA(cudaMemGetInfo(&freeBytes, &totalBytes));
    const int64_t maxSets = 8;
    int sets = int(std::min<int64_t>(maxSets, (2 * int64_t(prop.l2CacheSize)) / bytesPerSet + 1));
    sets = int(std::max<int64_t>(1, std::min<int64_t>(sets, int64_t(freeBytes / 2) / bytesPerSet)));
    Sets data;
    for (int s = 0; s < sets; ++s) {
      float *a, *b, *c;
      CHECK_CUDA(cudaMalloc(&a, m * k * 4));
      CHECK_CUDA(cudaMalloc(&b, k * n * 4));
      CHECK_CUDA(cudaMalloc(&c, m * n * 4));
      fillUniform<<<1024, 256>>>(a, m * k, seeds());
      fillUniform<<<1024, 256>>>(b, k * n, seeds());
      data.a.push_back(a), data.b.push_back(b), data.c.push_back(c);
    }
    float *reference;
    CHECK_CUDA(cudaMalloc(&reference, m * n * 4));
    CHECK_CUDA(cudaDeviceSynchronize());

    const float one = 1.0f, zero = 0.0f;
    // Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ.
    auto sgemm = [&](int s) {
      CHECK_CUBLAS(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(m), int(k), &one,
                               data.b[s], int(n), data.a[s], int(k), &zero, data.c[s], int(n)));
    };
    auto tf32 = [&](int s) {
      CHECK_CUBLAS(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(m), int(k), &one,
                                data.b[s], CUDA_R_32F, int(n), data.a[s], CUDA_R_32F, int(k), &zero,
                                data.c[s], CUDA_R_32F, int(n), CUBLAS_COMPUTE_32F_FAST_TF32,
                                CUBLAS_GEMM_DEFAULT));
    };
    auto problem = [&](int s) {
      GemmProblem p;
      p.m = m, p.n = n, p.k = k, p.a = data.a[s], p.lda = k, p.b = data.b[s], p.ldb = n;
      p.c = data.c[s], p.ldc = n, p.alpha = 1, p.beta = 0;
      return p;
    };
    sgemm(0);
    CHECK_CUDA(cudaMemcpy(reference, data.c[0], m * n * 4, cudaMemcpyDeviceToDevice));
    auto record = [&](const char *impl, const std::string &config, double ms, double diff) {
      std::fprintf(csv, "%s,%s,%lld,%lld,%lld,%s,%s,%.5f,%.3f,%.3g\n", prop.name,
                   shape.family.c_str(), (long long)m, (long long)n, (long long)k, impl,
                   config.c_str(), ms, flops / ms * 1e-9, diff);
      std::fflush(csv);
    };
    // One of ours: checked on set 0 against SGEMM, then timed.
    auto ours = [&](const char *impl, const std::string &config,
                    const std::function<cudaError_t(const GemmProblem &)> &run) {
      CHECK_CUDA(cudaMemset(data.c[0], 0xff, m * n * 4)); // NaN poison
      CHECK_CUDA(run(problem(0)));
      CHECK_CUDA(cudaDeviceSynchronize());
      const double diff = relativeDifference(data.c[0], reference, m * n, sums);
      if (!(diff < kAgreement)) {
        std::printf("FAIL %s %s %lldx%lldx%lld: ‖ours − sgemm‖/‖sgemm‖ = %.3g\n", impl,
                    config.c_str(), (long long)m, (long long)n, (long long)k, diff);
        ++failures;
      }
      const double ms = timeIt([&](int s) { CHECK_CUDA(run(problem(s))); }, sets, reps);
      record(impl, config, ms, diff);
      return ms;
    };

    const GemmSchedule rule = sopt::chooseGemmSchedule(m, n, k, prop.multiProcessorCount);
    Row row{shape, name(rule), 0, 0, 0, INFINITY, ""};
    row.ours = ours("ours", name(rule), [&](const GemmProblem &p) { return gemmSimt(p, rule); });
    row.sgemm = timeIt(sgemm, sets, reps);
    record("cublas_sgemm", "default", row.sgemm, 0);
    row.tf32 = timeIt(tf32, sets, reps);
    record("cublas_tf32", "fast_tf32", row.tf32, NAN);

    if (explore) {
      const int exploreReps = 20;
      auto consider = [&](const std::string &config, double ms) {
        if (ms < row.bestGrid)
          row.bestGrid = ms, row.bestConfig = config;
      };
      for (GemmSchedule tile : sopt::kGemmTiles) {
        const int64_t tiles = sopt::gemmTileCount(m, n, tile);
        for (int splits : {1, 2, 3, 4, 6, 8, 12, 16, 24, 32}) {
          // Past 8 waves of blocks, or slices under 64 deep, splitting only costs.
          if (splits > 1 && (tiles * splits > 8 * prop.multiProcessorCount || k / splits < 64))
            continue;
          tile.kSplits = splits;
          const int saved = reps;
          reps = exploreReps;
          consider(name(tile), ours("grid", name(tile), [&](const GemmProblem &p) {
                     return gemmSimt(p, tile);
                   }));
          reps = saved;
        }
      }
      if (sopt::gemmTileCount(m, n, GemmSchedule{}) >= prop.multiProcessorCount) {
        consider("128x128k8x3/s1", ours("grid", "128x128k8x3/s1", [&](const GemmProblem &p) {
                   return gemmSimtTiled<Tiling<128, 128, 8, 3>>(p, 1);
                 }));
      }
    }
    rows.push_back(row);
    CHECK_CUDA(cudaFree(reference));
    std::printf("%-7s %5lld x %5lld x %5lld  ours %-10s %8.1f  sgemm %8.1f  tf32 %8.1f TFLOP/s%s%s\n",
                shape.family.c_str(), (long long)m, (long long)n, (long long)k, row.config.c_str(),
                flops / row.ours * 1e-9, flops / row.sgemm * 1e-9, flops / row.tf32 * 1e-9,
                explore ? "  best grid " : "", explore ? row.bestConfig.c_str() : "");
    std::fflush(stdout);
  }
  std::fclose(csv);
  cublasDestroy(handle);

  // Ratios last: ours / SGEMM per shape (time ratio inverted: > 1 is faster),
  // and per family the geometric means (and the rule against the best grid
  // point with --explore).
  std::printf("\n# ours vs cuBLAS (%s); speed ratios, > 1 = ours faster\n", prop.name);
  std::printf("%-7s %5s %5s %5s %-10s %9s %9s %9s %8s %8s%s\n", "family", "M", "N", "K", "rule",
              "ours", "sgemm", "tf32", "x_sgemm", "x_tf32", explore ? "  rule/best" : "");
  std::map<std::string, std::vector<double>> bySgemm, byBest;
  for (const Row &r : rows) {
    const double flops = 2.0 * r.shape.m * r.shape.n * r.shape.k;
    std::printf("%-7s %5lld %5lld %5lld %-10s %9.1f %9.1f %9.1f %8.2f %8.2f", r.shape.family.c_str(),
                (long long)r.shape.m, (long long)r.shape.n, (long long)r.shape.k, r.config.c_str(),
                flops / r.ours * 1e-9, flops / r.sgemm * 1e-9, flops / r.tf32 * 1e-9,
                r.sgemm / r.ours, r.tf32 / r.ours);
    if (explore)
      std::printf("  %.2f (%s)", r.bestGrid / r.ours, r.bestConfig.c_str());
    std::printf("\n");
    bySgemm[r.shape.family].push_back(std::log(r.sgemm / r.ours));
    if (explore)
      byBest[r.shape.family].push_back(std::log(std::min(r.bestGrid, r.ours) / r.ours));
  }
  for (auto &[family, logs] : bySgemm) {
    double sum = 0;
    for (double x : logs)
      sum += x;
    std::printf("geomean %-7s ours/sgemm %.3f", family.c_str(), std::exp(sum / logs.size()));
    if (explore) {
      double best = 0;
      for (double x : byBest[family])
        best += x;
      std::printf("  rule/best-of-grid %.3f", std::exp(best / logs.size()));
    }
    std::printf("\n");
  }
  std::printf("%s: %d check failure(s)\n", failures ? "FAILED" : "PASSED", failures);
  return failures ? 1 : 0;
}
