// The project's SDDMM kernels (Sddmm.cuh, SddmmBlocks.cuh) against a
// float64 reference: (A · Bᵀ) ⊙ S and (A · B) ⊙ S, f32, f16 and bf16
// storage, the awkward patterns under the compiler's schedule, the dense
// tensor-core blocks (32 x 32, 64 x 64; in f32 with a workspace also the
// TMA-fed 64 x 64 or 128 x 64) and hand-picked ones (every lane count per
// output, one and two outputs per group, tiles of 32 taken by column
// panels), each also with what is prepared once per pattern (column
// windows, occupied blocks, entries' rows, the panel order), a
// banded pattern whose blocks are mostly empty, inner dimensions that are
// odd or not a multiple of the lanes, a NaN, an infinity or (f32) a value
// near FLT_MAX in A or in B that must reach the outputs reading it (its
// row, its column) as the reference has them and no other. With a directory
// argument, every .smtx/.mtx in it under the compiler's schedule instead.
//
// The element types a binary checks are chosen with -DTEST_F32=1 /
// -DTEST_F16=1 / -DTEST_BF16=1; the build makes one binary per type
// (test/GPU/CMakeLists.txt), linked with that type's kernels
// (lib/SddmmKernels.cu). This file checks f32, sddmm-16bit.test the others:
// separate tests run at once.
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/sddmm_f32 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "SparseCases.h"

#include <cstring>

#include "SparseKernels.h"

using namespace harness;

namespace {

std::string describe(const ::sopt::SddmmSchedule &s) {
  if (s.transposeRhsFirst) {
    ::sopt::SddmmSchedule after = s;
    after.transposeRhsFirst = false;
    return "B^T first, " + describe(after);
  }
  if (s.tiling == ::sopt::SddmmTiling::DenseBlocks)
    return "dense_blocks" + std::to_string(s.blockSize) +
           (s.kSplits > 1 ? " k_splits=" + std::to_string(s.kSplits) : "");
  return "tile=" + std::to_string(s.tileNonzeros) + "/" + std::to_string(s.threadsPerNonzero) +
         " v" + std::to_string(s.vectorWidth) + " x" + std::to_string(s.tilesPerBlock) +
         (s.rowOrder == ::sopt::RowOrder::ByLength ? " by_length" : "") +
         (s.columnPanel > 0 ? " panel=" + std::to_string(s.columnPanel) : "");
}

template <typename T>
void check(Report &report, const Pattern &p, int64_t k, bool transposeRhs,
           const std::vector<::sopt::SddmmSchedule> &schedules) {
  DeviceCsr<T> s(p);
  Tensor<T> a(size_t(p.rows) * k), b(size_t(p.cols) * k), d(p.coordinates.size());
  a.randomize(-1, 1);
  b.randomize(-1, 1);
  // Errors are measured against the terms' magnitudes: one output of a
  // 1 x 1 pattern can cancel to near zero, where a norm-wise relative error
  // would fail correct f32 sums (seen with k = 33).
  std::vector<double> magnitude;
  const std::vector<double> ref =
      sddmmReference(p, s.values.values, a.values, b.values, k, transposeRhs, &magnitude);
  for (const ::sopt::SddmmSchedule &schedule : schedules) {
    const std::string name = p.name + " k=" + std::to_string(k) +
                             (transposeRhs ? " A*B^T " : " A*B ") + typeName<T>() + " " +
                             describe(schedule);
    const std::string invalid = ::sopt::checkSddmmSchedule(schedule, k, transposeRhs, sizeof(T));
    if (!invalid.empty()) {
      std::printf("%s: schedule rejected: %s FAIL\n", name.c_str(), invalid.c_str());
      ++report.failures;
      continue;
    }
    // Searching, and reading what is prepared once per pattern: the dense
    // blocks' rows' column windows (sopt_csr_column_windows), the tiles'
    // entries' rows (sopt_csr_entry_rows); then, where the schedule can use
    // a workspace (f32 64 x 64 blocks: B split once, the TMA-fed kernel on
    // sm_90), the windows with one (poisoned), which must give the same
    // bits as without; then the dense blocks launched over the occupied
    // blocks only (sopt_csr_occupied_blocks) with those blocks' windows
    // (sopt_csr_block_windows), with the workspace where it applies, again
    // the same bits. A schedule that transposes B first
    // always gets its whole workspace (poisoned; Bᵀ at its start).
    const bool blocks = schedule.tiling == ::sopt::SddmmTiling::DenseBlocks;
    const bool gathers = !transposeRhs && !schedule.transposeRhsFirst;
    const int64_t required = ::sopt::sddmmRequiredWorkspaceElements(schedule, p.cols, k);
    const int64_t workspaceElements =
        ::sopt::sddmmWorkspaceElements(schedule, p.cols, k, sizeof(T));
    Tensor<T> workspace{static_cast<size_t>(workspaceElements)};
    std::vector<T> withoutWorkspace, searched;
    const bool panels = schedule.columnPanel > 0;
    for (int pass = 0; pass < 4; ++pass) {
      const bool prepared = pass > 0, listed = pass == 3;
      const bool planes = pass == 2 || (listed && required == 0 && workspaceElements > 0);
      if ((prepared && gathers) || (pass == 2 && !planes) || (listed && !blocks))
        continue;
      d.poison();
      workspace.poison();
      CHECK_CUDA(::sopt::runSddmm<T>(
          schedule, s.view(), a.device, b.device, k, transposeRhs, d.device, s.order.device, 0,
          !prepared || !blocks ? nullptr
          : listed             ? s.blockWindows(schedule.blockSize)
                               : s.columnWindows(schedule.blockSize),
          prepared && !blocks ? s.entryRows.device : nullptr,
          planes || required > 0 ? workspace.device : nullptr,
          listed ? s.occupiedBlocks(schedule.blockSize) : ::sopt::OccupiedBlocks{},
          prepared && panels ? s.panelOrder(schedule.columnPanel) : nullptr));
      CHECK_CUDA(cudaDeviceSynchronize());
      d.download();
      const std::string variant =
          prepared ? (blocks ? std::string(planes ? " windows+planes" : " windows") +
                                   (listed ? "+occupied" : "")
                             : panels ? " entry rows+panel order" : " entry rows")
                   : "";
      report.check(name + variant, errorAgainstScale(d.values, ref, magnitude), tolerance<T>());
      // Taken by panels or, without the order, in S's order: the same sums.
      if (panels && pass == 0)
        searched = d.host;
      if (panels && pass == 1) {
        size_t differing = 0;
        for (size_t i = 0; i < d.host.size(); ++i)
          differing += std::memcmp(&d.host[i], &searched[i], sizeof(T)) != 0;
        report.check(name + variant + " bits", double(differing), 0.0);
      }
      if (pass == 1)
        withoutWorkspace = d.host;
      if (pass >= 2) {
        size_t differing = 0;
        for (size_t i = 0; i < d.host.size(); ++i)
          differing += std::memcmp(&d.host[i], &withoutWorkspace[i], sizeof(T)) != 0;
        report.check(name + variant + " bits", double(differing), 0.0);
      }
    }
    if (required > 0) { // without its workspace the schedule is refused
      const cudaError_t e = ::sopt::runSddmm<T>(schedule, s.view(), a.device, b.device, k,
                                                transposeRhs, d.device, s.order.device, 0);
      const bool refused = e == cudaErrorInvalidValue || (p.coordinates.empty() && e == cudaSuccess);
      report.check(name + " refused without workspace", refused ? 0.0 : 1.0, 0.0);
    }
  }
}

std::vector<::sopt::SddmmSchedule> schedulesFor(const Pattern &p, int64_t k, bool transposeRhs,
                                                int bytes, bool handPicked) {
  std::vector<::sopt::SddmmSchedule> out{
      ::sopt::chooseSddmmSchedule(p.stats(), k, transposeRhs, bytes)};
  if (!transposeRhs) {
    // The gather, and B transposed first into each schedule of the
    // transposed form tried below.
    if (out.front().transposeRhsFirst) {
      ::sopt::SddmmSchedule gather;
      gather.threadsPerNonzero = 1, gather.vectorWidth = 1;
      gather.rowOrder = ::sopt::RowOrder::ByLength;
      out.push_back(gather);
    }
    for (::sopt::SddmmSchedule s : schedulesFor(p, k, true, bytes, false)) {
      s.transposeRhsFirst = true;
      if (s.tiling != out.front().tiling || s.blockSize != out.front().blockSize ||
          s.kSplits != out.front().kSplits || !out.front().transposeRhsFirst)
        out.push_back(s);
    }
    return out;
  }
  // The dense tensor-core blocks of both sizes, k whole or split in two
  // (k = 1: one of the two blocks has no chunk), whatever the heuristic
  // chose.
  for (int side : {32, 64})
    for (int splits : {1, 2}) {
      ::sopt::SddmmSchedule blocks;
      blocks.tiling = ::sopt::SddmmTiling::DenseBlocks;
      blocks.blockSize = side;
      blocks.kSplits = splits;
      const ::sopt::SddmmSchedule &chosen = out.front();
      if (chosen.tiling != blocks.tiling || chosen.blockSize != side ||
          chosen.kSplits != splits)
        out.push_back(blocks);
    }
  if (!handPicked)
    return out;
  // Tiles of one or two rounds of outputs per group, and of 32 nonzeros
  // (one output per lane, the transposed butterfly).
  for (int threads : {1, 2, 4, 8, 16, 32}) {
    for (int tile : ::sopt::dispatchedSddmmTiles(threads))
      for (int vector : {1, 2, 4}) {
        ::sopt::SddmmSchedule s;
        s.threadsPerNonzero = threads, s.tileNonzeros = tile;
        s.vectorWidth = vector, s.tilesPerBlock = 1 + threads % 3;
        if (::sopt::checkSddmmSchedule(s, k, true, bytes).empty())
          out.push_back(s);
      }
  }
  // Tiles of 32 taken by column panels, of a few columns (many panels, some
  // empty) and of 64, as many warps per block as fit.
  for (int threads : {8, 16, 32})
    for (int panel : {7, 64})
      for (int vector : {4, 1}) {
        ::sopt::SddmmSchedule s;
        s.threadsPerNonzero = threads, s.tileNonzeros = 32, s.columnPanel = panel;
        s.vectorWidth = vector;
        s.tilesPerBlock = ::sopt::sddmmPanelMaxWarps(s, k);
        if (::sopt::checkSddmmSchedule(s, k, true, bytes).empty()) {
          out.push_back(s);
          break; // the widest vector k allows
        }
      }
  return out;
}

/// Rows whose columns repeat (sorted, not strictly increasing): every
/// kernel must still write each entry, the dense blocks also where one
/// row's entries in a block outnumber the block's columns (row 3: column 5
/// seventy times). Files cannot hold such rows (the readers refuse
/// duplicates), arrays passed by a caller can.
Pattern repeatedColumns() {
  Pattern p;
  p.name = "repeated columns 70x100", p.rows = 70, p.cols = 100;
  for (int64_t r = 0; r < p.rows; ++r) {
    if (r == 3)
      p.coordinates.insert(p.coordinates.end(), 70, 5);
    else if (r % 2 == 0)
      for (int32_t c = int32_t(r % 7); c < p.cols; c += 7) {
        p.coordinates.push_back(c);
        if (c % 3 == 0)
          p.coordinates.push_back(c);
      }
    p.positions.push_back(int32_t(p.coordinates.size()));
  }
  return p;
}

/// Rows enough for the TMA-fed f32 blocks of 128 rows (13 x 9 of them on
/// an H100), neither side a multiple of 64: rows 640-767 (a whole block of
/// 128) and 896-959 (one half of one) empty, a dense row.
Pattern tallBlocks() {
  return randomPattern("tall blocks 1601x515", 1601, 515, [](int64_t r) {
    if ((r >= 640 && r < 768) || (r >= 896 && r < 960))
      return 0.0;
    return r == 1000 ? 1.0 : 0.2;
  });
}

/// Few enough f32 32 x 32 blocks that two stacked in one thread block fill
/// one wave of an H100 (9 x 25 tiles, 125 pairs: launchSddmmDirect pairs
/// them), an odd count of row blocks, neither side a multiple of 32, rows
/// 100-139 empty.
Pattern pairedTiles() {
  return randomPattern("paired tiles 270x790", 270, 790, [](int64_t r) {
    return r >= 100 && r < 140 ? 0.0 : 0.1;
  });
}

/// Where checkSpecialValue puts its special value: in one element of A (it
/// reaches every output of that row) or of B (every output of that column
/// of S).
enum class SpecialIn { LhsRow, RhsColumn };

/// A special value (specialValues: NaN, +Inf, near FLT_MAX in f32) in one
/// element of A or B must reach every output that reads it (the row of A's
/// element, the column of B's) as the float64 reference has it (NaN, the
/// infinity of the right sign, a finite sum near 1e38) and no other
/// output, under every schedule of both forms (B's element moved with B's
/// layout: B[n, k] or B[k, n]), with what is prepared once per pattern and
/// a workspace where the schedule takes one: a kernel that dropped,
/// misplaced or reused a term would leave a number in those outputs or
/// spread the value. The f32 dense blocks may give NaN for Inf and the
/// large value in those outputs (their TF32 split rounds it to infinity:
/// TensorCore.cuh, docs/Sparse.md), nowhere else. The output starts as a
/// finite sentinel, so an entry left unwritten fails too.
template <typename T>
void checkSpecialValue(Report &report, const Pattern &p, int64_t k, double special,
                       SpecialIn where) {
  std::vector<int64_t> filled; // rows with entries
  for (int64_t r = 0; r < p.rows; ++r)
    if (p.positions[r + 1] > p.positions[r])
      filled.push_back(r);
  if (filled.empty() || k == 0)
    return;
  // A's element: the middle of a middle row; B's: the middle of the column
  // of that row's middle entry.
  const int64_t row = filled[filled.size() / 2];
  const int32_t column = p.coordinates[(p.positions[row] + p.positions[row + 1]) / 2];
  const bool inLhs = where == SpecialIn::LhsRow;
  std::vector<bool> reads(p.coordinates.size(), false);
  for (size_t e = 0; e < reads.size(); ++e)
    reads[e] = inLhs ? (int64_t(e) >= p.positions[row] && int64_t(e) < p.positions[row + 1])
                     : p.coordinates[e] == column;
  DeviceCsr<T> s(p);
  Tensor<T> a(size_t(p.rows) * k), d(p.coordinates.size());
  a.randomize(-1, 1);
  if (inLhs)
    a.set(size_t(row * k + k / 2), special);
  for (bool transposeRhs : {true, false}) {
    Tensor<T> b(size_t(p.cols) * k);
    b.randomize(-1, 1);
    if (!inLhs)
      b.set(transposeRhs ? size_t(column) * k + k / 2 : size_t(k / 2) * p.cols + column, special);
    std::vector<double> magnitude;
    const std::vector<double> ref =
        sddmmReference(p, s.values.values, a.values, b.values, k, transposeRhs, &magnitude);
    for (const ::sopt::SddmmSchedule &schedule :
         schedulesFor(p, k, transposeRhs, sizeof(T), transposeRhs)) {
      const bool blocks = schedule.tiling == ::sopt::SddmmTiling::DenseBlocks;
      const bool gathers = !transposeRhs && !schedule.transposeRhsFirst;
      Tensor<T> workspace{static_cast<size_t>(
          ::sopt::sddmmWorkspaceElements(schedule, p.cols, k, sizeof(T)))};
      d.fill(1234.0);
      CHECK_CUDA(::sopt::runSddmm<T>(
          schedule, s.view(), a.device, b.device, k, transposeRhs, d.device, s.order.device, 0,
          blocks && !gathers ? s.columnWindows(schedule.blockSize) : nullptr,
          !blocks && !gathers ? s.entryRows.device : nullptr,
          workspace.size > 0 ? workspace.device : nullptr, ::sopt::OccupiedBlocks{},
          schedule.columnPanel > 0 ? s.panelOrder(schedule.columnPanel) : nullptr));
      CHECK_CUDA(cudaDeviceSynchronize());
      d.download();
      const bool splitsToNan = blocks && sizeof(T) == 4 && !std::isnan(special);
      const SpecialOutcome outcome = compareWithSpecial(
          d.values, ref, magnitude, [&](size_t e) { return bool(reads[e]); },
          [&](size_t e) { return splitsToNan && reads[e]; });
      const std::string name =
          p.name + " k=" + std::to_string(k) + (transposeRhs ? " A*B^T " : " A*B ") +
          typeName<T>() + " " + describe(schedule) + " " + specialName(special) +
          (inLhs ? " in row " + std::to_string(row) : " in column " + std::to_string(column));
      report.check(name + " placed", double(outcome.misplaced), 0.0);
      report.check(name + " its outputs", outcome.readingError, tolerance<T>());
      report.check(name, outcome.otherError, tolerance<T>());
    }
  }
}

/// launchEntryRows against sopt_csr_entry_rows: the fraction of entries
/// whose row differs (the output poisoned first).
template <typename T> void checkEntryRows(Report &report, const Pattern &p) {
  DeviceCsr<T> s(p);
  Tensor<int32_t> rows(p.coordinates.size());
  CHECK_CUDA(cudaMemset(rows.device, 0xff, rows.size * sizeof(int32_t)));
  CHECK_CUDA(::sopt::launchEntryRows(s.view(), rows.device, 0));
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<int32_t> expected(p.coordinates.size()), got(p.coordinates.size());
  sopt_csr_entry_rows(p.positions.data(), p.rows, expected.data());
  CHECK_CUDA(cudaMemcpy(got.data(), rows.device, got.size() * sizeof(int32_t),
                        cudaMemcpyDeviceToHost));
  size_t wrong = 0;
  for (size_t e = 0; e < got.size(); ++e)
    wrong += got[e] != expected[e];
  report.check(p.name + " launchEntryRows", got.empty() ? 0.0 : double(wrong) / got.size(), 0.0);
}

/// The awkward patterns with several inner sizes, both forms and
/// hand-picked schedules, or (`dlmc`) the DLMC matrices, (A · Bᵀ) ⊙ S under
/// the compiler's schedule.
template <typename T>
void checkAll(Report &report, const std::vector<Pattern> &cases, bool dlmc) {
  for (const Pattern &p : cases) {
    checkEntryRows<T>(report, p);
    if (dlmc) {
      const int64_t k = dlmcDenseSize<T>();
      check<T>(report, p, k, true, schedulesFor(p, k, true, sizeof(T), false));
      check<T>(report, p, k, false,
               {::sopt::chooseSddmmSchedule(p.stats(), k, false, sizeof(T))});
      continue;
    }
    for (int64_t k : {1, 33, 64, 256})
      check<T>(report, p, k, true, schedulesFor(p, k, true, sizeof(T), k == 64 || k == 33));
    for (double special : specialValues<T>())
      for (SpecialIn where : {SpecialIn::LhsRow, SpecialIn::RhsColumn})
        checkSpecialValue<T>(report, p, 64, special, where);
    // B transposed first (k = 0: nothing to transpose), and the gather.
    for (int64_t k : {0, 1, 4, 19, 64})
      check<T>(report, p, k, false, schedulesFor(p, k, false, sizeof(T), false));
  }
}

// The f32-only check and its pattern, in the f32 binary only (the others link no f32
// kernels).
#if TEST_F32
/// tallBlocks with row 5's entries replaced by column 70 a hundred times:
/// more entries in one block's columns than the block has columns, which
/// the TMA-fed blocks of 128 rows must still write.
Pattern tallBlocksRepeated() {
  Pattern p = tallBlocks();
  p.name = "tall blocks 1601x515, row 5 repeated";
  std::vector<int32_t> coordinates(p.coordinates.begin(), p.coordinates.begin() + p.positions[5]);
  coordinates.insert(coordinates.end(), 100, 70);
  const int32_t shift = p.positions[5] + 100 - p.positions[6];
  coordinates.insert(coordinates.end(), p.coordinates.begin() + p.positions[6],
                     p.coordinates.end());
  p.coordinates = std::move(coordinates);
  for (size_t r = 6; r < p.positions.size(); ++r)
    p.positions[r] += shift;
  return p;
}

/// The TMA-fed f32 blocks of 128 rows at inner sizes that end in part of
/// a chunk (the tensor copies fill the rest with zeros), with and without
/// a row of repeated columns.
void checkTallInnerSizes(Report &report) {
  for (const Pattern &p : {tallBlocks(), tallBlocksRepeated()})
    if (selected(p.name))
      for (int64_t k : {100, 300})
        check<float>(report, p, k, true, schedulesFor(p, k, true, sizeof(float), false));
}

#endif // TEST_F32

} // namespace

int main(int argc, char **argv) {
  Report report;
  std::vector<Pattern> cases;
  if (!testPatterns(argc, argv, cases))
    return 1;
  const bool dlmc = argc > 1;
  if (!dlmc) {
    cases.push_back(repeatedColumns());
    cases.push_back(tallBlocks());
    cases.push_back(pairedTiles());
    cases.push_back(bandPattern());
  }
  keepSelected(cases);
#if TEST_F32
  checkAll<float>(report, cases, dlmc);
  if (!dlmc)
    checkTallInnerSizes(report);
#endif
#if TEST_F16
  checkAll<__half>(report, cases, dlmc);
#endif
#if TEST_BF16
  checkAll<__nv_bfloat16>(report, cases, dlmc);
#endif
  return report.exitCode();
}
