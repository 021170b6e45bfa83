// Generated SDDMMs with elementwise ops on their stored entries
// (Inputs/sddmm_epilogues.mlir): a scale of Q folded into the epilogue, a
// runtime scale, exp, a sampled bias and a sampled mask, in the kernel of
// either tiling (tiles of nonzeros, dense tensor-core blocks), f32 and f16;
// and, when the product is stored too, exp + bias as a kernel over the
// stored entries (bf16, one row). k = 33 and 5 (not multiples of 4); empty
// rows, nnz = 0, a full pattern. Outputs are poisoned before each run and
// compared with a float64 reference.
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/sddmm_epilogues | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "SparseCases.h"
#include "sddmm_epilogues.h"

#include <cmath>

using namespace harness;

namespace {

constexpr int64_t kM = 130, kN = 200, kK = 33;


template <typename T, typename Fn>
void attention(Report &report, const char *name, Fn fn, const Pattern &pattern) {
  DeviceCsr<T> s(pattern);
  Tensor<T> q(kM * kK), k(kN * kK), scale(1), bias(kM * kN), mask(kM * kN),
      out(pattern.nnz());
  q.randomize(), k.randomize(), scale.randomize(0.5, 1.5), bias.randomize(-0.5, 0.5);
  mask.randomize(0, 1);
  out.poison();
  launch(fn, q.device, k.device, s.positions.device, s.coordinates.device, s.values.device,
         pattern.nnz(), scale.device, bias.device, mask.device, out.device);
  out.download();
  std::vector<double> ref = sddmmReference(pattern, s.values.values, q.values, k.values, kK,
                                           /*transposeRhs=*/true);
  for (int64_t r = 0; r < pattern.rows; ++r)
    for (int32_t e = pattern.positions[r]; e < pattern.positions[r + 1]; ++e) {
      const int64_t at = r * kN + pattern.coordinates[e];
      ref[e] = mask.values[at] * (std::exp(0.125 * ref[e] * scale.values[0]) + bias.values[at]);
    }
  report.check(std::string(name) + " " + pattern.name, relativeError(out.values, ref),
               tolerance<T>());
}

/// The product stored and returned; exp(d) + bias by a kernel of its own.
void storedAndExp(Report &report, const Pattern &pattern) {
  using T = __nv_bfloat16;
  DeviceCsr<T> s(pattern);
  Tensor<T> q(5), k(7 * 5), bias(7), d(pattern.nnz()), y(pattern.nnz());
  q.randomize(), k.randomize(), bias.randomize();
  d.poison(), y.poison();
  launch(stored_and_exp_bf16, q.device, k.device, s.positions.device, s.coordinates.device,
         s.values.device, pattern.nnz(), bias.device, d.device, y.device);
  d.download(), y.download();
  std::vector<double> ref =
      sddmmReference(pattern, s.values.values, q.values, k.values, 5, /*transposeRhs=*/true);
  report.check("stored_and_exp_bf16 product " + pattern.name, relativeError(d.values, ref),
               tolerance<T>());
  // From the stored (rounded) product, as the kernel reads it.
  for (int32_t e = 0; e < pattern.nnz(); ++e)
    ref[e] = std::exp(d.values[e]) + bias.values[pattern.coordinates[e]];
  report.check("stored_and_exp_bf16 exp+bias " + pattern.name, relativeError(y.values, ref),
               tolerance<T>());
}

} // namespace

int main() {
  Report report;
  std::vector<Pattern> patterns;
  patterns.push_back(randomPattern("130x200 10% every 5th row empty", kM, kN, [](int64_t r) {
    return r % 5 == 2 ? 0.0 : 0.1;
  }));
  patterns.push_back(randomPattern("130x200 nnz=0", kM, kN, [](int64_t) { return 0.0; }));
  patterns.push_back(randomPattern("130x200 full", kM, kN, [](int64_t) { return 1.0; }));
  patterns.push_back(randomPattern("130x200 rows 64-127 only", kM, kN, [](int64_t r) {
    return r >= 64 && r < 128 ? 0.3 : 0.0; // whole 64-row blocks empty
  }));
  for (const Pattern &p : patterns) {
    attention<float>(report, "attn_f32_nonzeros", attn_f32_nonzeros, p);
    attention<float>(report, "attn_f32_blocks", attn_f32_blocks, p);
    attention<float>(report, "attn_f32_blocks64", attn_f32_blocks64, p);
    attention<float>(report, "attn_f32_blocks64_split", attn_f32_blocks64_split, p);
    attention<__half>(report, "attn_f16_nonzeros", attn_f16_nonzeros, p);
    attention<__half>(report, "attn_f16_blocks", attn_f16_blocks, p);
  }
  storedAndExp(report, randomPattern("1x7 full", 1, 7, [](int64_t) { return 1.0; }));
  storedAndExp(report, randomPattern("1x7 half", 1, 7, [](int64_t) { return 0.5; }));
  storedAndExp(report, randomPattern("1x7 nnz=0", 1, 7, [](int64_t) { return 0.0; }));
  return report.exitCode();
}
