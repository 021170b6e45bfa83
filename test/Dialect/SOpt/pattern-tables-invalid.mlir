// RUN: sparse-opt %s -split-input-file -verify-diagnostics

// sopt.pattern_tables and the attribute naming it are checked by the dialect.

// expected-error @+1 {{'row_order' holds 3 values, but the pattern needs 4}}
sopt.pattern_tables @short of "w.smtx" {rows = 4 : i64, cols = 6 : i64, nnz = 6 : i64, row_order = dense<[1, 3, 0]> : tensor<3xi32>}

// -----

// expected-error @+1 {{'positions' must be a 1-D tensor of i32}}
sopt.pattern_tables @wide of "w.smtx" {rows = 4 : i64, cols = 6 : i64, nnz = 6 : i64, positions = dense<[0, 1, 4, 4, 6]> : tensor<5xi64>}

// -----

// expected-error @+1 {{needs 'long_rows' with 'row_segments' and only then}}
sopt.pattern_tables @segments of "w.smtx" {rows = 4 : i64, cols = 6 : i64, nnz = 6 : i64, row_segments = dense<[0, 0, 1]> : tensor<3xi32>}

// -----

// expected-error @+1 {{needs all three transpose tables or none}}
sopt.pattern_tables @transpose of "w.smtx" transposed {rows = 2 : i64, cols = 2 : i64, nnz = 1 : i64, transpose_positions = dense<[0, 1, 1]> : tensor<3xi32>}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
func.func @missing(%w: tensor<4x6xf32, #CSR>, %x: tensor<6x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'sopt.pattern_tables' names @nowhere, which is not a sopt.pattern_tables op}}
  %y = sopt.spmm %w, %x {sopt.pattern_tables = @nowhere} : tensor<4x6xf32, #CSR>, tensor<6x16xf32> -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

sopt.pattern_tables @tables of "w.smtx" {rows = 4 : i64, cols = 6 : i64, nnz = 6 : i64}
func.func @not_a_product(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'sopt.pattern_tables' is for a sopt.spmm or sopt.sddmm}}
  %y = sopt.exp %x {sopt.pattern_tables = @tables} : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
func.func @launch_kind(%w: tensor<4x6xf32, #CSR>, %x: tensor<6x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'sopt.launch' must be a #sopt.sparse_launch}}
  %y = sopt.spmm %w, %x {sopt.launch = 1 : i64} : tensor<4x6xf32, #CSR>, tensor<6x16xf32> -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// expected-error @+1 {{rhs_workspace is for transposes_rhs}}
func.func private @launch_rhs() attributes {launch = #sopt.sparse_launch<rhs_workspace = 16>}

// -----

// expected-error @+1 {{warps_per_block must be 0 to 32, got 64}}
func.func private @launch_warps() attributes {launch = #sopt.sparse_launch<warps_per_block = 64>}
