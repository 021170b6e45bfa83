// RUN: sparse-opt %s --sopt-decompose-composites --sopt-form-fusion-regions --sopt-group-backbones --sopt-propagate-mapping --sopt-schedule-sparse --sopt-fuse-sparse-epilogues -split-input-file | FileCheck %s

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// Bias + GELU read the product at the element they compute: the region
// becomes the epilogue of input 1, and the product moves next to it (after
// the matmul that the region also reads).
// CHECK-LABEL: func.func @bias_gelu
// CHECK: sopt.matmul
// CHECK-NEXT: %[[Y:.*]] = sopt.spmm {{.*}}schedule = #sopt.spmm_schedule
// CHECK-NEXT: sopt.fusion ins(%{{.*}}, %[[Y]], %{{.*}} : {{.*}}) attributes {{{.*}}sopt.sparse_epilogue = 1 : i64
func.func @bias_gelu(%w: tensor<64x32xf32, #CSR>, %x: tensor<32x16xf32>, %b: tensor<64xf32>,
                     %u: tensor<64x8xf32>, %v: tensor<8x16xf32>) -> tensor<64x16xf32> {
  %y = sopt.spmm %w, %x : tensor<64x32xf32, #CSR>, tensor<32x16xf32> -> tensor<64x16xf32>
  %m = sopt.matmul %u, %v : tensor<64x8xf32>, tensor<8x16xf32> -> tensor<64x16xf32>
  %bb = sopt.broadcast %b dims = [0] : tensor<64xf32> -> tensor<64x16xf32>
  %z = sopt.add %y, %bb : tensor<64x16xf32>
  %g = sopt.gelu %z : tensor<64x16xf32>
  %r = sopt.add %g, %m : tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// A reduction (softmax) needs whole rows: not an epilogue.
// CHECK-LABEL: func.func @softmax
// CHECK: sopt.fusion
// CHECK-NOT: sopt.sparse_epilogue
func.func @softmax(%w: tensor<64x32xf32, #CSR>, %x: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %y = sopt.spmm %w, %x : tensor<64x32xf32, #CSR>, tensor<32x16xf32> -> tensor<64x16xf32>
  %s = sopt.softmax %y dim = 1 : tensor<64x16xf32>
  return %s : tensor<64x16xf32>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// The product is also returned: it must be stored, so no epilogue.
// CHECK-LABEL: func.func @two_users
// CHECK-NOT: sopt.sparse_epilogue
func.func @two_users(%w: tensor<64x32xf32, #CSR>, %x: tensor<32x16xf32>) -> (tensor<64x16xf32>, tensor<64x16xf32>) {
  %y = sopt.spmm %w, %x : tensor<64x32xf32, #CSR>, tensor<32x16xf32> -> tensor<64x16xf32>
  %r = sopt.relu %y : tensor<64x16xf32>
  return %y, %r : tensor<64x16xf32>, tensor<64x16xf32>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// The region reads the product transposed: another element than it writes.
// CHECK-LABEL: func.func @transposed
// CHECK-NOT: sopt.sparse_epilogue
func.func @transposed(%w: tensor<16x32xf32, #CSR>, %x: tensor<32x16xf32>, %b: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %y = sopt.spmm %w, %x : tensor<16x32xf32, #CSR>, tensor<32x16xf32> -> tensor<16x16xf32>
  %t = sopt.transpose %y permutation = [1, 0] : tensor<16x16xf32> -> tensor<16x16xf32>
  %r = sopt.add %t, %b : tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// -----

#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed), posWidth = 32, crdWidth = 32 }>

// No schedule (CSC goes to cuSPARSE): no kernel of ours to fuse into.
// CHECK-LABEL: func.func @unscheduled
// CHECK-NOT: sopt.sparse_epilogue
func.func @unscheduled(%w: tensor<64x32xf32, #CSC>, %x: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %y = sopt.spmm %w, %x : tensor<64x32xf32, #CSC>, tensor<32x16xf32> -> tensor<64x16xf32>
  %r = sopt.relu %y : tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}
