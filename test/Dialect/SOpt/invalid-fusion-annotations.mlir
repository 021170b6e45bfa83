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
