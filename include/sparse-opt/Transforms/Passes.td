//===- Passes.td - sparse-opt transformation passes ----------*- tablegen -*-===//

#ifndef SPARSE_OPT_TRANSFORMS_PASSES_TD
#define SPARSE_OPT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def DecomposeComposites : Pass<"sopt-decompose-composites"> {
  let summary = "Rewrite composite sopt layers into primitive sopt ops";
  let description = [{
    Expands softmax, layer_norm, rms_norm, gelu, mean reductions and attention
    into elementwise ops, explicit broadcasts, sum/max reductions and
    matmuls, so that the fusion passes see every memory-bound operation and
    the reductions that shape it. The element type is kept; numerically
    stable forms are used (softmax subtracts the row maximum).

    Before:

    ```mlir
    %y = sopt.softmax %x dim = 1 : tensor<4x8xf32>
    ```

    After:

    ```mlir
    %m  = sopt.reduce max %x dims = [1] keep_dims : tensor<4x8xf32> -> tensor<4x1xf32>
    %mb = sopt.broadcast %m dims = [0, 1] : tensor<4x1xf32> -> tensor<4x8xf32>
    %d  = sopt.sub %x, %mb : tensor<4x8xf32>
    %e  = sopt.exp %d : tensor<4x8xf32>
    %s  = sopt.reduce sum %e dims = [1] keep_dims : tensor<4x8xf32> -> tensor<4x1xf32>
    %sb = sopt.broadcast %s dims = [0, 1] : tensor<4x1xf32> -> tensor<4x8xf32>
    %y  = sopt.div %e, %sb : tensor<4x8xf32>
    ```

    `mean` becomes `sum` times a splat of `1/n`; `gelu` becomes its erf or
    tanh formula; `attention` becomes `matmul(softmax(scale·Q·Kᵀ + mask), V)`,
    with a causal mask built as a boolean constant.
  }];
  let dependentDialects = ["::mlir::sopt::SOptDialect"];
  let options = [
    Option<"keepAttention", "keep-attention", "bool", /*default=*/"false",
           "Leave sopt.attention intact for a fused attention schedule">,
  ];
}

#endif // SPARSE_OPT_TRANSFORMS_PASSES_TD
