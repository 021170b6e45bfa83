// The project's SDDMM kernels (Sddmm.cuh) against a float64 reference:
// (A · Bᵀ) ⊙ S and (A · B) ⊙ S, f32, f16 and bf16 storage, the awkward
// patterns under the compiler's schedule and hand-picked ones (every lane
// count per output, one and two outputs per group), inner
// dimensions that are odd or not a multiple of the lanes. With a directory
// argument, every .smtx/.mtx in it under the compiler's schedule instead.
//
// The element type compiled in is chosen with -DTEST_F32=1 / -DTEST_F16=1 /
// -DTEST_BF16=1; this file checks f32, sddmm-16bit.test the others (each
// type instantiates every kernel of SparseDispatch.cuh: separate tests
// compile in parallel).
//
// REQUIRES: cuda-gpu
// RUN: %nvcc -DTEST_F32=1 %sparse_test_flags %s -o %t
// RUN: %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "SparseCases.h"

#include "sparse-opt/Runtime/SparseDispatch.cuh"

using namespace harness;

namespace {

/// D at S's nonzeros, in double: S · (A · Bᵀ) (B[n, k]) or S · (A · B)
/// (B[k, n]).
std::vector<double> reference(const Pattern &p, const std::vector<double> &s,
                              const std::vector<double> &a, const std::vector<double> &b,
                              int64_t k, bool transposeRhs) {
  std::vector<double> d(p.coordinates.size());
  for (int64_t r = 0; r < p.rows; ++r)
    for (int32_t e = p.positions[r]; e < p.positions[r + 1]; ++e) {
      const int64_t c = p.coordinates[e];
      double dot = 0;
      for (int64_t i = 0; i < k; ++i)
        dot += a[r * k + i] * (transposeRhs ? b[c * k + i] : b[i * p.cols + c]);
      d[e] = dot * s[e];
    }
  return d;
}

std::string describe(const ::sopt::SddmmSchedule &s) {
  return "tile=" + std::to_string(s.tileNonzeros) + "/" + std::to_string(s.threadsPerNonzero) +
         " v" + std::to_string(s.vectorWidth) + " x" + std::to_string(s.tilesPerBlock) +
         (s.rowOrder == ::sopt::RowOrder::ByLength ? " by_length" : "");
}

template <typename T>
void check(Report &report, const Pattern &p, int64_t k, bool transposeRhs,
           const std::vector<::sopt::SddmmSchedule> &schedules) {
  DeviceCsr<T> s(p);
  Tensor<T> a(size_t(p.rows) * k), b(size_t(p.cols) * k), d(p.coordinates.size());
  a.randomize(-1, 1);
  b.randomize(-1, 1);
  const std::vector<double> ref =
      reference(p, s.values.values, a.values, b.values, k, transposeRhs);
  for (const ::sopt::SddmmSchedule &schedule : schedules) {
    const std::string name = p.name + " k=" + std::to_string(k) +
                             (transposeRhs ? " A*B^T " : " A*B ") + typeName<T>() + " " +
                             describe(schedule);
    const std::string invalid = ::sopt::checkSddmmSchedule(schedule, k, transposeRhs, sizeof(T));
    if (!invalid.empty()) {
      std::printf("%s: schedule rejected: %s FAIL\n", name.c_str(), invalid.c_str());
      ++report.failures;
      continue;
    }
    d.poison();
    CHECK_CUDA(::sopt::runSddmm<T>(schedule, s.view(), a.device, b.device, k, transposeRhs,
                                   d.device, s.order.device, 0));
    CHECK_CUDA(cudaDeviceSynchronize());
    d.download();
    report.check(name, relativeError(d.values, ref), tolerance<T>());
  }
}

std::vector<::sopt::SddmmSchedule> schedulesFor(const Pattern &p, int64_t k, bool transposeRhs,
                                                int bytes, bool handPicked) {
  std::vector<::sopt::SddmmSchedule> out{
      ::sopt::chooseSddmmSchedule(p.stats(), k, transposeRhs, bytes)};
  if (!handPicked || !transposeRhs)
    return out;
  for (int threads : {1, 2, 4, 8, 16, 32})
    for (int rounds : {1, 2})
      for (int vector : {1, 2, 4}) {
        ::sopt::SddmmSchedule s;
        s.threadsPerNonzero = threads, s.tileNonzeros = rounds * (32 / threads);
        s.vectorWidth = vector, s.tilesPerBlock = 1 + threads % 3;
        if (::sopt::checkSddmmSchedule(s, k, true, bytes).empty())
          out.push_back(s);
      }
  return out;
}

template <typename T> void checkAll(Report &report, const std::vector<Pattern> &cases) {
  for (const Pattern &p : cases) {
    for (int64_t k : {1, 33, 64, 256})
      check<T>(report, p, k, true, schedulesFor(p, k, true, sizeof(T), k == 64 || k == 33));
    check<T>(report, p, 19, false, schedulesFor(p, 19, false, sizeof(T), false));
  }
}

} // namespace

int main(int argc, char **argv) {
  Report report;
  if (argc > 1) {
    std::vector<std::string> files;
    findMatrices(argv[1], files);
    if (files.empty()) {
      std::printf("no .smtx/.mtx files under %s FAIL\n", argv[1]);
      return 1;
    }
    for (const std::string &file : files) {
      const Pattern p = readPattern(file);
#if TEST_F32
      check<float>(report, p, 64, true, schedulesFor(p, 64, true, 4, false));
#endif
#if TEST_F16
      check<__half>(report, p, 128, true, schedulesFor(p, 128, true, 2, false));
#endif
#if TEST_BF16
      check<__nv_bfloat16>(report, p, 96, true, schedulesFor(p, 96, true, 2, false));
#endif
    }
    return report.exitCode();
  }
  const std::vector<Pattern> cases = awkwardPatterns();
#if TEST_F32
  checkAll<float>(report, cases);
#endif
#if TEST_F16
  checkAll<__half>(report, cases);
#endif
#if TEST_BF16
  checkAll<__nv_bfloat16>(report, cases);
#endif
  return report.exitCode();
}
