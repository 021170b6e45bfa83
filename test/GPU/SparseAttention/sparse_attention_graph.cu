// The CUDA sparse-opt emits for sparse attention graphs
// (Inputs/sparse_attention_graph.mlir) against a float64 reference: the
// SDDMM -> scale -> stored-entries softmax -> SpMM chain in f32 on a pattern
// with empty rows and a full (hub) row, then with no entries at all;
// sopt.sparse_attention over 2 x 4 heads in bf16; and over 3 heads of f32
// on a pattern known at compile time (Inputs/hub_rows.smtx, read here too),
// whose hub rows the compiled plan splits across blocks: twice (the plan's
// tables are uploaded on the first call), and with another nnz, which the
// guard refuses. Pattern values multiply the scores (the SDDMM's
// semantics); a row without entries gives 0. Outputs are NaN-poisoned
// first.
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/sparse_attention_graph %S/Inputs/hub_rows.smtx | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "Harness.h"
#include "SparseCases.h"
#include "sparse_attention_graph.h"
#include "sparse-opt/Runtime/Pattern/SparseIO.h"

#include <cmath>
#include <string>
#include <vector>

using namespace harness;

namespace {

/// A CSR pattern with values (which scale the scores) in [0.5, 1.5).
template <typename T> struct Pattern {
  std::vector<int32_t> positions, coordinates;
  std::vector<T> values;
  std::vector<double> exact; // the values as stored, widened
  Pattern(std::vector<int32_t> positionsIn, std::vector<int32_t> coordinatesIn)
      : positions(std::move(positionsIn)), coordinates(std::move(coordinatesIn)) {
    std::uniform_real_distribution<double> v(0.5, 1.5);
    for (size_t e = 0; e < coordinates.size(); ++e) {
      values.push_back(fromDouble<T>(v(rng())));
      exact.push_back(toDouble(values.back()));
    }
  }
  /// rows x cols: every 7th row empty, row 3 full, the others about
  /// `density` full (none at density 0).
  Pattern(int rows, int cols, double density)
      : Pattern(random(rows, cols, density)) {}
  /// The pattern of `file`.
  explicit Pattern(const sopt_csr &file)
      : Pattern({file.positions, file.positions + file.rows + 1},
                {file.coordinates, file.coordinates + file.nnz}) {}

private:
  explicit Pattern(harness::Pattern p) : Pattern(std::move(p.positions), std::move(p.coordinates)) {}
  static harness::Pattern random(int rows, int cols, double density) {
    return randomPattern("", rows, cols, [&](int64_t r) {
      return density == 0 || r % 7 == 6 ? 0.0 : r == 3 ? 1.0 : density;
    });
  }
};

/// out[h] = softmax over row r's entries of scale * value * q_r·k_c, times V.
template <typename T>
std::vector<double> reference(const Pattern<T> &s, const Tensor<T> &q, const Tensor<T> &k,
                              const Tensor<T> &v, int heads, int rows, int cols, int d, int dv,
                              double scale) {
  std::vector<double> out(size_t(heads) * rows * dv, 0.0);
  for (int h = 0; h < heads; ++h)
    for (int r = 0; r < rows; ++r) {
      const int begin = s.positions[r], end = s.positions[r + 1];
      if (begin == end)
        continue;
      std::vector<double> score(end - begin);
      double largest = -INFINITY;
      for (int e = begin; e < end; ++e) {
        double dot = 0;
        for (int i = 0; i < d; ++i)
          dot += q.values[(size_t(h) * rows + r) * d + i] *
                 k.values[(size_t(h) * cols + s.coordinates[e]) * d + i];
        score[e - begin] = scale * s.exact[e] * dot;
        largest = std::max(largest, score[e - begin]);
      }
      double sum = 0;
      for (double &x : score)
        sum += (x = std::exp(x - largest));
      for (int e = begin; e < end; ++e)
        for (int j = 0; j < dv; ++j)
          out[(size_t(h) * rows + r) * dv + j] +=
              score[e - begin] / sum * v.values[(size_t(h) * cols + s.coordinates[e]) * dv + j];
    }
  return out;
}

void chainF32(Report &report, double density) {
  const int rows = 101, cols = 299, d = 64, dv = 32;
  Pattern<float> s(rows, cols, density);
  Tensor<float> q(size_t(rows) * d), k(size_t(cols) * d), v(size_t(cols) * dv),
      out(size_t(rows) * dv);
  q.randomize();
  k.randomize();
  v.randomize();
  out.poison();
  int32_t *positions = uploadVector(s.positions), *coordinates = uploadVector(s.coordinates);
  float *values = uploadVector(s.values);
  launch(chain_f32, q.device, k.device, positions, coordinates, values,
         int64_t(s.values.size()), v.device, out.device);
  out.download();
  report.check("chain_f32 101x299 d 64/32 nnz=" + std::to_string(s.values.size()),
               relativeError(out.values, reference(s, q, k, v, 1, rows, cols, d, dv, 0.125)),
               1e-5);
  cudaFree(positions);
  cudaFree(coordinates);
  cudaFree(values);
}

void headsBf16(Report &report) {
  const int heads = 8, n = 256, d = 64;
  Pattern<__nv_bfloat16> s(n, n, 0.05);
  Tensor<__nv_bfloat16> q(size_t(heads) * n * d), k(size_t(heads) * n * d),
      v(size_t(heads) * n * d), out(size_t(heads) * n * d);
  q.randomize();
  k.randomize();
  v.randomize();
  out.poison();
  int32_t *positions = uploadVector(s.positions), *coordinates = uploadVector(s.coordinates);
  __nv_bfloat16 *values = uploadVector(s.values);
  launch(heads_bf16, q.device, k.device, v.device, positions, coordinates, values,
         int64_t(s.values.size()), out.device);
  out.download();
  // bf16 output: 8 bits of mantissa.
  report.check("heads_bf16 2x4 heads 256x256 d 64",
               relativeError(out.values, reference(s, q, k, v, heads, n, n, d, d, 0.125)),
               1e-2);
  cudaFree(positions);
  cudaFree(coordinates);
  cudaFree(values);
}

/// @hubs_f32 on the pattern it was compiled for (`file`).
void hubsF32(Report &report, const sopt_csr &file) {
  const int heads = 3, rows = 517, cols = 389, d = 64, dv = 32;
  if (file.rows != rows || file.cols != cols) {
    std::printf("hubs_f32: the pattern file is %lldx%lld, not %dx%d FAIL\n",
                (long long)file.rows, (long long)file.cols, rows, cols);
    ++report.failures;
    return;
  }
  Pattern<float> s(file);
  Tensor<float> q(size_t(heads) * rows * d), k(size_t(heads) * cols * d),
      v(size_t(heads) * cols * dv), out(size_t(heads) * rows * dv);
  q.randomize();
  k.randomize();
  v.randomize();
  int32_t *positions = uploadVector(s.positions), *coordinates = uploadVector(s.coordinates);
  float *values = uploadVector(s.values);
  const int64_t nnz = int64_t(s.values.size());
  const std::vector<double> expected =
      reference(s, q, k, v, heads, rows, cols, d, dv, 0.125);
  // The first call uploads the plan, the second finds it on the device.
  for (const char *call : {"first", "second"}) {
    out.poison();
    launch(hubs_f32, q.device, k.device, v.device, positions, coordinates, values, nnz,
           out.device);
    out.download();
    report.check(std::string("hubs_f32 3 heads 517x389 hub rows, ") + call + " call",
                 relativeError(out.values, expected), 1e-5);
  }
  // The plan belongs to the compiled pattern: another nnz is refused.
  const cudaError_t refused = hubs_f32(q.device, k.device, v.device, positions, coordinates,
                                       values, nnz - 1, out.device, cudaStream_t(0));
  std::printf("hubs_f32 with nnz %lld: %s %s\n", (long long)(nnz - 1),
              cudaGetErrorName(refused), refused == cudaErrorInvalidValue ? "PASS" : "FAIL");
  report.failures += refused != cudaErrorInvalidValue;
  cudaFree(positions);
  cudaFree(coordinates);
  cudaFree(values);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <Inputs/hub_rows.smtx>\n", argv[0]);
    return 2;
  }
  sopt_csr file{};
  char error[512];
  if (sopt_csr_read(argv[1], &file, error, sizeof error)) {
    std::fprintf(stderr, "%s\n", error);
    return 2;
  }
  Report report;
  chainF32(report, 0.05);
  chainF32(report, 0.0); // nnz = 0: every output 0
  headsBf16(report);
  hubsF32(report, file);
  sopt_csr_free(&file);
  return report.exitCode();
}
