// CSR products through cuSPARSE from generated host code: a pruned linear
// layer with a fused bias + GELU epilogue (random pattern with empty rows and
// one full row; then nnz = 0), an SpMV, and zero-sized operands.
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/sparse_cusparse | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "Harness.h"
#include "References.h"
#include "sparse_cusparse.h"
#include "ZeroSizedProducts.h"

using namespace harness;

namespace {
/// A random CSR pattern of `rows x cols`: every 7th row empty, row 3 full,
/// the others about `density` full. Values in [-1, 1).
struct Csr {
  std::vector<int32_t> positions{0}, coordinates;
  std::vector<double> values;
  Csr(int rows, int cols, double density) {
    std::uniform_real_distribution<double> u(0, 1), v(-1, 1);
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < cols; ++c)
        if (r % 7 != 6 && (r == 3 || u(rng()) < density)) {
          coordinates.push_back(c);
          values.push_back(float(v(rng())));
        }
      positions.push_back(int32_t(coordinates.size()));
    }
  }
};

} // namespace

int main() {
  Report report;
  for (double density : {0.1, 0.0}) {
    const int m = 1000, k = 999, n = 37;
    Csr w(m, k, density);
    if (density == 0.0) // nnz = 0: no rows at all, only the bias survives
      w = Csr(m, 0, 0.0), w.positions.assign(m + 1, 0);
    std::vector<float> values(w.values.begin(), w.values.end());
    int32_t *positions = uploadVector(w.positions), *coordinates = uploadVector(w.coordinates);
    float *vals = uploadVector(values);
    Tensor<float> x(size_t(k) * n), b(m), y(size_t(m) * n);
    x.randomize(-1, 1);
    b.randomize(-0.5, 0.5);
    y.poison();
    launch(pruned_linear_gelu, positions, coordinates, vals, int64_t(w.values.size()),
           x.device, b.device, y.device);
    y.download();
    std::vector<double> ref(y.size, 0.0);
    for (int r = 0; r < m; ++r)
      for (int i = w.positions[r]; i < w.positions[r + 1]; ++i)
        for (int c = 0; c < n; ++c)
          ref[size_t(r) * n + c] += w.values[i] * x.values[size_t(w.coordinates[i]) * n + c];
    for (int r = 0; r < m; ++r)
      for (int c = 0; c < n; ++c) {
        double s = ref[size_t(r) * n + c] + b.values[r];
        ref[size_t(r) * n + c] = reference::gelu(s);
      }
    report.check(std::string("pruned_linear_gelu nnz=") + std::to_string(w.values.size()),
                 relativeError(y.values, ref), 1e-5);
    cudaFree(positions);
    cudaFree(coordinates);
    cudaFree(vals);
  }
  {
    const int m = 777, k = 1234;
    Csr a(m, k, 0.05);
    std::vector<float> values(a.values.begin(), a.values.end());
    int32_t *positions = uploadVector(a.positions), *coordinates = uploadVector(a.coordinates);
    float *vals = uploadVector(values);
    Tensor<float> x(k), y(m);
    x.randomize(-1, 1);
    y.poison();
    launch(spmv_f32_777x1234, positions, coordinates, vals, int64_t(a.values.size()),
           x.device, y.device);
    y.download();
    std::vector<double> ref(m, 0.0);
    for (int r = 0; r < m; ++r)
      for (int i = a.positions[r]; i < a.positions[r + 1]; ++i)
        ref[r] += a.values[i] * x.values[a.coordinates[i]];
    report.check("spmv_f32_777x1234", relativeError(y.values, ref), 1e-5);
    cudaFree(positions);
    cudaFree(coordinates);
    cudaFree(vals);
  }
  checkZeroSizedProducts(report, "cuSPARSE");
  return report.exitCode();
}
