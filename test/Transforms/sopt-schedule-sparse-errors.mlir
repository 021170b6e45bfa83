// RUN: sparse-opt %s -split-input-file -verify-diagnostics --sopt-schedule-sparse

// Unusable sparsity patterns are errors at the function argument, reported
// once per argument however many products use it.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// expected-note-re @+2 {{a relative pattern path is looked up in '{{.*}}Transforms', then in the current directory}}
// expected-error @+1 {{cannot read the sparsity pattern of argument #0: Inputs/schedule-missing.smtx:0: cannot open the file: No such file or directory}}
func.func @missing(%w: tensor<8x16xf32, #CSR> {sopt.sparsity_pattern = "Inputs/schedule-missing.smtx"},
                   %x: tensor<16x256xf32>) -> (tensor<8x256xf32>, tensor<8x256xf32>) {
  %0 = sopt.spmm %w, %x : tensor<8x16xf32, #CSR>, tensor<16x256xf32> -> tensor<8x256xf32>
  %1 = sopt.spmm %w, %x : tensor<8x16xf32, #CSR>, tensor<16x256xf32> -> tensor<8x256xf32>
  return %0, %1 : tensor<8x256xf32>, tensor<8x256xf32>
}

// -----

// The file is 8 x 16; the argument 16 x 16.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @dims(%x: tensor<16x256xf32>,
                // expected-error-re @+1 {{the sparsity pattern of argument #1 ({{.*}}Inputs/schedule-skewed-rows.smtx) is 8x16, but the argument is 16x16}}
                %w: tensor<16x16xf32, #CSR> {sopt.sparsity_pattern = "Inputs/schedule-skewed-rows.smtx"}) -> tensor<16x256xf32> {
  %0 = sopt.spmm %w, %x : tensor<16x16xf32, #CSR>, tensor<16x256xf32> -> tensor<16x256xf32>
  return %0 : tensor<16x256xf32>
}

// -----

// The reader's "file:line: message" is passed on.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// expected-error-re @+1 {{cannot read the sparsity pattern of argument #2: {{.*}}Inputs/schedule-malformed.smtx:2: row offset 2 is 0, less than row offset 1 (1); offsets must be non-decreasing}}
func.func @malformed(%a: tensor<4x32xf32>, %b: tensor<4x32xf32>, %s: tensor<4x4xf32, #CSR> {sopt.sparsity_pattern = "Inputs/schedule-malformed.smtx"}) -> tensor<4x4xf32, #CSR> {
  %0 = sopt.sddmm %a, %b, %s transpose_rhs : tensor<4x32xf32>, tensor<4x32xf32>, tensor<4x4xf32, #CSR> -> tensor<4x4xf32, #CSR>
  return %0 : tensor<4x4xf32, #CSR>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// expected-error @+1 {{'sopt.sparsity_pattern' must be a string naming a .mtx or .smtx file, got 1 : i64}}
func.func @not_a_path(%w: tensor<8x16xf32, #CSR> {sopt.sparsity_pattern = 1}, %x: tensor<16x256xf32>) -> tensor<8x256xf32> {
  %0 = sopt.spmm %w, %x : tensor<8x16xf32, #CSR>, tensor<16x256xf32> -> tensor<8x256xf32>
  return %0 : tensor<8x256xf32>
}

// -----

// k = 4096 with transpose_rhs in f64: even a whole warp per output would
// leave 128 elements of A's row to each lane, beyond the kernel's 64, and
// the dense blocks (which take any k) are for f32/f16/bf16 only.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @sddmm_k_too_large(%a: tensor<64x4096xf64>, %s: tensor<64x64xf64, #CSR>) -> tensor<64x64xf64, #CSR> {
  // expected-error @+1 {{'sopt.sddmm' op has no valid schedule: the heuristics chose #sopt.sddmm_schedule<tile_nonzeros = 2, threads_per_nonzero = 32, tiles_per_block = 4, vector_width = 2, row_order = natural>, but each lane would hold more than 64 elements of the left operand's row}}
  %0 = sopt.sddmm %a, %a, %s transpose_rhs : tensor<64x4096xf64>, tensor<64x4096xf64>, tensor<64x64xf64, #CSR> -> tensor<64x64xf64, #CSR>
  return %0 : tensor<64x64xf64, #CSR>
}

// -----

// A CSC argument's file holds the arrays passed, those of its transpose in
// CSR: an 8 x 16 CSC matrix needs a 16 x 8 file, not the 8 x 16 one.
#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
func.func @csc_transposed_file(%x: tensor<4x8xf32>,
                // expected-error-re @+1 {{the sparsity pattern of argument #1 ({{.*}}Inputs/schedule-skewed-rows.smtx) is 8x16, but the argument is 8x16 in CSC (its arrays, and the file, are those of its 16x8 transpose in CSR)}}
                %s: tensor<8x16xf32, #CSC> {sopt.sparsity_pattern = "Inputs/schedule-skewed-rows.smtx"}) -> tensor<4x16xf32> {
  %y = sopt.spmm %x, %s : tensor<4x8xf32>, tensor<8x16xf32, #CSC> -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
