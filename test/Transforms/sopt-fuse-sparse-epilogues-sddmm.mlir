// RUN: sparse-opt %s --sopt-form-fusion-regions --sopt-fuse-sparse-epilogues -split-input-file | FileCheck %s

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// Attention-style scores: the scale of Q (a dense region of one mul by a
// splat) becomes a factor on the product; the runtime scale, exp, the
// sampled bias and mask join it in one region over stored entries, the
// SDDMM's epilogue. The broadcast of the scalar is read at the entries,
// never stored: it sits inside the region.
// CHECK-LABEL: func.func @scores
// CHECK-NOT: sopt.fusion
// CHECK: %[[D:.*]] = sopt.sddmm %arg0, %arg1, %arg2 transpose_rhs
// CHECK-NEXT: %[[R:.*]] = sopt.fusion ins(%[[D]], %arg4, %arg3, %arg6, %arg5 : {{.*}}) attributes {sopt.sparse_epilogue = 0 : i64} -> tensor<8x16xf32, #sparse> {
// CHECK-NEXT: ^bb0(%[[P:.*]]: tensor<8x16xf32, #sparse>, %[[SC:.*]]: tensor<f32>, %[[BIAS:.*]]: tensor<8x16xf32>, %[[KEEP:.*]]: tensor<8x16xi1>, %[[FILL:.*]]: tensor<8x16xf32>):
// CHECK-NEXT:   %[[EIGHTH:.*]] = sopt.constant dense<1.250000e-01> : tensor<8x16xf32>
// CHECK-NEXT:   %[[X0:.*]] = sopt.mul %[[P]], %[[EIGHTH]] {sopt.sddmm_prologue = "lhs"} : tensor<8x16xf32, #sparse>, tensor<8x16xf32> -> tensor<8x16xf32, #sparse>
// CHECK-NEXT:   %[[SB:.*]] = sopt.broadcast %[[SC]] dims = [] : tensor<f32> -> tensor<8x16xf32>
// CHECK-NEXT:   %[[X1:.*]] = sopt.mul %[[X0]], %[[SB]]
// CHECK-NEXT:   %[[E:.*]] = sopt.exp %[[X1]] : tensor<8x16xf32, #sparse>
// CHECK-NEXT:   %[[B:.*]] = sopt.add %[[E]], %[[BIAS]]
// CHECK-NEXT:   %[[Y:.*]] = sopt.select %[[KEEP]], %[[B]], %[[FILL]] : tensor<8x16xf32, #sparse>, tensor<8x16xf32> -> tensor<8x16xf32, #sparse>
// CHECK-NEXT:   sopt.yield %[[Y]]
// CHECK: return %[[R]]
func.func @scores(%q: tensor<8x20xf32>, %k: tensor<16x20xf32>, %s: tensor<8x16xf32, #CSR>,
                  %bias: tensor<8x16xf32>, %scale: tensor<f32>, %fill: tensor<8x16xf32>,
                  %keep: tensor<8x16xi1>) -> tensor<8x16xf32, #CSR> {
  %c = sopt.constant dense<0.125> : tensor<8x20xf32>
  %qs = sopt.mul %q, %c : tensor<8x20xf32>
  %d = sopt.sddmm %qs, %k, %s transpose_rhs
      : tensor<8x20xf32>, tensor<16x20xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  %sb = sopt.broadcast %scale dims = [] : tensor<f32> -> tensor<8x16xf32>
  %x = sopt.mul %d, %sb : tensor<8x16xf32, #CSR>, tensor<8x16xf32> -> tensor<8x16xf32, #CSR>
  %e = sopt.exp %x : tensor<8x16xf32, #CSR>
  %b = sopt.add %e, %bias : tensor<8x16xf32, #CSR>, tensor<8x16xf32> -> tensor<8x16xf32, #CSR>
  %y = sopt.select %keep, %b, %fill : tensor<8x16xf32, #CSR>, tensor<8x16xf32> -> tensor<8x16xf32, #CSR>
  return %y : tensor<8x16xf32, #CSR>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// A runtime scalar scaling K (rhs), with no other epilogue: the region holds
// only the factor, and replaces every use of the product.
// CHECK-LABEL: func.func @scaled_rhs
// CHECK: %[[D:.*]] = sopt.sddmm %arg0, %arg1, %arg2 :
// CHECK-NEXT: %[[R:.*]] = sopt.fusion ins(%arg3, %[[D]] : {{.*}}) attributes {sopt.sparse_epilogue = 1 : i64}
// CHECK: sopt.broadcast %{{.*}} dims = [0, 1] : tensor<1x1xf32> -> tensor<8x16xf32>
// CHECK-NEXT: sopt.mul {{.*}} {sopt.sddmm_prologue = "rhs"}
// CHECK: return %[[R]], %[[R]]
func.func @scaled_rhs(%a: tensor<8x4xf32>, %b: tensor<4x16xf32>, %s: tensor<8x16xf32, #CSR>,
                      %t: tensor<1x1xf32>) -> (tensor<8x16xf32, #CSR>, tensor<8x16xf32, #CSR>) {
  %tb = sopt.broadcast %t dims = [0, 1] : tensor<1x1xf32> -> tensor<4x16xf32>
  %bs = sopt.mul %tb, %b : tensor<4x16xf32>
  %d = sopt.sddmm %a, %bs, %s : tensor<8x4xf32>, tensor<4x16xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  return %d, %d : tensor<8x16xf32, #CSR>, tensor<8x16xf32, #CSR>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// Not prologues: a scale by a tensor that varies (a dense region stays), and
// a scaled operand read by something else too.
// CHECK-LABEL: func.func @not_prologues
// CHECK: %[[AS:.*]] = sopt.fusion ins(%arg0, %arg3
// CHECK: sopt.mul
// CHECK: sopt.sddmm %[[AS]]
// CHECK-NOT: sopt.sddmm_prologue
// CHECK: return
func.func @not_prologues(%a: tensor<8x4xf32>, %b: tensor<16x4xf32>, %s: tensor<8x16xf32, #CSR>,
                         %v: tensor<8x4xf32>) -> (tensor<8x16xf32, #CSR>, tensor<16x4xf32>) {
  %as = sopt.mul %a, %v : tensor<8x4xf32>
  %c = sopt.constant dense<2.0> : tensor<16x4xf32>
  %bs = sopt.mul %b, %c : tensor<16x4xf32>
  %d = sopt.sddmm %as, %bs, %s transpose_rhs
      : tensor<8x4xf32>, tensor<16x4xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  return %d, %bs : tensor<8x16xf32, #CSR>, tensor<16x4xf32>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// The product is also returned, so it is stored: exp · mask is no epilogue
// but a region over stored entries of its own (no sopt.sparse_epilogue).
// Ops on a CSR argument get one too.
// CHECK-LABEL: func.func @two_uses
// CHECK: %[[D:.*]] = sopt.sddmm
// CHECK-NEXT: %[[R:.*]] = sopt.fusion ins(%[[D]], %arg3 : {{.*}}) -> tensor<8x16xf32, #sparse> {
// CHECK: sopt.exp
// CHECK-NEXT: sopt.mul
// CHECK-NEXT: sopt.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[N:.*]] = sopt.fusion ins(%arg2 : tensor<8x16xf32, #sparse>) -> tensor<8x16xf32, #sparse> {
// CHECK: sopt.neg
// CHECK: return %[[D]], %[[R]], %[[N]]
func.func @two_uses(%a: tensor<8x4xf32>, %b: tensor<16x4xf32>, %s: tensor<8x16xf32, #CSR>,
                    %mask: tensor<8x16xf32>)
    -> (tensor<8x16xf32, #CSR>, tensor<8x16xf32, #CSR>, tensor<8x16xf32, #CSR>) {
  %d = sopt.sddmm %a, %b, %s transpose_rhs
      : tensor<8x4xf32>, tensor<16x4xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  %e = sopt.exp %d : tensor<8x16xf32, #CSR>
  %m = sopt.mul %e, %mask : tensor<8x16xf32, #CSR>, tensor<8x16xf32> -> tensor<8x16xf32, #CSR>
  %n = sopt.neg %s : tensor<8x16xf32, #CSR>
  return %d, %m, %n : tensor<8x16xf32, #CSR>, tensor<8x16xf32, #CSR>, tensor<8x16xf32, #CSR>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// Dense clustering keeps ops on stored entries, and the broadcast only they
// read, out of the dense region of the other ops.
// CHECK-LABEL: func.func @dense_neighbours
// CHECK: %[[G:.*]] = sopt.fusion ins(%arg3, %arg4
// CHECK: sopt.gelu %{{.*}} : tensor<8x16xf32>
// CHECK: sopt.sddmm
// CHECK-NEXT: sopt.fusion ins(%arg5, %{{.*}}, %[[G]] : {{.*}}) attributes {sopt.sparse_epilogue = 1 : i64}
// CHECK: sopt.broadcast
// CHECK: sopt.add
// CHECK: sopt.mul
func.func @dense_neighbours(%a: tensor<8x4xf32>, %b: tensor<16x4xf32>, %s: tensor<8x16xf32, #CSR>,
                            %x: tensor<8x16xf32>, %y: tensor<8x16xf32>, %bias: tensor<16xf32>)
    -> tensor<8x16xf32, #CSR> {
  %xy = sopt.add %x, %y : tensor<8x16xf32>
  %g = sopt.gelu %xy : tensor<8x16xf32>
  %d = sopt.sddmm %a, %b, %s transpose_rhs
      : tensor<8x4xf32>, tensor<16x4xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  %bb = sopt.broadcast %bias dims = [1] : tensor<16xf32> -> tensor<8x16xf32>
  %z = sopt.add %d, %bb : tensor<8x16xf32, #CSR>, tensor<8x16xf32> -> tensor<8x16xf32, #CSR>
  %w = sopt.mul %z, %g : tensor<8x16xf32, #CSR>, tensor<8x16xf32> -> tensor<8x16xf32, #CSR>
  return %w : tensor<8x16xf32, #CSR>
}
