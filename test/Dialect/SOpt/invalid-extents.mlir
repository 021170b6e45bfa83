// RUN: sparse-opt %s -split-input-file -verify-diagnostics

// Sizes, counts and attributes the generated code cannot index or compute
// with are refused where they are written (docs/Fuzzing.md lists how each
// was found).

// An element count past 2^64 used to wrap to 0: a kernel that does nothing.
func.func @count_wraps(%a: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32> {
  // expected-error @+1 {{'sopt.exp' op operand #0 of type 'tensor<4294967296x4294967296xf32>' has more elements than a 64-bit count holds}}
  %0 = sopt.exp %a : tensor<4294967296x4294967296xf32>
  return %0 : tensor<4294967296x4294967296xf32>
}

// -----

// Rows near 2^63 used to give a negative grid.
func.func @rows_near_2_63(%a: tensor<4611686018427387904x1xf32>) -> tensor<4611686018427387904x1xf32> {
  // expected-error @+1 {{'sopt.softmax' op operand #0 of type 'tensor<4611686018427387904x1xf32>' holds more than 2^48 bytes, beyond what the generated code indexes}}
  %0 = sopt.softmax %a dim = 1 : tensor<4611686018427387904x1xf32>
  return %0 : tensor<4611686018427387904x1xf32>
}

// -----

// Results count too: 2^47 bf16 elements are 2^48 bytes (accepted), 2^47 f32
// ones are not.
func.func @result_bytes(%a: tensor<140737488355328xbf16>) -> tensor<140737488355328xf32> {
  // expected-error @+1 {{'sopt.cast' op result #0 of type 'tensor<140737488355328xf32>' holds more than 2^48 bytes}}
  %0 = sopt.cast %a : tensor<140737488355328xbf16> to tensor<140737488355328xf32>
  return %0 : tensor<140737488355328xf32>
}

// -----

// A sparse operand is never allocated densely: only its count must not wrap.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @sparse_dense_size_wraps(%s: tensor<4294967296x4294967296xf32, #CSR>, %x: tensor<4294967296xf32>) -> tensor<4294967296xf32> {
  // expected-error @+1 {{(d0 : dense, d1 : compressed) }>>' has more elements than a 64-bit count holds}}
  %0 = sopt.spmv %s, %x : tensor<4294967296x4294967296xf32, #CSR>, tensor<4294967296xf32> -> tensor<4294967296xf32>
  return %0 : tensor<4294967296xf32>
}

// -----

// A reduction over an empty dimension (max, min and mean have no value)
// used to divide by zero while choosing its thread mapping.
func.func @reduce_empty(%a: tensor<4x0xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'sopt.reduce' op reduces over dimension 1 of extent 0 (empty reductions are not supported)}}
  %0 = sopt.reduce sum %a dims = [1] : tensor<4x0xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// 1e400 parses as infinity.
func.func @epsilon_infinite(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.layer_norm' op expects a finite non-negative epsilon}}
  %0 = sopt.layer_norm %x epsilon = 1.0e400 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @rms_epsilon_infinite(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.rms_norm' op expects a finite non-negative epsilon}}
  %0 = sopt.rms_norm %x epsilon = 1.0e400 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @attention_scale_infinite(%q: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.attention' op expects a finite positive scale}}
  %0 = sopt.attention %q, %q, %q scale = 1.0e400 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Threads per block is threads_per_tile * tiles_per_block * row_splits in
// int: 32 * 2^27 * 4 used to wrap to 0 and pass the schedule check.
#CSR32 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
func.func @spmm_threads_wrap(%a: tensor<64x8xf32, #CSR32>, %b: tensor<8x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{'sopt.spmm' op has an invalid schedule: tiles_per_block = 134217728 is out of range (at most 1024)}}
  %0 = sopt.spmm %a, %b {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 32, tiles_per_block = 134217728, vector_width = 2, row_order = natural, row_splits = 4>} : tensor<64x8xf32, #CSR32>, tensor<8x64xf32> -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

#CSR32 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
func.func @sddmm_sizes(%a: tensor<8x64xf32>, %b: tensor<8x64xf32>, %s: tensor<8x8xf32, #CSR32>) -> tensor<8x8xf32, #CSR32> {
  // expected-error @+1 {{'sopt.sddmm' op has an invalid schedule: tile_nonzeros = 2147483647 is out of range (at most 1048576)}}
  %0 = sopt.sddmm %a, %b, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 2147483647, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural>} : tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x8xf32, #CSR32> -> tensor<8x8xf32, #CSR32>
  return %0 : tensor<8x8xf32, #CSR32>
}

// -----

// An empty tensor's strides still multiply its other extents: an attention
// over a batch of 0 with 2^63 - 1 queries overflowed the index-map
// arithmetic of its Q·Kᵀ (UBSan, found by fuzz/extreme-shapes.py).
func.func @empty_but_wide(%q: tensor<0x4294967296x1xbf16>, %k: tensor<0x1x4294967296xbf16>) -> tensor<0x4294967296x4294967296xbf16> {
  // expected-error @+1 {{'sopt.matmul' op result #0 of type 'tensor<0x4294967296x4294967296xbf16>' is empty, but its other extents multiply past a 64-bit count}}
  %0 = sopt.matmul %q, %k : tensor<0x4294967296x1xbf16>, tensor<0x1x4294967296xbf16> -> tensor<0x4294967296x4294967296xbf16>
  return %0 : tensor<0x4294967296x4294967296xbf16>
}

// -----

func.func @empty_but_large(%x: tensor<0x4294967296x65536xf32>) -> tensor<0x4294967296x65536xf32> {
  // expected-error @+1 {{'sopt.exp' op operand #0 of type 'tensor<0x4294967296x65536xf32>' is empty, but its other extents span more than 2^48 bytes}}
  %0 = sopt.exp %x : tensor<0x4294967296x65536xf32>
  return %0 : tensor<0x4294967296x65536xf32>
}
