// RUN: sparse-opt %s -split-input-file -verify-diagnostics

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

func.func @rows_differ(%q: tensor<8x64xf32>, %k: tensor<5x64xf32>, %v: tensor<5x64xf32>,
                       %s: tensor<7x5xf32, #CSR>) -> tensor<8x64xf32> {
  // expected-error @+1 {{query has shape 8x64 but 7x64 was expected}}
  %o = sopt.sparse_attention %q, %k, %v, %s scale = 1.0
      : tensor<8x64xf32>, tensor<5x64xf32>, tensor<5x64xf32>, tensor<7x5xf32, #CSR> -> tensor<8x64xf32>
  return %o : tensor<8x64xf32>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

func.func @key_dim(%q: tensor<7x64xf32>, %k: tensor<5x32xf32>, %v: tensor<5x64xf32>,
                   %s: tensor<7x5xf32, #CSR>) -> tensor<7x64xf32> {
  // expected-error @+1 {{key has shape 5x32 but 5x64 was expected}}
  %o = sopt.sparse_attention %q, %k, %v, %s scale = 1.0
      : tensor<7x64xf32>, tensor<5x32xf32>, tensor<5x64xf32>, tensor<7x5xf32, #CSR> -> tensor<7x64xf32>
  return %o : tensor<7x64xf32>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

func.func @heads_differ(%q: tensor<2x7x64xf32>, %k: tensor<3x5x64xf32>, %v: tensor<2x5x64xf32>,
                        %s: tensor<7x5xf32, #CSR>) -> tensor<2x7x64xf32> {
  // expected-error @+1 {{key has shape 3x5x64 but 2x5x64 was expected}}
  %o = sopt.sparse_attention %q, %k, %v, %s scale = 1.0
      : tensor<2x7x64xf32>, tensor<3x5x64xf32>, tensor<2x5x64xf32>, tensor<7x5xf32, #CSR> -> tensor<2x7x64xf32>
  return %o : tensor<2x7x64xf32>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

func.func @rank(%q: tensor<2x7x64xf32>, %k: tensor<5x64xf32>, %v: tensor<5x64xf32>,
                %s: tensor<7x5xf32, #CSR>) -> tensor<2x7x64xf32> {
  // expected-error @+1 {{expects query, key, value and result of one rank >= 2}}
  %o = sopt.sparse_attention %q, %k, %v, %s scale = 1.0
      : tensor<2x7x64xf32>, tensor<5x64xf32>, tensor<5x64xf32>, tensor<7x5xf32, #CSR> -> tensor<2x7x64xf32>
  return %o : tensor<2x7x64xf32>
}

// -----

#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed), posWidth = 32, crdWidth = 32 }>

func.func @csc(%q: tensor<7x64xf32>, %k: tensor<5x64xf32>, %v: tensor<5x64xf32>,
               %s: tensor<7x5xf32, #CSC>) -> tensor<7x64xf32> {
  // expected-error @+1 {{pattern has an unsupported sparse encoding}}
  %o = sopt.sparse_attention %q, %k, %v, %s scale = 1.0
      : tensor<7x64xf32>, tensor<5x64xf32>, tensor<5x64xf32>, tensor<7x5xf32, #CSC> -> tensor<7x64xf32>
  return %o : tensor<7x64xf32>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

func.func @result(%q: tensor<7x64xf32>, %k: tensor<5x64xf32>, %v: tensor<5x32xf32>,
                  %s: tensor<7x5xf32, #CSR>) -> tensor<7x64xf32> {
  // expected-error @+1 {{result has shape 7x64 but 7x32 was expected}}
  %o = sopt.sparse_attention %q, %k, %v, %s scale = 1.0
      : tensor<7x64xf32>, tensor<5x64xf32>, tensor<5x32xf32>, tensor<7x5xf32, #CSR> -> tensor<7x64xf32>
  return %o : tensor<7x64xf32>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

func.func @softmax_columns(%x: tensor<7x5xf32, #CSR>) -> tensor<7x5xf32, #CSR> {
  // expected-error @+1 {{over stored entries takes dim = 1}}
  %p = sopt.softmax %x dim = 0 : tensor<7x5xf32, #CSR>
  return %p : tensor<7x5xf32, #CSR>
}
