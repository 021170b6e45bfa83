// RUN: sparse-opt %s -canonicalize -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @cast_identity
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x8xf32>)
// CHECK-NEXT: return %[[X]] : tensor<4x8xf32>
func.func @cast_identity(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = sopt.cast %x : tensor<4x8xf32> to tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @cast_kept
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x8xf32>)
// CHECK-NEXT: %[[C:.+]] = sopt.cast %[[X]] : tensor<4x8xf32> to tensor<4x8xbf16>
// CHECK-NEXT: return %[[C]]
func.func @cast_kept(%x: tensor<4x8xf32>) -> tensor<4x8xbf16> {
  %0 = sopt.cast %x : tensor<4x8xf32> to tensor<4x8xbf16>
  return %0 : tensor<4x8xbf16>
}

// -----

// CHECK-LABEL: func.func @broadcast_identity
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x8xf32>)
// CHECK-NEXT: return %[[X]] : tensor<4x8xf32>
func.func @broadcast_identity(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = sopt.broadcast %x dims = [0, 1] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_kept
// CHECK-NEXT: sopt.broadcast %{{[a-z0-9_]+}} dims = [0, 1] : tensor<4x1xf32> -> tensor<4x8xf32>
func.func @broadcast_kept(%x: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %0 = sopt.broadcast %x dims = [0, 1] : tensor<4x1xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_identity
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x8xf32>)
// CHECK-NEXT: return %[[X]] : tensor<4x8xf32>
func.func @reshape_identity(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = sopt.reshape %x : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// The outer reshape reads straight from %x; the inner one is dead.
// CHECK-LABEL: func.func @reshape_reshape
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x4x8xf32>)
// CHECK-NEXT: %[[R:.+]] = sopt.reshape %[[X]] : tensor<2x4x8xf32> -> tensor<64xf32>
// CHECK-NEXT: return %[[R]] : tensor<64xf32>
func.func @reshape_reshape(%x: tensor<2x4x8xf32>) -> tensor<64xf32> {
  %0 = sopt.reshape %x : tensor<2x4x8xf32> -> tensor<8x8xf32>
  %1 = sopt.reshape %0 : tensor<8x8xf32> -> tensor<64xf32>
  return %1 : tensor<64xf32>
}

// -----

// A chain of three collapses to one reshape; the inner one with another user
// stays.
// CHECK-LABEL: func.func @reshape_chain
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x4x8xf32>)
// CHECK-DAG: %[[A:.+]] = sopt.reshape %[[X]] : tensor<2x4x8xf32> -> tensor<8x8xf32>
// CHECK-DAG: %[[B:.+]] = sopt.reshape %[[X]] : tensor<2x4x8xf32> -> tensor<4x16xf32>
// CHECK-NOT: sopt.reshape
// CHECK: return %[[A]], %[[B]]
func.func @reshape_chain(%x: tensor<2x4x8xf32>) -> (tensor<8x8xf32>, tensor<4x16xf32>) {
  %0 = sopt.reshape %x : tensor<2x4x8xf32> -> tensor<8x8xf32>
  %1 = sopt.reshape %0 : tensor<8x8xf32> -> tensor<64xf32>
  %2 = sopt.reshape %1 : tensor<64xf32> -> tensor<4x16xf32>
  return %0, %2 : tensor<8x8xf32>, tensor<4x16xf32>
}

// -----

// Back to the original shape: nothing is left.
// CHECK-LABEL: func.func @reshape_round_trip
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x4x8xf32>)
// CHECK-NEXT: return %[[X]] : tensor<2x4x8xf32>
func.func @reshape_round_trip(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %0 = sopt.reshape %x : tensor<2x4x8xf32> -> tensor<64xf32>
  %1 = sopt.reshape %0 : tensor<64xf32> -> tensor<2x4x8xf32>
  return %1 : tensor<2x4x8xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_identity
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x4x8xf32>)
// CHECK-NEXT: return %[[X]] : tensor<2x4x8xf32>
func.func @transpose_identity(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %0 = sopt.transpose %x permutation = [0, 1, 2] : tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

// A square transpose has the operand's type but is not an identity.
// CHECK-LABEL: func.func @transpose_kept
// CHECK-NEXT: sopt.transpose %{{[a-z0-9_]+}} permutation = [1, 0] : tensor<8x8xf32> -> tensor<8x8xf32>
func.func @transpose_kept(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sopt.transpose %x permutation = [1, 0] : tensor<8x8xf32> -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Equal constants are deduplicated, unused ones removed.
// CHECK-LABEL: func.func @constants
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4xf32>)
// CHECK-NEXT: %[[C:.+]] = sopt.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK-NEXT: %[[A:.+]] = sopt.mul %[[X]], %[[C]] : tensor<4xf32>
// CHECK-NEXT: %[[B:.+]] = sopt.sub %[[A]], %[[C]] : tensor<4xf32>
// CHECK-NEXT: return %[[B]]
func.func @constants(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = sopt.constant dense<2.0> : tensor<4xf32>
  %c1 = sopt.constant dense<2.0> : tensor<4xf32>
  %unused = sopt.constant dense<3.0> : tensor<4xf32>
  %0 = sopt.mul %x, %c0 : tensor<4xf32>
  %1 = sopt.sub %0, %c1 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Commutative ops take their constant operand on the right.
// CHECK-LABEL: func.func @commutative_constant
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4xf32>)
// CHECK-NEXT: %[[C:.+]] = sopt.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT: %[[A:.+]] = sopt.add %[[X]], %[[C]] : tensor<4xf32>
// CHECK-NEXT: %[[S:.+]] = sopt.sub %[[C]], %[[A]] : tensor<4xf32>
// CHECK-NEXT: return %[[S]]
func.func @commutative_constant(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = sopt.constant dense<1.0> : tensor<4xf32>
  %0 = sopt.add %c, %x : tensor<4xf32>
  %1 = sopt.sub %c, %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Folding an identity op leaves a constant operand in place.
// CHECK-LABEL: func.func @fold_through_constant
// CHECK-NEXT: %[[C:.+]] = sopt.constant dense<{{\[}}[1.000000e+00, 2.000000e+00]]> : tensor<1x2xf32>
// CHECK-NEXT: return %[[C]], %[[C]]
func.func @fold_through_constant() -> (tensor<1x2xf32>, tensor<1x2xf32>) {
  %c = sopt.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %0 = sopt.transpose %c permutation = [0, 1] : tensor<1x2xf32> -> tensor<1x2xf32>
  %1 = sopt.reshape %c : tensor<1x2xf32> -> tensor<1x2xf32>
  return %0, %1 : tensor<1x2xf32>, tensor<1x2xf32>
}
