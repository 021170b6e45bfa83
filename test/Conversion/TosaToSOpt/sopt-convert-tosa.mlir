// RUN: sparse-opt %s --sopt-convert-tosa | FileCheck %s
// RUN: sparse-opt %s --sopt-convert-tosa | FileCheck %s --check-prefix=NOTOSA

// No TOSA op, and no shift, zero-point or shape constant, survives.
// NOTOSA-NOT: tosa.

//===----------------------------------------------------------------------===//
// Elementwise binary
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @binary
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<4x8xf32>)
// CHECK: %[[ADD:.*]] = sopt.add %[[A]], %[[B]] : tensor<4x8xf32>
// CHECK: %[[SUB:.*]] = sopt.sub %[[ADD]], %[[B]] : tensor<4x8xf32>
// CHECK: %[[MAX:.*]] = sopt.max %[[SUB]], %[[A]] : tensor<4x8xf32>
// CHECK: %[[MIN:.*]] = sopt.min %[[MAX]], %[[B]] : tensor<4x8xf32>
// CHECK: %[[POW:.*]] = sopt.pow %[[MIN]], %[[A]] : tensor<4x8xf32>
// CHECK: return %[[POW]]
func.func @binary(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tosa.add %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tosa.sub %0, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = tosa.maximum %1, %a : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = tosa.minimum %2, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = tosa.pow %3, %a : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %4 : tensor<4x8xf32>
}

// The zero shift is read and dropped with its constant.
// CHECK-LABEL: func.func @mul
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xbf16>, %[[B:.*]]: tensor<4x8xbf16>)
// CHECK-NEXT: %[[MUL:.*]] = sopt.mul %[[A]], %[[B]] : tensor<4x8xbf16>
// CHECK-NEXT: return %[[MUL]]
func.func @mul(%a: tensor<4x8xbf16>, %b: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %a, %b, %shift : (tensor<4x8xbf16>, tensor<4x8xbf16>, tensor<1xi8>) -> tensor<4x8xbf16>
  return %0 : tensor<4x8xbf16>
}

//===----------------------------------------------------------------------===//
// Implicit broadcasting
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @broadcast_rhs
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[BIAS:.*]]: tensor<1x8xf32>)
// CHECK-NEXT: %[[B:.*]] = sopt.broadcast %[[BIAS]] dims = [0, 1] : tensor<1x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT: %[[R:.*]] = sopt.add %[[X]], %[[B]] : tensor<4x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @broadcast_rhs(%x: tensor<4x8xf32>, %bias: tensor<1x8xf32>) -> tensor<4x8xf32> {
  %0 = tosa.add %x, %bias : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @broadcast_lhs
// CHECK-SAME: (%[[S:.*]]: tensor<4x1xf32>, %[[X:.*]]: tensor<4x8xf32>)
// CHECK-NEXT: %[[B:.*]] = sopt.broadcast %[[S]] dims = [0, 1] : tensor<4x1xf32> -> tensor<4x8xf32>
// CHECK-NEXT: %[[R:.*]] = sopt.sub %[[B]], %[[X]] : tensor<4x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @broadcast_lhs(%s: tensor<4x1xf32>, %x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tosa.sub %s, %x : (tensor<4x1xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// Both operands stretch, each along its own size-1 dimension.
// CHECK-LABEL: func.func @broadcast_both
// CHECK-SAME: (%[[COL:.*]]: tensor<4x1xf32>, %[[ROW:.*]]: tensor<1x8xf32>)
// CHECK-NEXT: %[[C:.*]] = sopt.broadcast %[[COL]] dims = [0, 1] : tensor<4x1xf32> -> tensor<4x8xf32>
// CHECK-NEXT: %[[R:.*]] = sopt.broadcast %[[ROW]] dims = [0, 1] : tensor<1x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT: %[[M:.*]] = sopt.mul %[[C]], %[[R]] : tensor<4x8xf32>
// CHECK-NEXT: return %[[M]]
func.func @broadcast_both(%col: tensor<4x1xf32>, %row: tensor<1x8xf32>) -> tensor<4x8xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %col, %row, %shift : (tensor<4x1xf32>, tensor<1x8xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// Rank 3, the middle dimension stretching (a per-batch, per-channel scale).
// CHECK-LABEL: func.func @broadcast_rank3
// CHECK-SAME: (%[[X:.*]]: tensor<2x16x8xf16>, %[[S:.*]]: tensor<2x1x8xf16>)
// CHECK-NEXT: %[[B:.*]] = sopt.broadcast %[[S]] dims = [0, 1, 2] : tensor<2x1x8xf16> -> tensor<2x16x8xf16>
// CHECK-NEXT: %[[R:.*]] = sopt.max %[[X]], %[[B]] : tensor<2x16x8xf16>
// CHECK-NEXT: return %[[R]]
func.func @broadcast_rank3(%x: tensor<2x16x8xf16>, %s: tensor<2x1x8xf16>) -> tensor<2x16x8xf16> {
  %0 = tosa.maximum %x, %s : (tensor<2x16x8xf16>, tensor<2x1x8xf16>) -> tensor<2x16x8xf16>
  return %0 : tensor<2x16x8xf16>
}

// A scalar-like [1, 1] operand, as torch-mlir emits for Python scalars.
// CHECK-LABEL: func.func @broadcast_scalar
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK-NEXT: %[[C:.*]] = sopt.constant dense<2.000000e+00> : tensor<1x1xf32>
// CHECK-NEXT: %[[B:.*]] = sopt.broadcast %[[C]] dims = [0, 1] : tensor<1x1xf32> -> tensor<4x8xf32>
// CHECK-NEXT: %[[R:.*]] = sopt.pow %[[X]], %[[B]] : tensor<4x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @broadcast_scalar(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %two = "tosa.const"() <{values = dense<2.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %0 = tosa.pow %x, %two : (tensor<4x8xf32>, tensor<1x1xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

//===----------------------------------------------------------------------===//
// Elementwise unary
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @unary
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK-NEXT: %[[ABS:.*]] = sopt.abs %[[X]] : tensor<4x8xf32>
// CHECK-NEXT: %[[EXP:.*]] = sopt.exp %[[ABS]] : tensor<4x8xf32>
// CHECK-NEXT: %[[LOG:.*]] = sopt.log %[[EXP]] : tensor<4x8xf32>
// CHECK-NEXT: %[[TANH:.*]] = sopt.tanh %[[LOG]] : tensor<4x8xf32>
// CHECK-NEXT: %[[SIG:.*]] = sopt.sigmoid %[[TANH]] : tensor<4x8xf32>
// CHECK-NEXT: %[[ERF:.*]] = sopt.erf %[[SIG]] : tensor<4x8xf32>
// CHECK-NEXT: %[[RSQRT:.*]] = sopt.rsqrt %[[ERF]] : tensor<4x8xf32>
// CHECK-NEXT: %[[RECIP:.*]] = sopt.reciprocal %[[RSQRT]] : tensor<4x8xf32>
// CHECK-NEXT: return %[[RECIP]]
func.func @unary(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tosa.abs %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tosa.exp %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = tosa.log %1 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = tosa.tanh %2 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = tosa.sigmoid %3 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %5 = tosa.erf %4 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %6 = tosa.rsqrt %5 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %7 = tosa.reciprocal %6 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %7 : tensor<4x8xf32>
}

// The float zero points are read and dropped with their constant.
// CHECK-LABEL: func.func @negate
// CHECK-SAME: (%[[X:.*]]: tensor<16xf64>)
// CHECK-NEXT: %[[N:.*]] = sopt.neg %[[X]] : tensor<16xf64>
// CHECK-NEXT: return %[[N]]
func.func @negate(%x: tensor<16xf64>) -> tensor<16xf64> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf64>}> : () -> tensor<1xf64>
  %0 = tosa.negate %x, %zp, %zp : (tensor<16xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<16xf64>
  return %0 : tensor<16xf64>
}

//===----------------------------------------------------------------------===//
// Clamp
//===----------------------------------------------------------------------===//

// torch-mlir's relu: [0, FLT_MAX].
// CHECK-LABEL: func.func @clamp_relu
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK-NEXT: %[[R:.*]] = sopt.relu %[[X]] : tensor<4x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @clamp_relu(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tosa.clamp %x {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// [0, +inf) in f16, and [0, 65504] (the largest f16) are both relu.
// CHECK-LABEL: func.func @clamp_relu_f16
// CHECK-SAME: (%[[X:.*]]: tensor<8xf16>)
// CHECK-NEXT: %[[R0:.*]] = sopt.relu %[[X]] : tensor<8xf16>
// CHECK-NEXT: %[[R1:.*]] = sopt.relu %[[R0]] : tensor<8xf16>
// CHECK-NEXT: return %[[R1]]
func.func @clamp_relu_f16(%x: tensor<8xf16>) -> tensor<8xf16> {
  %0 = tosa.clamp %x {min_val = 0.0 : f16, max_val = 0x7C00 : f16} : (tensor<8xf16>) -> tensor<8xf16>
  %1 = tosa.clamp %0 {min_val = 0.0 : f16, max_val = 65504.0 : f16} : (tensor<8xf16>) -> tensor<8xf16>
  return %1 : tensor<8xf16>
}

// relu6: both bounds, against splat constants.
// CHECK-LABEL: func.func @clamp_relu6
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK-NEXT: %[[LO:.*]] = sopt.constant dense<0.000000e+00> : tensor<4x8xf32>
// CHECK-NEXT: %[[MAX:.*]] = sopt.max %[[X]], %[[LO]] : tensor<4x8xf32>
// CHECK-NEXT: %[[HI:.*]] = sopt.constant dense<6.000000e+00> : tensor<4x8xf32>
// CHECK-NEXT: %[[MIN:.*]] = sopt.min %[[MAX]], %[[HI]] : tensor<4x8xf32>
// CHECK-NEXT: return %[[MIN]]
func.func @clamp_relu6(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tosa.clamp %x {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// Only the finite bound is applied.
// CHECK-LABEL: func.func @clamp_one_sided
// CHECK-SAME: (%[[X:.*]]: tensor<4xbf16>)
// CHECK-NEXT: %[[HI:.*]] = sopt.constant dense<1.000000e+00> : tensor<4xbf16>
// CHECK-NEXT: %[[MIN:.*]] = sopt.min %[[X]], %[[HI]] : tensor<4xbf16>
// CHECK-NEXT: %[[LO:.*]] = sopt.constant dense<-1.000000e+00> : tensor<4xbf16>
// CHECK-NEXT: %[[MAX:.*]] = sopt.max %[[MIN]], %[[LO]] : tensor<4xbf16>
// CHECK-NEXT: return %[[MAX]]
func.func @clamp_one_sided(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = tosa.clamp %x {min_val = 0xFF80 : bf16, max_val = 1.0 : bf16} : (tensor<4xbf16>) -> tensor<4xbf16>
  %1 = tosa.clamp %0 {min_val = -1.0 : bf16, max_val = 0x7F80 : bf16} : (tensor<4xbf16>) -> tensor<4xbf16>
  return %1 : tensor<4xbf16>
}

//===----------------------------------------------------------------------===//
// Comparisons and select
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @compare
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<4x8xf32>, %[[T:.*]]: tensor<4x1xf32>)
// CHECK-NEXT: %[[EQ:.*]] = sopt.compare eq, %[[A]], %[[B]] : tensor<4x8xf32>
// CHECK-NEXT: %[[GT:.*]] = sopt.compare gt, %[[A]], %[[B]] : tensor<4x8xf32>
// CHECK-NEXT: %[[TB:.*]] = sopt.broadcast %[[T]] dims = [0, 1] : tensor<4x1xf32> -> tensor<4x8xf32>
// CHECK-NEXT: %[[GE:.*]] = sopt.compare ge, %[[A]], %[[TB]] : tensor<4x8xf32>
// CHECK-NEXT: return %[[EQ]], %[[GT]], %[[GE]]
func.func @compare(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %t: tensor<4x1xf32>)
    -> (tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xi1>) {
  %0 = tosa.equal %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  %1 = tosa.greater %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  %2 = tosa.greater_equal %a, %t : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xi1>
  return %0, %1, %2 : tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xi1>
}

// A [1, sk] padding mask and a scalar fill stretch to the scores.
// CHECK-LABEL: func.func @select
// CHECK-SAME: (%[[KEEP:.*]]: tensor<1x8xi1>, %[[S:.*]]: tensor<4x8xf32>, %[[FILL:.*]]: tensor<1x1xf32>)
// CHECK-NEXT: %[[K:.*]] = sopt.broadcast %[[KEEP]] dims = [0, 1] : tensor<1x8xi1> -> tensor<4x8xi1>
// CHECK-NEXT: %[[F:.*]] = sopt.broadcast %[[FILL]] dims = [0, 1] : tensor<1x1xf32> -> tensor<4x8xf32>
// CHECK-NEXT: %[[R:.*]] = sopt.select %[[K]], %[[S]], %[[F]] : tensor<4x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @select(%keep: tensor<1x8xi1>, %s: tensor<4x8xf32>, %fill: tensor<1x1xf32>) -> tensor<4x8xf32> {
  %0 = tosa.select %keep, %s, %fill : (tensor<1x8xi1>, tensor<4x8xf32>, tensor<1x1xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

//===----------------------------------------------------------------------===//
// Cast
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @cast
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<4xi32>, %[[M:.*]]: tensor<4xi1>)
// CHECK-NEXT: %[[H:.*]] = sopt.cast %[[X]] : tensor<4xf32> to tensor<4xbf16>
// CHECK-NEXT: %[[F:.*]] = sopt.cast %[[I]] : tensor<4xi32> to tensor<4xf16>
// CHECK-NEXT: %[[T:.*]] = sopt.cast %[[X]] : tensor<4xf32> to tensor<4xi64>
// CHECK-NEXT: %[[B:.*]] = sopt.cast %[[M]] : tensor<4xi1> to tensor<4xf32>
// CHECK-NEXT: return %[[H]], %[[F]], %[[T]], %[[B]]
func.func @cast(%x: tensor<4xf32>, %i: tensor<4xi32>, %m: tensor<4xi1>)
    -> (tensor<4xbf16>, tensor<4xf16>, tensor<4xi64>, tensor<4xf32>) {
  %0 = tosa.cast %x : (tensor<4xf32>) -> tensor<4xbf16>
  %1 = tosa.cast %i : (tensor<4xi32>) -> tensor<4xf16>
  %2 = tosa.cast %x : (tensor<4xf32>) -> tensor<4xi64>
  %3 = tosa.cast %m : (tensor<4xi1>) -> tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xbf16>, tensor<4xf16>, tensor<4xi64>, tensor<4xf32>
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reduce
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x8xf32>)
// CHECK-NEXT: %[[S:.*]] = sopt.reduce sum %[[X]] dims = [2] keep_dims : tensor<2x4x8xf32> -> tensor<2x4x1xf32>
// CHECK-NEXT: %[[M:.*]] = sopt.reduce max %[[X]] dims = [0] keep_dims : tensor<2x4x8xf32> -> tensor<1x4x8xf32>
// CHECK-NEXT: %[[N:.*]] = sopt.reduce min %[[X]] dims = [1] keep_dims : tensor<2x4x8xf32> -> tensor<2x1x8xf32>
// CHECK-NEXT: return %[[S]], %[[M]], %[[N]]
func.func @reduce(%x: tensor<2x4x8xf32>)
    -> (tensor<2x4x1xf32>, tensor<1x4x8xf32>, tensor<2x1x8xf32>) {
  %0 = tosa.reduce_sum %x {axis = 2 : i32} : (tensor<2x4x8xf32>) -> tensor<2x4x1xf32>
  %1 = tosa.reduce_max %x {axis = 0 : i32} : (tensor<2x4x8xf32>) -> tensor<1x4x8xf32>
  %2 = tosa.reduce_min %x {axis = 1 : i32} : (tensor<2x4x8xf32>) -> tensor<2x1x8xf32>
  return %0, %1, %2 : tensor<2x4x1xf32>, tensor<1x4x8xf32>, tensor<2x1x8xf32>
}

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reshape
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x8xf32>, %[[I:.*]]: tensor<6xi32>)
// CHECK-NEXT: %[[R:.*]] = sopt.reshape %[[X]] : tensor<2x4x8xf32> -> tensor<8x8xf32>
// CHECK-NEXT: %[[J:.*]] = sopt.reshape %[[I]] : tensor<6xi32> -> tensor<1x2x3xi32>
// CHECK-NEXT: return %[[R]], %[[J]]
func.func @reshape(%x: tensor<2x4x8xf32>, %i: tensor<6xi32>) -> (tensor<8x8xf32>, tensor<1x2x3xi32>) {
  %s = tosa.const_shape {values = dense<[8, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.reshape %x, %s : (tensor<2x4x8xf32>, !tosa.shape<2>) -> tensor<8x8xf32>
  %t = tosa.const_shape {values = dense<[1, 2, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %1 = tosa.reshape %i, %t : (tensor<6xi32>, !tosa.shape<3>) -> tensor<1x2x3xi32>
  return %0, %1 : tensor<8x8xf32>, tensor<1x2x3xi32>
}

// CHECK-LABEL: func.func @transpose
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x8xf32>)
// CHECK-NEXT: %[[T:.*]] = sopt.transpose %[[X]] permutation = [2, 0, 1] : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
// CHECK-NEXT: return %[[T]]
func.func @transpose(%x: tensor<2x4x8xf32>) -> tensor<8x2x4xf32> {
  %0 = tosa.transpose %x {perms = array<i32: 2, 0, 1>} : (tensor<2x4x8xf32>) -> tensor<8x2x4xf32>
  return %0 : tensor<8x2x4xf32>
}

//===----------------------------------------------------------------------===//
// Matmul
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.*]]: tensor<2x4x16xf32>, %[[B:.*]]: tensor<2x16x8xf32>)
// CHECK-NEXT: %[[M:.*]] = sopt.matmul %[[A]], %[[B]] : tensor<2x4x16xf32>, tensor<2x16x8xf32> -> tensor<2x4x8xf32>
// CHECK-NEXT: return %[[M]]
func.func @matmul(%a: tensor<2x4x16xf32>, %b: tensor<2x16x8xf32>) -> tensor<2x4x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<2x4x16xf32>, tensor<2x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// A bf16 product accumulated into f32: the operands widen first (exactly).
// CHECK-LABEL: func.func @matmul_widening
// CHECK-SAME: (%[[A:.*]]: tensor<1x4x16xbf16>, %[[B:.*]]: tensor<1x16x8xbf16>)
// CHECK-NEXT: %[[WA:.*]] = sopt.cast %[[A]] : tensor<1x4x16xbf16> to tensor<1x4x16xf32>
// CHECK-NEXT: %[[WB:.*]] = sopt.cast %[[B]] : tensor<1x16x8xbf16> to tensor<1x16x8xf32>
// CHECK-NEXT: %[[M:.*]] = sopt.matmul %[[WA]], %[[WB]] : tensor<1x4x16xf32>, tensor<1x16x8xf32> -> tensor<1x4x8xf32>
// CHECK-NEXT: return %[[M]]
func.func @matmul_widening(%a: tensor<1x4x16xbf16>, %b: tensor<1x16x8xbf16>) -> tensor<1x4x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x16xbf16>, tensor<1x16x8xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x4x8xf32>
  return %0 : tensor<1x4x8xf32>
}

//===----------------------------------------------------------------------===//
// Constants and identity
//===----------------------------------------------------------------------===//

// Data constants keep their attribute, integer ones included; identity
// disappears.
// CHECK-LABEL: func.func @constants
// CHECK-SAME: (%[[X:.*]]: tensor<2x2xf32>)
// CHECK-NEXT: %[[W:.*]] = sopt.constant dense<{{\[}}[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT: %[[A:.*]] = sopt.add %[[X]], %[[W]] : tensor<2x2xf32>
// CHECK-NEXT: %[[I:.*]] = sopt.constant dense<[1, 2]> : tensor<2xi32>
// CHECK-NEXT: %[[F:.*]] = sopt.cast %[[I]] : tensor<2xi32> to tensor<2xf32>
// CHECK-NEXT: return %[[A]], %[[F]]
func.func @constants(%x: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2xf32>) {
  %w = "tosa.const"() <{values = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>}> : () -> tensor<2x2xf32>
  %0 = tosa.add %x, %w : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %1 = tosa.identity %0 : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %i = "tosa.const"() <{values = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %2 = tosa.cast %i : (tensor<2xi32>) -> tensor<2xf32>
  return %1, %2 : tensor<2x2xf32>, tensor<2xf32>
}

//===----------------------------------------------------------------------===//
// Graphs as torch-mlir emits them
//===----------------------------------------------------------------------===//

// nn.Linear(16, 8) + ReLU on a [4, 16] batch: the weight is transposed, both
// operands get a unit batch dimension for tosa.matmul, the bias a unit row.
// CHECK-LABEL: func.func @mlp
// CHECK-SAME: (%[[X:.*]]: tensor<4x16xf32>)
// CHECK-DAG: %[[W:.*]] = sopt.constant dense<5.000000e-01> : tensor<8x16xf32>
// CHECK-DAG: %[[BIAS:.*]] = sopt.constant dense<1.000000e-01> : tensor<8xf32>
// CHECK: %[[WT:.*]] = sopt.transpose %[[W]] permutation = [1, 0] : tensor<8x16xf32> -> tensor<16x8xf32>
// CHECK: %[[X3:.*]] = sopt.reshape %[[X]] : tensor<4x16xf32> -> tensor<1x4x16xf32>
// CHECK: %[[W3:.*]] = sopt.reshape %[[WT]] : tensor<16x8xf32> -> tensor<1x16x8xf32>
// CHECK: %[[MM:.*]] = sopt.matmul %[[X3]], %[[W3]] : tensor<1x4x16xf32>, tensor<1x16x8xf32> -> tensor<1x4x8xf32>
// CHECK: %[[Y:.*]] = sopt.reshape %[[MM]] : tensor<1x4x8xf32> -> tensor<4x8xf32>
// CHECK: %[[B2:.*]] = sopt.reshape %[[BIAS]] : tensor<8xf32> -> tensor<1x8xf32>
// CHECK: %[[BB:.*]] = sopt.broadcast %[[B2]] dims = [0, 1] : tensor<1x8xf32> -> tensor<4x8xf32>
// CHECK: %[[Z:.*]] = sopt.add %[[Y]], %[[BB]] : tensor<4x8xf32>
// CHECK: %[[R:.*]] = sopt.relu %[[Z]] : tensor<4x8xf32>
// CHECK: return %[[R]]
func.func @mlp(%x: tensor<4x16xf32>) -> tensor<4x8xf32> {
  %w = "tosa.const"() <{values = dense<0.5> : tensor<8x16xf32>}> : () -> tensor<8x16xf32>
  %b = "tosa.const"() <{values = dense<0.1> : tensor<8xf32>}> : () -> tensor<8xf32>
  %wt = tosa.transpose %w {perms = array<i32: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %s0 = tosa.const_shape {values = dense<[1, 4, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %x3 = tosa.reshape %x, %s0 : (tensor<4x16xf32>, !tosa.shape<3>) -> tensor<1x4x16xf32>
  %s1 = tosa.const_shape {values = dense<[1, 16, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %w3 = tosa.reshape %wt, %s1 : (tensor<16x8xf32>, !tosa.shape<3>) -> tensor<1x16x8xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %mm = tosa.matmul %x3, %w3, %zp, %zp : (tensor<1x4x16xf32>, tensor<1x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x8xf32>
  %s2 = tosa.const_shape {values = dense<[4, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %y = tosa.reshape %mm, %s2 : (tensor<1x4x8xf32>, !tosa.shape<2>) -> tensor<4x8xf32>
  %s3 = tosa.const_shape {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b2 = tosa.reshape %b, %s3 : (tensor<8xf32>, !tosa.shape<2>) -> tensor<1x8xf32>
  %z = tosa.add %y, %b2 : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  %r = tosa.clamp %z {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// nn.LayerNorm(8) over [4, 8]: mean and biased variance through reduce_sum
// and a 1/N scalar, rsqrt(var + eps), then the affine scale and shift.
// CHECK-LABEL: func.func @layer_norm_like
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[G:.*]]: tensor<1x8xf32>, %[[BETA:.*]]: tensor<1x8xf32>)
// CHECK-DAG: %[[INV_N:.*]] = sopt.constant dense<1.250000e-01> : tensor<1x1xf32>
// CHECK-DAG: %[[EPS:.*]] = sopt.constant dense<9.99999974E-6> : tensor<1x1xf32>
// CHECK: %[[SUM:.*]] = sopt.reduce sum %[[X]] dims = [1] keep_dims : tensor<4x8xf32> -> tensor<4x1xf32>
// CHECK: %[[INV_NB:.*]] = sopt.broadcast %[[INV_N]] dims = [0, 1] : tensor<1x1xf32> -> tensor<4x1xf32>
// CHECK: %[[MEAN:.*]] = sopt.mul %[[SUM]], %[[INV_NB]] : tensor<4x1xf32>
// CHECK: %[[MEANB:.*]] = sopt.broadcast %[[MEAN]] dims = [0, 1] : tensor<4x1xf32> -> tensor<4x8xf32>
// CHECK: %[[C:.*]] = sopt.sub %[[X]], %[[MEANB]] : tensor<4x8xf32>
// CHECK: %[[SQ:.*]] = sopt.mul %[[C]], %[[C]] : tensor<4x8xf32>
// CHECK: %[[SSQ:.*]] = sopt.reduce sum %[[SQ]] dims = [1] keep_dims : tensor<4x8xf32> -> tensor<4x1xf32>
// CHECK: %[[INV_NB2:.*]] = sopt.broadcast %[[INV_N]] dims = [0, 1] : tensor<1x1xf32> -> tensor<4x1xf32>
// CHECK: %[[VAR:.*]] = sopt.mul %[[SSQ]], %[[INV_NB2]] : tensor<4x1xf32>
// CHECK: %[[EPSB:.*]] = sopt.broadcast %[[EPS]] dims = [0, 1] : tensor<1x1xf32> -> tensor<4x1xf32>
// CHECK: %[[VE:.*]] = sopt.add %[[VAR]], %[[EPSB]] : tensor<4x1xf32>
// CHECK: %[[RS:.*]] = sopt.rsqrt %[[VE]] : tensor<4x1xf32>
// CHECK: %[[RSB:.*]] = sopt.broadcast %[[RS]] dims = [0, 1] : tensor<4x1xf32> -> tensor<4x8xf32>
// CHECK: %[[NORM:.*]] = sopt.mul %[[C]], %[[RSB]] : tensor<4x8xf32>
// CHECK: %[[GB:.*]] = sopt.broadcast %[[G]] dims = [0, 1] : tensor<1x8xf32> -> tensor<4x8xf32>
// CHECK: %[[SCALED:.*]] = sopt.mul %[[NORM]], %[[GB]] : tensor<4x8xf32>
// CHECK: %[[BB:.*]] = sopt.broadcast %[[BETA]] dims = [0, 1] : tensor<1x8xf32> -> tensor<4x8xf32>
// CHECK: %[[Y:.*]] = sopt.add %[[SCALED]], %[[BB]] : tensor<4x8xf32>
// CHECK: return %[[Y]]
func.func @layer_norm_like(%x: tensor<4x8xf32>, %gamma: tensor<1x8xf32>, %beta: tensor<1x8xf32>) -> tensor<4x8xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %inv_n = "tosa.const"() <{values = dense<1.250000e-01> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %eps = "tosa.const"() <{values = dense<9.99999974E-6> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %sum = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %mean = tosa.mul %sum, %inv_n, %shift : (tensor<4x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<4x1xf32>
  %c = tosa.sub %x, %mean : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %sq = tosa.mul %c, %c, %shift : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  %ssq = tosa.reduce_sum %sq {axis = 1 : i32} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %var = tosa.mul %ssq, %inv_n, %shift : (tensor<4x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<4x1xf32>
  %ve = tosa.add %var, %eps : (tensor<4x1xf32>, tensor<1x1xf32>) -> tensor<4x1xf32>
  %rs = tosa.rsqrt %ve : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %norm = tosa.mul %c, %rs, %shift : (tensor<4x8xf32>, tensor<4x1xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  %scaled = tosa.mul %norm, %gamma, %shift : (tensor<4x8xf32>, tensor<1x8xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  %y = tosa.add %scaled, %beta : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
