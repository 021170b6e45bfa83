//===- References.h - float64 references of the fused layers --------------===//
//
// Plain row-major loops in double: what the GPU tests compare with. Written
// for clarity, not speed.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_TEST_GPU_REFERENCES_H
#define SPARSE_OPT_TEST_GPU_REFERENCES_H

#include <algorithm>
#include <cmath>
#include <vector>

namespace reference {

inline double gelu(double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }

/// (x - mean) / sqrt(var + eps) * scale + bias over each row; empty `scale`
/// or `bias` mean none.
inline std::vector<double> layerNorm(const std::vector<double> &x,
                                     const std::vector<double> &scale,
                                     const std::vector<double> &bias, size_t rows,
                                     size_t cols, double eps) {
  std::vector<double> y(rows * cols);
  for (size_t r = 0; r < rows; ++r) {
    const double *row = &x[r * cols];
    double mean = 0, var = 0;
    for (size_t c = 0; c < cols; ++c)
      mean += row[c];
    mean /= cols;
    for (size_t c = 0; c < cols; ++c)
      var += (row[c] - mean) * (row[c] - mean);
    var /= cols;
    for (size_t c = 0; c < cols; ++c)
      y[r * cols + c] = (row[c] - mean) / std::sqrt(var + eps) *
                            (scale.empty() ? 1.0 : scale[c]) +
                        (bias.empty() ? 0.0 : bias[c]);
  }
  return y;
}

/// x / sqrt(mean(x^2) + eps) * scale over each row.
inline std::vector<double> rmsNorm(const std::vector<double> &x,
                                   const std::vector<double> &scale, size_t rows,
                                   size_t cols, double eps) {
  std::vector<double> y(rows * cols);
  for (size_t r = 0; r < rows; ++r) {
    const double *row = &x[r * cols];
    double meanSquare = 0;
    for (size_t c = 0; c < cols; ++c)
      meanSquare += row[c] * row[c];
    meanSquare /= cols;
    for (size_t c = 0; c < cols; ++c)
      y[r * cols + c] = row[c] / std::sqrt(meanSquare + eps) * scale[c];
  }
  return y;
}

/// The sum of each row.
inline std::vector<double> rowSums(const std::vector<double> &x, size_t rows,
                                   size_t cols) {
  std::vector<double> sums(rows, 0.0);
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < cols; ++c)
      sums[r] += x[r * cols + c];
  return sums;
}

/// exp(x - max) / sum(exp(x - max)) over each row.
inline std::vector<double> softmax(const std::vector<double> &x, size_t rows,
                                   size_t cols) {
  std::vector<double> y(rows * cols);
  for (size_t r = 0; r < rows; ++r) {
    const double *row = &x[r * cols];
    double max = -INFINITY, sum = 0;
    for (size_t c = 0; c < cols; ++c)
      max = std::max(max, row[c]);
    for (size_t c = 0; c < cols; ++c)
      sum += std::exp(row[c] - max);
    for (size_t c = 0; c < cols; ++c)
      y[r * cols + c] = std::exp(row[c] - max) / sum;
  }
  return y;
}

} // namespace reference

#endif // SPARSE_OPT_TEST_GPU_REFERENCES_H
