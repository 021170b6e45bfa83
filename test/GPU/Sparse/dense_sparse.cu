// Generated host code for dense × sparse products (Inputs/dense_sparse.mlir)
// run as (Sᵀ · Xᵀ)ᵀ on the project's SpMM kernel: CSC operands used as
// they are, CSR operands transposed at compile time (known pattern) or by
// cuSPARSE per call, the result stored transposed with fused epilogues.
// f32, f16 and bf16 against float64; fresh random inputs, poisoned outputs;
// m not a multiple of 4, one row of X, one column of S, empty rows and
// columns, nnz = 0; dense tensor-core blocks (f32 and f16). A pattern other than the
// compiled one is refused.
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/dense_sparse %S/Inputs/pruned_300x257.smtx | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "References.h"
#include "SparseCases.h"
#include "dense_sparse.h"

using namespace harness;

namespace {

/// Y[m, n] = X[m, k] · S[k, n] in double, S given by the CSR pattern `p`
/// (k x n) and its values.
std::vector<double> timesCsr(const std::vector<double> &x, int64_t m, const Pattern &p,
                             const std::vector<double> &values) {
  const int64_t k = p.rows, n = p.cols;
  std::vector<double> y(size_t(m * n), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t r = 0; r < k; ++r)
      for (int32_t e = p.positions[r]; e < p.positions[r + 1]; ++e)
        y[i * n + p.coordinates[e]] += x[i * k + r] * values[e];
  return y;
}

/// The same with S in CSC: `t` is the CSR pattern of Sᵀ (n x k).
std::vector<double> timesCsc(const std::vector<double> &x, int64_t m, const Pattern &t,
                             const std::vector<double> &values) {
  const int64_t n = t.rows, k = t.cols;
  std::vector<double> y(size_t(m * n), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t c = 0; c < n; ++c)
      for (int32_t e = t.positions[c]; e < t.positions[c + 1]; ++e)
        y[i * n + c] += x[i * k + t.coordinates[e]] * values[e];
  return y;
}

/// `ref` (m x n) plus `bias` indexed by the column.
void addColumnBias(std::vector<double> &ref, int64_t m, const std::vector<double> &bias) {
  const int64_t n = int64_t(bias.size());
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      ref[i * n + j] += bias[j];
}

/// x · Wᵀ + b, GELU: W (300 x 257) is the pattern file, passed as a CSC Wᵀ.
void linearCsc(Report &report, const std::string &file) {
  Pattern w = readPattern(file);
  DeviceCsr<float> csr(w);
  const int64_t m = 77, k = 257, n = 300;
  Tensor<float> x(m * k), b(n), y(m * n);
  x.randomize(), b.randomize(-0.5, 0.5);
  y.poison();
  launch(linear_csc, x.device, csr.positions.device, csr.coordinates.device,
         csr.values.device, w.nnz(), b.device, y.device);
  y.download();
  std::vector<double> ref = timesCsc(x.values, m, w, csr.values.values);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      ref[i * n + j] = reference::gelu(ref[i * n + j] + b.values[j]);
  report.check("linear_csc x*W^T+b,gelu 77x257 * CSC f32", relativeError(y.values, ref),
               tolerance<float>());
  // The row order was prepared for this pattern: another nnz is refused.
  const cudaError_t refused = linear_csc(x.device, csr.positions.device,
                                         csr.coordinates.device, csr.values.device,
                                         w.nnz() - 1, b.device, y.device, 0);
  report.check("linear_csc refuses another pattern (status)",
               refused == cudaErrorInvalidValue ? 0.0 : 1.0, 0.0);
}

/// X · S with S (300 x 257) in CSR, its pattern transposed at compile time.
void denseCsrPattern(Report &report, const std::string &file) {
  Pattern s = readPattern(file);
  DeviceCsr<float> csr(s);
  const int64_t m = 61;
  Tensor<float> x(m * s.rows), y(m * s.cols);
  x.randomize();
  y.poison();
  launch(dense_csr_pattern, x.device, csr.positions.device, csr.coordinates.device,
         csr.values.device, s.nnz(), y.device);
  y.download();
  report.check("dense_csr_pattern 61x300 * CSR 300x257 f32",
               relativeError(y.values, timesCsr(x.values, m, s, csr.values.values)),
               tolerance<float>());
  const cudaError_t refused = dense_csr_pattern(x.device, csr.positions.device,
                                                csr.coordinates.device, csr.values.device,
                                                s.nnz() + 1, y.device, 0);
  report.check("dense_csr_pattern refuses another pattern (status)",
               refused == cudaErrorInvalidValue ? 0.0 : 1.0, 0.0);
}

/// relu(0.5 · X · S), S CSR without a pattern: cuSPARSE transposes it.
void denseCsrBf16(Report &report) {
  for (double density : {0.05, 0.0}) {
    // Every seventh row of S empty; columns past 990 empty too.
    Pattern s = randomPattern("s", 999, 1000, [&](int64_t r) {
      return r % 7 == 3 ? 0.0 : density;
    });
    Pattern kept = s;
    kept.coordinates.clear();
    kept.positions.assign(1, 0);
    for (int64_t r = 0; r < s.rows; ++r) {
      for (int32_t e = s.positions[r]; e < s.positions[r + 1]; ++e)
        if (s.coordinates[e] < 990)
          kept.coordinates.push_back(s.coordinates[e]);
      kept.positions.push_back(int32_t(kept.coordinates.size()));
    }
    DeviceCsr<__nv_bfloat16> csr(kept);
    const int64_t m = 33;
    Tensor<__nv_bfloat16> x(m * 999), y(m * 1000);
    x.randomize();
    y.poison();
    launch(dense_csr_bf16, x.device, csr.positions.device, csr.coordinates.device,
           csr.values.device, kept.nnz(), y.device);
    y.download();
    std::vector<double> ref = timesCsr(x.values, m, kept, csr.values.values);
    for (double &v : ref)
      v = std::max(0.5 * v, 0.0);
    report.check("dense_csr_bf16 relu(0.5*X*S) 33x999 density=" + std::to_string(density),
                 relativeError(y.values, ref), tolerance<__nv_bfloat16>());
  }
}

/// One row of X times a CSC S (64 x 4099) with a dense column and empty ones.
void denseCscF16(Report &report) {
  Pattern t = randomPattern("st", 4099, 64, [](int64_t c) {
    return c == 100 ? 1.0 : c % 3 == 0 ? 0.0 : 0.2;
  });
  DeviceCsr<__half> csc(t);
  Tensor<__half> x(64), y(4099);
  x.randomize();
  y.poison();
  launch(dense_csc_f16, x.device, csc.positions.device, csc.coordinates.device,
         csc.values.device, t.nnz(), y.device);
  y.download();
  report.check("dense_csc_f16 1x64 * CSC 64x4099",
               relativeError(y.values, timesCsc(x.values, 1, t, csc.values.values)),
               tolerance<__half>());
}

/// Y = X · S + b (b by Y's column) through a generated function `fn` of
/// (X, S's CSC arrays, nnz, b, Y), X of m rows, S's CSC arrays those of the
/// CSR pattern `t` of Sᵀ, against float64.
template <typename T = float, typename Fn>
void checkCscWithBias(Report &report, const std::string &name, Fn fn, const Pattern &t,
                      int64_t m) {
  DeviceCsr<T> csc(t);
  Tensor<T> x(m * t.cols), b(t.rows), y(m * t.rows);
  x.randomize(), b.randomize();
  y.poison();
  launch(fn, x.device, csc.positions.device, csc.coordinates.device, csc.values.device,
         t.nnz(), b.device, y.device);
  y.download();
  std::vector<double> ref = timesCsc(x.values, m, t, csc.values.values);
  addColumnBias(ref, m, b.values);
  report.check(name, relativeError(y.values, ref), tolerance<T>());
}

/// A hand-set schedule with 4-wide loads of Xᵀ: Cᵀ stored row-major and
/// transposed, the bias epilogue indexed by Y's column.
void denseCscVec4(Report &report) {
  Pattern t = randomPattern("st", 70, 129, [](int64_t c) { return c % 11 == 5 ? 0.0 : 0.3; });
  checkCscWithBias(report, "dense_csc_vec4 100x129 * CSC 129x70 + b f32", dense_csc_vec4, t,
                   100);
}

/// S has one column.
void denseCsrColumn(Report &report) {
  Pattern s = randomPattern("s", 3, 1, [](int64_t r) { return r == 1 ? 0.0 : 1.0; });
  DeviceCsr<float> csr(s);
  Tensor<float> x(5 * 3), y(5);
  x.randomize();
  y.poison();
  launch(dense_csr_column, x.device, csr.positions.device, csr.coordinates.device,
         csr.values.device, s.nnz(), y.device);
  y.download();
  report.check("dense_csr_column 5x3 * CSR 3x1 f32",
               relativeError(y.values, timesCsr(x.values, 5, s, csr.values.values)),
               tolerance<float>());
}

/// Dense tensor-core blocks (f32 64 x 32 and f16 32 x 64 of Yᵀ) stored
/// transposed, a bias by Y's column; S with empty columns and a dense one.
void denseCscBlocks(Report &report) {
  Pattern t = randomPattern("st", 300, 257, [](int64_t c) {
    return c == 7 ? 1.0 : c % 13 == 2 ? 0.0 : 0.35;
  });
  checkCscWithBias(report, "dense_csc_blocks 37x257 * CSC 257x300 + b f32 dense_blocks",
                   dense_csc_blocks, t, 37);
  // 16-bit, 32 x 64 blocks of Yᵀ: Xᵀ's rows (40 columns) copied 16 bytes
  // at a time.
  checkCscWithBias<__half>(report,
                           "dense_csc_blocks_f16 40x257 * CSC 257x300 + b f16 dense_blocks",
                           dense_csc_blocks_f16, t, 40);
}

/// Staged slices of Xᵀ with a bias by Y's column: vectors of 1 (the kernel
/// stores Y transposed; S with empty columns and a dense one) and of 4 (Cᵀ
/// stored row-major, then transposed).
void denseCscSlices(Report &report) {
  Pattern t = randomPattern("st", 300, 257, [](int64_t c) {
    return c == 7 ? 1.0 : c % 13 == 2 ? 0.0 : 0.1;
  });
  checkCscWithBias(report, "dense_csc_slices 37x257 * CSC 257x300 + b f32 staged_slices",
                   dense_csc_slices, t, 37);
  Pattern t4 = randomPattern("st", 70, 129, [](int64_t c) { return c % 11 == 5 ? 0.0 : 0.3; });
  checkCscWithBias(report, "dense_csc_slices_vec4 100x129 * CSC 129x70 + b f32 staged_slices",
                   dense_csc_slices_vec4, t4, 100);
}

} // namespace

int main(int argc, char **argv) {
  const std::string patternFile = patternFileArgument(argc, argv);
  Report report;
  linearCsc(report, patternFile);
  denseCsrPattern(report, patternFile);
  denseCsrBf16(report);
  denseCscF16(report);
  denseCscVec4(report);
  denseCsrColumn(report);
  denseCscBlocks(report);
  denseCscSlices(report);
  return report.exitCode();
}
