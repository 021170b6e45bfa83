// The project's SpMM kernel (Spmm.cuh) against a float64 reference: f32, f16
// and bf16 storage; the awkward patterns under the compiler's schedule and
// under hand-picked ones that reach every tile group size, vector width and
// row order; odd widths n. With a directory argument, every .smtx/.mtx in
// it (the DLMC matrices) under the compiler's schedule instead.
//
// The element types compiled in are chosen with -DTEST_F32=1 / -DTEST_F16=1
// / -DTEST_BF16=1 (each type instantiates every kernel of SparseDispatch.cuh,
// so separate binaries compile in parallel).
//
// REQUIRES: cuda-gpu
// RUN: %nvcc -DTEST_F32=1 -DTEST_F16=1 -DTEST_BF16=1 %sparse_test_flags %s -o %t
// RUN: %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "SparseCases.h"

#include "sparse-opt/Runtime/SparseDispatch.cuh"

using namespace harness;

namespace {

/// C[m, n] = A · B in double, from the values the device sees.
std::vector<double> reference(const Pattern &p, const std::vector<double> &values,
                              const std::vector<double> &b, int64_t n) {
  std::vector<double> c(size_t(p.rows) * n, 0.0);
  for (int64_t r = 0; r < p.rows; ++r)
    for (int32_t e = p.positions[r]; e < p.positions[r + 1]; ++e)
      for (int64_t j = 0; j < n; ++j)
        c[r * n + j] += values[e] * b[size_t(p.coordinates[e]) * n + j];
  return c;
}

std::string describe(const ::sopt::SpmmSchedule &s) {
  return "tile=" + std::to_string(s.tileColumns) + "/" + std::to_string(s.threadsPerTile) +
         " v" + std::to_string(s.vectorWidth) + " x" + std::to_string(s.tilesPerBlock) +
         (s.rowOrder == ::sopt::RowOrder::ByLength ? " by_length" : "");
}

template <typename T>
void check(Report &report, const Pattern &p, int64_t n,
           const std::vector<::sopt::SpmmSchedule> &schedules) {
  DeviceCsr<T> a(p);
  Tensor<T> b(size_t(p.cols) * n), c(size_t(p.rows) * n);
  b.randomize(-1, 1);
  const std::vector<double> ref = reference(p, a.values.values, b.values, n);
  for (const ::sopt::SpmmSchedule &s : schedules) {
    const std::string name = p.name + " n=" + std::to_string(n) + " " + typeName<T>() +
                             " " + describe(s);
    const std::string invalid = ::sopt::checkSpmmSchedule(s, n, sizeof(T));
    if (!invalid.empty()) { // a test that picks an invalid schedule is wrong
      std::printf("%s: schedule rejected: %s FAIL\n", name.c_str(), invalid.c_str());
      ++report.failures;
      continue;
    }
    c.poison();
    CHECK_CUDA(::sopt::runSpmm<T>(s, a.view(), b.device, n, c.device, a.order.device, 0));
    CHECK_CUDA(cudaDeviceSynchronize());
    c.download();
    report.check(name, relativeError(c.values, ref), tolerance<T>());
  }
}

/// The compiler's schedule, and hand-picked ones valid for n.
std::vector<::sopt::SpmmSchedule> schedulesFor(const Pattern &p, int64_t n, int bytes,
                                               bool handPicked) {
  std::vector<::sopt::SpmmSchedule> out{::sopt::chooseSpmmSchedule(p.stats(), n, bytes)};
  if (!handPicked)
    return out;
  for (int threads : {4, 8, 16, 32})
    for (int perThread : {1, 4, 16})
      for (int vector : {1, 2, 4}) {
        ::sopt::SpmmSchedule s;
        s.threadsPerTile = threads, s.tileColumns = threads * perThread;
        s.vectorWidth = vector, s.tilesPerBlock = 64 / threads;
        s.rowOrder = (threads + vector) % 2 ? ::sopt::RowOrder::ByLength
                                            : ::sopt::RowOrder::Natural;
        if (::sopt::checkSpmmSchedule(s, n, bytes).empty())
          out.push_back(s);
      }
  return out;
}

template <typename T> void checkAll(Report &report, const std::vector<Pattern> &cases) {
  for (const Pattern &p : cases)
    for (int64_t n : {1, 37, 64, 260})
      check<T>(report, p, n, schedulesFor(p, n, sizeof(T), /*handPicked=*/n == 64 || n == 260));
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
      check<float>(report, p, 64, schedulesFor(p, 64, 4, false));
#endif
#if TEST_F16
      check<__half>(report, p, 128, schedulesFor(p, 128, 2, false));
#endif
#if TEST_BF16
      check<__nv_bfloat16>(report, p, 96, schedulesFor(p, 96, 2, false));
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
