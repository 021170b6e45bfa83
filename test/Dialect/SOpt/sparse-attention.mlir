// RUN: sparse-opt %s | sparse-opt | FileCheck %s

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// Batch x heads leading dimensions, one pattern; a value dimension unlike
// the query's; bf16.
// CHECK-LABEL: func.func @heads
// CHECK: sopt.sparse_attention %arg0, %arg1, %arg2, %arg3 scale = 1.250000e-01
// CHECK-SAME: tensor<2x4x100x64xbf16>, tensor<2x4x300x64xbf16>, tensor<2x4x300x32xbf16>, tensor<100x300xbf16, #sparse{{[0-9]*}}> -> tensor<2x4x100x32xbf16>
func.func @heads(%q: tensor<2x4x100x64xbf16>, %k: tensor<2x4x300x64xbf16>,
                 %v: tensor<2x4x300x32xbf16>, %s: tensor<100x300xbf16, #CSR>)
    -> tensor<2x4x100x32xbf16> {
  %o = sopt.sparse_attention %q, %k, %v, %s scale = 0.125
      : tensor<2x4x100x64xbf16>, tensor<2x4x300x64xbf16>, tensor<2x4x300x32xbf16>,
        tensor<100x300xbf16, #CSR> -> tensor<2x4x100x32xbf16>
  return %o : tensor<2x4x100x32xbf16>
}

// One head, no leading dimensions.
// CHECK-LABEL: func.func @one_head
// CHECK: sopt.sparse_attention %arg0, %arg1, %arg2, %arg3 scale = 1.000000e+00
func.func @one_head(%q: tensor<7x33xf32>, %k: tensor<5x33xf32>, %v: tensor<5x33xf32>,
                    %s: tensor<7x5xf32, #CSR>) -> tensor<7x33xf32> {
  %o = sopt.sparse_attention %q, %k, %v, %s scale = 1.0
      : tensor<7x33xf32>, tensor<5x33xf32>, tensor<5x33xf32>, tensor<7x5xf32, #CSR> -> tensor<7x33xf32>
  return %o : tensor<7x33xf32>
}

// A softmax over each row's stored entries.
// CHECK-LABEL: func.func @stored_entries_softmax
// CHECK: sopt.softmax %arg0 dim = 1 : tensor<7x5xf32, #sparse{{[0-9]*}}>
func.func @stored_entries_softmax(%x: tensor<7x5xf32, #CSR>) -> tensor<7x5xf32, #CSR> {
  %p = sopt.softmax %x dim = 1 : tensor<7x5xf32, #CSR>
  return %p : tensor<7x5xf32, #CSR>
}
