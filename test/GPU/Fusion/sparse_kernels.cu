// Generated host code calling the project's SpMM and SDDMM kernels
// (Inputs/sparse_kernels.mlir): a fused SpMM epilogue with a compile-time
// pattern and row order, a bf16 SpMM with an odd width, SDDMM in both forms
// (by tiles of a compile-time pattern, its entries' rows expanded on the
// first call, also taken by column panels, the order made from the
// caller's columns on the first call; by dense tensor-core blocks, with empty and dense blocks, in
// f32 64 x 64 blocks also with B's TF32 planes as a temporary, and over a
// banded pattern only the blocks holding entries)
// returning the pattern's values, SDDMM feeding SpMM, and SpMM by dense
// tensor-core blocks, from staged slices of B or with long rows cut into
// segments, with a fused epilogue (dense blocks in f32, bf16 and f16, and
// over a band).
// Also: a pattern other than the compiled one is refused.
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/sparse_kernels %S/Inputs/pruned_300x257.smtx | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "References.h"
#include "SparseCases.h"
#include "sparse_kernels.h"

using namespace harness;

namespace {

/// A product's sparse operand on the device with random values.
template <typename T> struct Sparse {
  Pattern pattern;
  DeviceCsr<T> csr;
  explicit Sparse(Pattern p) : pattern(std::move(p)), csr(pattern) {}
  int64_t nnz() const { return pattern.nnz(); }
};

void prunedLinear(Report &report, const std::string &patternFile) {
  Sparse<float> w(readPattern(patternFile));
  const int64_t m = 300, k = 257, n = 100;
  Tensor<float> x(k * n), b(m), res(m * n), y(m * n);
  x.randomize(), b.randomize(-0.5, 0.5), res.randomize();
  y.poison();
  launch(pruned_linear, w.csr.positions.device, w.csr.coordinates.device,
         w.csr.values.device, w.nnz(), x.device, b.device, res.device, y.device);
  y.download();
  std::vector<double> ref = spmmReference(w.pattern, w.csr.values.values, x.values, n);
  for (int64_t r = 0; r < m; ++r)
    for (int64_t j = 0; j < n; ++j)
      ref[r * n + j] = reference::gelu(ref[r * n + j] + b.values[r]) + res.values[r * n + j];
  report.check("pruned_linear (epilogue, by_length) 300x257 n=100 f32",
               relativeError(y.values, ref), tolerance<float>());

  // The row order was prepared for this pattern: another nnz is refused.
  y.poison();
  const cudaError_t refused =
      pruned_linear(w.csr.positions.device, w.csr.coordinates.device, w.csr.values.device,
                    w.nnz() - 1, x.device, b.device, res.device, y.device, 0);
  report.check("pruned_linear refuses another pattern (status)",
               refused == cudaErrorInvalidValue ? 0.0 : 1.0, 0.0);
}

void prunedReluBf16(Report &report) {
  for (double density : {0.05, 0.0}) {
    Sparse<__nv_bfloat16> w(randomPattern("w", 1000, 999, [&](int64_t r) {
      return r % 7 == 3 ? 0.0 : density;
    }));
    Tensor<__nv_bfloat16> x(999 * 37), y(1000 * 37);
    x.randomize();
    y.poison();
    launch(pruned_relu_bf16, w.csr.positions.device, w.csr.coordinates.device,
           w.csr.values.device, w.nnz(), x.device, y.device);
    y.download();
    std::vector<double> ref = spmmReference(w.pattern, w.csr.values.values, x.values, 37);
    for (double &v : ref)
      v = std::max(v * 0.5, 0.0);
    report.check("pruned_relu_bf16 1000x999 n=37 density=" + std::to_string(density),
                 relativeError(y.values, ref), tolerance<__nv_bfloat16>());
  }
}

void scores(Report &report, const std::string &patternFile) {
  Sparse<float> s(readPattern(patternFile));
  Tensor<float> q(300 * 64), k(257 * 64), d(s.nnz());
  q.randomize(), k.randomize();
  const std::vector<double> ref =
      sddmmReference(s.pattern, s.csr.values.values, q.values, k.values, 64, true);
  // The first call expands the entries' rows, the second reuses them.
  for (const char *call : {"first", "second"}) {
    d.poison();
    launch(::scores, q.device, k.device, s.csr.positions.device, s.csr.coordinates.device,
           s.csr.values.device, s.nnz(), d.device);
    d.download();
    report.check(std::string("scores (A*B^T)*S 300x257 k=64 f32 tiles, entries' rows, ") +
                     call + " call",
                 relativeError(d.values, ref), tolerance<float>());
  }
  // The rows were expanded for the file's nnz: another nnz is refused.
  const cudaError_t refused =
      ::scores(q.device, k.device, s.csr.positions.device, s.csr.coordinates.device,
               s.csr.values.device, s.nnz() - 1, d.device, 0);
  report.check("scores refuses another nnz", refused == cudaErrorInvalidValue ? 0.0 : 1.0, 0.0);
}

void scoresBlocksF16(Report &report) {
  // Empty row blocks (rows 64-127) and a dense row: skipped and full blocks.
  Sparse<__half> s(randomPattern("s", 300, 257, [](int64_t r) {
    return r / 64 == 1 ? 0.0 : r == 200 ? 1.0 : 0.3;
  }));
  Tensor<__half> q(300 * 80), k(257 * 80), d(s.nnz());
  q.randomize(), k.randomize();
  d.poison();
  launch(scores_blocks_f16, q.device, k.device, s.csr.positions.device,
         s.csr.coordinates.device, s.csr.values.device, s.nnz(), d.device);
  d.download();
  report.check("scores_blocks_f16 (A*B^T)*S 300x257 k=80 dense_blocks",
               relativeError(d.values, sddmmReference(s.pattern, s.csr.values.values, q.values,
                                             k.values, 80, true)),
               tolerance<__half>());
}

/// A generated (A · Bᵀ) ⊙ S · scale over the known 300 x 257 pattern, k =
/// 40 (`Scores`: the host function), or (A · B) ⊙ S · scale without
/// `transposeRhs`, against the float64 reference; then, as every table it
/// embeds was prepared for the file's pattern, a call with another nnz must
/// be refused.
template <typename Scores>
void scoresKnown(Report &report, const std::string &patternFile, Scores scores,
                 const std::string &label, bool transposeRhs = true) {
  Sparse<float> s(readPattern(patternFile));
  Tensor<float> q(300 * 40), k(257 * 40), scale(1), d(s.nnz());
  q.randomize(), k.randomize(), scale.randomize(0.5, 2);
  d.poison();
  launch(scores, q.device, k.device, s.csr.positions.device, s.csr.coordinates.device,
         s.csr.values.device, s.nnz(), scale.device, d.device);
  d.download();
  std::vector<double> ref =
      sddmmReference(s.pattern, s.csr.values.values, q.values, k.values, 40, transposeRhs);
  for (double &v : ref)
    v *= double(scale.values[0]);
  report.check(label + (transposeRhs ? " (A*B^T)*S*scale" : " (A*B)*S*scale") +
                   " 300x257 k=40",
               relativeError(d.values, ref), tolerance<float>());
  const cudaError_t refused =
      scores(q.device, k.device, s.csr.positions.device, s.csr.coordinates.device,
             s.csr.values.device, s.nnz() - 1, scale.device, d.device, nullptr);
  report.check(label + " refuses another nnz", refused == cudaErrorInvalidValue ? 0.0 : 1.0,
               0.5);
}

void sampledF16(Report &report) {
  Sparse<__half> s(randomPattern("s", 1000, 999, [](int64_t r) { return r % 5 ? 0.03 : 0.0; }));
  Tensor<__half> a(1000 * 33), b(33 * 999), d(s.nnz());
  a.randomize(), b.randomize();
  d.poison();
  launch(sampled_f16, a.device, b.device, s.csr.positions.device, s.csr.coordinates.device,
         s.csr.values.device, s.nnz(), d.device);
  d.download();
  report.check("sampled_f16 (A*B)*S 1000x999 k=33",
               relativeError(d.values, sddmmReference(s.pattern, s.csr.values.values, a.values,
                                             b.values, 33, false)),
               tolerance<__half>());
}

void sparseAttention(Report &report) {
  Sparse<float> s(randomPattern("s", 300, 257, [](int64_t r) { return r == 7 ? 1.0 : 0.1; }));
  Tensor<float> q(300 * 64), k(257 * 64), v(257 * 64), o(300 * 64);
  q.randomize(), k.randomize(), v.randomize();
  o.poison();
  launch(sparse_attention, q.device, k.device, v.device, s.csr.positions.device,
         s.csr.coordinates.device, s.csr.values.device, s.nnz(), o.device);
  o.download();
  const std::vector<double> p =
      sddmmReference(s.pattern, s.csr.values.values, q.values, k.values, 64, true);
  report.check("sparse_attention sddmm->spmm 300x257 d=64 f32",
               relativeError(o.values, spmmReference(s.pattern, p, v.values, 64)),
               tolerance<float>());
}

/// relu(W · X + b) through a generated function `fn` of (W's CSR arrays,
/// nnz, X, b, Y), X of `n` columns, against float64.
template <typename T, typename Fn>
void checkBiasRelu(Report &report, const std::string &name, Fn fn, Sparse<T> &w,
                   int64_t n = 50) {
  const int64_t m = w.pattern.rows, k = w.pattern.cols;
  Tensor<T> x(k * n), b(m), y(m * n);
  x.randomize(), b.randomize(-0.5, 0.5);
  y.poison();
  launch(fn, w.csr.positions.device, w.csr.coordinates.device, w.csr.values.device, w.nnz(),
         x.device, b.device, y.device);
  y.download();
  std::vector<double> ref = spmmReference(w.pattern, w.csr.values.values, x.values, n);
  for (int64_t r = 0; r < m; ++r)
    for (int64_t j = 0; j < n; ++j)
      ref[r * n + j] = std::max(ref[r * n + j] + b.values[r], 0.0);
  report.check(name, relativeError(y.values, ref), tolerance<T>());
}

/// The pattern of the dense-block cases: a row block without entries and
/// a dense row.
Pattern blocksPattern() {
  return randomPattern("w", 300, 257, [](int64_t r) {
    return r / 32 == 2 ? 0.0 : r == 100 ? 1.0 : 0.4;
  });
}

/// Dense tensor-core blocks with a bias + ReLU epilogue: f32 32 x 64 at an
/// odd width (B's rows copied 4 bytes at a time), bf16 32 x 64 there too
/// (element by element), f16 64 x 64 at n = 64 (16 bytes at a time); and
/// f16 32 x 64 blocks over a band (each row block's window of k only).
void prunedLinearBlocks(Report &report) {
  Sparse<float> w(blocksPattern());
  checkBiasRelu(report, "pruned_linear_blocks relu(W*X+b) 300x257 n=50 f32 dense_blocks",
                pruned_linear_blocks, w);
  Sparse<__nv_bfloat16> wb(blocksPattern());
  checkBiasRelu(report, "pruned_linear_blocks_bf16 relu(W*X+b) 300x257 n=50 bf16 dense_blocks",
                pruned_linear_blocks_bf16, wb);
  Sparse<__half> wh(blocksPattern());
  checkBiasRelu(report, "pruned_linear_blocks_f16 relu(W*X+b) 300x257 n=64 f16 dense_blocks",
                pruned_linear_blocks_f16, wh, 64);
  Sparse<__half> band(bandPattern());
  checkBiasRelu(report, "band_linear_blocks_f16 relu(W*X+b) 1000x1003 n=64 f16 dense_blocks",
                band_linear_blocks_f16, band, 64);
}

/// Staged slices of B (64 columns, vectors of 2) with the compile-time
/// pattern's row order and a bias + ReLU epilogue; n = 50 copies B's rows
/// element by element, and the slice's last 14 columns are past n.
void prunedLinearSlices(Report &report, const std::string &patternFile) {
  Sparse<float> w(readPattern(patternFile));
  checkBiasRelu(report,
                "pruned_linear_slices relu(W*X+b) 300x257 n=50 f32 staged_slices by_length",
                pruned_linear_slices, w);
}

/// Row tiles with the compile-time pattern's rows longer than 13 entries
/// cut into segments (odd: most start mid-vector; the dense row of 257 in
/// 20), each split over two groups, the long rows' bias + ReLU applied by
/// the kernel that adds their segments.
void prunedLinearSegments(Report &report, const std::string &patternFile) {
  Sparse<float> w(readPattern(patternFile));
  checkBiasRelu(report,
                "pruned_linear_segments relu(W*X+b) 300x257 n=50 f32 row segments of 13",
                pruned_linear_segments, w);
}

} // namespace

int main(int argc, char **argv) {
  const std::string patternFile = patternFileArgument(argc, argv);
  Report report;
  prunedLinear(report, patternFile);
  prunedReluBf16(report);
  scores(report, patternFile);
  scoresBlocksF16(report);
  scoresKnown(report, patternFile, scores_blocks_known, "scores_blocks_known dense_blocks32, windows");
  scoresKnown(report, patternFile, scores_planes_known,
              "scores_planes_known dense_blocks64, windows + B planes");
  scoresKnown(report, patternFile, scores_panels_known,
              "scores_panels_known tiles by column panels, entry rows + panel order");
  // A banded pattern beside it: only its occupied blocks are launched.
  const std::string bandFile = patternFile.substr(0, patternFile.rfind('/') + 1) +
                               "band_300x257.smtx";
  scoresKnown(report, bandFile, scores_band_known,
              "scores_band_known dense_blocks32, windows + occupied blocks");
  scoresKnown(report, bandFile, scores_band_planes,
              "scores_band_planes dense_blocks64, windows + B planes + occupied blocks");
  scoresKnown(report, patternFile, weight_grad_known,
              "weight_grad_known B^T first, tiles, entry rows", false);
  scoresKnown(report, patternFile, weight_grad_planes_known,
              "weight_grad_planes_known B^T first, dense_blocks64, windows + B planes", false);
  sampledF16(report);
  sparseAttention(report);
  prunedLinearBlocks(report);
  prunedLinearSlices(report, patternFile);
  prunedLinearSegments(report, patternFile);
  return report.exitCode();
}
