//===- CsrTranspose.cpp - the transpose of a CSR pattern on the host ------===//

#include "sparse-opt/Runtime/Pattern/CsrTranspose.h"

#include <algorithm>
#include <cstdlib>

namespace {

/// Whether `m`'s arrays describe a CSR matrix: positions from 0 to nnz, not
/// decreasing, coordinates within the columns.
bool isConsistent(const sopt_csr &m) {
  if (m.rows < 0 || m.cols < 0 || m.nnz < 0 || !m.positions ||
      (m.nnz > 0 && (!m.coordinates || !m.values)))
    return false;
  if (m.positions[0] != 0 || m.positions[m.rows] != m.nnz)
    return false;
  for (int64_t r = 0; r < m.rows; ++r)
    if (m.positions[r + 1] < m.positions[r])
      return false;
  for (int64_t e = 0; e < m.nnz; ++e)
    if (m.coordinates[e] < 0 || m.coordinates[e] >= m.cols)
      return false;
  return true;
}

} // namespace

extern "C" int sopt_csr_transpose(const sopt_csr *in, sopt_csr *out,
                                  int32_t *permutation) {
  if (!out)
    return 1;
  *out = sopt_csr{};
  if (!in || !isConsistent(*in))
    return 1;
  const size_t entries = static_cast<size_t>(std::max<int64_t>(in->nnz, 1));
  sopt_csr t{};
  t.rows = in->cols;
  t.cols = in->rows;
  t.nnz = in->nnz;
  t.positions = static_cast<int32_t *>(
      std::calloc(static_cast<size_t>(t.rows + 1), sizeof(int32_t)));
  t.coordinates = static_cast<int32_t *>(std::malloc(sizeof(int32_t) * entries));
  t.values = static_cast<float *>(std::malloc(sizeof(float) * entries));
  if (!t.positions || !t.coordinates || !t.values) {
    sopt_csr_free(&t);
    return 1;
  }
  // Count the entries of each column, then turn the counts into the first
  // free slot of each transposed row; visiting the input row by row fills
  // every transposed row in increasing column (input row) order.
  for (int64_t e = 0; e < in->nnz; ++e)
    ++t.positions[in->coordinates[e] + 1];
  for (int64_t r = 0; r < t.rows; ++r)
    t.positions[r + 1] += t.positions[r];
  int32_t *next = static_cast<int32_t *>(
      std::malloc(sizeof(int32_t) * static_cast<size_t>(std::max<int64_t>(t.rows, 1))));
  if (!next) {
    sopt_csr_free(&t);
    return 1;
  }
  std::copy(t.positions, t.positions + t.rows, next);
  for (int64_t r = 0; r < in->rows; ++r)
    for (int32_t e = in->positions[r]; e < in->positions[r + 1]; ++e) {
      const int32_t q = next[in->coordinates[e]]++;
      t.coordinates[q] = static_cast<int32_t>(r);
      t.values[q] = in->values[e];
      if (permutation)
        permutation[q] = e;
    }
  std::free(next);
  *out = t;
  return 0;
}
