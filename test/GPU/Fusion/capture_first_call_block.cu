// The example transformer block's very first call made inside a global
// stream capture: the cuBLAS handle and the temporaries' pool are created
// during the capture (in relaxed capture mode, since a global capture
// refuses their allocations), the capture must succeed, and two replays of
// the graph must give, bit for bit, what an eager call gives afterwards.
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/capture_first_call_block | FileCheck %s
// CHECK: first call captured, replays equal an eager call {{.*}} PASS
// CHECK: PASSED: 0 failure(s)

#include "BlockInputs.h"

using namespace harness;

int main() {
  Report report;
  const BlockInputs in;
  Tensor<float> out(BlockInputs::kOutput);
  auto call = [&](cudaStream_t stream) { return in.call(out.device, stream); };
  report.check("transformer_block: first call captured, replays equal an eager call",
               capturedCallEqualsEager("transformer_block", out, call) ? 0.0 : 1.0, 0.0);
  return report.exitCode();
}
