// Split rows: LayerNorm over 4 rows of 1 000 003, softmax over 2 bf16 rows of
// 65536, and the sum of 2^20 elements, each row spread over many blocks.
//
// REQUIRES: cuda-gpu
// RUN: %nvcc -I%sopt_src_root/include -I%S/../lib -I%sopt_gen %sopt_gen/split_row.cu %s -o %t
// RUN: %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "Harness.h"
#include "split_row.h"

using namespace harness;

int main() {
  Report report;
  {
    const int rows = 4, cols = 1000003;
    Tensor<float> x(size_t(rows) * cols), g(cols), b(cols), y(size_t(rows) * cols);
    x.randomize(-2, 3);
    g.randomize(0.5, 1.5);
    b.randomize(-0.5, 0.5);
    y.poison();
    launch(layer_norm_f32_4x1000003, x.device, g.device, b.device, y.device);
    y.download();
    std::vector<double> ref(y.size);
    for (int r = 0; r < rows; ++r) {
      const double *row = &x.values[size_t(r) * cols];
      double mean = 0, var = 0;
      for (int c = 0; c < cols; ++c)
        mean += row[c];
      mean /= cols;
      for (int c = 0; c < cols; ++c)
        var += (row[c] - mean) * (row[c] - mean);
      var /= cols;
      for (int c = 0; c < cols; ++c)
        ref[size_t(r) * cols + c] =
            (row[c] - mean) / std::sqrt(var + 1e-5) * g.values[c] + b.values[c];
    }
    report.check("layer_norm_f32_4x1000003", relativeError(y.values, ref), 1e-5);
  }
  {
    const int rows = 2, cols = 65536;
    Tensor<__nv_bfloat16> x(size_t(rows) * cols), y(size_t(rows) * cols);
    x.randomize(-8, 8);
    y.poison();
    launch(softmax_bf16_2x65536, x.device, y.device);
    y.download();
    std::vector<double> ref(y.size);
    for (int r = 0; r < rows; ++r) {
      const double *row = &x.values[size_t(r) * cols];
      double max = -INFINITY, sum = 0;
      for (int c = 0; c < cols; ++c)
        max = std::max(max, row[c]);
      for (int c = 0; c < cols; ++c)
        sum += std::exp(row[c] - max);
      for (int c = 0; c < cols; ++c)
        ref[size_t(r) * cols + c] = std::exp(row[c] - max) / sum;
    }
    report.check("softmax_bf16_2x65536", relativeError(y.values, ref),
                 tolerance<__nv_bfloat16>());
  }
  {
    const int n = 1 << 20;
    Tensor<float> x(n), y(1);
    x.randomize(0, 1); // positive: the sum has no cancellation to hide errors
    y.poison();
    launch(sum_f32_1048576, x.device, y.device);
    y.download();
    double ref = 0;
    for (double v : x.values)
      ref += v;
    report.check("sum_f32_1048576", relativeError(y.values, {ref}), 1e-5);
  }
  return report.exitCode();
}
