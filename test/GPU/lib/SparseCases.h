//===- SparseCases.h - CSR inputs for the sparse kernel tests -------------===//
//
// The awkward patterns every sparse kernel must survive (one row, empty rows,
// nnz = 0, a row longer than any tile, a single dense row, odd widths), the
// DLMC matrices of a directory, and their upload with random values.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_TEST_GPU_SPARSECASES_H
#define SPARSE_OPT_TEST_GPU_SPARSECASES_H

#include "Harness.h"

#include "sparse-opt/Runtime/Device/OccupiedBlocks.cuh"
#include "sparse-opt/Runtime/Pattern/RowOrder.h"
#include "sparse-opt/Runtime/Pattern/SparseIO.h"
#include "sparse-opt/Runtime/Device/SparseRow.cuh"
#include "sparse-opt/Runtime/Schedule/SparseSchedule.h"

#include <algorithm>
#include <cstdlib>
#include <dirent.h>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace harness {

/// A CSR pattern on the host (values are drawn per element type).
struct Pattern {
  std::string name;
  int64_t rows = 0, cols = 0;
  std::vector<int32_t> positions{0}, coordinates;

  int64_t nnz() const { return int64_t(coordinates.size()); }
  ::sopt::SparsityStats stats() const {
    return ::sopt::sparsityStats(positions.data(), coordinates.data(), rows, cols);
  }
};

/// Row r keeps each column with probability density(r).
template <typename Density>
Pattern randomPattern(std::string name, int64_t rows, int64_t cols, Density density) {
  Pattern p;
  p.name = std::move(name), p.rows = rows, p.cols = cols;
  std::uniform_real_distribution<double> u(0, 1);
  for (int64_t r = 0; r < rows; ++r) {
    const double d = density(r);
    for (int64_t c = 0; c < cols; ++c)
      if (d >= 1.0 || u(rng()) < d)
        p.coordinates.push_back(int32_t(c));
    p.positions.push_back(int32_t(p.coordinates.size()));
  }
  return p;
}

/// The awkward shapes, for a product whose dense side has `cols` columns.
inline std::vector<Pattern> awkwardPatterns() {
  std::vector<Pattern> cases;
  cases.push_back(randomPattern("one row 1x1", 1, 1, [](int64_t) { return 1.0; }));
  cases.push_back(randomPattern("one dense row 1x4099", 1, 4099, [](int64_t) { return 1.0; }));
  cases.push_back(randomPattern("nnz=0 64x33", 64, 33, [](int64_t) { return 0.0; }));
  cases.push_back(randomPattern("empty rows 301x257", 301, 257, [](int64_t r) {
    return r % 5 == 2 ? 0.0 : 0.15; // every fifth row empty
  }));
  // One row far longer than any tile or staging round, among short rows.
  cases.push_back(randomPattern("long row 97x6000", 97, 6000, [](int64_t r) {
    return r == 40 ? 0.9 : 0.004;
  }));
  cases.push_back(randomPattern("skewed 1000x999", 1000, 999, [](int64_t r) {
    return r % 100 == 0 ? 0.8 : 0.05;
  }));
  cases.push_back(randomPattern("0 rows", 0, 16, [](int64_t) { return 0.0; }));
  return cases;
}

/// A band (|i - j| <= halfWidth, each entry kept with probability `keep`)
/// with rows [emptyFrom, emptyTo) empty. By default 1000 x 1003, 50 and
/// 0.6, rows 400-479 empty, neither side a multiple of 32: most dense
/// blocks hold no entry, the rest are dense, as in a sliding-window
/// attention mask.
inline Pattern bandPattern(std::string name = "band 1000x1003", int64_t rows = 1000,
                           int64_t cols = 1003, int64_t halfWidth = 50, double keep = 0.6,
                           int64_t emptyFrom = 400, int64_t emptyTo = 480) {
  Pattern p;
  p.name = std::move(name), p.rows = rows, p.cols = cols;
  std::uniform_real_distribution<double> u(0, 1);
  for (int64_t r = 0; r < p.rows; ++r) {
    if (r < emptyFrom || r >= emptyTo)
      for (int64_t c = std::max<int64_t>(0, r - halfWidth);
           c <= std::min<int64_t>(p.cols - 1, r + halfWidth); ++c)
        if (u(rng()) < keep)
          p.coordinates.push_back(int32_t(c));
    p.positions.push_back(int32_t(p.coordinates.size()));
  }
  return p;
}

/// Every .smtx/.mtx file directly under `dir` or one level below it
/// (recursively), sorted by path.
inline void findMatrices(const std::string &dir, std::vector<std::string> &out) {
  DIR *d = opendir(dir.c_str());
  if (!d)
    return;
  while (dirent *e = readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..")
      continue;
    std::string path = dir + "/" + name;
    if (name.size() > 5 && (name.substr(name.size() - 5) == ".smtx" ||
                            name.substr(name.size() - 4) == ".mtx"))
      out.push_back(path);
    else if (e->d_type == DT_DIR || e->d_type == DT_UNKNOWN)
      findMatrices(path, out);
  }
  closedir(d);
  std::sort(out.begin(), out.end());
}

/// The pattern file a test takes as its only argument (exits with a usage
/// line otherwise).
inline std::string patternFileArgument(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s pruned_300x257.smtx\n", argv[0]);
    std::exit(2);
  }
  return argv[1];
}

/// Reads `path` (exits with the reader's message when it is malformed).
inline Pattern readPattern(const std::string &path) {
  sopt_csr m{};
  char error[512];
  if (sopt_csr_read(path.c_str(), &m, error, sizeof error) != 0) {
    std::fprintf(stderr, "%s\n", error);
    std::exit(2);
  }
  Pattern p;
  p.name = path.substr(path.rfind('/') + 1);
  p.rows = m.rows, p.cols = m.cols;
  p.positions.assign(m.positions, m.positions + m.rows + 1);
  p.coordinates.assign(m.coordinates, m.coordinates + m.nnz);
  sopt_csr_free(&m);
  return p;
}

/// A pattern with random values of type T on the device, and the row order
/// (longest first), the SDDMM blocks' column windows and occupied blocks
/// (blocks of 32 and 64) and the entries' rows (for the SDDMM tiles)
/// prepared once.
template <typename T> struct DeviceCsr {
  const Pattern &pattern;
  Tensor<int32_t> positions, coordinates, order, windows32, windows64, entryRows;
  Tensor<int32_t> occupied32, occupied64, blockWindows32, blockWindows64;
  Tensor<T> values;

  explicit DeviceCsr(const Pattern &p)
      : pattern(p), positions(p.positions.size()), coordinates(p.coordinates.size()),
        order(size_t(p.rows)),
        windows32(size_t(sopt_csr_column_windows_size(p.rows, p.cols, 32))),
        windows64(size_t(sopt_csr_column_windows_size(p.rows, p.cols, 64))),
        entryRows(p.coordinates.size()), occupied32(occupiedCount(p, 32)),
        occupied64(occupiedCount(p, 64)), blockWindows32(occupied32.size * 2 * 32),
        blockWindows64(occupied64.size * 2 * 64), values(p.coordinates.size()) {
    upload(positions, p.positions);
    upload(coordinates, p.coordinates);
    std::vector<int32_t> rows(p.rows);
    sopt_csr_row_order(p.positions.data(), p.rows, rows.data());
    upload(order, rows);
    for (int block : {32, 64}) {
      std::vector<int32_t> windows(sopt_csr_column_windows_size(p.rows, p.cols, block));
      sopt_csr_column_windows(p.positions.data(), p.coordinates.data(), p.rows, p.cols, block,
                              windows.data());
      upload(block == 32 ? windows32 : windows64, windows);
      std::vector<int32_t> occupied(occupiedCount(p, block));
      sopt_csr_occupied_blocks(p.positions.data(), p.coordinates.data(), p.rows, p.cols, block,
                               occupied.data());
      upload(block == 32 ? occupied32 : occupied64, occupied);
      std::vector<int32_t> listed(occupied.size() * 2 * size_t(block));
      sopt_csr_block_windows(p.positions.data(), p.coordinates.data(), p.rows, p.cols, block,
                             occupied.data(), int64_t(occupied.size()), listed.data());
      upload(block == 32 ? blockWindows32 : blockWindows64, listed);
    }
    std::vector<int32_t> entries(p.coordinates.size());
    sopt_csr_entry_rows(p.positions.data(), p.rows, entries.data());
    upload(entryRows, entries);
    values.randomize(-1, 1);
  }
  const int32_t *columnWindows(int block) const {
    return (block == 32 ? windows32 : windows64).device;
  }
  /// The listed blocks' windows (sopt_csr_block_windows).
  const int32_t *blockWindows(int block) const {
    return (block == 32 ? blockWindows32 : blockWindows64).device;
  }
  /// The blocks holding entries, listed whether or not every block does.
  ::sopt::OccupiedBlocks occupiedBlocks(int block) const {
    const Tensor<int32_t> &list = block == 32 ? occupied32 : occupied64;
    return {list.device, int64_t(list.size)};
  }
  /// The entries by panels of `panel` columns (sopt_csr_panel_order),
  /// prepared on first use per panel width.
  const int32_t *panelOrder(int panel) {
    auto [at, added] = panelOrders.try_emplace(panel, pattern.coordinates.size());
    if (added) {
      std::vector<int32_t> entries(pattern.coordinates.size());
      sopt_csr_panel_order(pattern.positions.data(), pattern.coordinates.data(), pattern.rows,
                           pattern.cols, panel, entries.data());
      upload(at->second, entries);
    }
    return at->second.device;
  }
  ::sopt::CsrMatrix<T> view() const {
    ::sopt::CsrMatrix<T> m;
    m.rows = pattern.rows, m.cols = pattern.cols, m.nnz = pattern.nnz();
    m.positions = positions.device, m.coordinates = coordinates.device;
    m.values = values.device;
    return m;
  }

private:
  std::map<int, Tensor<int32_t>> panelOrders;
  static size_t occupiedCount(const Pattern &p, int block) {
    return size_t(sopt_csr_occupied_blocks(p.positions.data(), p.coordinates.data(), p.rows,
                                           p.cols, block, nullptr));
  }
  static void upload(Tensor<int32_t> &t, const std::vector<int32_t> &host) {
    CHECK_CUDA(cudaMemcpy(t.device, host.data(), host.size() * sizeof(int32_t),
                          cudaMemcpyHostToDevice));
  }
};

/// The long rows' segments of `entries` entries for `p` (over its row
/// order, as generated code prepares them), on the device, the partial
/// sums poisoned; empty when no row is that long.
struct DeviceSegments {
  std::unique_ptr<Tensor<int32_t>> table;
  std::unique_ptr<Tensor<float>> partials;
  ::sopt::RowSegments view;

  DeviceSegments(const Pattern &p, int entries, int64_t n) {
    if (entries <= 0)
      return;
    std::vector<int32_t> order(p.rows);
    sopt_csr_row_order(p.positions.data(), p.rows, order.data());
    int64_t longRows = 0;
    const int64_t count = sopt_csr_row_segments(p.positions.data(), order.data(), p.rows,
                                                entries, &longRows, nullptr);
    if (count == 0)
      return;
    std::vector<int32_t> host(2 * count + longRows + 1);
    sopt_csr_row_segments(p.positions.data(), order.data(), p.rows, entries, &longRows,
                          host.data());
    table = std::make_unique<Tensor<int32_t>>(host.size());
    CHECK_CUDA(cudaMemcpy(table->device, host.data(), host.size() * sizeof(int32_t),
                          cudaMemcpyHostToDevice));
    partials = std::make_unique<Tensor<float>>(size_t(count) * n);
    partials->poison();
    view = {table->device, count, longRows, entries, partials->device};
  }
};

/// C[m, n] = A · B in double, A with the pattern `p` and `values`, B
/// row-major [k, n]. With `magnitude`, also each output's Σ |a · b| (the
/// scale of its rounding error, errorAgainstScale).
inline std::vector<double> spmmReference(const Pattern &p, const std::vector<double> &values,
                                         const std::vector<double> &b, int64_t n,
                                         std::vector<double> *magnitude = nullptr) {
  std::vector<double> c(size_t(p.rows) * n, 0.0);
  if (magnitude)
    magnitude->assign(c.size(), 0.0);
  for (int64_t r = 0; r < p.rows; ++r)
    for (int32_t e = p.positions[r]; e < p.positions[r + 1]; ++e)
      for (int64_t j = 0; j < n; ++j) {
        const double term = values[e] * b[size_t(p.coordinates[e]) * n + j];
        c[r * n + j] += term;
        if (magnitude)
          (*magnitude)[r * n + j] += std::fabs(term);
      }
  return c;
}

/// D at S's nonzeros in double: (A · Bᵀ) ⊙ S (B[n, k]) or (A · B) ⊙ S
/// (B[k, n]); `s` holds S's values. With `magnitude`, also each entry's
/// |s| · Σ |a_i · b_i| (the scale of its rounding error, errorAgainstScale).
inline std::vector<double> sddmmReference(const Pattern &p, const std::vector<double> &s,
                                          const std::vector<double> &a,
                                          const std::vector<double> &b, int64_t k,
                                          bool transposeRhs,
                                          std::vector<double> *magnitude = nullptr) {
  std::vector<double> d(p.coordinates.size());
  if (magnitude)
    magnitude->assign(d.size(), 0.0);
  for (int64_t r = 0; r < p.rows; ++r)
    for (int32_t e = p.positions[r]; e < p.positions[r + 1]; ++e) {
      const int64_t c = p.coordinates[e];
      double dot = 0, sum = 0;
      for (int64_t i = 0; i < k; ++i) {
        const double term = a[r * k + i] * (transposeRhs ? b[c * k + i] : b[i * p.cols + c]);
        dot += term;
        sum += std::fabs(term);
      }
      d[e] = dot * s[e];
      if (magnitude)
        (*magnitude)[e] = sum * std::fabs(s[e]);
    }
  return d;
}

/// The patterns a sparse kernel test checks: every .smtx/.mtx under the
/// directory `argv[1]` when one is given (the DLMC matrices), else the
/// awkward ones. False (after a FAIL line) when the directory has none.
inline bool testPatterns(int argc, char **argv, std::vector<Pattern> &out) {
  if (argc < 2) {
    out = awkwardPatterns();
    return true;
  }
  std::vector<std::string> files;
  findMatrices(argv[1], files);
  if (files.empty()) {
    std::printf("no .smtx/.mtx files under %s FAIL\n", argv[1]);
    return false;
  }
  for (const std::string &file : files)
    out.push_back(readPattern(file));
  return true;
}

/// Whether the pattern (or the checks) named `name` run: all of them,
/// unless the environment variable SOPT_TEST_ONLY lists comma-separated
/// parts of the names to run. A sanitizer too slow for a whole binary
/// (racecheck over spmm.cu takes more than ten minutes) then goes through
/// it pattern by pattern.
inline bool selected(const std::string &name) {
  const char *only = std::getenv("SOPT_TEST_ONLY");
  if (!only || !*only)
    return true;
  const std::string list = only;
  for (size_t begin = 0; begin <= list.size();) {
    const size_t end = std::min(list.find(',', begin), list.size());
    if (end > begin && name.find(list.substr(begin, end - begin)) != std::string::npos)
      return true;
    begin = end + 1;
  }
  return false;
}

/// Keeps the patterns `selected` runs, and says so when SOPT_TEST_ONLY
/// leaves some out.
inline void keepSelected(std::vector<Pattern> &cases) {
  const size_t all = cases.size();
  cases.erase(std::remove_if(cases.begin(), cases.end(),
                             [](const Pattern &p) { return !selected(p.name); }),
              cases.end());
  if (cases.size() != all)
    std::printf("SOPT_TEST_ONLY=%s: %zu of %zu patterns\n", std::getenv("SOPT_TEST_ONLY"),
                cases.size(), all);
}

/// The dense side (n of an SpMM, k of an SDDMM) each DLMC matrix is checked
/// with: a different width per type, under the compiler's schedule.
template <typename T> int64_t dlmcDenseSize();
template <> inline int64_t dlmcDenseSize<float>() { return 64; }
template <> inline int64_t dlmcDenseSize<__half>() { return 128; }
template <> inline int64_t dlmcDenseSize<__nv_bfloat16>() { return 96; }

template <typename T> const char *typeName();
template <> inline const char *typeName<float>() { return "f32"; }
template <> inline const char *typeName<__half>() { return "f16"; }
template <> inline const char *typeName<__nv_bfloat16>() { return "bf16"; }

} // namespace harness

#endif // SPARSE_OPT_TEST_GPU_SPARSECASES_H
