//===- FuzzSparseIO.cpp - libFuzzer target: the .mtx / .smtx readers ------===//
//
// The readers take a path (they choose the format by its extension), so each
// input is written to a file of this process: the first byte picks .mtx or
// .smtx, the rest is the file. A read that succeeds must hold a valid CSR
// matrix (positions from 0 to nnz, increasing; columns in range and
// increasing within each row); one that fails must leave the struct zeroed.
//
//===----------------------------------------------------------------------===//

#include "sparse-opt/Runtime/Pattern/SparseIO.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>

namespace {

void check(bool condition, const char *what) {
  if (!condition) {
    std::fprintf(stderr, "FuzzSparseIO: %s\n", what);
    std::abort();
  }
}

void checkCsr(const sopt_csr &m) {
  check(m.rows >= 0 && m.cols >= 0 && m.nnz >= 0, "negative size");
  check(m.positions && m.coordinates && m.values, "null array after success");
  check(m.positions[0] == 0 && m.positions[m.rows] == m.nnz, "positions do not span nnz");
  for (int64_t r = 0; r < m.rows; ++r) {
    check(m.positions[r] <= m.positions[r + 1], "positions decrease");
    for (int64_t i = m.positions[r]; i < m.positions[r + 1]; ++i) {
      check(m.coordinates[i] >= 0 && m.coordinates[i] < m.cols, "column out of range");
      check(i == m.positions[r] || m.coordinates[i - 1] < m.coordinates[i],
            "columns not increasing within a row");
    }
  }
}

/// Whether the size line (the first line not starting with '%') declares
/// more than 2^22 rows, columns or entries. Such a header is a legal
/// matrix, and the reader's arrays for it would take gigabytes: past the
/// fuzzer's memory limit without saying anything about the parser.
bool declaresHugeSizes(const uint8_t *data, size_t size) {
  const char *p = reinterpret_cast<const char *>(data), *end = p + size;
  while (p < end && *p == '%')
    while (p < end && *p++ != '\n') {
    }
  std::string line(p, std::find(p, end, '\n'));
  const char *q = line.c_str();
  for (int field = 0; field < 3 && *q; ++field) {
    while (*q && !(*q >= '0' && *q <= '9'))
      ++q;
    char *next = nullptr;
    if (std::strtoull(q, &next, 10) > (1ull << 22))
      return true;
    q = next;
  }
  return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0 || declaresHugeSizes(data + 1, size - 1))
    return 0;
  static const std::string stem =
      (std::getenv("TMPDIR") ? std::string(std::getenv("TMPDIR")) : std::string("/tmp")) +
      "/sopt-fuzz-sparse-io-" + std::to_string(getpid());
  const std::string path = stem + ((data[0] & 1) ? ".smtx" : ".mtx");
  FILE *file = std::fopen(path.c_str(), "wb");
  check(file != nullptr, "cannot write the input file");
  std::fwrite(data + 1, 1, size - 1, file);
  std::fclose(file);

  sopt_csr m;
  std::memset(&m, 0xA5, sizeof(m)); // the reader must set every field
  char error[256];
  if (sopt_csr_read(path.c_str(), &m, error, sizeof(error)) == 0) {
    checkCsr(m);
  } else {
    check(!m.positions && !m.coordinates && !m.values && m.rows == 0 && m.nnz == 0,
          "a failed read left the struct set");
    check(std::strlen(error) > 0, "a failed read without a message");
  }
  sopt_csr_free(&m);
  std::remove(path.c_str());
  return 0;
}
