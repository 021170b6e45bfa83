// The project's SpMM kernels (Spmm.cuh, SpmmBlocks.cuh, SpmmSlices.cuh)
// against a float64 reference: f32, f16 and bf16 storage; the awkward
// patterns under the compiler's schedule and under hand-picked ones that
// reach every tile group size, vector width, row order, row split, tile
// order and long rows cut into segments, every dense block shape (each
// type; over a banded pattern's windows of k too) and
// every staged slice width and vector width (on sm_90 the slices whose
// width divides n = 64 arrive by tensor copies, k = 257 and 999 in padded
// tiles; the others by cp.async); odd widths n; in f32 also a pattern
// whose B outgrows L2 under the compiler's schedule (64-column slices) and
// a local (banded) one under its own (rows in order, by column slice).
// With a directory argument, every .smtx/.mtx in it (the DLMC matrices)
// under the compiler's schedule and staged slices (of k = 2048 in chunks)
// instead.
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

std::string describe(const ::sopt::SpmmSchedule &s) {
  if (s.tiling == ::sopt::SpmmTiling::DenseBlocks)
    return "dense_blocks " + std::to_string(s.blockRows) + "x" + std::to_string(s.tileColumns);
  if (s.tiling == ::sopt::SpmmTiling::StagedSlices)
    return "staged_slices " + std::to_string(s.tileColumns) + " v" +
           std::to_string(s.vectorWidth) + " x" + std::to_string(s.tilesPerBlock) +
           (s.rowOrder == ::sopt::RowOrder::ByLength ? " by_length" : "");
  return "tile=" + std::to_string(s.tileColumns) + "/" + std::to_string(s.threadsPerTile) +
         " v" + std::to_string(s.vectorWidth) + " x" + std::to_string(s.tilesPerBlock) +
         (s.rowOrder == ::sopt::RowOrder::ByLength ? " by_length" : "") +
         (s.rowSplits > 1 ? " split" + std::to_string(s.rowSplits) : "") +
         (s.tileOrder == ::sopt::TileOrder::ByColumn ? " by_column" : "") +
         (s.rowSegment > 0 ? " segments of " + std::to_string(s.rowSegment) : "");
}

template <typename T>
void check(Report &report, const Pattern &p, int64_t n,
           const std::vector<::sopt::SpmmSchedule> &schedules) {
  DeviceCsr<T> a(p);
  Tensor<T> b(size_t(p.cols) * n), c(size_t(p.rows) * n);
  b.randomize(-1, 1);
  // Against the sum of the terms' magnitudes: a single dot product of
  // random signs (one row of 4099, n = 1) can cancel to near zero, where an
  // error relative to the result says nothing of the kernel.
  std::vector<double> magnitude;
  const std::vector<double> ref = spmmReference(p, a.values.values, b.values, n, &magnitude);
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
    const DeviceSegments segments(p, s.rowSegment, n);
    CHECK_CUDA(::sopt::runSpmm<T>(s, a.view(), b.device, n, c.device, a.order.device, 0,
                                  segments.view));
    CHECK_CUDA(cudaDeviceSynchronize());
    c.download();
    report.check(name, errorAgainstScale(c.values, ref, magnitude), tolerance<T>());
  }
}

/// The compiler's schedule, and hand-picked ones valid for n.
std::vector<::sopt::SpmmSchedule> schedulesFor(const Pattern &p, int64_t n, int bytes,
                                               bool handPicked) {
  std::vector<::sopt::SpmmSchedule> out{::sopt::chooseSpmmSchedule(p.stats(), n, bytes)};
  // Staged slices of B: every width and vector width, blocks of 1024 and of
  // 64 threads (one to 32 rows at once), both row orders; only the rule's
  // own shape for the DLMC matrices (where the compiler's schedule is not
  // already one).
  for (int columns : {16, 32, 64, 128})
    for (int vector : {1, 2, 4}) {
      ::sopt::SpmmSchedule s;
      s.tiling = ::sopt::SpmmTiling::StagedSlices;
      s.tileColumns = columns, s.vectorWidth = vector;
      s.threadsPerTile = columns / vector;
      const bool ruleShape = columns == 64 * 4 / bytes && vector == 4;
      if (!handPicked && (!ruleShape || out[0].tiling == ::sopt::SpmmTiling::StagedSlices))
        continue;
      for (int threads : {::sopt::kMaxStagedSliceThreads, 64}) {
        s.tilesPerBlock = std::max(1, threads / std::max(s.threadsPerTile, 1));
        s.rowOrder = (columns / 16 + vector + threads) % 2 ? ::sopt::RowOrder::ByLength
                                                            : ::sopt::RowOrder::Natural;
        if (::sopt::checkSpmmSchedule(s, n, bytes).empty())
          out.push_back(s);
        if (!handPicked)
          break;
      }
    }
  if (!handPicked)
    return out;
  // Dense tensor-core blocks of every shape, at every n (odd n takes B's
  // rows 4 bytes at a time in f32, element by element in 16-bit).
  for (int rows : {32, 64})
    for (int columns : {32, 64, 128}) { // 128: 16-bit only
      const ::sopt::SpmmSchedule blocks = ::sopt::spmmDenseBlocks(rows, columns);
      if (::sopt::checkSpmmSchedule(blocks, n, bytes).empty())
        out.push_back(blocks);
    }
  for (int threads : {4, 8, 16, 32})
    for (int perThread : {1, 4, 8, 16})
      for (int vector : {1, 2, 4}) {
        ::sopt::SpmmSchedule s;
        s.threadsPerTile = threads, s.tileColumns = threads * perThread;
        s.vectorWidth = vector, s.tilesPerBlock = 64 / threads;
        s.rowOrder = (threads + vector) % 2 ? ::sopt::RowOrder::ByLength
                                            : ::sopt::RowOrder::Natural;
        if (!::sopt::checkSpmmSchedule(s, n, bytes).empty())
          continue;
        out.push_back(s);
        // The same tile with the row's nonzeros split over 2, 4 or 8 groups
        // (shares of a row that are empty, or start mid-vector, included)
        // and the tiles handed out by column slice.
        ::sopt::SpmmSchedule split = s;
        split.rowSplits = 2 << (threads + perThread + vector) % 3;
        split.tilesPerBlock = std::max(1, 64 / (threads * split.rowSplits));
        split.tileOrder = ::sopt::TileOrder::ByColumn;
        if (::sopt::checkSpmmSchedule(split, n, bytes).empty())
          out.push_back(split);
        // Both cut into segments of 5 or 32 entries where rows are longer
        // (segments that start mid-vector, a row that is one whole segment
        // and a remainder, split shares of a segment).
        if (s.rowOrder == ::sopt::RowOrder::ByLength)
          for (::sopt::SpmmSchedule cut : {s, split}) {
            cut.rowSegment = perThread == 1 || perThread == 8 ? 5 : 32;
            if (::sopt::checkSpmmSchedule(cut, n, bytes).empty())
              out.push_back(cut);
          }
      }
  return out;
}

/// The awkward patterns with several widths and hand-picked schedules, or
/// (`dlmc`) the DLMC matrices under the compiler's schedule.
template <typename T>
void checkAll(Report &report, const std::vector<Pattern> &cases, bool dlmc) {
  for (const Pattern &p : cases) {
    if (dlmc) {
      const int64_t n = dlmcDenseSize<T>();
      check<T>(report, p, n, schedulesFor(p, n, sizeof(T), false));
      continue;
    }
    for (int64_t n : {1, 37, 64, 260}) {
      std::vector<::sopt::SpmmSchedule> schedules = schedulesFor(p, n, sizeof(T), true);
      if (n != 64 && n != 260) // odd widths: the compiler's, dense blocks, slices
        schedules.erase(std::remove_if(schedules.begin() + 1, schedules.end(),
                                       [](const ::sopt::SpmmSchedule &s) {
                                         return s.tiling == ::sopt::SpmmTiling::RowTiles;
                                       }),
                        schedules.end());
      check<T>(report, p, n, schedules);
    }
  }
}

/// f32 whose B outgrows L2 (a 2048 x 65536 pattern of 32 entries a row
/// reads 65536 rows of B: 67 MB at n = 256): the compiler's schedule must be
/// the row tiles of 8 lanes x 8 columns by column slice (SparseSchedule.cpp),
/// checked like the others.
void checkSlicesOfLargeB(Report &report) {
  Pattern p;
  p.name = "B beyond L2 2048x65536";
  p.rows = 2048, p.cols = 65536;
  std::uniform_int_distribution<int32_t> column(0, int32_t(p.cols) - 1);
  for (int64_t r = 0; r < p.rows; ++r) {
    std::vector<int32_t> row;
    while (row.size() < 32) {
      row.push_back(column(rng()));
      std::sort(row.begin(), row.end());
      row.erase(std::unique(row.begin(), row.end()), row.end());
    }
    p.coordinates.insert(p.coordinates.end(), row.begin(), row.end());
    p.positions.push_back(int32_t(p.coordinates.size()));
  }
  const int64_t n = 256;
  const ::sopt::SpmmSchedule s = ::sopt::chooseSpmmSchedule(p.stats(), n, sizeof(float));
  if (s.tiling != ::sopt::SpmmTiling::RowTiles || s.threadsPerTile != 8 ||
      s.tileColumns != 64 || s.tileOrder != ::sopt::TileOrder::ByColumn) {
    std::printf("%s n=%ld: the compiler chose %s, not 8 x 8 tiles by column slice FAIL\n",
                p.name.c_str(), long(n), describe(s).c_str());
    ++report.failures;
  }
  check<float>(report, p, n, {s});
}

/// f32 over a local pattern (a band of 25 % density 40 columns either side
/// of the diagonal, rows 700-779 empty): the compiler's schedule from n =
/// 256 must keep the rows in order and hand out tiles of 128 columns by
/// column slice (SparseSchedule.cpp), checked like the others at n = 256,
/// an odd 258 (two-element vectors) and 1024 (16 lanes a tile).
void checkLocalPattern(Report &report) {
  const Pattern p = bandPattern("local band 3000x3000", 3000, 3000, 40, 0.25, 700, 780);
  for (int64_t n : {256, 258, 1024}) {
    const ::sopt::SpmmSchedule s = ::sopt::chooseSpmmSchedule(p.stats(), n, sizeof(float));
    if (s.tiling != ::sopt::SpmmTiling::RowTiles || s.rowOrder != ::sopt::RowOrder::Natural ||
        s.tileOrder != ::sopt::TileOrder::ByColumn || s.tileColumns != 128) {
      std::printf("%s n=%ld: the compiler chose %s, not 128-column tiles in row order by "
                  "column slice FAIL\n",
                  p.name.c_str(), long(n), describe(s).c_str());
      ++report.failures;
    }
    check<float>(report, p, n, {s});
  }
}

} // namespace

int main(int argc, char **argv) {
  Report report;
  std::vector<Pattern> cases;
  if (!testPatterns(argc, argv, cases))
    return 1;
  const bool dlmc = argc > 1;
  if (!dlmc) // the dense blocks walk only the band's window of k
    cases.push_back(bandPattern());
#if TEST_F32
  checkAll<float>(report, cases, dlmc);
  if (!dlmc) {
    checkSlicesOfLargeB(report);
    checkLocalPattern(report);
  }
#endif
#if TEST_F16
  checkAll<__half>(report, cases, dlmc);
#endif
#if TEST_BF16
  checkAll<__nv_bfloat16>(report, cases, dlmc);
#endif
  return report.exitCode();
}
