// RUN: sparse-opt %s -split-input-file --sopt-decompose-composites --canonicalize --sopt-form-fusion-regions --sopt-group-backbones | FileCheck %s

// LayerNorm: one group. The mean's reduce is the backbone; the variance's
// reduce (same [64x128] space, same dims, linked through the centred value)
// is a sub-backbone. Every op is in group 0; constants get no group.
// CHECK-LABEL: func.func @layer_norm
// CHECK-NEXT: %[[F:[^ ]+]] = sopt.fusion ins(%arg0, %arg1, %arg2 : tensor<64x128xf32>, tensor<128xf32>, tensor<128xf32>) -> tensor<64x128xf32> {
// CHECK-NEXT: ^bb0(%[[X:[^:]+]]: tensor<64x128xf32>, %[[G:[^:]+]]: tensor<128xf32>, %[[B:[^:]+]]: tensor<128xf32>):
// CHECK-NEXT: %[[INV:[^ ]+]] = sopt.constant dense<7.812500e-03> : tensor<64x1xf32>
// CHECK-NEXT: %[[EPS:[^ ]+]] = sopt.constant dense<9.99999974E-6> : tensor<64x1xf32>
// CHECK-NEXT: %[[SUM:[^ ]+]] = sopt.reduce sum %[[X]] dims = [1] keep_dims {sopt.backbone, sopt.group = 0 : i64} : tensor<64x128xf32> -> tensor<64x1xf32>
// CHECK-NEXT: %[[MEAN:[^ ]+]] = sopt.mul %[[SUM]], %[[INV]] {sopt.group = 0 : i64} : tensor<64x1xf32>
// CHECK-NEXT: %[[MEANB:[^ ]+]] = sopt.broadcast %[[MEAN]] dims = [0, 1] {sopt.group = 0 : i64} : tensor<64x1xf32> -> tensor<64x128xf32>
// CHECK-NEXT: %[[C:[^ ]+]] = sopt.sub %[[X]], %[[MEANB]] {sopt.group = 0 : i64} : tensor<64x128xf32>
// CHECK-NEXT: %[[SQ:[^ ]+]] = sopt.mul %[[C]], %[[C]] {sopt.group = 0 : i64} : tensor<64x128xf32>
// CHECK-NEXT: %[[SQSUM:[^ ]+]] = sopt.reduce sum %[[SQ]] dims = [1] keep_dims {sopt.group = 0 : i64, sopt.sub_backbone} : tensor<64x128xf32> -> tensor<64x1xf32>
// CHECK-NEXT: %[[VAR:[^ ]+]] = sopt.mul %[[SQSUM]], %[[INV]] {sopt.group = 0 : i64} : tensor<64x1xf32>
// CHECK-NEXT: %[[SHIFT:[^ ]+]] = sopt.add %[[VAR]], %[[EPS]] {sopt.group = 0 : i64} : tensor<64x1xf32>
// CHECK-NEXT: %[[RS:[^ ]+]] = sopt.rsqrt %[[SHIFT]] {sopt.group = 0 : i64} : tensor<64x1xf32>
// CHECK-NEXT: %[[RSB:[^ ]+]] = sopt.broadcast %[[RS]] dims = [0, 1] {sopt.group = 0 : i64} : tensor<64x1xf32> -> tensor<64x128xf32>
// CHECK-NEXT: %[[NORM:[^ ]+]] = sopt.mul %[[C]], %[[RSB]] {sopt.group = 0 : i64} : tensor<64x128xf32>
// CHECK-NEXT: %[[GB:[^ ]+]] = sopt.broadcast %[[G]] dims = [1] {sopt.group = 0 : i64} : tensor<128xf32> -> tensor<64x128xf32>
// CHECK-NEXT: %[[SC:[^ ]+]] = sopt.mul %[[NORM]], %[[GB]] {sopt.group = 0 : i64} : tensor<64x128xf32>
// CHECK-NEXT: %[[BB:[^ ]+]] = sopt.broadcast %[[B]] dims = [1] {sopt.group = 0 : i64} : tensor<128xf32> -> tensor<64x128xf32>
// CHECK-NEXT: %[[Y:[^ ]+]] = sopt.add %[[SC]], %[[BB]] {sopt.group = 0 : i64} : tensor<64x128xf32>
// CHECK-NEXT: sopt.yield %[[Y]] : tensor<64x128xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]] : tensor<64x128xf32>
func.func @layer_norm(%x: tensor<64x128xf32>, %g: tensor<128xf32>, %b: tensor<128xf32>) -> tensor<64x128xf32> {
  %0 = sopt.layer_norm %x scale(%g : tensor<128xf32>) bias(%b : tensor<128xf32>) : tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}

// -----

// Softmax: the max is the backbone, the sum a sub-backbone of the same group.
// CHECK-LABEL: func.func @softmax
// CHECK-NEXT: %[[F:[^ ]+]] = sopt.fusion ins(%arg0 : tensor<64x128xf32>) -> tensor<64x128xf32> {
// CHECK-NEXT: ^bb0(%[[X:[^:]+]]: tensor<64x128xf32>):
// CHECK-NEXT: %[[MAX:[^ ]+]] = sopt.reduce max %[[X]] dims = [1] keep_dims {sopt.backbone, sopt.group = 0 : i64} : tensor<64x128xf32> -> tensor<64x1xf32>
// CHECK-NEXT: %[[MAXB:[^ ]+]] = sopt.broadcast %[[MAX]] dims = [0, 1] {sopt.group = 0 : i64} : tensor<64x1xf32> -> tensor<64x128xf32>
// CHECK-NEXT: %[[D:[^ ]+]] = sopt.sub %[[X]], %[[MAXB]] {sopt.group = 0 : i64} : tensor<64x128xf32>
// CHECK-NEXT: %[[E:[^ ]+]] = sopt.exp %[[D]] {sopt.group = 0 : i64} : tensor<64x128xf32>
// CHECK-NEXT: %[[SUM:[^ ]+]] = sopt.reduce sum %[[E]] dims = [1] keep_dims {sopt.group = 0 : i64, sopt.sub_backbone} : tensor<64x128xf32> -> tensor<64x1xf32>
// CHECK-NEXT: %[[INV:[^ ]+]] = sopt.reciprocal %[[SUM]] {sopt.group = 0 : i64} : tensor<64x1xf32>
// CHECK-NEXT: %[[INVB:[^ ]+]] = sopt.broadcast %[[INV]] dims = [0, 1] {sopt.group = 0 : i64} : tensor<64x1xf32> -> tensor<64x128xf32>
// CHECK-NEXT: %[[Y:[^ ]+]] = sopt.mul %[[E]], %[[INVB]] {sopt.group = 0 : i64} : tensor<64x128xf32>
// CHECK-NEXT: sopt.yield %[[Y]] : tensor<64x128xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]] : tensor<64x128xf32>
func.func @softmax(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %0 = sopt.softmax %x dim = 1 : tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}

// -----

// Two reductions over different spaces in one region: [64x128] over dim 1,
// then [64] over dim 0. Two groups, each with its own backbone; the log
// between them works in the first reduce's result space and joins group 0.
// CHECK-LABEL: func.func @two_spaces
// CHECK-NEXT: sopt.fusion
// CHECK-NEXT: ^bb0(%[[X:[^:]+]]: tensor<64x128xf32>):
// CHECK-NEXT: %[[E:[^ ]+]] = sopt.exp %[[X]] {sopt.group = 0 : i64} : tensor<64x128xf32>
// CHECK-NEXT: %[[R:[^ ]+]] = sopt.reduce sum %[[E]] dims = [1] {sopt.backbone, sopt.group = 0 : i64} : tensor<64x128xf32> -> tensor<64xf32>
// CHECK-NEXT: %[[L:[^ ]+]] = sopt.log %[[R]] {sopt.group = 0 : i64} : tensor<64xf32>
// CHECK-NEXT: %[[T:[^ ]+]] = sopt.reduce sum %[[L]] dims = [0] {sopt.backbone, sopt.group = 1 : i64} : tensor<64xf32> -> tensor<f32>
// CHECK-NEXT: %[[N:[^ ]+]] = sopt.neg %[[T]] {sopt.group = 1 : i64} : tensor<f32>
// CHECK-NEXT: sopt.yield %[[N]] : tensor<f32>
func.func @two_spaces(%x: tensor<64x128xf32>) -> tensor<f32> {
  %e = sopt.exp %x : tensor<64x128xf32>
  %r = sopt.reduce sum %e dims = [1] : tensor<64x128xf32> -> tensor<64xf32>
  %l = sopt.log %r : tensor<64xf32>
  %t = sopt.reduce sum %l dims = [0] : tensor<64xf32> -> tensor<f32>
  %n = sopt.neg %t : tensor<f32>
  return %n : tensor<f32>
}

// -----

// No reduce: one group without a backbone.
// CHECK-LABEL: func.func @elementwise_only
// CHECK-NEXT: sopt.fusion
// CHECK-NEXT: ^bb0(%[[X:[^:]+]]: tensor<64x128xf32>, %[[B:[^:]+]]: tensor<128xf32>):
// CHECK-NEXT: %[[E:[^ ]+]] = sopt.exp %[[X]] {sopt.group = 0 : i64} : tensor<64x128xf32>
// CHECK-NEXT: %[[BB:[^ ]+]] = sopt.broadcast %[[B]] dims = [1] {sopt.group = 0 : i64} : tensor<128xf32> -> tensor<64x128xf32>
// CHECK-NEXT: %[[S:[^ ]+]] = sopt.add %[[E]], %[[BB]] {sopt.group = 0 : i64} : tensor<64x128xf32>
// CHECK-NEXT: sopt.yield %[[S]] : tensor<64x128xf32>
func.func @elementwise_only(%x: tensor<64x128xf32>, %b: tensor<128xf32>) -> tensor<64x128xf32> {
  %e = sopt.exp %x : tensor<64x128xf32>
  %bb = sopt.broadcast %b dims = [1] : tensor<128xf32> -> tensor<64x128xf32>
  %s = sopt.add %e, %bb : tensor<64x128xf32>
  return %s : tensor<64x128xf32>
}

// -----

// Two reductions over the same space that no path links (the region is
// written by hand: clustering would make two regions): two groups, each
// reduce the backbone of its own, neither a sub-backbone.
// CHECK-LABEL: func.func @unlinked_same_space
// CHECK-NEXT: sopt.fusion
// CHECK-NEXT: ^bb0(%[[X:[^:]+]]: tensor<64x128xf32>, %[[Y:[^:]+]]: tensor<64x128xf32>):
// CHECK-NEXT: %[[E:[^ ]+]] = sopt.exp %[[X]] {sopt.group = 0 : i64} : tensor<64x128xf32>
// CHECK-NEXT: %[[R:[^ ]+]] = sopt.reduce sum %[[E]] dims = [1] keep_dims {sopt.backbone, sopt.group = 0 : i64} : tensor<64x128xf32> -> tensor<64x1xf32>
// CHECK-NEXT: %[[N:[^ ]+]] = sopt.neg %[[Y]] {sopt.group = 1 : i64} : tensor<64x128xf32>
// CHECK-NEXT: %[[S:[^ ]+]] = sopt.reduce max %[[N]] dims = [1] keep_dims {sopt.backbone, sopt.group = 1 : i64} : tensor<64x128xf32> -> tensor<64x1xf32>
// CHECK-NEXT: sopt.yield %[[R]], %[[S]] : tensor<64x1xf32>, tensor<64x1xf32>
func.func @unlinked_same_space(%x: tensor<64x128xf32>, %y: tensor<64x128xf32>) -> (tensor<64x1xf32>, tensor<64x1xf32>) {
  %0:2 = sopt.fusion ins(%x, %y : tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x1xf32>, tensor<64x1xf32> {
  ^bb0(%a: tensor<64x128xf32>, %b: tensor<64x128xf32>):
    %e = sopt.exp %a : tensor<64x128xf32>
    %r = sopt.reduce sum %e dims = [1] keep_dims : tensor<64x128xf32> -> tensor<64x1xf32>
    %f = sopt.neg %b : tensor<64x128xf32>
    %s = sopt.reduce max %f dims = [1] keep_dims : tensor<64x128xf32> -> tensor<64x1xf32>
    sopt.yield %r, %s : tensor<64x1xf32>, tensor<64x1xf32>
  }
  return %0#0, %0#1 : tensor<64x1xf32>, tensor<64x1xf32>
}

// -----

// Stale annotations are replaced, not merged: the first reduce becomes the
// backbone and loses its sub_backbone mark, the second the sub-backbone, and
// every op's group is recomputed.
// CHECK-LABEL: func.func @stale_annotations
// CHECK-NEXT: sopt.fusion
// CHECK-NEXT: ^bb0(%[[X:[^:]+]]: tensor<64x128xf32>):
// CHECK-NEXT: %[[M:[^ ]+]] = sopt.reduce max %[[X]] dims = [1] keep_dims {sopt.backbone, sopt.group = 0 : i64} : tensor<64x128xf32> -> tensor<64x1xf32>
// CHECK-NEXT: %[[MB:[^ ]+]] = sopt.broadcast %[[M]] dims = [0, 1] {sopt.group = 0 : i64} : tensor<64x1xf32> -> tensor<64x128xf32>
// CHECK-NEXT: %[[D:[^ ]+]] = sopt.sub %[[X]], %[[MB]] {sopt.group = 0 : i64} : tensor<64x128xf32>
// CHECK-NEXT: %[[S:[^ ]+]] = sopt.reduce sum %[[D]] dims = [1] keep_dims {sopt.group = 0 : i64, sopt.sub_backbone} : tensor<64x128xf32> -> tensor<64x1xf32>
// CHECK-NEXT: sopt.yield %[[S]] : tensor<64x1xf32>
func.func @stale_annotations(%x: tensor<64x128xf32>) -> tensor<64x1xf32> {
  %0 = sopt.fusion ins(%x : tensor<64x128xf32>) -> tensor<64x1xf32> {
  ^bb0(%a: tensor<64x128xf32>):
    %m = sopt.reduce max %a dims = [1] keep_dims {sopt.group = 3 : i64, sopt.sub_backbone} : tensor<64x128xf32> -> tensor<64x1xf32>
    %mb = sopt.broadcast %m dims = [0, 1] {sopt.group = 7 : i64} : tensor<64x1xf32> -> tensor<64x128xf32>
    %d = sopt.sub %a, %mb : tensor<64x128xf32>
    %s = sopt.reduce sum %d dims = [1] keep_dims {sopt.backbone, sopt.group = 3 : i64} : tensor<64x128xf32> -> tensor<64x1xf32>
    sopt.yield %s : tensor<64x1xf32>
  }
  return %0 : tensor<64x1xf32>
}

// -----

// A reduction's result broadcast back to a larger shape than the second
// reduction's space: the broadcast and the division cannot be indexed there,
// so they form a third, elementwise group instead of joining group 1.
// CHECK-LABEL: func.func @broadcast_beyond_the_space
// CHECK: sopt.reduce sum %{{.+}} dims = [1] {sopt.backbone, sopt.group = 0 : i64}
// CHECK-NEXT: sopt.reduce max %{{.+}} dims = [0] {sopt.backbone, sopt.group = 1 : i64}
// CHECK-NEXT: sopt.broadcast %{{.+}} {sopt.group = 2 : i64}
// CHECK-NEXT: sopt.div %{{.+}} {sopt.group = 2 : i64}
func.func @broadcast_beyond_the_space(%x: tensor<777x37xf32>) -> tensor<777x37xf32> {
  %r = sopt.reduce sum %x dims = [1] : tensor<777x37xf32> -> tensor<777xf32>
  %m = sopt.reduce max %r dims = [0] : tensor<777xf32> -> tensor<f32>
  %b = sopt.broadcast %m dims = [] : tensor<f32> -> tensor<777x37xf32>
  %y = sopt.div %x, %b : tensor<777x37xf32>
  return %y : tensor<777x37xf32>
}

// -----

// softmax over row sums: the subtraction reads the row sums (group 0) and
// their max (group 1). Joining group 0 would make the groups read from each
// other; it joins the group computed last, so the whole softmax is group 1
// (max backbone, sum sub-backbone).
// CHECK-LABEL: func.func @softmax_of_row_sums
// CHECK: sopt.reduce sum %{{.+}} dims = [1] {sopt.backbone, sopt.group = 0 : i64}
// CHECK-NEXT: sopt.reduce max %{{.+}} {sopt.backbone, sopt.group = 1 : i64}
// CHECK-NEXT: sopt.broadcast %{{.+}} {sopt.group = 1 : i64}
// CHECK-NEXT: sopt.sub %{{.+}} {sopt.group = 1 : i64}
// CHECK-NEXT: sopt.exp %{{.+}} {sopt.group = 1 : i64}
// CHECK-NEXT: sopt.reduce sum %{{.+}} {sopt.group = 1 : i64, sopt.sub_backbone}
// CHECK-NEXT: sopt.reciprocal %{{.+}} {sopt.group = 1 : i64}
// CHECK-NEXT: sopt.broadcast %{{.+}} {sopt.group = 1 : i64}
// CHECK-NEXT: sopt.mul %{{.+}} {sopt.group = 1 : i64}
func.func @softmax_of_row_sums(%x: tensor<513x77xf32>) -> tensor<513xf32> {
  %r = sopt.reduce sum %x dims = [1] : tensor<513x77xf32> -> tensor<513xf32>
  %s = sopt.softmax %r dim = 0 : tensor<513xf32>
  return %s : tensor<513xf32>
}

// -----

// An op early in the region joins a later group (the exponential feeds the
// subtraction of the max): groups are numbered so that each comes after the
// groups it reads from, here the row sums first although the exponential
// comes first in the region.
// CHECK-LABEL: func.func @early_op_of_a_later_group
// CHECK: sopt.exp %{{.+}} {sopt.group = 1 : i64}
// CHECK-NEXT: sopt.reduce sum %{{.+}} dims = [1] {sopt.backbone, sopt.group = 0 : i64}
// CHECK-NEXT: sopt.reduce max %{{.+}} dims = [0] {sopt.backbone, sopt.group = 1 : i64}
// CHECK-NEXT: sopt.broadcast %{{.+}} {sopt.group = 1 : i64}
// CHECK-NEXT: sopt.sub %{{.+}} {sopt.group = 1 : i64}
func.func @early_op_of_a_later_group(%x: tensor<64x32xf32>, %v: tensor<64xf32>) -> tensor<64xf32> {
  %t = sopt.exp %v : tensor<64xf32>
  %r = sopt.reduce sum %x dims = [1] : tensor<64x32xf32> -> tensor<64xf32>
  %m = sopt.reduce max %r dims = [0] : tensor<64xf32> -> tensor<f32>
  %b = sopt.broadcast %m dims = [] : tensor<f32> -> tensor<64xf32>
  %s = sopt.sub %t, %b : tensor<64xf32>
  return %s : tensor<64xf32>
}
