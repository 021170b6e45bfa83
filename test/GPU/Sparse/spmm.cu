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
// a local (banded) one under its own (rows in order, by column slice);
// a NaN, an infinity or (f32) a value near FLT_MAX in B that must reach
// the outputs the reference has it in and, but for the dense blocks'
// stored zeros, no other.
// With a directory argument, every .smtx/.mtx in it (the DLMC matrices)
// under the compiler's schedule and staged slices (of k = 2048 in chunks)
// instead.
//
// The element types a binary checks are chosen with -DTEST_F32=1 /
// -DTEST_F16=1 / -DTEST_BF16=1; the build makes one binary per type
// (test/GPU/CMakeLists.txt), linked with that type's kernels
// (lib/SpmmKernels.cu). This file checks f32, spmm-16bit.test the others:
// separate tests run at once.
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/spmm_f32 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "SparseCases.h"

#include "SparseKernels.h"

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

/// Runs schedule `s` (with the row segments it cuts long rows into) and
/// downloads C.
template <typename T>
void run(const ::sopt::SpmmSchedule &s, const Pattern &p, DeviceCsr<T> &a, const Tensor<T> &b,
         int64_t n, Tensor<T> &c) {
  const DeviceSegments segments(p, s.rowSegment, n);
  CHECK_CUDA(::sopt::runSpmm<T>(s, a.view(), b.device, n, c.device, a.order.device, 0,
                                segments.view));
  CHECK_CUDA(cudaDeviceSynchronize());
  c.download();
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
    run<T>(s, p, a, b, n, c);
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

/// A special value (specialValues: NaN, +Inf, near FLT_MAX in f32) in B at
/// (j, c0), under every schedule at n = 64:
/// the outputs (i, c0) of the rows that store j must be what the float64
/// reference has (NaN, the infinity of A[i, j]'s sign, a finite sum near
/// 1e38), every other output finite and within tolerance, from a finite
/// sentinel (an output left unwritten fails). The dense tensor-core blocks
/// multiply B's chunk by a densified block of A, so their stored zeros
/// times Inf or NaN (in f32 also the large value, whose TF32 part rounds to
/// infinity) make NaN in column c0 of any row whose block's window of k
/// (SpmmBlocks.cuh: first to last chunk of 64 the block's rows hold entries
/// in) covers j, as a dense or BSR product would: allowed there, nowhere
/// else. The row tiles multiply the entries a vector takes outside a row by
/// 0 and B's row of the row's first or last entry (Spmm.cuh), so a row that
/// reads Inf may get NaN for it; no other row may.
template <typename T>
void checkSpecialColumn(Report &report, const Pattern &p, int32_t j, double special) {
  const int64_t n = 64, c0 = n / 2;
  DeviceCsr<T> a(p);
  Tensor<T> b(size_t(p.cols) * n), c(size_t(p.rows) * n);
  b.randomize(-1, 1);
  b.set(size_t(j) * n + c0, special);
  std::vector<double> magnitude;
  const std::vector<double> ref = spmmReference(p, a.values.values, b.values, n, &magnitude);
  std::vector<bool> storesJ(size_t(p.rows), false);
  for (int64_t r = 0; r < p.rows; ++r)
    storesJ[r] = std::binary_search(p.coordinates.begin() + p.positions[r],
                                    p.coordinates.begin() + p.positions[r + 1], j);
  // Whether the block of `rows` rows holding row r walks j's chunk of 64.
  const auto windowCovers = [&](int64_t r, int rows) {
    int32_t lowest = INT32_MAX, highest = -1;
    for (int64_t q = r / rows * rows; q < std::min<int64_t>(p.rows, (r / rows + 1) * rows); ++q)
      if (p.positions[q + 1] > p.positions[q]) {
        lowest = std::min(lowest, p.coordinates[p.positions[q]]);
        highest = std::max(highest, p.coordinates[p.positions[q + 1] - 1]);
      }
    return highest >= 0 && j / 64 >= lowest / 64 && j / 64 <= highest / 64;
  };
  for (const ::sopt::SpmmSchedule &s : schedulesFor(p, n, sizeof(T), true)) {
    c.fill(1234.0);
    run<T>(s, p, a, b, n, c);
    const bool blocks = s.tiling == ::sopt::SpmmTiling::DenseBlocks;
    const bool padsWithOwnRows = s.tiling == ::sopt::SpmmTiling::RowTiles && std::isinf(special);
    const auto reads = [&](size_t i) { return int64_t(i) % n == c0 && storesJ[i / n]; };
    const SpecialOutcome outcome = compareWithSpecial(
        c.values, ref, magnitude, reads, [&](size_t i) {
          return (blocks && int64_t(i) % n == c0 && windowCovers(int64_t(i) / n, s.blockRows)) ||
                 (padsWithOwnRows && reads(i));
        });
    const std::string name = p.name + " n=" + std::to_string(n) + " " + typeName<T>() + " " +
                             describe(s) + " " + specialName(special) + " in B[" +
                             std::to_string(j) + ", " + std::to_string(c0) + "]";
    report.check(name + " placed", double(outcome.misplaced), 0.0);
    report.check(name + " its column", outcome.readingError, tolerance<T>());
    report.check(name, outcome.otherError, tolerance<T>());
  }
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
    // In B's row 0 (what the kernels once multiplied by the zeros they
    // padded rows with) and in a row the pattern stores in its middle.
    if (!p.coordinates.empty())
      for (int32_t j : {0, p.coordinates[p.coordinates.size() / 2]})
        for (double special : specialValues<T>())
          checkSpecialColumn<T>(report, p, j, special);
  }
}

// The f32-only checks, in the f32 binary only (the others link no f32
// kernels).
#if TEST_F32
/// f32 whose B outgrows L2 (a 2048 x 65536 pattern of 32 entries a row
/// reads 65536 rows of B: 67 MB at n = 256): the compiler's schedule must be
/// the row tiles of 8 lanes x 8 columns by column slice (SparseSchedule.cpp),
/// checked like the others.
void checkSlicesOfLargeB(Report &report) {
  Pattern p;
  p.name = "B beyond L2 2048x65536";
  if (!selected(p.name))
    return;
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
  if (!selected("local band 3000x3000"))
    return;
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

#endif // TEST_F32

} // namespace

int main(int argc, char **argv) {
  Report report;
  std::vector<Pattern> cases;
  if (!testPatterns(argc, argv, cases))
    return 1;
  const bool dlmc = argc > 1;
  if (!dlmc) // the dense blocks walk only the band's window of k
    cases.push_back(bandPattern());
  keepSelected(cases);
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
