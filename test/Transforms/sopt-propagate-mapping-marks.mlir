// RUN: sparse-opt %s -split-input-file --sopt-propagate-mapping -verify-diagnostics

// The passes after sopt-group-backbones read the grouping from its marks;
// marks that do not describe a grouping are refused where they are read.

func.func @missing_group(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %f = sopt.fusion ins(%x : tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    // expected-error @+1 {{'sopt.exp' op has no sopt.group; run sopt-group-backbones first}}
    %e = sopt.exp %a : tensor<4x8xf32>
    sopt.yield %e : tensor<4x8xf32>
  }
  return %f : tensor<4x8xf32>
}

// -----

func.func @unmarked_reduce(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %f = sopt.fusion ins(%x : tensor<4x8xf32>) -> tensor<4x1xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    // expected-error @+1 {{'sopt.reduce' op is a reduce without a sopt.backbone or sopt.sub_backbone mark}}
    %s = sopt.reduce sum %a dims = [1] keep_dims {sopt.group = 0 : i64} : tensor<4x8xf32> -> tensor<4x1xf32>
    sopt.yield %s : tensor<4x1xf32>
  }
  return %f : tensor<4x1xf32>
}

// -----

func.func @sub_backbone_of_another_space(%x: tensor<4x8xf32>) -> tensor<1x1xf32> {
  %f = sopt.fusion ins(%x : tensor<4x8xf32>) -> tensor<1x1xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    %s = sopt.reduce sum %a dims = [1] keep_dims {sopt.backbone, sopt.group = 0 : i64} : tensor<4x8xf32> -> tensor<4x1xf32>
    // expected-error @+1 {{'sopt.reduce' op is marked sopt.sub_backbone but reduces another iteration space than its group's backbone}}
    %t = sopt.reduce sum %s dims = [0] keep_dims {sopt.group = 0 : i64, sopt.sub_backbone} : tensor<4x1xf32> -> tensor<1x1xf32>
    sopt.yield %t : tensor<1x1xf32>
  }
  return %f : tensor<1x1xf32>
}

// -----

func.func @group_without_ops(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.fusion' op has group ids with no ops; run sopt-group-backbones}}
  %f = sopt.fusion ins(%x : tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    %e = sopt.exp %a {sopt.group = 1 : i64} : tensor<4x8xf32>
    sopt.yield %e : tensor<4x8xf32>
  }
  return %f : tensor<4x8xf32>
}
