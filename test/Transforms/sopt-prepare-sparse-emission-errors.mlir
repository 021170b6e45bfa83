// RUN: sparse-opt %s -split-input-file -verify-diagnostics --sopt-prepare-sparse-emission

// Schedules that need the pattern at compile time, without one.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
func.func @by_length(%w: tensor<4x6xf32, #CSR>, %x: tensor<6x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{visits rows longest first (row_order = by_length), which needs the pattern at compile time}}
  %y = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 16, threads_per_tile = 16, tiles_per_block = 4, vector_width = 1, row_order = by_length>} : tensor<4x6xf32, #CSR>, tensor<6x16xf32> -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
func.func @gather(%q: tensor<4x8xf32>, %k: tensor<8x6xf32>, %s: tensor<4x6xf32, #CSR>) -> tensor<4x6xf32, #CSR> {
  // expected-error @+1 {{visits rows longest first (row_order = by_length), which needs the pattern at compile time}}
  %d = sopt.sddmm %q, %k, %s {schedule = #sopt.sddmm_schedule<tile_nonzeros = 32, threads_per_nonzero = 1, tiles_per_block = 4, vector_width = 1, row_order = by_length>} : tensor<4x8xf32>, tensor<8x6xf32>, tensor<4x6xf32, #CSR> -> tensor<4x6xf32, #CSR>
  return %d : tensor<4x6xf32, #CSR>
}

// -----

// A hand-written schedule skips sopt-schedule-sparse's checks of the file:
// its shape is checked here.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
func.func @shape(%w: tensor<5x6xf32, #CSR> {sopt.sparsity_pattern = "Inputs/prepare-tiny.smtx"},
                 %x: tensor<6x16xf32>) -> tensor<5x16xf32> {
  // expected-error-re @+1 {{has a sparsity pattern ({{.*}}prepare-tiny.smtx) of 4x6, but its sparse operand's arrays are 5x6}}
  %y = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 16, threads_per_tile = 16, tiles_per_block = 4, vector_width = 1, row_order = by_length>} : tensor<5x6xf32, #CSR>, tensor<6x16xf32> -> tensor<5x16xf32>
  return %y : tensor<5x16xf32>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
func.func @malformed(%w: tensor<4x6xf32, #CSR> {sopt.sparsity_pattern = "Inputs/schedule-malformed.smtx"},
                     %x: tensor<6x16xf32>) -> tensor<4x16xf32> {
  // expected-error-re @+1 {{cannot read its sparsity pattern: {{.*}}schedule-malformed.smtx:{{[0-9]+}}: }}
  %y = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 16, threads_per_tile = 16, tiles_per_block = 4, vector_width = 1, row_order = by_length>} : tensor<4x6xf32, #CSR>, tensor<6x16xf32> -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// A sparse attention's pattern file is read for its row plan: its shape
// and its syntax are checked alike.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
func.func @attention_shape(%q: tensor<5x8xf32>, %k: tensor<6x8xf32>, %v: tensor<6x8xf32>,
                           %s: tensor<5x6xf32, #CSR> {sopt.sparsity_pattern = "Inputs/prepare-tiny.smtx"})
    -> tensor<5x8xf32> {
  // expected-error-re @+1 {{'sopt.sparse_attention' op has a sparsity pattern ({{.*}}prepare-tiny.smtx) of 4x6, but its sparse operand's arrays are 5x6}}
  %o = sopt.sparse_attention %q, %k, %v, %s scale = 0.5 : tensor<5x8xf32>, tensor<6x8xf32>, tensor<6x8xf32>, tensor<5x6xf32, #CSR> -> tensor<5x8xf32>
  return %o : tensor<5x8xf32>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
func.func @attention_malformed(%q: tensor<4x8xf32>, %k: tensor<6x8xf32>, %v: tensor<6x8xf32>,
                               %s: tensor<4x6xf32, #CSR> {sopt.sparsity_pattern = "Inputs/schedule-malformed.smtx"})
    -> tensor<4x8xf32> {
  // expected-error-re @+1 {{'sopt.sparse_attention' op cannot read its sparsity pattern: {{.*}}schedule-malformed.smtx:{{[0-9]+}}: }}
  %o = sopt.sparse_attention %q, %k, %v, %s scale = 0.5 : tensor<4x8xf32>, tensor<6x8xf32>, tensor<6x8xf32>, tensor<4x6xf32, #CSR> -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}
