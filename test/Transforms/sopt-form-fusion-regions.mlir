// RUN: sparse-opt %s -split-input-file --sopt-form-fusion-regions | FileCheck %s

// The elementwise chain between two matmuls becomes one region; both matmuls
// stay outside it, one feeding it and one consuming its result.
// CHECK-LABEL: func.func @chain_between_matmuls
// CHECK-SAME: (%[[X:[^:]+]]: tensor<128x768xf32>, %[[W:[^:]+]]: tensor<768x3072xf32>, %[[B:[^:]+]]: tensor<128x3072xf32>, %[[W2:[^:]+]]: tensor<3072x768xf32>)
// CHECK-NEXT: %[[H:[^ ]+]] = sopt.matmul %[[X]], %[[W]] : tensor<128x768xf32>, tensor<768x3072xf32> -> tensor<128x3072xf32>
// CHECK-NEXT: %[[F:[^ ]+]] = sopt.fusion ins(%[[H]], %[[B]] : tensor<128x3072xf32>, tensor<128x3072xf32>) -> tensor<128x3072xf32> {
// CHECK-NEXT: ^bb0(%[[A0:[^:]+]]: tensor<128x3072xf32>, %[[A1:[^:]+]]: tensor<128x3072xf32>):
// CHECK-NEXT: %[[S:[^ ]+]] = sopt.add %[[A0]], %[[A1]] : tensor<128x3072xf32>
// CHECK-NEXT: %[[G:[^ ]+]] = sopt.gelu %[[S]] : tensor<128x3072xf32>
// CHECK-NEXT: %[[R:[^ ]+]] = sopt.relu %[[G]] : tensor<128x3072xf32>
// CHECK-NEXT: sopt.yield %[[R]] : tensor<128x3072xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[O:[^ ]+]] = sopt.matmul %[[F]], %[[W2]] : tensor<128x3072xf32>, tensor<3072x768xf32> -> tensor<128x768xf32>
// CHECK-NEXT: return %[[O]] : tensor<128x768xf32>
func.func @chain_between_matmuls(%x: tensor<128x768xf32>, %w: tensor<768x3072xf32>, %b: tensor<128x3072xf32>, %w2: tensor<3072x768xf32>) -> tensor<128x768xf32> {
  %h = sopt.matmul %x, %w : tensor<128x768xf32>, tensor<768x3072xf32> -> tensor<128x3072xf32>
  %s = sopt.add %h, %b : tensor<128x3072xf32>
  %g = sopt.gelu %s : tensor<128x3072xf32>
  %r = sopt.relu %g : tensor<128x3072xf32>
  %o = sopt.matmul %r, %w2 : tensor<128x3072xf32>, tensor<3072x768xf32> -> tensor<128x768xf32>
  return %o : tensor<128x768xf32>
}

// -----

// A diamond a -> {b, c} -> d of elementwise ops is ONE region.
// CHECK-LABEL: func.func @diamond
// CHECK-SAME: (%[[X:[^:]+]]: tensor<64x64xf32>)
// CHECK-NEXT: %[[F:[^ ]+]] = sopt.fusion ins(%[[X]] : tensor<64x64xf32>) -> tensor<64x64xf32> {
// CHECK-NEXT: ^bb0(%[[A:[^:]+]]: tensor<64x64xf32>):
// CHECK-NEXT: %[[E:[^ ]+]] = sopt.exp %[[A]] : tensor<64x64xf32>
// CHECK-NEXT: %[[L:[^ ]+]] = sopt.relu %[[E]] : tensor<64x64xf32>
// CHECK-NEXT: %[[R:[^ ]+]] = sopt.neg %[[E]] : tensor<64x64xf32>
// CHECK-NEXT: %[[D:[^ ]+]] = sopt.add %[[L]], %[[R]] : tensor<64x64xf32>
// CHECK-NEXT: sopt.yield %[[D]] : tensor<64x64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]] : tensor<64x64xf32>
func.func @diamond(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %a = sopt.exp %x : tensor<64x64xf32>
  %b = sopt.relu %a : tensor<64x64xf32>
  %c = sopt.neg %a : tensor<64x64xf32>
  %d = sopt.add %b, %c : tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}

// -----

// x -> relu A -> matmul -> add C, and A also feeds C: merging A and C would
// put the matmul both before and after one kernel. Two regions, A's before
// the matmul and C's after it; A's result is an input of both.
// CHECK-LABEL: func.func @no_cycle_through_matmul
// CHECK-SAME: (%[[X:[^:]+]]: tensor<64x64xf32>, %[[W:[^:]+]]: tensor<64x64xf32>)
// CHECK-NEXT: %[[FA:[^ ]+]] = sopt.fusion ins(%[[X]] : tensor<64x64xf32>) -> tensor<64x64xf32> {
// CHECK-NEXT: ^bb0(%[[XA:[^:]+]]: tensor<64x64xf32>):
// CHECK-NEXT: %[[A:[^ ]+]] = sopt.relu %[[XA]] : tensor<64x64xf32>
// CHECK-NEXT: sopt.yield %[[A]] : tensor<64x64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[M:[^ ]+]] = sopt.matmul %[[FA]], %[[W]] : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
// CHECK-NEXT: %[[FC:[^ ]+]] = sopt.fusion ins(%[[M]], %[[FA]] : tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32> {
// CHECK-NEXT: ^bb0(%[[MA:[^:]+]]: tensor<64x64xf32>, %[[AA:[^:]+]]: tensor<64x64xf32>):
// CHECK-NEXT: %[[C:[^ ]+]] = sopt.add %[[MA]], %[[AA]] : tensor<64x64xf32>
// CHECK-NEXT: sopt.yield %[[C]] : tensor<64x64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[FC]] : tensor<64x64xf32>
func.func @no_cycle_through_matmul(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %a = sopt.relu %x : tensor<64x64xf32>
  %m = sopt.matmul %a, %w : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  %c = sopt.add %m, %a : tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

// -----

// The splat is cloned into the region and its outside copy erased; the
// non-splat constant stays outside and becomes an input.
// CHECK-LABEL: func.func @constants
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x8xf32>)
// CHECK-NEXT: %[[TAB:[^ ]+]] = sopt.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00], {{.*}}]> : tensor<4x8xf32>
// CHECK-NEXT: %[[F:[^ ]+]] = sopt.fusion ins(%[[X]], %[[TAB]] : tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT: ^bb0(%[[XA:[^:]+]]: tensor<4x8xf32>, %[[TA:[^:]+]]: tensor<4x8xf32>):
// CHECK-NEXT: %[[HALF:[^ ]+]] = sopt.constant dense<5.000000e-01> : tensor<4x8xf32>
// CHECK-NEXT: %[[M:[^ ]+]] = sopt.mul %[[XA]], %[[HALF]] : tensor<4x8xf32>
// CHECK-NEXT: %[[S:[^ ]+]] = sopt.add %[[M]], %[[TA]] : tensor<4x8xf32>
// CHECK-NEXT: sopt.yield %[[S]] : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]] : tensor<4x8xf32>
func.func @constants(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %half = sopt.constant dense<0.5> : tensor<4x8xf32>
  %tab = sopt.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
                              [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
                              [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
                              [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]]> : tensor<4x8xf32>
  %0 = sopt.mul %x, %half : tensor<4x8xf32>
  %1 = sopt.add %0, %tab : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// A splat that a matmul also reads keeps its outside copy for the matmul;
// each of the two regions gets a clone of its own.
// CHECK-LABEL: func.func @splat_used_outside
// CHECK-SAME: (%[[X:[^:]+]]: tensor<64x64xf32>)
// CHECK-NEXT: %[[TWO:[^ ]+]] = sopt.constant dense<2.000000e+00> : tensor<64x64xf32>
// CHECK-NEXT: %[[F1:[^ ]+]] = sopt.fusion ins(%[[X]] : tensor<64x64xf32>) -> tensor<64x64xf32> {
// CHECK-NEXT: ^bb0(%[[XA:[^:]+]]: tensor<64x64xf32>):
// CHECK-NEXT: %[[T1:[^ ]+]] = sopt.constant dense<2.000000e+00> : tensor<64x64xf32>
// CHECK-NEXT: %[[M1:[^ ]+]] = sopt.mul %[[XA]], %[[T1]] : tensor<64x64xf32>
// CHECK-NEXT: sopt.yield %[[M1]] : tensor<64x64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[MM:[^ ]+]] = sopt.matmul %[[F1]], %[[TWO]] : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
// CHECK-NEXT: %[[F2:[^ ]+]] = sopt.fusion ins(%[[MM]] : tensor<64x64xf32>) -> tensor<64x64xf32> {
// CHECK-NEXT: ^bb0(%[[MA:[^:]+]]: tensor<64x64xf32>):
// CHECK-NEXT: %[[T2:[^ ]+]] = sopt.constant dense<2.000000e+00> : tensor<64x64xf32>
// CHECK-NEXT: %[[S2:[^ ]+]] = sopt.add %[[MA]], %[[T2]] : tensor<64x64xf32>
// CHECK-NEXT: sopt.yield %[[S2]] : tensor<64x64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F2]] : tensor<64x64xf32>
func.func @splat_used_outside(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %c = sopt.constant dense<2.0> : tensor<64x64xf32>
  %a = sopt.mul %x, %c : tensor<64x64xf32>
  %m = sopt.matmul %a, %c : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  %b = sopt.add %m, %c : tensor<64x64xf32>
  return %b : tensor<64x64xf32>
}

// -----

// A reshape alone moves no data: it stays a view, not a region.
// CHECK-LABEL: func.func @lone_reshape
// CHECK-SAME: (%[[X:[^:]+]]: tensor<8x128x64xf32>, %[[W:[^:]+]]: tensor<64x64xf32>)
// CHECK-NEXT: %[[R:[^ ]+]] = sopt.reshape %[[X]] : tensor<8x128x64xf32> -> tensor<1024x64xf32>
// CHECK-NEXT: %[[M:[^ ]+]] = sopt.matmul %[[R]], %[[W]] : tensor<1024x64xf32>, tensor<64x64xf32> -> tensor<1024x64xf32>
// CHECK-NEXT: return %[[M]] : tensor<1024x64xf32>
func.func @lone_reshape(%x: tensor<8x128x64xf32>, %w: tensor<64x64xf32>) -> tensor<1024x64xf32> {
  %r = sopt.reshape %x : tensor<8x128x64xf32> -> tensor<1024x64xf32>
  %m = sopt.matmul %r, %w : tensor<1024x64xf32>, tensor<64x64xf32> -> tensor<1024x64xf32>
  return %m : tensor<1024x64xf32>
}

// -----

// Both values are used outside: the region has two results, yielded in
// region order.
// CHECK-LABEL: func.func @two_outputs
// CHECK-SAME: (%[[X:[^:]+]]: tensor<64x64xf32>)
// CHECK-NEXT: %[[F:[^:]+]]:2 = sopt.fusion ins(%[[X]] : tensor<64x64xf32>) -> tensor<64x64xf32>, tensor<64x64xf32> {
// CHECK-NEXT: ^bb0(%[[XA:[^:]+]]: tensor<64x64xf32>):
// CHECK-NEXT: %[[E:[^ ]+]] = sopt.exp %[[XA]] : tensor<64x64xf32>
// CHECK-NEXT: %[[R:[^ ]+]] = sopt.relu %[[E]] : tensor<64x64xf32>
// CHECK-NEXT: sopt.yield %[[E]], %[[R]] : tensor<64x64xf32>, tensor<64x64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]#0, %[[F]]#1 : tensor<64x64xf32>, tensor<64x64xf32>
func.func @two_outputs(%x: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %a = sopt.exp %x : tensor<64x64xf32>
  %b = sopt.relu %a : tensor<64x64xf32>
  return %a, %b : tensor<64x64xf32>, tensor<64x64xf32>
}

// -----

// The region is placed where its last op was (after the matmul), then the
// block is re-sorted so the matmul reads a value defined before it.
// CHECK-LABEL: func.func @resorted
// CHECK-SAME: (%[[X:[^:]+]]: tensor<64x64xf32>, %[[W:[^:]+]]: tensor<64x64xf32>)
// CHECK-NEXT: %[[F:[^:]+]]:2 = sopt.fusion ins(%[[X]] : tensor<64x64xf32>) -> tensor<64x64xf32>, tensor<64x64xf32> {
// CHECK-NEXT: ^bb0(%[[XA:[^:]+]]: tensor<64x64xf32>):
// CHECK-NEXT: %[[E:[^ ]+]] = sopt.exp %[[XA]] : tensor<64x64xf32>
// CHECK-NEXT: %[[R:[^ ]+]] = sopt.relu %[[E]] : tensor<64x64xf32>
// CHECK-NEXT: sopt.yield %[[E]], %[[R]] : tensor<64x64xf32>, tensor<64x64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[M:[^ ]+]] = sopt.matmul %[[F]]#0, %[[W]] : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
// CHECK-NEXT: return %[[M]], %[[F]]#1 : tensor<64x64xf32>, tensor<64x64xf32>
func.func @resorted(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %a = sopt.exp %x : tensor<64x64xf32>
  %m = sopt.matmul %a, %w : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  %b = sopt.relu %a : tensor<64x64xf32>
  return %m, %b : tensor<64x64xf32>, tensor<64x64xf32>
}

// -----

// Two unconnected chains in one function: two regions.
// CHECK-LABEL: func.func @two_clusters
// CHECK-SAME: (%[[X:[^:]+]]: tensor<64x64xf32>, %[[Y:[^:]+]]: tensor<64x64xf32>)
// CHECK-NEXT: %[[F1:[^ ]+]] = sopt.fusion ins(%[[X]] : tensor<64x64xf32>) -> tensor<64x64xf32> {
// CHECK-NEXT: ^bb0(%[[XA:[^:]+]]: tensor<64x64xf32>):
// CHECK-NEXT: %[[E:[^ ]+]] = sopt.exp %[[XA]] : tensor<64x64xf32>
// CHECK-NEXT: %[[R:[^ ]+]] = sopt.relu %[[E]] : tensor<64x64xf32>
// CHECK-NEXT: sopt.yield %[[R]] : tensor<64x64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[F2:[^ ]+]] = sopt.fusion ins(%[[Y]] : tensor<64x64xf32>) -> tensor<64x64xf32> {
// CHECK-NEXT: ^bb0(%[[YA:[^:]+]]: tensor<64x64xf32>):
// CHECK-NEXT: %[[N:[^ ]+]] = sopt.neg %[[YA]] : tensor<64x64xf32>
// CHECK-NEXT: %[[T:[^ ]+]] = sopt.tanh %[[N]] : tensor<64x64xf32>
// CHECK-NEXT: sopt.yield %[[T]] : tensor<64x64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F1]], %[[F2]] : tensor<64x64xf32>, tensor<64x64xf32>
func.func @two_clusters(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %a = sopt.exp %x : tensor<64x64xf32>
  %b = sopt.relu %a : tensor<64x64xf32>
  %c = sopt.neg %y : tensor<64x64xf32>
  %d = sopt.tanh %c : tensor<64x64xf32>
  return %b, %d : tensor<64x64xf32>, tensor<64x64xf32>
}

// -----

// Nothing fusible: the function is unchanged.
// CHECK-LABEL: func.func @nothing_fusible
// CHECK-SAME: (%[[X:[^:]+]]: tensor<64x64xf32>, %[[W:[^:]+]]: tensor<64x64xf32>)
// CHECK-NEXT: %[[M:[^ ]+]] = sopt.matmul %[[X]], %[[W]] : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
// CHECK-NEXT: %[[M2:[^ ]+]] = sopt.matmul %[[M]], %[[W]] : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
// CHECK-NEXT: return %[[M2]] : tensor<64x64xf32>
func.func @nothing_fusible(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %m = sopt.matmul %x, %w : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  %m2 = sopt.matmul %m, %w : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  return %m2 : tensor<64x64xf32>
}

// -----

// Clusters that feed each other through different members: a -> matmul g ->
// c while b -> d. Merging a with d would leave {a, d} and {b, c} each needing
// the other first although no path of ops leaves a cluster and returns to
// it: the check runs on the graph of clusters, so a stays alone and d joins
// b and c.
// CHECK-LABEL: func.func @clusters_feeding_each_other
// CHECK-SAME: (%[[X:[^:]+]]: tensor<64x64xf32>, %[[W:[^:]+]]: tensor<64x64xf32>)
// CHECK-NEXT: %[[M:[^ ]+]] = sopt.matmul %[[X]], %[[W]]
// CHECK-NEXT: %[[FA:[^ ]+]] = sopt.fusion ins(%[[M]] : tensor<64x64xf32>) -> tensor<64x64xf32> {
// CHECK-NEXT: ^bb0(%[[MA:[^:]+]]: tensor<64x64xf32>):
// CHECK-NEXT: %[[A:[^ ]+]] = sopt.exp %[[MA]] : tensor<64x64xf32>
// CHECK-NEXT: sopt.yield %[[A]] : tensor<64x64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[G:[^ ]+]] = sopt.matmul %[[FA]], %[[W]]
// CHECK-NEXT: %[[F:[^:]+]]:2 = sopt.fusion ins(%[[X]], %[[G]], %[[FA]] : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>, tensor<64x64xf32> {
// CHECK-NEXT: ^bb0(%[[XB:[^:]+]]: tensor<64x64xf32>, %[[GB:[^:]+]]: tensor<64x64xf32>, %[[AB:[^:]+]]: tensor<64x64xf32>):
// CHECK-NEXT: %[[B:[^ ]+]] = sopt.neg %[[XB]] : tensor<64x64xf32>
// CHECK-NEXT: %[[C:[^ ]+]] = sopt.add %[[GB]], %[[B]] : tensor<64x64xf32>
// CHECK-NEXT: %[[D:[^ ]+]] = sopt.sub %[[AB]], %[[B]] : tensor<64x64xf32>
// CHECK-NEXT: sopt.yield %[[C]], %[[D]] : tensor<64x64xf32>, tensor<64x64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]#0, %[[F]]#1 : tensor<64x64xf32>, tensor<64x64xf32>
func.func @clusters_feeding_each_other(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %m = sopt.matmul %x, %w : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  %a = sopt.exp %m : tensor<64x64xf32>
  %b = sopt.neg %x : tensor<64x64xf32>
  %g = sopt.matmul %a, %w : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  %c = sopt.add %g, %b : tensor<64x64xf32>
  %d = sopt.sub %a, %b : tensor<64x64xf32>
  return %c, %d : tensor<64x64xf32>, tensor<64x64xf32>
}
