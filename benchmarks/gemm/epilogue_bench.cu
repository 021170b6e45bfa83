// Linear + bias + GELU as sparse-opt compiles it (benchmarks/gemm/
// epilogue.mlir): on the project's GEMM with bias + GELU fused as its
// epilogue (where the schedule has one K slice; otherwise split K and a
// separate kernel), against the same graph compiled without --gemm-kernel (cuBLAS
// SGEMM, then the fused bias + GELU kernel), in one run on the same inputs.
// Also timed there: each product alone, ours (the schedule the compiler
// chose, without the epilogue) and cuBLAS SGEMM, so that what the epilogue
// costs each path is a difference of the same run.
//
//   epilogue_bench [--reps=N] [--csv=FILE]
//
// Built from the two generated units (run-epilogue.sh): epilogue_ours.{cu,h}
// and epilogue_cublas.{cu,h}, whose functions are renamed cublas_*. Times
// are CUDA-event medians over --reps calls (default 25) after 3 warm-up
// calls, each call a whole host function (every launch of the graph).
// TFLOP/s count the product's 2·M·N·K. Each result of ours is checked
// against cuBLAS's (‖ours − cublas‖/‖cublas‖). CSV on --csv (default
// epilogue.csv); the ratios are printed last. Exit status: 0 all checks
// passed, 1 a check failed, 2 a CUDA error.

#include "Harness.h" // CHECK_CUDA (test/GPU/lib)

#include "epilogue_cublas.h"
#include "epilogue_ours.h"

#include "sparse-opt/Runtime/Kernels/GemmSimt.cuh"

#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

/// Largest ‖ours − cublas‖/‖cublas‖ accepted: two f32 summation orders over
/// K <= 4096 differ by ~1e-6; a wrong index or epilogue differs by ~1.
constexpr double kAgreement = 5e-5;

using Graph = cudaError_t (*)(const float *, const float *, const float *, float *, cudaStream_t);

struct Case {
  const char *family;
  int64_t m, n, k;
  Graph ours, cublas;
};

const Case kCases[] = {
    {"bert", 2048, 3072, 768, lbg_2048x3072x768, cublas_lbg_2048x3072x768},
    {"bert", 8192, 3072, 768, lbg_8192x3072x768, cublas_lbg_8192x3072x768},
    {"bert", 8192, 768, 3072, lbg_8192x768x3072, cublas_lbg_8192x768x3072},
    {"bert", 2048, 768, 3072, lbg_2048x768x3072, cublas_lbg_2048x768x3072},
    {"llama", 2048, 11008, 4096, lbg_2048x11008x4096, cublas_lbg_2048x11008x4096},
    {"square", 4096, 4096, 4096, lbg_4096x4096x4096, cublas_lbg_4096x4096x4096},
};

__global__ void fillUniform(float *p, int64_t count, uint32_t seed) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x) {
    uint32_t h = uint32_t(i) * 2654435761u ^ seed;
    h ^= h >> 15, h *= 2246822519u, h ^= h >> 13, h *= 3266489917u, h ^= h >> 16;
    p[i] = float(h) / 4294967296.0f * 2.0f - 1.0f;
  }
}

float *deviceUniform(int64_t count, uint32_t seed) {
  float *p = nullptr;
  CHECK_CUDA(cudaMalloc(&p, count * sizeof(float)));
  fillUniform<<<1024, 256>>>(p, count, seed);
  CHECK_CUDA(cudaGetLastError());
  return p;
}

/// Median milliseconds of `reps` calls of `call`, after 3 warm-up calls.
template <class Call> double medianMs(Call call, int reps) {
  for (int i = 0; i < 3; ++i)
    CHECK_CUDA(call());
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  std::vector<double> times;
  for (int i = 0; i < reps; ++i) {
    CHECK_CUDA(cudaEventRecord(start));
    CHECK_CUDA(call());
    CHECK_CUDA(cudaEventRecord(stop));
    CHECK_CUDA(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

std::vector<float> download(const float *p, int64_t count) {
  std::vector<float> host(count);
  CHECK_CUDA(cudaMemcpy(host.data(), p, count * sizeof(float), cudaMemcpyDeviceToHost));
  return host;
}

} // namespace

int main(int argc, char **argv) {
  int reps = 25;
  std::string csvPath = "epilogue.csv";
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--reps=", 0) == 0)
      reps = std::max(1, std::atoi(arg.c_str() + 7));
    else if (arg.rfind("--csv=", 0) == 0)
      csvPath = arg.substr(6);
  }
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  FILE *csv = std::fopen(csvPath.c_str(), "w");
  if (!csv)
    return 2;
  std::fprintf(csv, "family,m,n,k,ours_ms,cublas_ms,ours_tflops,cublas_tflops,ours_over_cublas,"
                    "rel_diff,ours_gemm_ms,sgemm_ms\n");
  cublasHandle_t handle = nullptr;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  int failures = 0;
  std::vector<std::string> lines;
  double logSum = 0;
  for (const Case &c : kCases) {
    float *x = deviceUniform(c.m * c.k, 1), *w = deviceUniform(c.k * c.n, 2),
          *b = deviceUniform(c.n, 3), *y = nullptr;
    CHECK_CUDA(cudaMalloc(&y, c.m * c.n * sizeof(float)));
    CHECK_CUDA(cudaMemset(y, 0xff, c.m * c.n * sizeof(float))); // NaN
    CHECK_CUDA(c.ours(x, w, b, y, nullptr));
    std::vector<float> ours = download(y, c.m * c.n);
    CHECK_CUDA(c.cublas(x, w, b, y, nullptr));
    std::vector<float> peer = download(y, c.m * c.n);
    double diff = 0, norm = 0;
    for (size_t i = 0; i < ours.size(); ++i) {
      const double d = double(ours[i]) - peer[i];
      diff += std::isfinite(ours[i]) ? d * d : INFINITY;
      norm += double(peer[i]) * peer[i];
    }
    const double rel = std::sqrt(diff / norm);
    const bool ok = rel <= kAgreement;
    failures += !ok;
    const double oursMs = medianMs([&] { return c.ours(x, w, b, y, nullptr); }, reps);
    const double cublasMs = medianMs([&] { return c.cublas(x, w, b, y, nullptr); }, reps);
    // The products alone: ours under the compiler's schedule (every case's
    // is a 128 x 128 tile at K step 16), and SGEMM (row-major as Cᵀ = Bᵀ·Aᵀ).
    sopt::gemm_simt::GemmProblem problem;
    problem.m = c.m, problem.n = c.n, problem.k = c.k;
    problem.a = x, problem.lda = c.k, problem.b = w, problem.ldb = c.n, problem.c = y,
    problem.ldc = c.n;
    const sopt::GemmSchedule rule = sopt::chooseGemmSchedule(c.m, c.n, c.k, prop.multiProcessorCount);
    if (rule.blockM != 128 || rule.kStep != 16)
      return 2;
    const double oursGemmMs = medianMs(
        [&] {
          return sopt::gemm_simt::gemmSimtFixed<128, 128, 16, false, false>(problem, rule.kSplits,
                                                                            nullptr);
        },
        reps);
    const float one = 1, zero = 0;
    const double sgemmMs = medianMs(
        [&] {
          return cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, int(c.n), int(c.m), int(c.k), &one,
                             w, int(c.n), x, int(c.k), &zero, y, int(c.n)) ==
                         CUBLAS_STATUS_SUCCESS
                     ? cudaSuccess
                     : cudaErrorUnknown;
        },
        reps);
    const double flops = 2.0 * c.m * c.n * c.k;
    std::fprintf(csv, "%s,%ld,%ld,%ld,%.5f,%.5f,%.2f,%.2f,%.4f,%.2e,%.5f,%.5f\n", c.family,
                 long(c.m), long(c.n), long(c.k), oursMs, cublasMs, flops / oursMs * 1e-9,
                 flops / cublasMs * 1e-9, cublasMs / oursMs, rel, oursGemmMs, sgemmMs);
    char line[384];
    std::snprintf(line, sizeof line,
                  "%-7s %6ld x %6ld x %5ld  ours %8.4f ms (%5.1f TFLOP/s)  cuBLAS+kernel %8.4f ms "
                  "(%5.1f)  speed-up %.3f  rel_diff %.1e %s | alone: ours %.4f ms, SGEMM %.4f ms; "
                  "epilogue costs ours %+.4f ms, cuBLAS %+.4f ms",
                  c.family, long(c.m), long(c.n), long(c.k), oursMs, flops / oursMs * 1e-9,
                  cublasMs, flops / cublasMs * 1e-9, cublasMs / oursMs, rel, ok ? "ok" : "FAIL",
                  oursGemmMs, sgemmMs, oursMs - oursGemmMs, cublasMs - sgemmMs);
    lines.push_back(line);
    logSum += std::log(cublasMs / oursMs);
    cudaFree(x), cudaFree(w), cudaFree(b), cudaFree(y);
  }
  std::fclose(csv);
  cublasDestroy(handle);
  for (const std::string &line : lines)
    std::printf("%s\n", line.c_str());
  std::printf("geomean speed-up of ours over cuBLAS + separate kernel: %.3f\n",
              std::exp(logSum / std::size(kCases)));
  std::printf("%s: %d failure(s)\n", failures ? "FAILED" : "PASSED", failures);
  return failures ? 1 : 0;
}
