//===- AttentionReference.h - attention in float64 on the CPU -------------===//
//
// One output row of softmax(scale · q·Kᵀ) · V over the first `visible` keys,
// in float64, for the GPU tests of the fused attention kernel and of the
// code sparse-opt emits for sopt.attention.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_TEST_GPU_ATTENTIONREFERENCE_H
#define SPARSE_OPT_TEST_GPU_ATTENTIONREFERENCE_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace attention_reference {

/// out[0, d) = the attention of query row `q` over keys 0..visible-1 of K
/// and V (rows `keyStride` / `valueStride` elements apart); 0 when no key
/// is visible.
inline void row(const double *q, const double *k, int64_t keyStride, const double *v,
                int64_t valueStride, int visible, int d, double scale, double *out) {
  std::vector<double> scores(std::max(visible, 1));
  double rowMax = -INFINITY;
  for (int j = 0; j < visible; ++j) {
    double s = 0;
    for (int x = 0; x < d; ++x)
      s += q[x] * k[j * keyStride + x];
    scores[j] = s * scale;
    rowMax = std::max(rowMax, scores[j]);
  }
  double sum = 0;
  for (int j = 0; j < visible; ++j)
    sum += scores[j] = std::exp(scores[j] - rowMax);
  for (int x = 0; x < d; ++x) {
    double o = 0;
    for (int j = 0; j < visible; ++j)
      o += scores[j] * v[j * valueStride + x];
    out[x] = visible ? o / sum : 0.0;
  }
}

} // namespace attention_reference

#endif // SPARSE_OPT_TEST_GPU_ATTENTIONREFERENCE_H
