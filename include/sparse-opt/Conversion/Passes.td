//===- Passes.td - sparse-opt conversion passes ------------*- tablegen -*-===//
//
// Passes that bring graphs from other dialects into sopt.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_CONVERSION_PASSES_TD
#define SPARSE_OPT_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTosaToSOpt : Pass<"sopt-convert-tosa"> {
  let summary = "Convert TOSA graphs (torch-mlir, TFLite) into sopt ops";
  let description = [{
    Rewrites TOSA ops on statically shaped f16, bf16, f32 and f64 tensors into
    the sopt ops that compute the same values. TOSA's implicit broadcasting
    (equal ranks, size-1 dimensions stretch) becomes an explicit
    `sopt.broadcast` of the operand with size-1 dimensions.

    Before:

    ```mlir
    %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %0 = tosa.mul %x, %scale, %shift : (tensor<4x8xf32>, tensor<1x8xf32>, tensor<1xi8>) -> tensor<4x8xf32>
    %1 = tosa.clamp %0 {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %2 = tosa.reduce_sum %1 {axis = 1 : i32} : (tensor<4x8xf32>) -> tensor<4x1xf32>
    ```

    After:

    ```mlir
    %b = sopt.broadcast %scale dims = [0, 1] : tensor<1x8xf32> -> tensor<4x8xf32>
    %0 = sopt.mul %x, %b : tensor<4x8xf32>
    %1 = sopt.relu %0 : tensor<4x8xf32>
    %2 = sopt.reduce sum %1 dims = [1] keep_dims : tensor<4x8xf32> -> tensor<4x1xf32>
    ```

    Converted: `add`, `sub`, `mul` (float shift a constant 0), `maximum`,
    `minimum`, `pow`, `abs`, `negate` (zero points a constant 0), `exp`,
    `log`, `tanh`, `sigmoid`, `erf`, `rsqrt`, `reciprocal`, `clamp` (`[0, ∞)`
    is `sopt.relu`, other bounds `sopt.max`/`sopt.min` against splat
    constants; a bound at the element type's largest finite value counts as
    none), `select`, `equal`/`greater`/`greater_equal` (`sopt.compare`),
    `cast` between f16, bf16, f32, f64, i1, i32 and i64, `reduce_sum`/
    `reduce_max`/`reduce_min` (keep-dims `sopt.reduce`), `reshape` with a
    `tosa.const_shape` shape, `transpose`, 3-D `matmul` with zero zero points
    (an f16/bf16 product into f32 widens its operands first), `const` (data
    constants become `sopt.constant`; shift and zero-point constants are
    dropped with their users) and `identity`. NaN handling of
    `maximum`/`minimum`/`clamp`/`reduce_max`/`reduce_min` must be the default
    `PROPAGATE`.

    Every other TOSA op, and a listed op on integer or quantized types,
    dynamic shapes or nonzero shifts and zero points, is reported as an error
    at its location (`'tosa.conv2d' op is not supported by sopt-convert-tosa`,
    followed by the reason where there is one) and the pass fails.
  }];
  let dependentDialects = ["::mlir::sopt::SOptDialect"];
}

#endif // SPARSE_OPT_CONVERSION_PASSES_TD
