// RUN: sparse-opt %s --sopt-fuse-sparse-attention -split-input-file | FileCheck %s

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// The chain with its scale on the right: one op, no scores left.
// CHECK-LABEL: func.func @scaled
// CHECK-NEXT: %[[O:.*]] = sopt.sparse_attention %arg0, %arg1, %arg3, %arg2 scale = 1.250000e-01
// CHECK-SAME: -> tensor<100x32xf32>
// CHECK-NEXT: return %[[O]]
func.func @scaled(%q: tensor<100x64xf32>, %k: tensor<300x64xf32>, %s: tensor<100x300xf32, #CSR>,
                  %v: tensor<300x32xf32>) -> tensor<100x32xf32> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs
      : tensor<100x64xf32>, tensor<300x64xf32>, tensor<100x300xf32, #CSR> -> tensor<100x300xf32, #CSR>
  %c = sopt.constant dense<0.125> : tensor<100x300xf32>
  %x = sopt.mul %d, %c : tensor<100x300xf32, #CSR>, tensor<100x300xf32> -> tensor<100x300xf32, #CSR>
  %p = sopt.softmax %x dim = 1 : tensor<100x300xf32, #CSR>
  %o = sopt.spmm %p, %v : tensor<100x300xf32, #CSR>, tensor<300x32xf32> -> tensor<100x32xf32>
  return %o : tensor<100x32xf32>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// The scale on the left, bf16.
// CHECK-LABEL: func.func @scale_first
// CHECK-NEXT: sopt.sparse_attention %arg0, %arg1, %arg3, %arg2 scale = 2.000000e+00
// CHECK-NOT: sopt.softmax
func.func @scale_first(%q: tensor<9x16xbf16>, %k: tensor<9x16xbf16>, %s: tensor<9x9xbf16, #CSR>,
                       %v: tensor<9x16xbf16>) -> tensor<9x16xbf16> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs
      : tensor<9x16xbf16>, tensor<9x16xbf16>, tensor<9x9xbf16, #CSR> -> tensor<9x9xbf16, #CSR>
  %c = sopt.constant dense<2.0> : tensor<9x9xbf16>
  %x = sopt.mul %c, %d : tensor<9x9xbf16>, tensor<9x9xbf16, #CSR> -> tensor<9x9xbf16, #CSR>
  %p = sopt.softmax %x dim = 1 : tensor<9x9xbf16, #CSR>
  %o = sopt.spmm %p, %v : tensor<9x9xbf16, #CSR>, tensor<9x16xbf16> -> tensor<9x16xbf16>
  return %o : tensor<9x16xbf16>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// No scale: scale 1.
// CHECK-LABEL: func.func @unscaled
// CHECK-NEXT: sopt.sparse_attention %arg0, %arg1, %arg3, %arg2 scale = 1.000000e+00
func.func @unscaled(%q: tensor<9x16xf16>, %k: tensor<5x16xf16>, %s: tensor<9x5xf16, #CSR>,
                    %v: tensor<5x8xf16>) -> tensor<9x8xf16> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs
      : tensor<9x16xf16>, tensor<5x16xf16>, tensor<9x5xf16, #CSR> -> tensor<9x5xf16, #CSR>
  %p = sopt.softmax %d dim = 1 : tensor<9x5xf16, #CSR>
  %o = sopt.spmm %p, %v : tensor<9x5xf16, #CSR>, tensor<5x8xf16> -> tensor<9x8xf16>
  return %o : tensor<9x8xf16>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// A dense softmax and an SpMM of a CSR argument stay as they are.
// CHECK-LABEL: func.func @unrelated
// CHECK: sopt.softmax %arg0 dim = 1 : tensor<9x5xf32>
// CHECK: sopt.spmm %arg1, %arg2
// CHECK-NOT: sopt.sparse_attention
func.func @unrelated(%x: tensor<9x5xf32>, %a: tensor<9x5xf32, #CSR>, %b: tensor<5x8xf32>)
    -> (tensor<9x5xf32>, tensor<9x8xf32>) {
  %p = sopt.softmax %x dim = 1 : tensor<9x5xf32>
  %y = sopt.spmm %a, %b : tensor<9x5xf32, #CSR>, tensor<5x8xf32> -> tensor<9x8xf32>
  return %p, %y : tensor<9x5xf32>, tensor<9x8xf32>
}
