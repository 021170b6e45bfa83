// Split rows: LayerNorm over 4 rows of 1 000 003, softmax over 2 bf16 rows of
// 65536, and the sum of 2^20 elements, each row spread over many blocks.
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/split_row | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "Harness.h"
#include "References.h"
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
    std::vector<double> ref =
        reference::layerNorm(x.values, g.values, b.values, rows, cols, 1e-5);
    report.check("layer_norm_f32_4x1000003", relativeError(y.values, ref), 1e-5);
  }
  {
    const int rows = 2, cols = 65536;
    Tensor<__nv_bfloat16> x(size_t(rows) * cols), y(size_t(rows) * cols);
    x.randomize(-8, 8);
    y.poison();
    launch(softmax_bf16_2x65536, x.device, y.device);
    y.download();
    std::vector<double> ref = reference::softmax(x.values, rows, cols);
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
