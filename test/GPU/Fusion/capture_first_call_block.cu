// The example transformer block's very first call made inside a global
// stream capture: the cuBLAS handle and the temporaries' pool are created
// during the capture (in relaxed capture mode, since a global capture
// refuses their allocations), the capture must succeed, and two replays of
// the graph must give, bit for bit, what an eager call gives afterwards.
//
// REQUIRES: cuda-gpu
// RUN: %nvcc -I%sopt_src_root/include -I%S/../lib -I%sopt_gen %sopt_gen/transformer_block.cu %s -lcublas -o %t
// RUN: %t | FileCheck %s
// CHECK: first call captured, replays equal an eager call {{.*}} PASS
// CHECK: PASSED: 0 failure(s)

#include "Harness.h"
#include "transformer_block.h"

#include <memory>

using namespace harness;

int main() {
  Report report;
  constexpr size_t kSizes[] = {128 * 768, 768 * 768, 768 * 768,  768 * 768, 768 * 768,
                               768,       768,       768 * 3072, 3072,      3072 * 768,
                               768,       768,       768};
  const double scale = 1.0 / std::sqrt(768.0);
  std::vector<std::unique_ptr<Tensor<float>>> in;
  for (size_t size : kSizes) {
    in.push_back(std::make_unique<Tensor<float>>(size));
    in.back()->randomize(-scale, scale);
  }
  Tensor<float> out(128 * 768);
  auto call = [&](cudaStream_t stream) {
    auto p = [&](int i) { return in[i]->device; };
    return transformer_block(p(0), p(1), p(2), p(3), p(4), p(5), p(6), p(7), p(8), p(9), p(10),
                             p(11), p(12), out.device, stream);
  };
  report.check("transformer_block: first call captured, replays equal an eager call",
               capturedCallEqualsEager("transformer_block", out, call) ? 0.0 : 1.0, 0.0);
  return report.exitCode();
}
