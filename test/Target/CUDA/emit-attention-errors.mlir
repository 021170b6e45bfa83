// An attention kept out of the decomposition without a schedule has no
// lowering: a located error and a non-zero exit.
// RUN: not sparse-opt %s --emit=cuda --keep-attention --attention-kernel=false -o %t.cu 2>&1 | FileCheck %s

// CHECK: emit-attention-errors.mlir:[[@LINE+2]]:8: error: 'sopt.attention' op reaches the CUDA emitter without a schedule; run sopt-schedule-attention, or sopt-decompose-composites without keep-attention
func.func @kept(%q: tensor<2x16x64xbf16>) -> tensor<2x16x64xbf16> {
  %0 = sopt.attention %q, %q, %q : tensor<2x16x64xbf16>, tensor<2x16x64xbf16>, tensor<2x16x64xbf16> -> tensor<2x16x64xbf16>
  return %0 : tensor<2x16x64xbf16>
}
