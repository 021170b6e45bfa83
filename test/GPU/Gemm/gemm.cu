// The f32 SIMT GEMM (Runtime/Kernels/GemmSimt.cuh) against a float64 CPU
// reference, C = alpha·op(A)·op(B) + beta·C: square, tall-skinny, M = 1,
// N = 1, K = 1, sizes that are multiples of no tile, 1000^3; every block
// tile and split counts forced on odd sizes; both transposes; leading
// dimensions and base addresses that are not 16-byte aligned (the scalar
// copies); beta = 0 over NaN-poisoned C (C never read) and beta != 0;
// M = 0 / N = 0 (C untouched), K = 0 (C = beta·C); invalid sizes refused.
// Fresh random inputs every run; the padding of C past column N must keep
// its sentinel.
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/gemm | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "Harness.h"

#include "sparse-opt/Runtime/Kernels/GemmSimt.cuh"

#include <optional>

using namespace harness;
using sopt::GemmSchedule;
using sopt::gemm_simt::GemmProblem;

namespace {

/// Error bounds against each output's sum of term magnitudes: f32
/// accumulation over K terms stays orders of magnitude below both.
constexpr double kNormTolerance = 1e-5, kElementTolerance = 1e-4;
/// What the padding of C past column N holds: must survive the product.
constexpr float kSentinel = 12345.0f;

struct Case {
  int64_t m, n, k;
  bool transposeA = false, transposeB = false;
  float alpha = 1.0f, beta = 0.0f;
  std::optional<GemmSchedule> schedule; ///< else the rule's choice
  int64_t padA = 0, padB = 0, padC = 0;  ///< leading dimension past the stored row
  int64_t offsetA = 0;                   ///< elements before A's first (misaligns it)
};

int failures = 0;

std::string describe(const Case &c) {
  char text[256];
  std::snprintf(text, sizeof text, "%lldx%lldx%lld%s%s alpha=%g beta=%g pad=%lld/%lld/%lld off=%lld",
                (long long)c.m, (long long)c.n, (long long)c.k, c.transposeA ? " At" : "",
                c.transposeB ? " Bt" : "", c.alpha, c.beta, (long long)c.padA,
                (long long)c.padB, (long long)c.padC, (long long)c.offsetA);
  std::string s = text;
  if (c.schedule)
    s += " tile " + std::to_string(c.schedule->blockM) + "x" + std::to_string(c.schedule->blockN) +
         " k" + std::to_string(c.schedule->kStep) + " splits " + std::to_string(c.schedule->kSplits);
  return s;
}

void run(const Case &c) {
  const int64_t rowsA = c.transposeA ? c.k : c.m, colsA = c.transposeA ? c.m : c.k;
  const int64_t rowsB = c.transposeB ? c.n : c.k, colsB = c.transposeB ? c.k : c.n;
  const int64_t lda = colsA + c.padA, ldb = colsB + c.padB, ldc = c.n + c.padC;
  Tensor<float> a(c.offsetA + rowsA * lda), b(rowsB * ldb), out(c.m * ldc);
  a.randomize();
  b.randomize();
  auto elementA = [&](int64_t i, int64_t p) {
    return a.values[c.offsetA + (c.transposeA ? p * lda + i : i * lda + p)];
  };
  auto elementB = [&](int64_t p, int64_t j) {
    return b.values[c.transposeB ? j * ldb + p : p * ldb + j];
  };
  // C: random where beta reads it, else NaN (must never be read); the
  // padding past column n a finite sentinel.
  std::vector<double> before(out.size);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  for (int64_t i = 0; i < c.m; ++i)
    for (int64_t j = 0; j < ldc; ++j) {
      const double x = j >= c.n ? kSentinel : c.beta != 0 ? dist(rng()) : NAN;
      out.host[i * ldc + j] = float(x);
      before[i * ldc + j] = out.host[i * ldc + j];
    }
  out.upload();

  GemmProblem p;
  p.m = c.m, p.n = c.n, p.k = c.k;
  p.a = a.device + c.offsetA, p.lda = lda, p.transposeA = c.transposeA;
  p.b = b.device, p.ldb = ldb, p.transposeB = c.transposeB;
  p.c = out.device, p.ldc = ldc, p.alpha = c.alpha, p.beta = c.beta;
  const cudaError_t status = c.schedule ? sopt::gemm_simt::gemmSimt(p, *c.schedule)
                                        : sopt::gemm_simt::gemmSimt(p);
  if (status != cudaSuccess) {
    std::printf("FAIL %s: launch: %s\n", describe(c).c_str(), cudaGetErrorString(status));
    ++failures;
    return;
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  out.download();

  // float64 reference over the same rounded inputs; the scale of each
  // output is the sum of its terms' magnitudes.
  std::vector<double> ref(c.m * c.n, 0.0), scale(c.m * c.n, 0.0), got(c.m * c.n);
  std::vector<double> rowB(c.n);
  for (int64_t i = 0; i < c.m; ++i) {
    double *r = &ref[i * c.n], *s = &scale[i * c.n];
    for (int64_t p2 = 0; p2 < c.k; ++p2) {
      const double x = elementA(i, p2);
      for (int64_t j = 0; j < c.n; ++j) {
        const double y = elementB(p2, j);
        r[j] += x * y;
        s[j] += std::fabs(x * y);
      }
    }
    for (int64_t j = 0; j < c.n; ++j) {
      const double old = c.beta != 0 ? before[i * ldc + j] : 0.0;
      r[j] = c.alpha * r[j] + c.beta * old;
      s[j] = std::fabs(c.alpha) * s[j] + std::fabs(c.beta * old);
      got[i * c.n + j] = out.values[i * ldc + j];
    }
  }
  double worst = 0;
  for (size_t e = 0; e < got.size(); ++e) {
    const double d = std::fabs(got[e] - ref[e]) / std::max(scale[e], 1e-30);
    worst = std::isfinite(got[e]) ? std::max(worst, d) : INFINITY;
  }
  int64_t padTouched = 0;
  for (int64_t i = 0; i < c.m; ++i)
    for (int64_t j = c.n; j < ldc; ++j)
      padTouched += out.host[i * ldc + j] != kSentinel;
  const double norm = relativeError(got, ref), against = errorAgainstScale(got, ref, scale);
  const bool ok = against <= kNormTolerance && worst <= kElementTolerance && padTouched == 0;
  std::printf("%s %s: |out-ref|/|ref| %.2e, |out-ref|/|terms| %.2e, max element %.2e%s\n",
              ok ? "ok  " : "FAIL", describe(c).c_str(), norm, against, worst,
              padTouched ? " (padding of C overwritten)" : "");
  failures += !ok;
}

/// M = 0 or N = 0: success, C untouched; K = 0: C = beta·C.
void runDegenerate() {
  Tensor<float> a(16), b(16), out(64);
  a.randomize();
  b.randomize();
  out.fill(kSentinel);
  GemmProblem p;
  p.a = a.device, p.b = b.device, p.c = out.device;
  p.m = 0, p.n = 8, p.k = 2, p.lda = 2, p.ldb = 8, p.ldc = 8;
  bool ok = sopt::gemm_simt::gemmSimt(p) == cudaSuccess;
  p.m = 8, p.n = 0, p.ldc = 1;
  ok = ok && sopt::gemm_simt::gemmSimt(p) == cudaSuccess;
  CHECK_CUDA(cudaDeviceSynchronize());
  out.download();
  for (float x : out.host)
    ok = ok && x == kSentinel;
  std::printf("%s M = 0 and N = 0 return at once, C untouched\n", ok ? "ok  " : "FAIL");
  failures += !ok;

  p.m = 8, p.n = 8, p.k = 0, p.ldc = 8, p.lda = 0, p.ldb = 8, p.beta = 0.5f;
  ok = sopt::gemm_simt::gemmSimt(p) == cudaSuccess;
  CHECK_CUDA(cudaDeviceSynchronize());
  out.download();
  for (float x : out.host)
    ok = ok && x == 0.5f * kSentinel;
  p.beta = 0.0f;
  out.poison();
  ok = ok && sopt::gemm_simt::gemmSimt(p) == cudaSuccess;
  CHECK_CUDA(cudaDeviceSynchronize());
  out.download();
  for (float x : out.host)
    ok = ok && x == 0.0f;
  std::printf("%s K = 0: C = beta C (and zeros over NaNs for beta = 0)\n", ok ? "ok  " : "FAIL");
  failures += !ok;

  // Refused: negative sizes, a leading dimension shorter than a row, an
  // uninstantiated tile, no splits.
  GemmProblem bad = p;
  bad.k = 4, bad.lda = 4, bad.ldb = 8;
  bad.m = -1;
  ok = sopt::gemm_simt::gemmSimt(bad) == cudaErrorInvalidValue;
  bad.m = 8, bad.lda = 3;
  ok = ok && sopt::gemm_simt::gemmSimt(bad) == cudaErrorInvalidValue;
  bad.lda = 4, bad.ldc = 7;
  ok = ok && sopt::gemm_simt::gemmSimt(bad) == cudaErrorInvalidValue;
  bad.ldc = 8;
  ok = ok && sopt::gemm_simt::gemmSimt(bad, GemmSchedule{96, 96, 8, 1}) == cudaErrorInvalidValue;
  ok = ok && sopt::gemm_simt::gemmSimt(bad, GemmSchedule{128, 128, 8, 0}) == cudaErrorInvalidValue;
  std::printf("%s invalid sizes, leading dimensions and schedules refused\n", ok ? "ok  " : "FAIL");
  failures += !ok;
}

} // namespace

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0); // every verdict out before a crash
  // The rule's choice.
  for (bool ta : {false, true})
    for (bool tb : {false, true})
      run({256, 256, 256, ta, tb});
  run({1000, 1000, 1000, false, false, 1.0f, 0.75f});
  run({4099, 33, 517});
  run({33, 4099, 517, false, true, -0.5f, 0.0f});
  run({1, 1000, 777});
  run({1, 4096, 4096, true, false, 2.0f, 1.0f});
  run({999, 1, 555, false, true});
  run({300, 200, 1, false, false, 1.0f, -1.5f});
  run({1, 1, 1});
  run({64, 64, 5000});
  run({100, 300, 700, true, false, 1.0f, 2.0f});
  run({129, 131, 8191, true, true, 1.0f, 0.25f});
  // Every tile and split count on sizes that are multiples of no tile,
  // with both transposes.
  for (const GemmSchedule &tile : sopt::kGemmTiles)
    for (int splits : {1, 3})
      for (bool ta : {false, true})
        for (bool tb : {false, true}) {
          GemmSchedule s = tile;
          s.kSplits = splits;
          run({127, 257, 129, ta, tb, 1.0f, splits == 3 ? 0.5f : 0.0f, s});
        }
  // Unaligned leading dimensions and base: the scalar copies.
  run({127, 257, 129, false, false, 1.0f, 0.0f, std::nullopt, 1, 3, 5});
  run({127, 257, 129, true, true, 1.0f, 0.0f, std::nullopt, 1, 3, 5});
  run({200, 136, 72, true, false, 1.0f, 0.0f, std::nullopt, 0, 0, 0, 1});
  run({200, 136, 72, true, false, 1.0f, 1.0f, GemmSchedule{128, 128, 16, 2}, 4, 4, 4, 2});
  run({35, 19, 300, false, false, 1.0f, 0.0f, GemmSchedule{32, 128, 8, 4}, 1, 1, 3});
  runDegenerate();
  if (failures)
    std::printf("FAILED: %d failure(s)\n", failures);
  else
    std::printf("PASSED: 0 failure(s)\n");
  return failures ? 1 : 0;
}
