// RUN: sparse-opt %s -split-input-file -verify-diagnostics

// The fusion passes' marks are checked where they are attached
// (SOptDialect::verifyOperationAttribute).

func.func @group_outside_fusion(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'sopt.exp' op has 'sopt.group', which only ops of a sopt.fusion carry}}
  %e = sopt.exp %x {sopt.group = 0 : i64} : tensor<4xf32>
  return %e : tensor<4xf32>
}

// -----

func.func @negative_group(%x: tensor<4xf32>) -> tensor<4xf32> {
  %f = sopt.fusion ins(%x : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    // expected-error @+1 {{'sopt.exp' op expects 'sopt.group' to be a non-negative integer}}
    %e = sopt.exp %a {sopt.group = -1 : i64} : tensor<4xf32>
    sopt.yield %e : tensor<4xf32>
  }
  return %f : tensor<4xf32>
}

// -----

func.func @backbone_not_reduce(%x: tensor<4xf32>) -> tensor<4xf32> {
  %f = sopt.fusion ins(%x : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    // expected-error @+1 {{'sopt.exp' op has 'sopt.backbone', which marks a grouped sopt.reduce}}
    %e = sopt.exp %a {sopt.backbone, sopt.group = 0 : i64} : tensor<4xf32>
    sopt.yield %e : tensor<4xf32>
  }
  return %f : tensor<4xf32>
}

// -----

func.func @both_backbone_marks(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %f = sopt.fusion ins(%x : tensor<4x8xf32>) -> tensor<4x1xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    // expected-error @+1 {{'sopt.reduce' op is marked both backbone and sub-backbone}}
    %s = sopt.reduce sum %a dims = [1] keep_dims {sopt.backbone, sopt.sub_backbone, sopt.group = 0 : i64} : tensor<4x8xf32> -> tensor<4x1xf32>
    sopt.yield %s : tensor<4x1xf32>
  }
  return %f : tensor<4x1xf32>
}

// -----

func.func @index_map_rank(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %f = sopt.fusion ins(%x : tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    // expected-error @+1 {{'sopt.exp' op expects 'sopt.index_map' to map the group's iteration space to the result's indices}}
    %e = sopt.exp %a {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0)>} : tensor<4x8xf32>
    sopt.yield %e : tensor<4x8xf32>
  }
  return %f : tensor<4x8xf32>
}

// -----

func.func @shared_slot(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %f = sopt.fusion ins(%x : tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    // expected-error @+1 {{'sopt.exp' op expects 'sopt.smem' to be [offset, bytes]}}
    %e = sopt.exp %a {sopt.group = 0 : i64, sopt.smem = array<i64: 16>} : tensor<4x8xf32>
    sopt.yield %e : tensor<4x8xf32>
  }
  return %f : tensor<4x8xf32>
}

// -----

func.func @arg_cache_per_input(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.fusion' op expects 'sopt.arg_cache' to hold one entry per input}}
  %f = sopt.fusion ins(%x : tensor<4x8xf32>) attributes {sopt.arg_cache = [#sopt.memory<register>, #sopt.memory<shared>]} -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    %e = sopt.exp %a : tensor<4x8xf32>
    sopt.yield %e : tensor<4x8xf32>
  }
  return %f : tensor<4x8xf32>
}

// -----

func.func @smem_bytes_on_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'sopt.exp' op has 'sopt.smem_bytes', which only a sopt.fusion carries}}
  %e = sopt.exp %x {sopt.smem_bytes = 0 : i64} : tensor<4xf32>
  return %e : tensor<4xf32>
}

// -----

// A mapping the emitter would divide by zero with.
func.func @mapping_zero_threads_per_row(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{#sopt.mapping has threads_per_row = 0 and rows_per_block = 4; both must be positive, their product threads_per_block (64)}}
  %r = sopt.reduce sum %x dims = [1] {sopt.mapping = #sopt.mapping<kind = subwarp_rows, rows = 4, cols = 8, threads_per_block = 64, threads_per_row = 0, rows_per_block = 4, blocks_per_row = 1, vector_width = 4, grid = 1>} : tensor<4x8xf32> -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @mapping_grid_beyond_cuda(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{#sopt.mapping has grid = 2147483648; CUDA launches 1 to 2147483647 blocks}}
  %r = sopt.reduce sum %x dims = [1] {sopt.mapping = #sopt.mapping<kind = warp_rows, rows = 4, cols = 8, threads_per_block = 32, threads_per_row = 32, rows_per_block = 1, blocks_per_row = 1, vector_width = 4, grid = 2147483648>} : tensor<4x8xf32> -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @mapping_vector_width(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{#sopt.mapping has vector_width = 3; accesses move 1, 2, 4 or 8 elements}}
  %r = sopt.reduce sum %x dims = [1] {sopt.mapping = #sopt.mapping<kind = warp_rows, rows = 4, cols = 8, threads_per_block = 32, threads_per_row = 32, rows_per_block = 1, blocks_per_row = 1, vector_width = 3, grid = 4>} : tensor<4x8xf32> -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Fields large enough that their product overflows are refused one by one.
func.func @mapping_huge_threads_per_row(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{#sopt.mapping has threads_per_row = 4294967296 and rows_per_block = 4294967296; both must be positive, their product threads_per_block (64)}}
  %r = sopt.reduce sum %x dims = [1] {sopt.mapping = #sopt.mapping<kind = subwarp_rows, rows = 4, cols = 8, threads_per_block = 64, threads_per_row = 4294967296, rows_per_block = 4294967296, blocks_per_row = 1, vector_width = 4, grid = 1>} : tensor<4x8xf32> -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// The epilogue's accumulator must be one of the region's inputs.
func.func @sparse_epilogue_input(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'sopt.fusion' op has 'sopt.sparse_epilogue' = 1, but only 1 inputs}}
  %f = sopt.fusion ins(%x : tensor<4xf32>) attributes {sopt.sparse_epilogue = 1 : i64} -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %e = sopt.exp %a : tensor<4xf32>
    sopt.yield %e : tensor<4xf32>
  }
  return %f : tensor<4xf32>
}

// -----

func.func @smem_bytes_too_wide(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'sopt.fusion' op expects 'sopt.smem_bytes' to be a non-negative integer}}
  %f = sopt.fusion ins(%x : tensor<4xf32>) attributes {sopt.smem_bytes = 18446744073709551616 : i128} -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %e = sopt.exp %a : tensor<4xf32>
    sopt.yield %e : tensor<4xf32>
  }
  return %f : tensor<4xf32>
}
