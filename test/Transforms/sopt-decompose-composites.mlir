// RUN: sparse-opt %s --sopt-decompose-composites | FileCheck %s
// RUN: sparse-opt %s --sopt-decompose-composites | FileCheck %s --check-prefix=NONE
// RUN: sparse-opt %s --sopt-decompose-composites=keep-attention | FileCheck %s --check-prefix=KEEP

// No composite op, and no mean reduction, survives the default pass.
// NONE-NOT: sopt.softmax
// NONE-NOT: sopt.layer_norm
// NONE-NOT: sopt.rms_norm
// NONE-NOT: sopt.gelu
// NONE-NOT: sopt.reduce mean
// NONE-NOT: sopt.attention

// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x8xf32>)
// CHECK-NEXT: [[MAX:%.+]] = sopt.reduce max %[[X]] dims = [1] keep_dims : tensor<4x8xf32> -> tensor<4x1xf32>
// CHECK-NEXT: [[MAXB:%.+]] = sopt.broadcast [[MAX]] dims = [0, 1] : tensor<4x1xf32> -> tensor<4x8xf32>
// CHECK-NEXT: [[DIFF:%.+]] = sopt.sub %[[X]], [[MAXB]] : tensor<4x8xf32>
// CHECK-NEXT: [[EXP:%.+]] = sopt.exp [[DIFF]] : tensor<4x8xf32>
// CHECK-NEXT: [[SUM:%.+]] = sopt.reduce sum [[EXP]] dims = [1] keep_dims : tensor<4x8xf32> -> tensor<4x1xf32>
// CHECK-NEXT: [[INV:%.+]] = sopt.reciprocal [[SUM]] : tensor<4x1xf32>
// CHECK-NEXT: [[INVB:%.+]] = sopt.broadcast [[INV]] dims = [0, 1] : tensor<4x1xf32> -> tensor<4x8xf32>
// CHECK-NEXT: [[Y:%.+]] = sopt.mul [[EXP]], [[INVB]] : tensor<4x8xf32>
// CHECK-NEXT: return [[Y]]
// KEEP-LABEL: func.func @softmax
// KEEP-NOT: sopt.softmax
// KEEP: sopt.reciprocal
func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = sopt.softmax %x dim = 1 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// Softmax along a leading dimension of a 3-D tensor.
// CHECK-LABEL: func.func @softmax_dim0
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x4x8xf16>)
// CHECK-NEXT: [[MAX:%.+]] = sopt.reduce max %[[X]] dims = [0] keep_dims : tensor<2x4x8xf16> -> tensor<1x4x8xf16>
// CHECK-NEXT: [[MAXB:%.+]] = sopt.broadcast [[MAX]] dims = [0, 1, 2] : tensor<1x4x8xf16> -> tensor<2x4x8xf16>
// CHECK-NEXT: [[DIFF:%.+]] = sopt.sub %[[X]], [[MAXB]] : tensor<2x4x8xf16>
// CHECK-NEXT: [[EXP:%.+]] = sopt.exp [[DIFF]] : tensor<2x4x8xf16>
// CHECK-NEXT: [[SUM:%.+]] = sopt.reduce sum [[EXP]] dims = [0] keep_dims : tensor<2x4x8xf16> -> tensor<1x4x8xf16>
// CHECK-NEXT: [[INV:%.+]] = sopt.reciprocal [[SUM]] : tensor<1x4x8xf16>
// CHECK-NEXT: [[INVB:%.+]] = sopt.broadcast [[INV]] dims = [0, 1, 2] : tensor<1x4x8xf16> -> tensor<2x4x8xf16>
// CHECK-NEXT: [[Y:%.+]] = sopt.mul [[EXP]], [[INVB]] : tensor<2x4x8xf16>
// CHECK-NEXT: return [[Y]]
func.func @softmax_dim0(%x: tensor<2x4x8xf16>) -> tensor<2x4x8xf16> {
  %0 = sopt.softmax %x dim = 0 : tensor<2x4x8xf16>
  return %0 : tensor<2x4x8xf16>
}

// CHECK-LABEL: func.func @mean
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x8xf32>)
// CHECK-NEXT: [[INV:%.+]] = sopt.constant dense<1.250000e-01> : tensor<4xf32>
// CHECK-NEXT: [[SUM:%.+]] = sopt.reduce sum %[[X]] dims = [1] : tensor<4x8xf32> -> tensor<4xf32>
// CHECK-NEXT: [[Y:%.+]] = sopt.mul [[SUM]], [[INV]] : tensor<4xf32>
// CHECK-NEXT: return [[Y]]
func.func @mean(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = sopt.reduce mean %x dims = [1] : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// n is the product of the reduced sizes: 2 * 4 = 8. Other kinds are left alone.
// CHECK-LABEL: func.func @mean_multi_dims
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x3x4xf32>)
// CHECK-NEXT: [[INV:%.+]] = sopt.constant dense<1.250000e-01> : tensor<1x3x1xf32>
// CHECK-NEXT: [[SUM:%.+]] = sopt.reduce sum %[[X]] dims = [0, 2] keep_dims : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
// CHECK-NEXT: [[Y:%.+]] = sopt.mul [[SUM]], [[INV]] : tensor<1x3x1xf32>
// CHECK-NEXT: [[M:%.+]] = sopt.reduce max %[[X]] dims = [0, 2] keep_dims : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
// CHECK-NEXT: return [[Y]], [[M]]
func.func @mean_multi_dims(%x: tensor<2x3x4xf32>) -> (tensor<1x3x1xf32>, tensor<1x3x1xf32>) {
  %0 = sopt.reduce mean %x dims = [0, 2] keep_dims : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
  %1 = sopt.reduce max %x dims = [0, 2] keep_dims : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
  return %0, %1 : tensor<1x3x1xf32>, tensor<1x3x1xf32>
}

// Both means become sum * 1/8 and share one constant; epsilon is 1.0e-05 in f32.
// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x8xf32>, %[[G:[^:]+]]: tensor<8xf32>, %[[B:[^:]+]]: tensor<8xf32>)
// CHECK-DAG: [[EPS:%.+]] = sopt.constant dense<9.99999974E-6> : tensor<4x1xf32>
// CHECK-DAG: [[INV:%.+]] = sopt.constant dense<1.250000e-01> : tensor<4x1xf32>
// CHECK: [[SUM:%.+]] = sopt.reduce sum %[[X]] dims = [1] keep_dims : tensor<4x8xf32> -> tensor<4x1xf32>
// CHECK-NEXT: [[MEAN:%.+]] = sopt.mul [[SUM]], [[INV]] : tensor<4x1xf32>
// CHECK-NEXT: [[MEANB:%.+]] = sopt.broadcast [[MEAN]] dims = [0, 1] : tensor<4x1xf32> -> tensor<4x8xf32>
// CHECK-NEXT: [[C:%.+]] = sopt.sub %[[X]], [[MEANB]] : tensor<4x8xf32>
// CHECK-NEXT: [[SQ:%.+]] = sopt.mul [[C]], [[C]] : tensor<4x8xf32>
// CHECK-NEXT: [[SQSUM:%.+]] = sopt.reduce sum [[SQ]] dims = [1] keep_dims : tensor<4x8xf32> -> tensor<4x1xf32>
// CHECK-NEXT: [[VAR:%.+]] = sopt.mul [[SQSUM]], [[INV]] : tensor<4x1xf32>
// CHECK-NEXT: [[SHIFT:%.+]] = sopt.add [[VAR]], [[EPS]] : tensor<4x1xf32>
// CHECK-NEXT: [[RS:%.+]] = sopt.rsqrt [[SHIFT]] : tensor<4x1xf32>
// CHECK-NEXT: [[RSB:%.+]] = sopt.broadcast [[RS]] dims = [0, 1] : tensor<4x1xf32> -> tensor<4x8xf32>
// CHECK-NEXT: [[NORM:%.+]] = sopt.mul [[C]], [[RSB]] : tensor<4x8xf32>
// CHECK-NEXT: [[GB:%.+]] = sopt.broadcast %[[G]] dims = [1] : tensor<8xf32> -> tensor<4x8xf32>
// CHECK-NEXT: [[SCALED:%.+]] = sopt.mul [[NORM]], [[GB]] : tensor<4x8xf32>
// CHECK-NEXT: [[BB:%.+]] = sopt.broadcast %[[B]] dims = [1] : tensor<8xf32> -> tensor<4x8xf32>
// CHECK-NEXT: [[Y:%.+]] = sopt.add [[SCALED]], [[BB]] : tensor<4x8xf32>
// CHECK-NEXT: return [[Y]]
func.func @layer_norm(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = sopt.layer_norm %x scale(%g : tensor<8xf32>) bias(%b : tensor<8xf32>) : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// Without parameters the result is the normalised value; epsilon is taken
// from the attribute.
// CHECK-LABEL: func.func @layer_norm_plain
// CHECK: [[EPS:%.+]] = sopt.constant dense<1.000000e-03> : tensor<4x1xf32>
// CHECK: [[SHIFT:%.+]] = sopt.add %{{[a-z0-9_]+}}, [[EPS]] : tensor<4x1xf32>
// CHECK-NEXT: [[RS:%.+]] = sopt.rsqrt [[SHIFT]] : tensor<4x1xf32>
// CHECK-NEXT: [[RSB:%.+]] = sopt.broadcast [[RS]] dims = [0, 1] : tensor<4x1xf32> -> tensor<4x8xf32>
// CHECK-NEXT: [[NORM:%.+]] = sopt.mul %{{[a-z0-9_]+}}, [[RSB]] : tensor<4x8xf32>
// CHECK-NEXT: return [[NORM]]
func.func @layer_norm_plain(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = sopt.layer_norm %x epsilon = 1.0e-03 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @rms_norm
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x8xf32>, %[[G:[^:]+]]: tensor<8xf32>)
// CHECK-DAG: [[EPS:%.+]] = sopt.constant dense<9.99999997E-7> : tensor<4x1xf32>
// CHECK-DAG: [[INV:%.+]] = sopt.constant dense<1.250000e-01> : tensor<4x1xf32>
// CHECK: [[SQ:%.+]] = sopt.mul %[[X]], %[[X]] : tensor<4x8xf32>
// CHECK-NEXT: [[SUM:%.+]] = sopt.reduce sum [[SQ]] dims = [1] keep_dims : tensor<4x8xf32> -> tensor<4x1xf32>
// CHECK-NEXT: [[MS:%.+]] = sopt.mul [[SUM]], [[INV]] : tensor<4x1xf32>
// CHECK-NEXT: [[SHIFT:%.+]] = sopt.add [[MS]], [[EPS]] : tensor<4x1xf32>
// CHECK-NEXT: [[RS:%.+]] = sopt.rsqrt [[SHIFT]] : tensor<4x1xf32>
// CHECK-NEXT: [[RSB:%.+]] = sopt.broadcast [[RS]] dims = [0, 1] : tensor<4x1xf32> -> tensor<4x8xf32>
// CHECK-NEXT: [[NORM:%.+]] = sopt.mul %[[X]], [[RSB]] : tensor<4x8xf32>
// CHECK-NEXT: [[GB:%.+]] = sopt.broadcast %[[G]] dims = [1] : tensor<8xf32> -> tensor<4x8xf32>
// CHECK-NEXT: [[Y:%.+]] = sopt.mul [[NORM]], [[GB]] : tensor<4x8xf32>
// CHECK-NEXT: return [[Y]]
func.func @rms_norm(%x: tensor<4x8xf32>, %g: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = sopt.rms_norm %x scale(%g : tensor<8xf32>) : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// The element type is kept: constants and intermediates are bf16.
// CHECK-LABEL: func.func @rms_norm_bf16
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x16xbf16>)
// CHECK-DAG: [[EPS:%.+]] = sopt.constant dense<9.983770e-07> : tensor<2x1xbf16>
// CHECK-DAG: [[INV:%.+]] = sopt.constant dense<6.250000e-02> : tensor<2x1xbf16>
// CHECK: [[SQ:%.+]] = sopt.mul %[[X]], %[[X]] : tensor<2x16xbf16>
// CHECK-NEXT: [[SUM:%.+]] = sopt.reduce sum [[SQ]] dims = [1] keep_dims : tensor<2x16xbf16> -> tensor<2x1xbf16>
// CHECK-NEXT: [[MS:%.+]] = sopt.mul [[SUM]], [[INV]] : tensor<2x1xbf16>
// CHECK-NEXT: [[SHIFT:%.+]] = sopt.add [[MS]], [[EPS]] : tensor<2x1xbf16>
// CHECK-NEXT: [[RS:%.+]] = sopt.rsqrt [[SHIFT]] : tensor<2x1xbf16>
// CHECK-NEXT: [[RSB:%.+]] = sopt.broadcast [[RS]] dims = [0, 1] : tensor<2x1xbf16> -> tensor<2x16xbf16>
// CHECK-NEXT: [[Y:%.+]] = sopt.mul %[[X]], [[RSB]] : tensor<2x16xbf16>
// CHECK-NEXT: return [[Y]]
func.func @rms_norm_bf16(%x: tensor<2x16xbf16>) -> tensor<2x16xbf16> {
  %0 = sopt.rms_norm %x : tensor<2x16xbf16>
  return %0 : tensor<2x16xbf16>
}

// 0.5 x (1 + erf(x / sqrt(2)))
// CHECK-LABEL: func.func @gelu_erf
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x8xf32>)
// CHECK-DAG: [[RSQRT2:%.+]] = sopt.constant dense<0.707106769> : tensor<4x8xf32>
// CHECK-DAG: [[ONE:%.+]] = sopt.constant dense<1.000000e+00> : tensor<4x8xf32>
// CHECK-DAG: [[HALF:%.+]] = sopt.constant dense<5.000000e-01> : tensor<4x8xf32>
// CHECK: [[T:%.+]] = sopt.mul %[[X]], [[RSQRT2]] : tensor<4x8xf32>
// CHECK-NEXT: [[E:%.+]] = sopt.erf [[T]] : tensor<4x8xf32>
// CHECK-NEXT: [[P:%.+]] = sopt.add [[E]], [[ONE]] : tensor<4x8xf32>
// CHECK-NEXT: [[H:%.+]] = sopt.mul %[[X]], [[HALF]] : tensor<4x8xf32>
// CHECK-NEXT: [[Y:%.+]] = sopt.mul [[H]], [[P]] : tensor<4x8xf32>
// CHECK-NEXT: return [[Y]]
func.func @gelu_erf(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = sopt.gelu %x : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
// CHECK-LABEL: func.func @gelu_tanh
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x8xf32>)
// CHECK-DAG: [[K:%.+]] = sopt.constant dense<0.797884583> : tensor<4x8xf32>
// CHECK-DAG: [[A:%.+]] = sopt.constant dense<4.471500e-02> : tensor<4x8xf32>
// CHECK-DAG: [[ONE:%.+]] = sopt.constant dense<1.000000e+00> : tensor<4x8xf32>
// CHECK-DAG: [[HALF:%.+]] = sopt.constant dense<5.000000e-01> : tensor<4x8xf32>
// CHECK: [[SQ:%.+]] = sopt.mul %[[X]], %[[X]] : tensor<4x8xf32>
// CHECK-NEXT: [[CUBE:%.+]] = sopt.mul [[SQ]], %[[X]] : tensor<4x8xf32>
// CHECK-NEXT: [[AC:%.+]] = sopt.mul [[CUBE]], [[A]] : tensor<4x8xf32>
// CHECK-NEXT: [[POLY:%.+]] = sopt.add %[[X]], [[AC]] : tensor<4x8xf32>
// CHECK-NEXT: [[T:%.+]] = sopt.mul [[POLY]], [[K]] : tensor<4x8xf32>
// CHECK-NEXT: [[TH:%.+]] = sopt.tanh [[T]] : tensor<4x8xf32>
// CHECK-NEXT: [[P:%.+]] = sopt.add [[TH]], [[ONE]] : tensor<4x8xf32>
// CHECK-NEXT: [[H:%.+]] = sopt.mul %[[X]], [[HALF]] : tensor<4x8xf32>
// CHECK-NEXT: [[Y:%.+]] = sopt.mul [[H]], [[P]] : tensor<4x8xf32>
// CHECK-NEXT: return [[Y]]
func.func @gelu_tanh(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = sopt.gelu %x approximation = tanh : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// The causal mask is [sq, sk] = [4, 6], broadcast over the batch; the default
// scale is 1/sqrt(8).
// CHECK-LABEL: func.func @attention_causal
// CHECK-SAME: (%[[Q:[^:]+]]: tensor<2x4x8xf32>, %[[K:[^:]+]]: tensor<2x6x8xf32>, %[[V:[^:]+]]: tensor<2x6x16xf32>)
// CHECK-DAG: [[MASK:%.+]] = sopt.constant dense<{{\[}}[true, false, false, false, false, false], [true, true, false, false, false, false], [true, true, true, false, false, false], [true, true, true, true, false, false]]> : tensor<4x6xi1>
// CHECK-DAG: [[NEGINF:%.+]] = sopt.constant dense<0xFF800000> : tensor<2x4x6xf32>
// CHECK-DAG: [[SCALE:%.+]] = sopt.constant dense<0.353553385> : tensor<2x4x6xf32>
// CHECK: [[S:%.+]] = sopt.matmul %[[Q]], %[[K]] transpose_rhs : tensor<2x4x8xf32>, tensor<2x6x8xf32> -> tensor<2x4x6xf32>
// CHECK-NEXT: [[SS:%.+]] = sopt.mul [[S]], [[SCALE]] : tensor<2x4x6xf32>
// CHECK-NEXT: [[CAUSAL:%.+]] = sopt.broadcast [[MASK]] dims = [1, 2] : tensor<4x6xi1> -> tensor<2x4x6xi1>
// CHECK-NEXT: [[SEL:%.+]] = sopt.select [[CAUSAL]], [[SS]], [[NEGINF]] : tensor<2x4x6xf32>
// CHECK-NEXT: [[MAX:%.+]] = sopt.reduce max [[SEL]] dims = [2] keep_dims : tensor<2x4x6xf32> -> tensor<2x4x1xf32>
// CHECK-NEXT: [[MAXB:%.+]] = sopt.broadcast [[MAX]] dims = [0, 1, 2] : tensor<2x4x1xf32> -> tensor<2x4x6xf32>
// CHECK-NEXT: [[DIFF:%.+]] = sopt.sub [[SEL]], [[MAXB]] : tensor<2x4x6xf32>
// CHECK-NEXT: [[EXP:%.+]] = sopt.exp [[DIFF]] : tensor<2x4x6xf32>
// CHECK-NEXT: [[SUM:%.+]] = sopt.reduce sum [[EXP]] dims = [2] keep_dims : tensor<2x4x6xf32> -> tensor<2x4x1xf32>
// CHECK-NEXT: [[INV:%.+]] = sopt.reciprocal [[SUM]] : tensor<2x4x1xf32>
// CHECK-NEXT: [[INVB:%.+]] = sopt.broadcast [[INV]] dims = [0, 1, 2] : tensor<2x4x1xf32> -> tensor<2x4x6xf32>
// CHECK-NEXT: [[P:%.+]] = sopt.mul [[EXP]], [[INVB]] : tensor<2x4x6xf32>
// CHECK-NEXT: [[O:%.+]] = sopt.matmul [[P]], %[[V]] : tensor<2x4x6xf32>, tensor<2x6x16xf32> -> tensor<2x4x16xf32>
// CHECK-NEXT: return [[O]]
// KEEP-LABEL: func.func @attention_causal
// KEEP-NEXT: [[O:%.+]] = sopt.attention %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} causal : tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x16xf32> -> tensor<2x4x16xf32>
// KEEP-NEXT: return [[O]]
func.func @attention_causal(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x16xf32>) -> tensor<2x4x16xf32> {
  %0 = sopt.attention %q, %k, %v causal
      : tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x16xf32> -> tensor<2x4x16xf32>
  return %0 : tensor<2x4x16xf32>
}

// A boolean mask selects; an explicit scale replaces 1/sqrt(d).
// CHECK-LABEL: func.func @attention_bool_mask
// CHECK-SAME: (%[[Q:[^:]+]]: tensor<4x8xf32>, %[[M:[^:]+]]: tensor<4x4xi1>)
// CHECK-DAG: [[NEGINF:%.+]] = sopt.constant dense<0xFF800000> : tensor<4x4xf32>
// CHECK-DAG: [[SCALE:%.+]] = sopt.constant dense<2.500000e-01> : tensor<4x4xf32>
// CHECK: [[S:%.+]] = sopt.matmul %[[Q]], %[[Q]] transpose_rhs : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x4xf32>
// CHECK-NEXT: [[SS:%.+]] = sopt.mul [[S]], [[SCALE]] : tensor<4x4xf32>
// CHECK-NEXT: [[SEL:%.+]] = sopt.select %[[M]], [[SS]], [[NEGINF]] : tensor<4x4xf32>
// CHECK-NEXT: sopt.reduce max [[SEL]] dims = [1] keep_dims
// CHECK: sopt.matmul %{{[a-z0-9_]+}}, %[[Q]] : tensor<4x4xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
// KEEP-LABEL: func.func @attention_bool_mask
// KEEP-NEXT: sopt.attention %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} mask(%{{[a-z0-9_]+}} : tensor<4x4xi1>) scale = 2.500000e-01 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
func.func @attention_bool_mask(%q: tensor<4x8xf32>, %m: tensor<4x4xi1>) -> tensor<4x8xf32> {
  %0 = sopt.attention %q, %q, %q mask(%m : tensor<4x4xi1>) scale = 0.25
      : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// An additive mask is added to the scaled scores; with neither causal nor a
// boolean mask no select (and no -inf) is left. bf16 throughout.
// CHECK-LABEL: func.func @attention_additive_mask_bf16
// CHECK-SAME: (%[[Q:[^:]+]]: tensor<2x4x8xbf16>, %[[K:[^:]+]]: tensor<2x6x8xbf16>, %[[V:[^:]+]]: tensor<2x6x16xbf16>, %[[M:[^:]+]]: tensor<2x4x6xbf16>)
// CHECK-NEXT: [[SCALE:%.+]] = sopt.constant dense<3.535160e-01> : tensor<2x4x6xbf16>
// CHECK-NEXT: [[S:%.+]] = sopt.matmul %[[Q]], %[[K]] transpose_rhs : tensor<2x4x8xbf16>, tensor<2x6x8xbf16> -> tensor<2x4x6xbf16>
// CHECK-NEXT: [[SS:%.+]] = sopt.mul [[S]], [[SCALE]] : tensor<2x4x6xbf16>
// CHECK-NEXT: [[MASKED:%.+]] = sopt.add [[SS]], %[[M]] : tensor<2x4x6xbf16>
// CHECK-NEXT: [[MAX:%.+]] = sopt.reduce max [[MASKED]] dims = [2] keep_dims : tensor<2x4x6xbf16> -> tensor<2x4x1xbf16>
// CHECK-NOT: sopt.select
// CHECK: [[O:%.+]] = sopt.matmul %{{[a-z0-9_]+}}, %[[V]] : tensor<2x4x6xbf16>, tensor<2x6x16xbf16> -> tensor<2x4x16xbf16>
// CHECK-NEXT: return [[O]]
// KEEP-LABEL: func.func @attention_additive_mask_bf16
// KEEP-NEXT: sopt.attention %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} mask(%{{[a-z0-9_]+}} : tensor<2x4x6xbf16>) : tensor<2x4x8xbf16>, tensor<2x6x8xbf16>, tensor<2x6x16xbf16> -> tensor<2x4x16xbf16>
func.func @attention_additive_mask_bf16(%q: tensor<2x4x8xbf16>, %k: tensor<2x6x8xbf16>,
                                        %v: tensor<2x6x16xbf16>, %m: tensor<2x4x6xbf16>) -> tensor<2x4x16xbf16> {
  %0 = sopt.attention %q, %k, %v mask(%m : tensor<2x4x6xbf16>)
      : tensor<2x4x8xbf16>, tensor<2x6x8xbf16>, tensor<2x6x16xbf16> -> tensor<2x4x16xbf16>
  return %0 : tensor<2x4x16xbf16>
}
