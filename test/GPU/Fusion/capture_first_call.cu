// Generated functions whose compile-time pattern tables (row order, row
// segments, column windows, entries' rows expanded from the positions, the
// panel order made from the caller's columns) are copied to the device on
// first use, called for the first time while their
// stream is being captured into a CUDA graph (global capture mode): the
// capture must succeed, the tables must not become part of the graph, and
// two replays must give, bit for bit, what an eager call gives afterwards.
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/capture_first_call %S/Inputs/pruned_300x257.smtx | FileCheck %s
// CHECK-COUNT-5: first call captured, replays equal an eager call {{.*}} PASS
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "SparseCases.h"
#include "sparse_kernels.h"

using namespace harness;

namespace {

template <typename T, typename Call>
void checkCaptured(Report &report, const std::string &name, Tensor<T> &out, Call call) {
  report.check(name + ": first call captured, replays equal an eager call",
               capturedCallEqualsEager(name, out, call) ? 0.0 : 1.0, 0.0);
}

} // namespace

int main(int argc, char **argv) {
  const std::string patternFile = patternFileArgument(argc, argv);
  Report report;
  const Pattern pattern = readPattern(patternFile);
  DeviceCsr<float> w(pattern);
  const int64_t m = pattern.rows, k = pattern.cols, nnz = pattern.nnz();

  // Row order (by length) and a fused GELU + residual epilogue, n = 100.
  Tensor<float> x(k * 100), b(m), res(m * 100), y(m * 100);
  x.randomize(), b.randomize(-0.5, 0.5), res.randomize();
  checkCaptured(report, "pruned_linear (row order)", y, [&](cudaStream_t s) {
    return pruned_linear(w.positions.device, w.coordinates.device, w.values.device, nnz,
                         x.device, b.device, res.device, y.device, s);
  });
  // Row order and row segments, whose partial sums are a temporary.
  Tensor<float> x50(k * 50), y50(m * 50);
  x50.randomize();
  checkCaptured(report, "pruned_linear_segments (row order, segments)", y50,
                [&](cudaStream_t s) {
                  return pruned_linear_segments(w.positions.device, w.coordinates.device,
                                                w.values.device, nnz, x50.device, b.device,
                                                y50.device, s);
                });
  // SDDMM tiles reading each entry's row.
  Tensor<float> q(m * 64), kt(k * 64), d(nnz);
  q.randomize(), kt.randomize();
  checkCaptured(report, "scores (entries' rows)", d, [&](cudaStream_t s) {
    return scores(q.device, kt.device, w.positions.device, w.coordinates.device,
                  w.values.device, nnz, d.device, s);
  });
  // SDDMM dense blocks reading the rows' column windows.
  Tensor<float> q40(m * 40), k40(k * 40), scale(1), d40(nnz);
  q40.randomize(), k40.randomize(), scale.randomize(0.5, 2);
  checkCaptured(report, "scores_blocks_known (column windows)", d40, [&](cudaStream_t s) {
    return scores_blocks_known(q40.device, k40.device, w.positions.device, w.coordinates.device,
                               w.values.device, nnz, scale.device, d40.device, s);
  });
  // SDDMM tiles by column panels: the order is made from the caller's
  // columns, read back outside the capture.
  Tensor<float> dPanels(nnz);
  checkCaptured(report, "scores_panels_known (entries' rows, panel order)", dPanels,
                [&](cudaStream_t s) {
                  return scores_panels_known(q40.device, k40.device, w.positions.device,
                                             w.coordinates.device, w.values.device, nnz,
                                             scale.device, dPanels.device, s);
                });
  return report.exitCode();
}
