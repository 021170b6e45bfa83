// RUN: sparse-opt %s --sopt-fuse-sparse-attention -split-input-file -verify-diagnostics

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// The probabilities are also returned: the chain cannot fold, and nothing
// else computes its softmax.
func.func @probabilities_read_twice(%q: tensor<9x16xf32>, %k: tensor<5x16xf32>,
    %s: tensor<9x5xf32, #CSR>, %v: tensor<5x8xf32>) -> (tensor<9x8xf32>, tensor<9x5xf32, #CSR>) {
  %d = sopt.sddmm %q, %k, %s transpose_rhs
      : tensor<9x16xf32>, tensor<5x16xf32>, tensor<9x5xf32, #CSR> -> tensor<9x5xf32, #CSR>
  // expected-error @+1 {{softmax over stored entries is compiled only as sparse attention}}
  %p = sopt.softmax %d dim = 1 : tensor<9x5xf32, #CSR>
  %o = sopt.spmm %p, %v : tensor<9x5xf32, #CSR>, tensor<5x8xf32> -> tensor<9x8xf32>
  return %o, %p : tensor<9x8xf32>, tensor<9x5xf32, #CSR>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// The scale is not a constant.
func.func @runtime_scale(%q: tensor<9x16xf32>, %k: tensor<5x16xf32>, %s: tensor<9x5xf32, #CSR>,
                         %v: tensor<5x8xf32>, %c: tensor<9x5xf32>) -> tensor<9x8xf32> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs
      : tensor<9x16xf32>, tensor<5x16xf32>, tensor<9x5xf32, #CSR> -> tensor<9x5xf32, #CSR>
  %x = sopt.mul %d, %c : tensor<9x5xf32, #CSR>, tensor<9x5xf32> -> tensor<9x5xf32, #CSR>
  // expected-error @+1 {{softmax over stored entries is compiled only as sparse attention}}
  %p = sopt.softmax %x dim = 1 : tensor<9x5xf32, #CSR>
  %o = sopt.spmm %p, %v : tensor<9x5xf32, #CSR>, tensor<5x8xf32> -> tensor<9x8xf32>
  return %o : tensor<9x8xf32>
}
