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

// -----

// A sparse attention's row plan.
// expected-error @+1 {{needs 'split_length' with 'split_rows' and only then}}
sopt.pattern_tables @plan_length of "s.smtx" {rows = 4 : i64, cols = 4 : i64, nnz = 6 : i64, split_rows = dense<[1]> : tensor<1xi32>}

// -----

// expected-error @+1 {{needs 'split_rows' with 'unsplit_rows'}}
sopt.pattern_tables @plan_unsplit of "s.smtx" {rows = 4 : i64, cols = 4 : i64, nnz = 6 : i64, unsplit_rows = dense<[0, 1, 2, 3]> : tensor<4xi32>}

// -----

// expected-error @+1 {{splits rows but lists no 'unsplit_rows' for the others}}
sopt.pattern_tables @plan_others of "s.smtx" {rows = 4 : i64, cols = 4 : i64, nnz = 6 : i64, split_length = 1 : i64, split_rows = dense<[1]> : tensor<1xi32>}

// -----

// expected-error @+1 {{plans 1 split and 2 unsplit rows, but the pattern has 4}}
sopt.pattern_tables @plan_count of "s.smtx" {rows = 4 : i64, cols = 4 : i64, nnz = 6 : i64, split_length = 1 : i64, split_rows = dense<[1]> : tensor<1xi32>, unsplit_rows = dense<[0, 2]> : tensor<2xi32>}

// -----

// expected-error @+1 {{plans row 4, outside the pattern's 4}}
sopt.pattern_tables @plan_range of "s.smtx" {rows = 4 : i64, cols = 4 : i64, nnz = 6 : i64, split_length = 1 : i64, split_rows = dense<[4]> : tensor<1xi32>, unsplit_rows = dense<[0, 1, 2]> : tensor<3xi32>}

// -----

// expected-error @+1 {{plans row 1 twice}}
sopt.pattern_tables @plan_twice of "s.smtx" {rows = 4 : i64, cols = 4 : i64, nnz = 6 : i64, split_length = 1 : i64, split_rows = dense<[1]> : tensor<1xi32>, unsplit_rows = dense<[0, 1, 2]> : tensor<3xi32>}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
sopt.pattern_tables @no_plan of "s.smtx" {rows = 4 : i64, cols = 4 : i64, nnz = 6 : i64, row_order = dense<[0, 1, 2, 3]> : tensor<4xi32>}
func.func @attention_no_plan(%q: tensor<4x8xf32>, %k: tensor<4x8xf32>, %v: tensor<4x8xf32>, %s: tensor<4x4xf32, #CSR>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.pattern_tables' names @no_plan, which holds no row plan ('split_rows')}}
  %o = sopt.sparse_attention %q, %k, %v, %s scale = 0.5 {sopt.pattern_tables = @no_plan} : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x4xf32, #CSR> -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
sopt.pattern_tables @other_rows of "s.smtx" {rows = 5 : i64, cols = 4 : i64, nnz = 6 : i64, split_length = 64 : i64, split_rows = dense<> : tensor<0xi32>}
func.func @attention_rows(%q: tensor<4x8xf32>, %k: tensor<4x8xf32>, %v: tensor<4x8xf32>, %s: tensor<4x4xf32, #CSR>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.pattern_tables' names @other_rows, planned for 5 rows, but the pattern has 4}}
  %o = sopt.sparse_attention %q, %k, %v, %s scale = 0.5 {sopt.pattern_tables = @other_rows} : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x4xf32, #CSR> -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
func.func @attention_launch(%q: tensor<4x8xf32>, %k: tensor<4x8xf32>, %v: tensor<4x8xf32>, %s: tensor<4x4xf32, #CSR>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.launch' is for a sopt.spmm or sopt.sddmm}}
  %o = sopt.sparse_attention %q, %k, %v, %s scale = 0.5 {sopt.launch = #sopt.sparse_launch<>} : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x4xf32, #CSR> -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}
