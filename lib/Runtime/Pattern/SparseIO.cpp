//===- SparseIO.cpp - Matrix Market and DLMC files to CSR -----------------===//
//
// Plain C++17 and its standard library: the GPU machine, which has no
// LLVM/MLIR, builds this file too. The project compiles with -fno-exceptions,
// so errors travel as return values: every reader returns false after
// Reader::fail recorded "<path>:<line>: <message>".
//
//===----------------------------------------------------------------------===//

#include "sparse-opt/Runtime/Pattern/SparseIO.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace {

constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

constexpr const char *kMtxBanner = "%%MatrixMarket matrix coordinate "
                                   "<real|integer|pattern> <general|symmetric>";

#if defined(__GNUC__)
#define SOPT_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define SOPT_PRINTF(fmt, args)
#endif

/// The whole file, served line by line (1-based numbers), and the first
/// error met while reading it.
class Reader {
public:
  explicit Reader(const char *path) : path(path) {}

  bool load() {
    errno = 0;
    FILE *file = std::fopen(path, "rb");
    if (!file)
      return fail(0, "cannot open the file: %s", std::strerror(errno));
    char buffer[1 << 16];
    size_t read;
    while ((read = std::fread(buffer, 1, sizeof(buffer), file)) > 0)
      text.append(buffer, read);
    int readError = std::ferror(file) ? errno : 0;
    std::fclose(file);
    if (readError)
      return fail(0, "cannot read the file: %s", std::strerror(readError));
    return true;
  }

  /// The next line without its '\n'; false at the end of the file.
  bool nextLine(std::string_view &line) {
    if (offset >= text.size())
      return false;
    size_t end = text.find('\n', offset);
    if (end == std::string::npos)
      end = text.size();
    line = std::string_view(text).substr(offset, end - offset);
    offset = end + 1;
    ++lineNumber;
    return true;
  }

  /// The number of the line nextLine returned last (0 before the first).
  int64_t line() const { return lineNumber; }
  size_t bytesLeft() const {
    return offset < text.size() ? text.size() - offset : 0;
  }

  /// Records "<path>:<line>: <message>" and returns false.
  bool fail(int64_t line, const char *format, ...) SOPT_PRINTF(3, 4) {
    char buffer[512];
    va_list args;
    va_start(args, format);
    std::vsnprintf(buffer, sizeof(buffer), format, args);
    va_end(args);
    message = std::string(path) + ":" + std::to_string(line) + ": " + buffer;
    return false;
  }

  const std::string &error() const { return message; }

private:
  const char *path;
  std::string text;
  size_t offset = 0;
  int64_t lineNumber = 0;
  std::string message;
};

bool isSeparator(char c, bool commas) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' ||
         (commas && c == ',');
}

/// Splits the next token off `rest`; false when only separators are left.
bool nextToken(std::string_view &rest, std::string_view &token,
               bool commas = false) {
  size_t begin = 0;
  while (begin < rest.size() && isSeparator(rest[begin], commas))
    ++begin;
  if (begin == rest.size()) {
    rest = {};
    return false;
  }
  size_t end = begin;
  while (end < rest.size() && !isSeparator(rest[end], commas))
    ++end;
  token = rest.substr(begin, end - begin);
  rest.remove_prefix(end);
  return true;
}

/// Up to `max` tokens of `line` into `tokens`; returns how many there are.
int splitTokens(std::string_view line, std::string_view *tokens, int max,
                bool commas = false) {
  int count = 0;
  std::string_view token;
  while (nextToken(line, token, commas)) {
    if (count < max)
      tokens[count] = token;
    ++count;
  }
  return count;
}

bool isBlank(std::string_view line) {
  std::string_view token;
  return !nextToken(line, token);
}

/// Matrix Market comments start with '%' (we allow leading blanks).
bool isBlankOrComment(std::string_view line) {
  size_t first = 0;
  while (first < line.size() && isSeparator(line[first], false))
    ++first;
  return first == line.size() || line[first] == '%';
}

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

bool endsWithIgnoreCase(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         equalsIgnoreCase(s.substr(s.size() - suffix.size()), suffix);
}

/// A token fit for a message: quoted, at most 40 characters, printable.
std::string quoted(std::string_view token) {
  std::string text = "'";
  for (size_t i = 0; i < token.size() && i < 40; ++i) {
    unsigned char c = static_cast<unsigned char>(token[i]);
    text += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
  }
  if (token.size() > 40)
    text += "...";
  return text + "'";
}

enum class Parsed { Ok, NotANumber, OutOfRange };

Parsed parseInteger(std::string_view token, int64_t &value) {
  if (token.size() > 1 && token[0] == '+' && token[1] != '-')
    token.remove_prefix(1);
  const char *end = token.data() + token.size();
  auto [stop, status] = std::from_chars(token.data(), end, value);
  if (stop != end || token.empty())
    return Parsed::NotANumber;
  if (status == std::errc::result_out_of_range)
    return Parsed::OutOfRange;
  return status == std::errc() ? Parsed::Ok : Parsed::NotANumber;
}

Parsed parseFloat(std::string_view token, float &value) {
  if (token.size() > 1 && token[0] == '+' && token[1] != '-')
    token.remove_prefix(1);
  const char *end = token.data() + token.size();
  double number = 0;
  auto [stop, status] = std::from_chars(token.data(), end, number);
  if (stop != end || token.empty())
    return Parsed::NotANumber;
  if (status == std::errc::result_out_of_range)
    return Parsed::OutOfRange;
  if (status != std::errc())
    return Parsed::NotANumber;
  if (std::isfinite(number) && std::fabs(number) > FLT_MAX)
    return Parsed::OutOfRange;
  value = static_cast<float>(number);
  return Parsed::Ok;
}

/// Parses an integer token named `what` ("row count", "row index", ...).
bool integerToken(Reader &reader, int64_t line, std::string_view token,
                  const char *what, int64_t &value) {
  switch (parseInteger(token, value)) {
  case Parsed::Ok:
    return true;
  case Parsed::NotANumber:
    return reader.fail(line, "%s is not an integer (%s)",
                       quoted(token).c_str(), what);
  case Parsed::OutOfRange:
    return reader.fail(line, "%s is out of range (%s)", quoted(token).c_str(),
                       what);
  }
  return false;
}

/// A size from a header (rows, columns, nnz): 0 to the int32 maximum.
bool sizeToken(Reader &reader, int64_t line, std::string_view token,
               const char *what, int64_t &value) {
  if (!integerToken(reader, line, token, what, value))
    return false;
  if (value < 0)
    return reader.fail(line, "%s %lld is negative", what, (long long)value);
  if (value > kInt32Max)
    return reader.fail(line, "%s %lld is above the int32 range (%lld)", what,
                       (long long)value, (long long)kInt32Max);
  return true;
}

/// Allocates the arrays of `m` (at least one element each, so that they are
/// never NULL).
bool allocate(Reader &reader, sopt_csr &m, int64_t rows, int64_t cols,
              int64_t nnz) {
  size_t entries = static_cast<size_t>(std::max<int64_t>(nnz, 1));
  m.rows = rows;
  m.cols = cols;
  m.nnz = nnz;
  m.positions = static_cast<int32_t *>(
      std::malloc(sizeof(int32_t) * static_cast<size_t>(rows + 1)));
  m.coordinates =
      static_cast<int32_t *>(std::malloc(sizeof(int32_t) * entries));
  m.values = static_cast<float *>(std::malloc(sizeof(float) * entries));
  if (m.positions && m.coordinates && m.values)
    return true;
  sopt_csr_free(&m);
  return reader.fail(0, "out of memory for %lld rows and %lld entries",
                     (long long)rows, (long long)nnz);
}

//===----------------------------------------------------------------------===//
// Matrix Market
//===----------------------------------------------------------------------===//

struct Entry {
  int32_t row, col; // 0-based, where the entry goes
  float value;
  bool mirrored;    // the symmetric image of the entry written on `line`
  int64_t line;
};

bool readMtx(Reader &reader, sopt_csr &out) {
  std::string_view line;
  if (!reader.nextLine(line))
    return reader.fail(1, "empty file; expected the banner '%s'", kMtxBanner);

  // The banner.
  std::string_view banner[5];
  int words = splitTokens(line, banner, 5);
  if (words == 0 || !equalsIgnoreCase(banner[0], "%%MatrixMarket"))
    return reader.fail(1, "expected the banner '%s'", kMtxBanner);
  if (words < 5)
    return reader.fail(1, "incomplete banner; expected '%s'", kMtxBanner);
  if (!equalsIgnoreCase(banner[1], "matrix"))
    return reader.fail(1, "unsupported object %s; only 'matrix' is supported",
                       quoted(banner[1]).c_str());
  if (equalsIgnoreCase(banner[2], "array"))
    return reader.fail(1, "'array' (dense) Matrix Market files are not "
                          "supported; only 'coordinate'");
  if (!equalsIgnoreCase(banner[2], "coordinate"))
    return reader.fail(1, "unknown format %s; expected 'coordinate'",
                       quoted(banner[2]).c_str());
  bool pattern = equalsIgnoreCase(banner[3], "pattern");
  bool integer = equalsIgnoreCase(banner[3], "integer");
  if (equalsIgnoreCase(banner[3], "complex"))
    return reader.fail(1, "'complex' matrices are not supported; expected "
                          "real, integer or pattern");
  if (!pattern && !integer && !equalsIgnoreCase(banner[3], "real"))
    return reader.fail(1, "unknown field %s; expected real, integer or pattern",
                       quoted(banner[3]).c_str());
  bool symmetric = equalsIgnoreCase(banner[4], "symmetric");
  if (equalsIgnoreCase(banner[4], "hermitian") ||
      equalsIgnoreCase(banner[4], "skew-symmetric"))
    return reader.fail(1, "%s matrices are not supported; expected general "
                          "or symmetric",
                       quoted(banner[4]).c_str());
  if (!symmetric && !equalsIgnoreCase(banner[4], "general"))
    return reader.fail(1, "unknown symmetry %s; expected general or symmetric",
                       quoted(banner[4]).c_str());
  if (words > 5) {
    std::string_view rest = line, extra;
    for (int i = 0; i < 6; ++i)
      nextToken(rest, extra);
    return reader.fail(1, "unexpected %s after the banner",
                       quoted(extra).c_str());
  }

  // The size line, after comments.
  int64_t sizeLine = 0;
  while (reader.nextLine(line)) {
    if (!isBlankOrComment(line)) {
      sizeLine = reader.line();
      break;
    }
  }
  if (!sizeLine)
    return reader.fail(reader.line() + 1,
                       "end of file; expected the size line 'rows cols nnz'");
  std::string_view sizes[3];
  int count = splitTokens(line, sizes, 3);
  if (count != 3)
    return reader.fail(sizeLine,
                       "expected the size line 'rows cols nnz', found %d "
                       "field%s",
                       count, count == 1 ? "" : "s");
  int64_t rows, cols, nnz;
  if (!sizeToken(reader, sizeLine, sizes[0], "row count", rows) ||
      !sizeToken(reader, sizeLine, sizes[1], "column count", cols) ||
      !sizeToken(reader, sizeLine, sizes[2], "nnz", nnz))
    return false;
  if (symmetric && rows != cols)
    return reader.fail(sizeLine,
                       "a symmetric matrix must be square; the size line "
                       "gives %lld x %lld",
                       (long long)rows, (long long)cols);
  int64_t capacity = symmetric ? rows * (rows + 1) / 2 : rows * cols;
  if (nnz > capacity)
    return reader.fail(sizeLine,
                       "nnz %lld is more than the %lld entries a%s %lld x "
                       "%lld matrix has%s",
                       (long long)nnz, (long long)capacity,
                       symmetric ? " symmetric" : "", (long long)rows,
                       (long long)cols,
                       symmetric ? " on and below the diagonal" : "");

  // The entries, in any order.
  std::vector<Entry> entries;
  entries.reserve(static_cast<size_t>(
      std::min<int64_t>(nnz, static_cast<int64_t>(reader.bytesLeft() / 4))));
  const int fields = pattern ? 2 : 3;
  int64_t offDiagonal = 0;
  while (reader.nextLine(line)) {
    if (isBlankOrComment(line))
      continue;
    int64_t at = reader.line();
    if (static_cast<int64_t>(entries.size()) == nnz)
      return reader.fail(at, "more entries than the %lld declared on line %lld",
                         (long long)nnz, (long long)sizeLine);
    std::string_view tokens[3];
    count = splitTokens(line, tokens, 3);
    if (count != fields)
      return reader.fail(at, "expected %d fields '%s', found %d", fields,
                         pattern ? "row column" : "row column value", count);
    // A 1-based index into `extent` rows or columns.
    auto indexToken = [&](std::string_view token, const char *what,
                          int64_t extent, int64_t &index) {
      std::string name = std::string(what) + " index";
      if (!integerToken(reader, at, token, name.c_str(), index))
        return false;
      if (index >= 1 && index <= extent)
        return true;
      return reader.fail(at,
                         "%s index %lld is out of range: the matrix has "
                         "%lld %ss (indices 1 to %lld)",
                         what, (long long)index, (long long)extent, what,
                         (long long)extent);
    };
    int64_t row, col;
    if (!indexToken(tokens[0], "row", rows, row) ||
        !indexToken(tokens[1], "column", cols, col))
      return false;
    float value = 1.0f;
    if (integer) {
      int64_t number;
      if (!integerToken(reader, at, tokens[2], "value of an integer matrix",
                        number))
        return false;
      value = static_cast<float>(number);
    } else if (!pattern) {
      switch (parseFloat(tokens[2], value)) {
      case Parsed::Ok:
        break;
      case Parsed::NotANumber:
        return reader.fail(at, "%s is not a number (value)",
                           quoted(tokens[2]).c_str());
      case Parsed::OutOfRange:
        return reader.fail(at, "value %s is outside the float range",
                           quoted(tokens[2]).c_str());
      }
    }
    entries.push_back({static_cast<int32_t>(row - 1),
                       static_cast<int32_t>(col - 1), value, false, at});
    if (symmetric && row != col)
      ++offDiagonal;
  }
  if (static_cast<int64_t>(entries.size()) < nnz)
    return reader.fail(sizeLine,
                       "the size line declares %lld entries, but the file "
                       "has %lld",
                       (long long)nnz, (long long)entries.size());

  int64_t total = nnz + offDiagonal;
  if (total > kInt32Max)
    return reader.fail(sizeLine,
                       "with its mirrored entries the symmetric matrix has "
                       "%lld entries, above the int32 range (%lld)",
                       (long long)total, (long long)kInt32Max);
  if (symmetric) {
    entries.reserve(static_cast<size_t>(total));
    for (int64_t i = 0; i < nnz; ++i) {
      Entry e = entries[i];
      if (e.row != e.col)
        entries.push_back({e.col, e.row, e.value, true, e.line});
    }
  }

  // Bucket by row (keeping file order), then sort each row by column.
  if (!allocate(reader, out, rows, cols, total))
    return false;
  int32_t *positions = out.positions;
  std::fill(positions, positions + rows + 1, 0);
  for (const Entry &e : entries)
    ++positions[e.row + 1];
  for (int64_t r = 0; r < rows; ++r)
    positions[r + 1] += positions[r];
  std::vector<Entry> sorted(entries.size());
  {
    std::vector<int32_t> next(positions, positions + rows);
    for (const Entry &e : entries)
      sorted[next[e.row]++] = e;
  }
  std::vector<Entry>().swap(entries);
  auto before = [](const Entry &a, const Entry &b) {
    if (a.col != b.col)
      return a.col < b.col;
    if (a.line != b.line)
      return a.line < b.line;
    return a.mirrored < b.mirrored;
  };
  // Of all duplicate pairs, report the one whose later line comes first (an
  // entry as written before a mirrored one), as a reader going down the file
  // would meet it.
  const Entry *duplicate = nullptr, *original = nullptr;
  for (int64_t r = 0; r < rows; ++r) {
    if (positions[r + 1] - positions[r] < 2)
      continue; // no pair (and no pointer arithmetic on an empty array)
    Entry *begin = sorted.data() + positions[r];
    Entry *end = sorted.data() + positions[r + 1];
    std::sort(begin, end, before);
    for (Entry *e = begin; e + 1 < end; ++e) {
      const Entry &later = e[1];
      if (later.col != e->col)
        continue;
      if (!duplicate || later.line < duplicate->line ||
          (later.line == duplicate->line && !later.mirrored &&
           duplicate->mirrored)) {
        duplicate = &later;
        original = e;
      }
    }
  }
  if (duplicate) {
    // Name both entries as the file writes them (1-based).
    auto written = [](const Entry &e, int64_t &row, int64_t &col) {
      row = (e.mirrored ? e.col : e.row) + 1;
      col = (e.mirrored ? e.row : e.col) + 1;
    };
    int64_t row, col, firstRow, firstCol;
    written(*duplicate, row, col);
    written(*original, firstRow, firstCol);
    if (row == firstRow && col == firstCol)
      return reader.fail(duplicate->line,
                         "duplicate entry (%lld, %lld), also on line %lld",
                         (long long)row, (long long)col,
                         (long long)original->line);
    return reader.fail(duplicate->line,
                       "duplicate entry (%lld, %lld): line %lld gives "
                       "(%lld, %lld), the same entry of a symmetric matrix",
                       (long long)row, (long long)col,
                       (long long)original->line, (long long)firstRow,
                       (long long)firstCol);
  }
  for (size_t i = 0; i < sorted.size(); ++i) {
    out.coordinates[i] = sorted[i].col;
    out.values[i] = sorted[i].value;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// DLMC .smtx
//===----------------------------------------------------------------------===//

/// All integer tokens of `line` (the offsets or the column indices).
bool integerLine(Reader &reader, std::string_view line, const char *what,
                 int64_t expected, std::vector<int64_t> &values) {
  values.reserve(static_cast<size_t>(
      std::min<int64_t>(expected, static_cast<int64_t>(line.size() / 2 + 1))));
  std::string_view token;
  while (nextToken(line, token)) {
    int64_t value;
    switch (parseInteger(token, value)) {
    case Parsed::Ok:
      values.push_back(value);
      break;
    case Parsed::NotANumber:
      return reader.fail(reader.line(), "%s is not an integer (%s %zu)",
                         quoted(token).c_str(), what, values.size());
    case Parsed::OutOfRange:
      return reader.fail(reader.line(), "%s is out of range (%s %zu)",
                         quoted(token).c_str(), what, values.size());
    }
  }
  return true;
}

bool readSmtx(Reader &reader, sopt_csr &out) {
  std::string_view line;
  if (!reader.nextLine(line))
    return reader.fail(1, "empty file; expected the header 'rows, cols, nnz'");
  std::string_view header[3];
  int count = splitTokens(line, header, 3, /*commas=*/true);
  if (count != 3)
    return reader.fail(1,
                       "expected the header 'rows, cols, nnz', found %d "
                       "field%s",
                       count, count == 1 ? "" : "s");
  int64_t rows, cols, nnz;
  if (!sizeToken(reader, 1, header[0], "row count", rows) ||
      !sizeToken(reader, 1, header[1], "column count", cols) ||
      !sizeToken(reader, 1, header[2], "nnz", nnz))
    return false;
  if (nnz > rows * cols)
    return reader.fail(1,
                       "nnz %lld is more than the %lld entries a %lld x %lld "
                       "matrix has",
                       (long long)nnz, (long long)(rows * cols),
                       (long long)rows, (long long)cols);

  // Line 2: rows + 1 offsets, from 0 up to nnz.
  if (!reader.nextLine(line))
    return reader.fail(2, "end of file; expected the %lld row offsets",
                       (long long)(rows + 1));
  std::vector<int64_t> offsets;
  if (!integerLine(reader, line, "row offset", rows + 1, offsets))
    return false;
  if (static_cast<int64_t>(offsets.size()) != rows + 1)
    return reader.fail(2, "expected %lld row offsets (rows + 1), found %zu",
                       (long long)(rows + 1), offsets.size());
  if (offsets[0] != 0)
    return reader.fail(2, "row offset 0 is %lld; the first offset must be 0",
                       (long long)offsets[0]);
  for (int64_t r = 1; r <= rows; ++r)
    if (offsets[r] < offsets[r - 1])
      return reader.fail(2,
                         "row offset %lld is %lld, less than row offset %lld "
                         "(%lld); offsets must be non-decreasing",
                         (long long)r, (long long)offsets[r],
                         (long long)(r - 1), (long long)offsets[r - 1]);
  if (offsets[rows] != nnz)
    return reader.fail(2,
                       "the last row offset is %lld, but the header declares "
                       "nnz = %lld",
                       (long long)offsets[rows], (long long)nnz);

  // Line 3: nnz column indices, increasing within each row. With nnz = 0 it
  // may be empty or missing.
  std::vector<int64_t> columns;
  if (reader.nextLine(line)) {
    if (!integerLine(reader, line, "column index", nnz, columns))
      return false;
  } else if (nnz > 0) {
    return reader.fail(3, "end of file; expected the %lld column indices",
                       (long long)nnz);
  }
  if (static_cast<int64_t>(columns.size()) != nnz)
    return reader.fail(3, "expected %lld column indices (nnz), found %zu",
                       (long long)nnz, columns.size());
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t k = offsets[r]; k < offsets[r + 1]; ++k) {
      int64_t col = columns[k];
      if (col < 0 || col >= cols)
        return reader.fail(3,
                           "column index %lld (entry %lld, row %lld) is out "
                           "of range: the matrix has %lld columns (indices 0 "
                           "to %lld)",
                           (long long)col, (long long)k, (long long)r,
                           (long long)cols, (long long)(cols - 1));
      if (k == offsets[r])
        continue;
      int64_t previous = columns[k - 1];
      if (col == previous)
        return reader.fail(3,
                           "duplicate entry: row %lld has column %lld twice "
                           "(entries %lld and %lld)",
                           (long long)r, (long long)col, (long long)(k - 1),
                           (long long)k);
      if (col < previous)
        return reader.fail(3,
                           "row %lld is not sorted: column %lld (entry %lld) "
                           "follows column %lld; columns must increase "
                           "within a row",
                           (long long)r, (long long)col, (long long)k,
                           (long long)previous);
    }
  }
  while (reader.nextLine(line))
    if (!isBlank(line))
      return reader.fail(reader.line(),
                         "unexpected content after the column indices");

  if (!allocate(reader, out, rows, cols, nnz))
    return false;
  for (int64_t r = 0; r <= rows; ++r)
    out.positions[r] = static_cast<int32_t>(offsets[r]);
  for (int64_t k = 0; k < nnz; ++k) {
    out.coordinates[k] = static_cast<int32_t>(columns[k]);
    out.values[k] = 1.0f;
  }
  return true;
}

} // namespace

extern "C" int sopt_csr_read(const char *path, sopt_csr *out, char *error,
                             size_t error_size) {
  if (out)
    *out = sopt_csr{};
  Reader reader(path ? path : "<null>");
  sopt_csr m{};
  bool ok;
  if (!path || !out)
    ok = reader.fail(0, "sopt_csr_read needs a path and a result");
  else if (endsWithIgnoreCase(path, ".smtx"))
    ok = reader.load() && readSmtx(reader, m);
  else if (endsWithIgnoreCase(path, ".mtx"))
    ok = reader.load() && readMtx(reader, m);
  else
    ok = reader.fail(0, "unknown format: expected a .mtx (Matrix Market) or "
                        ".smtx (DLMC) file");
  if (!ok) {
    sopt_csr_free(&m);
    if (error && error_size)
      std::snprintf(error, error_size, "%s", reader.error().c_str());
    return 1;
  }
  *out = m;
  if (error && error_size)
    error[0] = '\0';
  return 0;
}

extern "C" void sopt_csr_free(sopt_csr *m) {
  if (!m)
    return;
  std::free(m->positions);
  std::free(m->coordinates);
  std::free(m->values);
  *m = sopt_csr{};
}
