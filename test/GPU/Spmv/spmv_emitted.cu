// sopt.spmv from generated host code (Inputs/spmv_prepared.mlir): a CSR
// argument with a pattern file runs the prepared SpMV, its plan made at the
// first call and reused after. f32 with 32-bit and f64 with 64-bit indices,
// against a float64 reference; y poisoned with NaN before every call; the
// values and x change between calls (the pattern does not).
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/spmv_emitted %S/../Sparse/Inputs/pruned_300x257.smtx | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "Harness.h"
#include "SpmvCases.h"
#include "spmv_prepared.h"

namespace {

int failures = 0;

template <typename T, typename Index, typename Function>
void check(const spmvcases::Csr &m, const char *name, Function function) {
  const std::vector<Index> positions(m.positions.begin(), m.positions.end());
  const std::vector<Index> coordinates(m.coordinates.begin(), m.coordinates.end());
  Index *dPositions, *dCoordinates;
  T *values, *x, *y;
  CHECK_CUDA(cudaMalloc(&dPositions, positions.size() * sizeof(Index)));
  CHECK_CUDA(cudaMalloc(&dCoordinates, coordinates.size() * sizeof(Index)));
  CHECK_CUDA(cudaMalloc(&values, coordinates.size() * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&x, size_t(m.cols) * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&y, size_t(m.rows) * sizeof(T)));
  CHECK_CUDA(cudaMemcpy(dPositions, positions.data(), positions.size() * sizeof(Index),
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dCoordinates, coordinates.data(), coordinates.size() * sizeof(Index),
                        cudaMemcpyHostToDevice));
  std::uniform_real_distribution<double> u(-1, 1);
  for (int call = 0; call < 3; ++call) {
    std::vector<T> hostValues(coordinates.size()), hostX(size_t(m.cols)), hostY(size_t(m.rows));
    for (T &v : hostValues)
      v = T(u(harness::rng()));
    for (T &v : hostX)
      v = T(u(harness::rng()));
    CHECK_CUDA(cudaMemcpy(values, hostValues.data(), hostValues.size() * sizeof(T),
                          cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(x, hostX.data(), hostX.size() * sizeof(T), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(y, 0xff, hostY.size() * sizeof(T)));
    CHECK_CUDA(function(dPositions, dCoordinates, values, m.nnz(), x, y, cudaStream_t(0)));
    CHECK_CUDA(cudaMemcpy(hostY.data(), y, hostY.size() * sizeof(T), cudaMemcpyDeviceToHost));
    std::vector<double> out(hostY.begin(), hostY.end()), ref(hostY.size()), scale(hostY.size());
    for (int64_t r = 0; r < m.rows; ++r)
      for (int64_t j = m.positions[r]; j < m.positions[r + 1]; ++j) {
        const double term = double(hostValues[j]) * double(hostX[m.coordinates[j]]);
        ref[r] += term;
        scale[r] += std::fabs(term);
      }
    const double err = harness::errorAgainstScale(out, ref, scale);
    const bool ok = err <= (sizeof(T) == 8 ? 1e-14 : 2e-6);
    failures += !ok;
    std::printf("%s %s call %d: err %.2e\n", ok ? "ok" : "FAIL", name, call, err);
  }
  cudaFree(dPositions);
  cudaFree(dCoordinates);
  cudaFree(values);
  cudaFree(x);
  cudaFree(y);
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <pattern file of Inputs/spmv_prepared.mlir>\n", argv[0]);
    return 2;
  }
  spmvcases::Csr m;
  std::string error;
  if (!spmvcases::readMatrixFile(argv[1], m, error)) {
    std::printf("FAIL %s\n", error.c_str());
    return 1;
  }
  check<float, int32_t>(m, "f32", spmv_pruned_f32);
  check<double, int64_t>(m, "f64", spmv_pruned_f64);
  std::printf("PASSED: %d failure(s)\n", failures);
  return failures != 0;
}
