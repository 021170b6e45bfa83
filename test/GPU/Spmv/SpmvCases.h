//===- SpmvCases.h - generated CSR patterns for SpMV tests and benchmarks -===//
//
// Host-side generators of the pattern families the SpMV kernels are checked
// and measured on: uniform random, power-law row lengths, two row lengths
// mixed (a set spread), banded, dense diagonal blocks, and the awkward ones
// (empty rows, one dense row, one column, one row, no entries). Columns
// never decrease within a row; random rows draw their columns with
// replacement where they are short (a repeated column is a legal CSR entry,
// summed), exactly where they are dense. Rows are generated independently
// (a small generator per row), in parallel under OpenMP.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_TEST_GPU_SPMV_SPMVCASES_H
#define SPARSE_OPT_TEST_GPU_SPMV_SPMVCASES_H

#include "sparse-opt/Runtime/Pattern/SparseIO.h"

#include <dirent.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace spmvcases {

struct Csr {
  std::string name;
  int64_t rows = 0, cols = 0;
  std::vector<int64_t> positions{0}, coordinates;
  int64_t nnz() const { return int64_t(coordinates.size()); }
};

/// splitmix64: cheap to seed per row.
struct RowRandom {
  uint64_t state;
  RowRandom(uint64_t seed, int64_t row, uint64_t stream)
      : state(seed ^ (uint64_t(row) + 1) * 0x9E3779B97F4A7C15ull ^ stream * 0xD1B54A32D192ED03ull) {}
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return double(next() >> 11) * 0x1.0p-53; } // [0, 1)
  int64_t below(int64_t n) { return int64_t(next() % uint64_t(n)); }
};

/// Rows of lengthOf(row, random) entries whose columns fill(row, random,
/// out, length) writes.
template <typename LengthOf, typename Fill>
Csr build(std::string name, int64_t rows, int64_t cols, uint64_t seed, LengthOf lengthOf,
          Fill fill) {
  Csr m{std::move(name), rows, cols};
  m.positions.assign(size_t(rows) + 1, 0);
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < rows; ++r) {
    RowRandom random(seed, r, 1);
    m.positions[r + 1] = std::min<int64_t>(std::max<int64_t>(lengthOf(r, random), 0), cols);
  }
  for (int64_t r = 0; r < rows; ++r)
    m.positions[r + 1] += m.positions[r];
  m.coordinates.resize(size_t(m.positions[rows]));
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t r = 0; r < rows; ++r) {
    RowRandom random(seed, r, 2);
    fill(r, random, m.coordinates.data() + m.positions[r], m.positions[r + 1] - m.positions[r]);
  }
  return m;
}

/// `length` random columns of [0, cols), non-decreasing.
inline void randomColumns(RowRandom &random, int64_t cols, int64_t *out, int64_t length) {
  if (length * 4 > cols) { // dense: exactly `length` distinct columns (selection sampling)
    int64_t needed = length;
    for (int64_t c = 0; c < cols && needed > 0; ++c)
      if (random.uniform() * double(cols - c) < double(needed))
        out[length - needed--] = c;
    return;
  }
  for (int64_t i = 0; i < length; ++i)
    out[i] = random.below(cols);
  std::sort(out, out + length);
}

inline auto randomFill(int64_t cols) {
  return [cols](int64_t, RowRandom &random, int64_t *out, int64_t length) {
    randomColumns(random, cols, out, length);
  };
}

inline Csr uniform(int64_t rows, int64_t cols, int64_t perRow, uint64_t seed) {
  return build("uniform_" + std::to_string(rows) + "x" + std::to_string(cols) + "_k" +
                   std::to_string(perRow),
               rows, cols, seed, [perRow](int64_t, RowRandom &) { return perRow; },
               randomFill(cols));
}

/// Row lengths with P(length > l) = (l / minLength)^-(alpha - 1): degrees
/// of a power-law graph of exponent alpha (smaller: heavier tail), capped
/// at cols.
inline Csr powerLaw(int64_t rows, int64_t cols, double minLength, double alpha, uint64_t seed) {
  char name[96];
  std::snprintf(name, sizeof name, "powerlaw_%lldx%lld_min%.0f_a%.2f", (long long)rows,
                (long long)cols, minLength, alpha);
  return build(
      name, rows, cols, seed,
      [=](int64_t, RowRandom &random) {
        const double u = std::max(random.uniform(), 1e-15);
        return int64_t(std::min(minLength * std::pow(u, -1.0 / (alpha - 1.0)), double(cols)));
      },
      randomFill(cols));
}

/// Rows of two lengths, `longShare` of them `longLength` long: the spread
/// of row lengths set by the lengths and the share.
inline Csr bimodal(int64_t rows, int64_t cols, int64_t shortLength, int64_t longLength,
                   double longShare, uint64_t seed) {
  char name[96];
  std::snprintf(name, sizeof name, "bimodal_%lld_%lld-%lld_p%.3f", (long long)rows,
                (long long)shortLength, (long long)longLength, longShare);
  return build(
      name, rows, cols, seed,
      [=](int64_t, RowRandom &random) {
        return random.uniform() < longShare ? longLength : shortLength;
      },
      randomFill(cols));
}

inline Csr banded(int64_t rows, int64_t halfWidth) {
  return build(
      "banded_" + std::to_string(rows) + "_w" + std::to_string(2 * halfWidth + 1), rows, rows, 0,
      [=](int64_t r, RowRandom &) {
        return std::min(rows - 1, r + halfWidth) - std::max<int64_t>(0, r - halfWidth) + 1;
      },
      [=](int64_t r, RowRandom &, int64_t *out, int64_t length) {
        for (int64_t i = 0; i < length; ++i)
          out[i] = std::max<int64_t>(0, r - halfWidth) + i;
      });
}

inline Csr blockDiagonal(int64_t blocks, int64_t size) {
  const int64_t n = blocks * size;
  return build(
      "blockdiag_" + std::to_string(blocks) + "x" + std::to_string(size), n, n, 0,
      [=](int64_t, RowRandom &) { return size; },
      [=](int64_t r, RowRandom &, int64_t *out, int64_t length) {
        for (int64_t i = 0; i < length; ++i)
          out[i] = r / size * size + i;
      });
}

/// Every other row empty, the rest `perRow` random entries.
inline Csr emptyRows(int64_t rows, int64_t cols, int64_t perRow, uint64_t seed) {
  return build("empty_rows_" + std::to_string(rows), rows, cols, seed,
               [=](int64_t r, RowRandom &) { return r % 2 ? perRow : 0; }, randomFill(cols));
}

/// Rows of 3 random entries and row `rows / 3` full.
inline Csr oneDenseRow(int64_t rows, int64_t cols, uint64_t seed) {
  return build("dense_row_" + std::to_string(rows) + "x" + std::to_string(cols), rows, cols, seed,
               [=](int64_t r, RowRandom &) { return r == rows / 3 ? cols : int64_t(3); },
               randomFill(cols));
}

inline Csr singleColumn(int64_t rows, uint64_t seed) {
  return build("single_column_" + std::to_string(rows), rows, 1, seed,
               [](int64_t, RowRandom &random) { return int64_t(random.below(3) != 0); },
               randomFill(1));
}

inline Csr oneRow(int64_t cols, int64_t length, uint64_t seed) {
  return build("one_row_" + std::to_string(cols) + "_k" + std::to_string(length), 1, cols, seed,
               [=](int64_t, RowRandom &) { return length; }, randomFill(cols));
}

inline Csr noEntries(int64_t rows, int64_t cols) {
  return build("nnz0_" + std::to_string(rows) + "x" + std::to_string(cols), rows, cols, 0,
               [](int64_t, RowRandom &) { return int64_t(0); }, randomFill(cols));
}

/// The matrix in the .mtx/.smtx file at `path`; false with the reader's
/// located message in `error` when it cannot be read.
inline bool readMatrixFile(const std::string &path, Csr &m, std::string &error) {
  sopt_csr read{};
  char message[512];
  if (sopt_csr_read(path.c_str(), &read, message, sizeof message)) {
    error = message;
    return false;
  }
  m.name = path.substr(path.find_last_of('/') + 1);
  m.rows = read.rows;
  m.cols = read.cols;
  m.positions.assign(read.positions, read.positions + read.rows + 1);
  m.coordinates.assign(read.coordinates, read.coordinates + read.nnz);
  sopt_csr_free(&read);
  return true;
}

/// The .mtx files in `directory`, sorted (none if it cannot be opened).
inline std::vector<std::string> matrixMarketFiles(const std::string &directory) {
  std::vector<std::string> files;
  if (DIR *dir = opendir(directory.c_str())) {
    while (dirent *e = readdir(dir)) {
      const std::string name = e->d_name;
      if (name.size() > 4 && name.substr(name.size() - 4) == ".mtx")
        files.push_back(directory + "/" + name);
    }
    closedir(dir);
  }
  std::sort(files.begin(), files.end());
  return files;
}

/// Row-length statistics: mean and coefficient of variation.
inline void lengthStats(const Csr &m, double &mean, double &cov) {
  mean = m.rows ? double(m.nnz()) / double(m.rows) : 0;
  double squares = 0;
  for (int64_t r = 0; r < m.rows; ++r) {
    const double d = double(m.positions[r + 1] - m.positions[r]) - mean;
    squares += d * d;
  }
  cov = mean > 0 ? std::sqrt(squares / double(m.rows)) / mean : 0;
}

} // namespace spmvcases

#endif // SPARSE_OPT_TEST_GPU_SPMV_SPMVCASES_H
