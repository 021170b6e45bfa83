// The runtime's kernels launched as programmatic dependent launches
// (Launch.cuh): each may be scheduled before the kernel ahead of it has
// finished, and must wait for it before touching memory. Chains of calls
// with no synchronization between them, each reading what the one before
// wrote, into outputs poisoned beforehand:
//
//   Y1 = A · X,  Y2 = A · Y1,  D = (Y1 · Y2ᵀ) ⊙ S,  E = (Y1 · R) ⊙ S,
//   Z = D · X  (D's values on S's pattern; S is A's pattern; R is Y2's
//   memory read as [n, m])
//
// under the compiler's schedules and forced ones (staged slices, dense
// blocks, row tiles with long rows in segments: a second kernel within
// the call), f32 and f16. Every stage is checked against a float64
// reference computed from what the stage before actually left (so a stage
// that read its input early, before it was written, fails), and the same
// chain replayed from a CUDA graph, and launched plainly
// (setDependentLaunch(false)), must leave the same bits.
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/dependent_launch | FileCheck %s
// CHECK: dependent launches: on
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "SparseCases.h"

#include "sparse-opt/Runtime/Host/Launch.cuh"
#include "SparseKernels.h"

#include <cstring>

using namespace harness;

namespace {

/// The chain's schedules: SpMM for Y1, Y2 and Z, SDDMM for D and E.
struct Chain {
  std::string name;
  ::sopt::SpmmSchedule spmm;
  ::sopt::SddmmSchedule sddmm, sddmmAb;
};

template <typename T> struct ChainRun {
  const Pattern &p;
  int64_t n;
  DeviceCsr<T> a;
  Tensor<T> x, y1, y2, d, e, z;
  std::unique_ptr<Tensor<T>> workspace, workspaceAb;
  DeviceSegments segments;
  ::sopt::CsrMatrix<T> dView;

  ChainRun(const Pattern &p, int64_t n, const Chain &c)
      : p(p), n(n), a(p), x(size_t(p.cols) * n), y1(size_t(p.rows) * n),
        y2(size_t(p.rows) * n), d(p.coordinates.size()), e(p.coordinates.size()),
        z(size_t(p.rows) * n), segments(p, c.spmm.rowSegment, n) {
    // Small enough that f16 holds the chain's sums.
    x.randomize(-0.1, 0.1);
    const int64_t spare = ::sopt::sddmmWorkspaceElements(c.sddmm, p.cols, n, sizeof(T));
    if (spare > 0)
      workspace = std::make_unique<Tensor<T>>(size_t(spare));
    const int64_t spareAb = ::sopt::sddmmWorkspaceElements(c.sddmmAb, p.cols, n, sizeof(T));
    if (spareAb > 0)
      workspaceAb = std::make_unique<Tensor<T>>(size_t(spareAb));
    dView = a.view();
    dView.values = d.device;
  }

  void poison() {
    for (Tensor<T> *t : {&y1, &y2, &d, &e, &z})
      t->poison();
  }

  /// The whole chain on `stream`, nothing waited for.
  cudaError_t enqueue(const Chain &c, cudaStream_t stream) {
    const ::sopt::CsrMatrix<T> view = a.view();
    const int32_t *windows = a.columnWindows(c.sddmm.blockSize);
    const int32_t *windowsAb = a.columnWindows(c.sddmmAb.blockSize);
    cudaError_t status = ::sopt::runSpmm<T>(c.spmm, view, x.device, n, y1.device,
                                            a.order.device, stream, segments.view);
    if (status == cudaSuccess)
      status = ::sopt::runSpmm<T>(c.spmm, view, y1.device, n, y2.device, a.order.device, stream,
                                  segments.view);
    if (status == cudaSuccess)
      status = ::sopt::runSddmm<T>(c.sddmm, view, y1.device, y2.device, n, true, d.device,
                                   a.order.device, stream, windows, a.entryRows.device,
                                   workspace ? workspace->device : nullptr);
    if (status == cudaSuccess) // R = Y2's memory as [n, m]
      status = ::sopt::runSddmm<T>(c.sddmmAb, view, y1.device, y2.device, n, false, e.device,
                                   a.order.device, stream, windowsAb, a.entryRows.device,
                                   workspaceAb ? workspaceAb->device : nullptr);
    if (status == cudaSuccess)
      status = ::sopt::runSpmm<T>(c.spmm, dView, x.device, n, z.device, a.order.device, stream,
                                  segments.view);
    return status;
  }

  std::vector<T> bits() {
    std::vector<T> all;
    for (Tensor<T> *t : {&y1, &y2, &d, &e, &z}) {
      t->download();
      all.insert(all.end(), t->host.begin(), t->host.end());
    }
    return all;
  }
};

/// Equal bit for bit.
template <typename T> bool sameBits(const std::vector<T> &a, const std::vector<T> &b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

template <typename T> void check(Report &report, const Pattern &p, int64_t n, const Chain &c) {
  const std::string name = p.name + " " + c.name + " n=" + std::to_string(n) + " " +
                           typeName<T>();
  for (const std::string &why :
       {::sopt::checkSpmmSchedule(c.spmm, n, sizeof(T)),
        ::sopt::checkSddmmSchedule(c.sddmm, n, true, sizeof(T)),
        ::sopt::checkSddmmSchedule(c.sddmmAb, n, false, sizeof(T))})
    if (!why.empty()) { // a test that picks an invalid schedule is wrong
      std::printf("%s: schedule rejected: %s FAIL\n", name.c_str(), why.c_str());
      ++report.failures;
      return;
    }
  ChainRun<T> run(p, n, c);
  run.poison();
  CHECK_CUDA(run.enqueue(c, 0));
  CHECK_CUDA(cudaDeviceSynchronize());
  const std::vector<T> eager = run.bits();

  // Each stage against float64 from the stage before's actual output.
  std::vector<double> scale;
  std::vector<double> ref = spmmReference(p, run.a.values.values, run.x.values, n, &scale);
  report.check(name + " Y1", errorAgainstScale(run.y1.values, ref, scale), tolerance<T>());
  ref = spmmReference(p, run.a.values.values, run.y1.values, n, &scale);
  report.check(name + " Y2", errorAgainstScale(run.y2.values, ref, scale), tolerance<T>());
  ref = sddmmReference(p, run.a.values.values, run.y1.values, run.y2.values, n, true, &scale);
  report.check(name + " D", errorAgainstScale(run.d.values, ref, scale), tolerance<T>());
  ref = sddmmReference(p, run.a.values.values, run.y1.values, run.y2.values, n, false, &scale);
  report.check(name + " E", errorAgainstScale(run.e.values, ref, scale), tolerance<T>());
  ref = spmmReference(p, run.d.values, run.x.values, n, &scale);
  report.check(name + " Z", errorAgainstScale(run.z.values, ref, scale), tolerance<T>());

  // Replayed from a graph (dependent launches become programmatic edges).
  bool same = capturedCallEqualsEager(name + " graph", run.z,
                                      [&](cudaStream_t s) { return run.enqueue(c, s); });
  run.poison();
  CHECK_CUDA(run.enqueue(c, 0));
  CHECK_CUDA(cudaDeviceSynchronize());
  same = same && sameBits(run.bits(), eager);
  std::printf("%-60s %s\n", (name + " graph and eager bits").c_str(), same ? "PASS" : "FAIL");
  report.failures += !same;

  // Launched plainly: the same kernels, so the same bits.
  ::sopt::setDependentLaunch(false);
  run.poison();
  CHECK_CUDA(run.enqueue(c, 0));
  CHECK_CUDA(cudaDeviceSynchronize());
  ::sopt::setDependentLaunch(true);
  same = sameBits(run.bits(), eager);
  std::printf("%-60s %s\n", (name + " plain launches' bits").c_str(), same ? "PASS" : "FAIL");
  report.failures += !same;
}

template <typename T> void checkAll(Report &report) {
  constexpr int kBytes = sizeof(T);
  const int64_t n = 256;
  // Square patterns (S is A's): dense enough for blocks, sparse for slices
  // and tiles, and skewed for long rows cut into segments.
  const Pattern dense = randomPattern("512x512 50%", 512, 512, [](int64_t) { return 0.5; });
  const Pattern sparse = randomPattern("1000x1000 5%", 1000, 1000, [](int64_t) { return 0.05; });
  const Pattern skewed = randomPattern("2000x2000 skewed", 2000, 2000, [](int64_t r) {
    return r % 97 == 0 ? 0.6 : 0.01;
  });
  for (const Pattern *p : {&dense, &sparse, &skewed}) {
    Chain chosen{"chosen", ::sopt::chooseSpmmSchedule(p->stats(), n, kBytes),
                 ::sopt::chooseSddmmSchedule(p->stats(), n, true, kBytes),
                 ::sopt::chooseSddmmSchedule(p->stats(), n, false, kBytes)};
    check<T>(report, *p, n, chosen);
  }
  // Forced: staged slices; dense blocks (SpMM 64 x 64, SDDMM 64 x 64 and
  // 32 x 32); row tiles with long rows in segments.
  const ::sopt::SddmmSchedule tiles =
      ::sopt::chooseSddmmSchedule(sparse.stats(), n, true, kBytes);
  const ::sopt::SddmmSchedule sparseAb =
      ::sopt::chooseSddmmSchedule(sparse.stats(), n, false, kBytes);
  ::sopt::SpmmSchedule slices;
  slices.tiling = ::sopt::SpmmTiling::StagedSlices;
  slices.tileColumns = 64, slices.vectorWidth = 4, slices.threadsPerTile = 16;
  slices.tilesPerBlock = ::sopt::kMaxStagedSliceThreads / 16;
  slices.rowOrder = ::sopt::RowOrder::ByLength;
  check<T>(report, sparse, n, Chain{"slices", slices, tiles, sparseAb});
  ::sopt::SpmmSchedule blocks;
  blocks.tiling = ::sopt::SpmmTiling::DenseBlocks;
  blocks.blockRows = 64, blocks.tileColumns = 64;
  for (int size : {64, 32}) {
    ::sopt::SddmmSchedule sddmmBlocks;
    sddmmBlocks.tiling = ::sopt::SddmmTiling::DenseBlocks;
    sddmmBlocks.blockSize = size;
    check<T>(report, dense, n,
             Chain{"blocks" + std::to_string(size), blocks, sddmmBlocks,
                   ::sopt::chooseSddmmSchedule(dense.stats(), n, false, kBytes)});
  }
  ::sopt::SpmmSchedule segmented = ::sopt::chooseSpmmSchedule(skewed.stats(), n, kBytes);
  segmented.tiling = ::sopt::SpmmTiling::RowTiles;
  segmented.threadsPerTile = 32, segmented.tileColumns = 64, segmented.vectorWidth = 2;
  segmented.tilesPerBlock = 4, segmented.rowSplits = 1;
  segmented.rowOrder = ::sopt::RowOrder::ByLength, segmented.rowSegment = 128;
  check<T>(report, skewed, n,
           Chain{"segments", segmented, ::sopt::chooseSddmmSchedule(skewed.stats(), n, true, kBytes),
                 ::sopt::chooseSddmmSchedule(skewed.stats(), n, false, kBytes)});
}

} // namespace

int main() {
  bool on = false;
  CHECK_CUDA(::sopt::dependentLaunchOn(&on));
  std::printf("dependent launches: %s\n", on ? "on" : "off (FAIL: sm_90 or newer expected)");
  Report report;
  report.failures += !on;
  checkAll<float>(report);
  checkAll<__half>(report);
  return report.exitCode();
}
