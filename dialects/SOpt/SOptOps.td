//===- SOptOps.td - sopt graph operations --------------------*- tablegen -*-===//

#ifndef SOPT_OPS_TD
#define SOPT_OPS_TD

include "SOpt/SOptDialect.td"
include "SOpt/SOptAttrs.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/IR/OpBase.td"

// Every tensor of every op has an element count and a byte size that the
// compiler's arithmetic and the generated code index (IndexableExtents.h).
def SOpt_IndexableExtents : NativeOpTrait<"IndexableExtents"> {
  let cppNamespace = "::mlir::sopt";
}

class SOpt_Op<string mnemonic, list<Trait> traits = []>
    : Op<SOpt_Dialect, mnemonic, !listconcat(traits, [Pure, SOpt_IndexableExtents])>;

// Elementwise ops that may take CSR operands and then act on their stored
// entries only (docs/Sparse.md, "Elementwise ops on stored entries"): every
// sparse operand has one type, and the result has it too. Dense operands of
// the same shape are read at each entry's (row, column).
def SOpt_StoredEntriesElementwise : NativeOpTrait<"StoredEntriesElementwise"> {
  let cppNamespace = "::mlir::sopt";
}

// The description paragraph every op with that trait shares.
class SOpt_SharedDoc<string text> {
  string doc = text;
}
def SOpt_StoredEntriesDoc : SOpt_SharedDoc<
    "**On stored entries.** An operand may be a CSR matrix (such as the result of `sopt.sddmm`): the op then computes only at its stored entries, a dense operand of the same shape is read at each entry's (row, column) (sampled), and the result is a CSR matrix of the same type with the same pattern. Every sparse operand of one op has the same type and must hold the same pattern (the op pairs their values entry by entry). Implicit zeros stay zeros whatever the op (`exp` of a sparse matrix is `exp` of its stored values, not a dense matrix of ones).">;

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

def SOpt_ConstantOp : SOpt_Op<"constant", [ConstantLike,
    AllTypesMatch<["value", "result"]>]> {
  let summary = "tensor constant";
  let description = [{
    A compile-time tensor value; the result has the attribute's type.

    ```mlir
    %bias = sopt.constant dense<0.5> : tensor<1024xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise unary
//===----------------------------------------------------------------------===//

class SOpt_UnaryOp<string mnemonic, string math, list<Trait> traits = []>
    : SOpt_Op<mnemonic, !listconcat(traits,
          [Elementwise, SameOperandsAndResultType, SOpt_StoredEntriesElementwise])> {
  let summary = "elementwise " # math;
  let description = !strconcat("Computes `" # math # "` for every element.\n\n" #
      "```mlir\n%y = sopt." # mnemonic # " %x : tensor<128x1024xf32>\n```\n\n",
      SOpt_StoredEntriesDoc.doc, "\n\n" #
      "```mlir\n#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>\n" #
      "%z = sopt." # mnemonic # " %scores : tensor<512x512xf32, #CSR>\n```");
  let arguments = (ins SOpt_AnyFloatTensor:$input);
  let results = (outs SOpt_AnyFloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def SOpt_NegOp : SOpt_UnaryOp<"neg", "-x">;
def SOpt_AbsOp : SOpt_UnaryOp<"abs", "|x|">;
def SOpt_ExpOp : SOpt_UnaryOp<"exp", "e^x">;
def SOpt_LogOp : SOpt_UnaryOp<"log", "ln(x)">;
def SOpt_TanhOp : SOpt_UnaryOp<"tanh", "tanh(x)">;
def SOpt_ErfOp : SOpt_UnaryOp<"erf", "erf(x)">;
def SOpt_SigmoidOp : SOpt_UnaryOp<"sigmoid", "1 / (1 + e^-x)">;
def SOpt_ReluOp : SOpt_UnaryOp<"relu", "max(x, 0)">;
def SOpt_SqrtOp : SOpt_UnaryOp<"sqrt", "sqrt(x)">;
def SOpt_RsqrtOp : SOpt_UnaryOp<"rsqrt", "1 / sqrt(x)">;
def SOpt_ReciprocalOp : SOpt_UnaryOp<"reciprocal", "1 / x">;

def SOpt_GeluOp : SOpt_Op<"gelu", [Elementwise, SameOperandsAndResultType,
    SOpt_StoredEntriesElementwise]> {
  let summary = "elementwise GELU";
  let description = [{
    `x * Φ(x)`, either exactly through erf (the default) or with the tanh
    approximation `0.5 x (1 + tanh(√(2/π) (x + 0.044715 x³)))`.

    ```mlir
    %y = sopt.gelu %x : tensor<128x4096xf32>
    %z = sopt.gelu %x approximation = tanh : tensor<128x4096xf32>
    ```

    Like the other elementwise math ops it may act on the stored entries of
    a CSR operand (see `sopt.exp`).
  }];
  let arguments = (ins SOpt_AnyFloatTensor:$input,
      DefaultValuedAttr<SOpt_GeluApproximation,
                        "::mlir::sopt::GeluApproximation::Erf">:$approximation);
  let results = (outs SOpt_AnyFloatTensor:$result);
  let assemblyFormat = [{
    $input (`approximation` `=` $approximation^)? attr-dict `:` type($result)
  }];
}

def SOpt_CastOp : SOpt_Op<"cast", [Elementwise, SameOperandsAndResultShape]> {
  let summary = "elementwise element-type conversion";
  let description = [{
    Converts every element to the result's element type (floats round to
    nearest even; float to integer truncates toward zero).

    ```mlir
    %h = sopt.cast %x : tensor<64x64xf32> to tensor<64x64xbf16>
    ```
  }];
  let arguments = (ins SOpt_CastableTensor:$input);
  let results = (outs SOpt_CastableTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise binary and ternary
//===----------------------------------------------------------------------===//

class SOpt_BinaryOp<string mnemonic, string math, list<Trait> traits = []>
    : SOpt_Op<mnemonic, !listconcat(traits,
          [Elementwise, SameOperandsAndResultShape,
           SameOperandsAndResultElementType, SOpt_StoredEntriesElementwise])> {
  let summary = "elementwise " # math;
  let description = !strconcat("Computes `" # math # "` for every element; both " #
      "operands have the result's shape and element type (use " #
      "`sopt.broadcast` first). When all types are equal one type is " #
      "written.\n\n" #
      "```mlir\n%z = sopt." # mnemonic # " %x, %y : tensor<128x1024xf32>\n```\n\n",
      SOpt_StoredEntriesDoc.doc, "\n\n" #
      "```mlir\n// %d = sopt.sddmm ... -> tensor<512x512xf32, #CSR>; %bias is dense\n" #
      "%z = sopt." # mnemonic # " %d, %bias\n" #
      "    : tensor<512x512xf32, #CSR>, tensor<512x512xf32> -> tensor<512x512xf32, #CSR>\n```");
  let arguments = (ins SOpt_AnyFloatTensor:$lhs, SOpt_AnyFloatTensor:$rhs);
  let results = (outs SOpt_AnyFloatTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:`
    custom<ElementwiseTypes>(type($lhs), type($rhs), type($result))
  }];
  let builders = [OpBuilder<(ins "::mlir::Value":$lhs, "::mlir::Value":$rhs), [{
    build($_builder, $_state, ::mlir::sopt::getElementwiseResultType({lhs, rhs}), lhs, rhs);
  }]>];
}

def SOpt_AddOp : SOpt_BinaryOp<"add", "lhs + rhs", [Commutative]>;
def SOpt_SubOp : SOpt_BinaryOp<"sub", "lhs - rhs">;
def SOpt_MulOp : SOpt_BinaryOp<"mul", "lhs * rhs", [Commutative]>;
def SOpt_DivOp : SOpt_BinaryOp<"div", "lhs / rhs">;
def SOpt_MaxOp : SOpt_BinaryOp<"max", "max(lhs, rhs)", [Commutative]>;
def SOpt_MinOp : SOpt_BinaryOp<"min", "min(lhs, rhs)", [Commutative]>;
def SOpt_PowOp : SOpt_BinaryOp<"pow", "lhs ^ rhs">;

def SOpt_CompareOp : SOpt_Op<"compare", [Elementwise, SameTypeOperands,
    TypesMatchWith<"result is a boolean tensor of the operand shape",
                   "lhs", "result", "::mlir::sopt::getBoolTensorLike($_self)">]> {
  let summary = "elementwise comparison";
  let description = [{
    ```mlir
    %keep = sopt.compare gt, %x, %threshold : tensor<128x128xf32>
    // %keep : tensor<128x128xi1>
    ```

    Dense operands only: a sparse boolean result would have no consumer
    (compare the dense tensor a mask comes from, then `sopt.select`).
  }];
  let arguments = (ins SOpt_CompareDirection:$direction,
                       SOpt_FloatTensor:$lhs, SOpt_FloatTensor:$rhs);
  let results = (outs SOpt_BoolTensor:$result);
  let assemblyFormat = [{
    $direction `,` $lhs `,` $rhs attr-dict `:` type($lhs)
  }];
}

def SOpt_SelectOp : SOpt_Op<"select", [Elementwise,
    AllElementTypesMatch<["on_true", "on_false", "result"]>,
    AllShapesMatch<["on_true", "on_false", "result"]>,
    SOpt_StoredEntriesElementwise,
    TypesMatchWith<"condition is a boolean tensor of the result shape",
                   "result", "condition",
                   "::mlir::sopt::getBoolTensorLike($_self)">]> {
  let summary = "elementwise choice";
  let description = [{
    `condition ? on_true : on_false`, element by element.

    ```mlir
    %y = sopt.select %keep, %x, %neg_inf : tensor<128x128xf32>
    ```

    `on_true` and `on_false` may be CSR (see `sopt.exp` for the stored-entries
    meaning); the condition is always dense, read at each stored entry — a
    mask applied to an SDDMM's scores:

    ```mlir
    %m = sopt.select %keep, %scores, %zero
        : tensor<512x512xf32, #CSR>, tensor<512x512xf32> -> tensor<512x512xf32, #CSR>
    ```
  }];
  let arguments = (ins SOpt_BoolTensor:$condition,
                       SOpt_AnyFloatTensor:$on_true, SOpt_AnyFloatTensor:$on_false);
  let results = (outs SOpt_AnyFloatTensor:$result);
  let assemblyFormat = [{
    $condition `,` $on_true `,` $on_false attr-dict `:`
    custom<ElementwiseTypes>(type($on_true), type($on_false), type($result))
  }];
  let builders = [OpBuilder<(ins "::mlir::Value":$condition, "::mlir::Value":$on_true,
                                 "::mlir::Value":$on_false), [{
    build($_builder, $_state, ::mlir::sopt::getElementwiseResultType({on_true, on_false}),
          condition, on_true, on_false);
  }]>];
}

//===----------------------------------------------------------------------===//
// Broadcast, reduce, layout
//===----------------------------------------------------------------------===//

def SOpt_BroadcastOp : SOpt_Op<"broadcast", [AllElementTypesMatch<["input", "result"]>]> {
  let summary = "explicit broadcast to a larger shape";
  let description = [{
    `dims` maps each operand dimension, in order, to a result dimension; an
    operand dimension has either the size of its result dimension or size 1.
    Result dimensions not named in `dims` are new.

    ```mlir
    // Row vector to matrix: operand dim 0 becomes result dim 1.
    %b = sopt.broadcast %bias dims = [1] : tensor<1024xf32> -> tensor<128x1024xf32>
    // Keep-dims reduction result back to full width.
    %m = sopt.broadcast %max dims = [0, 1] : tensor<128x1xf32> -> tensor<128x1024xf32>
    ```
  }];
  let arguments = (ins SOpt_CastableTensor:$input, DenseI64ArrayAttr:$dims);
  let results = (outs SOpt_CastableTensor:$result);
  let assemblyFormat = [{
    $input `dims` `=` $dims attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def SOpt_ReduceOp : SOpt_Op<"reduce", [AllElementTypesMatch<["input", "result"]>]> {
  let summary = "reduction over a list of dimensions";
  let description = [{
    Reduces `input` over `dims` (strictly increasing) with `sum`, `max`,
    `min` or `mean`. With `keep_dims` the reduced dimensions stay with size 1;
    otherwise they are dropped. Accumulation is in f32 at least.

    ```mlir
    %s = sopt.reduce sum %x dims = [1] : tensor<128x1024xf32> -> tensor<128xf32>
    %m = sopt.reduce max %x dims = [1] keep_dims : tensor<128x1024xf32> -> tensor<128x1xf32>
    ```
  }];
  let arguments = (ins SOpt_ReduceKind:$kind, SOpt_FloatTensor:$input,
                       DenseI64ArrayAttr:$dims, UnitAttr:$keep_dims);
  let results = (outs SOpt_FloatTensor:$result);
  let assemblyFormat = [{
    $kind $input `dims` `=` $dims (`keep_dims` $keep_dims^)? attr-dict
    `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def SOpt_ReshapeOp : SOpt_Op<"reshape", [AllElementTypesMatch<["input", "result"]>]> {
  let summary = "row-major reshape";
  let description = [{
    Reinterprets the elements in row-major order under a new shape with the
    same number of elements.

    ```mlir
    %r = sopt.reshape %x : tensor<8x128x64xf32> -> tensor<1024x64xf32>
    ```
  }];
  let arguments = (ins SOpt_CastableTensor:$input);
  let results = (outs SOpt_CastableTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def SOpt_TransposeOp : SOpt_Op<"transpose", [AllElementTypesMatch<["input", "result"]>]> {
  let summary = "dimension permutation";
  let description = [{
    Result dimension `i` is operand dimension `permutation[i]`.

    ```mlir
    %t = sopt.transpose %x permutation = [1, 0] : tensor<128x64xf32> -> tensor<64x128xf32>
    ```
  }];
  let arguments = (ins SOpt_CastableTensor:$input,
                       DenseI64ArrayAttr:$permutation);
  let results = (outs SOpt_CastableTensor:$result);
  let assemblyFormat = [{
    $input `permutation` `=` $permutation attr-dict
    `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Compute-intensive: dense and sparse matrix products
//===----------------------------------------------------------------------===//

def SOpt_MatmulOp : SOpt_Op<"matmul", [AllElementTypesMatch<["lhs", "rhs", "result"]>]> {
  let summary = "batched dense matrix product";
  let description = [{
    `result[b…, m, n] = Σ_k lhs[b…, m, k] · rhs[b…, k, n]`, with equal leading
    (batch) dimensions. `transpose_rhs` reads `rhs` as `[b…, n, k]`, and
    `transpose_lhs` reads `lhs` as `[b…, k, m]`. Accumulation is in f32.

    ```mlir
    %y = sopt.matmul %x, %w : tensor<128x768xf32>, tensor<768x3072xf32> -> tensor<128x3072xf32>
    %s = sopt.matmul %q, %k transpose_rhs
        : tensor<8x128x64xf32>, tensor<8x128x64xf32> -> tensor<8x128x128xf32>
    ```

    An f32 product may carry a `schedule` (`#sopt.gemm_schedule`, chosen by
    `sopt-schedule-gemm` or set by hand): it then runs on the project's
    GEMM kernel, else on cuBLAS.
  }];
  let arguments = (ins SOpt_FloatTensor:$lhs, SOpt_FloatTensor:$rhs,
                       UnitAttr:$transpose_lhs, UnitAttr:$transpose_rhs,
                       OptionalAttr<SOpt_GemmScheduleAttr>:$schedule);
  let results = (outs SOpt_FloatTensor:$result);
  let builders = [
    // Unscheduled: the form the graph and the decompositions create.
    OpBuilder<(ins "::mlir::Type":$result, "::mlir::Value":$lhs, "::mlir::Value":$rhs,
                   "bool":$transpose_lhs, "bool":$transpose_rhs), [{
      build($_builder, $_state, result, lhs, rhs, transpose_lhs, transpose_rhs,
            ::mlir::sopt::GemmScheduleAttr());
    }]>
  ];
  let assemblyFormat = [{
    $lhs `,` $rhs (`transpose_lhs` $transpose_lhs^)? (`transpose_rhs` $transpose_rhs^)?
    attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

def SOpt_SpmmOp : SOpt_Op<"spmm", [AllElementTypesMatch<["lhs", "rhs", "result"]>]> {
  let summary = "sparse × dense or dense × sparse matrix product";
  let description = [{
    Exactly one operand is sparse (CSR, CSC or BSR); the result is dense.
    `sparse[m, k] · dense[k, n]` is the forward pass of a pruned layer;
    `dense[m, k] · sparse[k, n]` is handled through the transposed product.

    ```mlir
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
    %y = sopt.spmm %w, %x : tensor<512x512xf32, #CSR>, tensor<512x256xf32> -> tensor<512x256xf32>
    ```

    A CSR `lhs` may carry a `schedule` (`#sopt.spmm_schedule`, chosen by
    `sopt-schedule-sparse` or set by hand), checked against `n` (the dense
    operand's columns) and the element type:

    ```mlir
    %y = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 128,
        threads_per_tile = 32, tiles_per_block = 4, vector_width = 4,
        row_order = natural>}
        : tensor<512x512xf32, #CSR>, tensor<512x256xf32> -> tensor<512x256xf32>
    ```

    So may a CSR or CSC `rhs` (dense × sparse, `X[m, k] · S[k, n]`): the
    product then runs on the same kernel as `Yᵀ = Sᵀ · Xᵀ`, and the schedule
    is that product's — the rows are `S`'s columns and the schedule is
    checked against `m`, the columns of `Xᵀ` (a linear layer `x · Wᵀ` with
    `W` in CSR is `x` times a CSC `Wᵀ` that shares `W`'s arrays):

    ```mlir
    #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
    %y = sopt.spmm %x, %wt {schedule = #sopt.spmm_schedule<tile_columns = 64,
        threads_per_tile = 16, tiles_per_block = 8, vector_width = 4,
        row_order = natural>}
        : tensor<64x512xf32>, tensor<512x1024xf32, #CSC> -> tensor<64x1024xf32>
    ```
  }];
  let arguments = (ins SOpt_AnyFloatTensor:$lhs, SOpt_AnyFloatTensor:$rhs,
                       OptionalAttr<SOpt_SpmmScheduleAttr>:$schedule);
  let results = (outs SOpt_FloatTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let extraClassDeclaration = [{
    /// Whether the sparse operand is `rhs`: the product runs as
    /// `(rhsᵀ · lhsᵀ)ᵀ` on the CSR kernel.
    bool isDenseTimesSparse();
    /// The sparse operand (`lhs` or `rhs`).
    ::mlir::Value getSparseOperand() {
      return isDenseTimesSparse() ? getRhs() : getLhs();
    }
    /// The columns of the dense operand of the kernel's `C = A · B`, which
    /// a schedule is checked against: `n` for sparse × dense, `m` (the rows
    /// of `lhs`, the columns of `lhsᵀ`) for dense × sparse.
    int64_t getScheduleColumns();
  }];
  let hasVerifier = 1;
}

def SOpt_SddmmOp : SOpt_Op<"sddmm", [
    AllElementTypesMatch<["lhs", "rhs", "pattern"]>,
    AllTypesMatch<["pattern", "result"]>]> {
  let summary = "sampled dense-dense matrix product";
  let description = [{
    `result = (lhs · rhs) ⊙ pattern`, computed only at the nonzeros of the
    sparse `pattern` (CSR); with `transpose_rhs`, `rhs` is `[n, k]` and the
    product is `lhs · rhsᵀ` (both operands row-major, the common case in
    attention and in weight gradients `dW = (dY · Xᵀ) ⊙ 𝕀(W)`). The result
    has the pattern's sparsity and type.

    ```mlir
    %d = sopt.sddmm %a, %b, %s transpose_rhs
        : tensor<512x64xf32>, tensor<512x64xf32>, tensor<512x512xf32, #CSR> -> tensor<512x512xf32, #CSR>
    ```

    An optional `schedule` (`#sopt.sddmm_schedule`, chosen by
    `sopt-schedule-sparse` or set by hand) is checked against `k` (the inner
    dimension), `transpose_rhs` and the element type.
  }];
  let arguments = (ins SOpt_FloatTensor:$lhs, SOpt_FloatTensor:$rhs,
                       SOpt_SparseFloatTensor:$pattern, UnitAttr:$transpose_rhs,
                       OptionalAttr<SOpt_SddmmScheduleAttr>:$schedule);
  let results = (outs SOpt_SparseFloatTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $pattern (`transpose_rhs` $transpose_rhs^)? attr-dict
    `:` type($lhs) `,` type($rhs) `,` type($pattern) `->` type($result)
  }];
  let hasVerifier = 1;
}

def SOpt_SpmvOp : SOpt_Op<"spmv", [AllElementTypesMatch<["matrix", "vector", "result"]>]> {
  let summary = "sparse matrix × dense vector";
  let description = [{
    `result[m] = Σ_n matrix[m, n] · vector[n]`, `matrix` in CSR or BSR.

    ```mlir
    %y = sopt.spmv %a, %x : tensor<4096x4096xf32, #CSR>, tensor<4096xf32> -> tensor<4096xf32>
    ```
  }];
  let arguments = (ins SOpt_SparseFloatTensor:$matrix, SOpt_FloatTensor:$vector);
  let results = (outs SOpt_FloatTensor:$result);
  let assemblyFormat = [{
    $matrix `,` $vector attr-dict `:` type($matrix) `,` type($vector) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Composites: decomposed into primitives, or given a schedule of their own
//===----------------------------------------------------------------------===//

def SOpt_SoftmaxOp : SOpt_Op<"softmax", [SameOperandsAndResultType]> {
  let summary = "softmax along one dimension";
  let description = [{
    `exp(x - max(x)) / Σ exp(x - max(x))` along `dim`.

    ```mlir
    %p = sopt.softmax %scores dim = 1 : tensor<128x128xf32>
    ```

    A CSR operand (rank 2, `dim = 1`) takes the softmax over each row's
    stored entries: the entries it does not store take no part (they are
    neither 0 nor -inf) and the result has the operand's pattern. It is
    compiled only inside sparse attention (`sopt-fuse-sparse-attention`):

    ```mlir
    %p = sopt.softmax %scores dim = 1 : tensor<128x128xf32, #CSR>
    ```
  }];
  let arguments = (ins SOpt_AnyFloatTensor:$input, I64Attr:$dim);
  let results = (outs SOpt_AnyFloatTensor:$result);
  let assemblyFormat = "$input `dim` `=` $dim attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def SOpt_LayerNormOp : SOpt_Op<"layer_norm", [AttrSizedOperandSegments,
    AllTypesMatch<["input", "result"]>]> {
  let summary = "layer normalisation over the last dimension";
  let description = [{
    `(x - mean) / sqrt(var + epsilon) * scale + bias` over the last dimension,
    with biased variance. `scale` and `bias` are optional vectors of the last
    dimension's size.

    ```mlir
    %y = sopt.layer_norm %x scale(%g : tensor<1024xf32>) bias(%b : tensor<1024xf32>)
        epsilon = 1.0e-05 : tensor<128x1024xf32>
    ```
  }];
  let arguments = (ins SOpt_FloatTensor:$input,
                       Optional<SOpt_FloatTensor>:$scale,
                       Optional<SOpt_FloatTensor>:$bias,
                       DefaultValuedAttr<F64Attr, "1.0e-5">:$epsilon);
  let results = (outs SOpt_FloatTensor:$result);
  let assemblyFormat = [{
    $input (`scale` `(` $scale^ `:` type($scale) `)`)?
    (`bias` `(` $bias^ `:` type($bias) `)`)?
    (`epsilon` `=` $epsilon^)? attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def SOpt_RmsNormOp : SOpt_Op<"rms_norm", [AllTypesMatch<["input", "result"]>]> {
  let summary = "root-mean-square normalisation over the last dimension";
  let description = [{
    `x / sqrt(mean(x²) + epsilon) * scale` over the last dimension; `scale` is
    optional.

    ```mlir
    %y = sopt.rms_norm %x scale(%g : tensor<4096xf32>) : tensor<64x4096xf32>
    ```
  }];
  let arguments = (ins SOpt_FloatTensor:$input,
                       Optional<SOpt_FloatTensor>:$scale,
                       DefaultValuedAttr<F64Attr, "1.0e-6">:$epsilon);
  let results = (outs SOpt_FloatTensor:$result);
  let assemblyFormat = [{
    $input (`scale` `(` $scale^ `:` type($scale) `)`)?
    (`epsilon` `=` $epsilon^)? attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def SOpt_AttentionOp : SOpt_Op<"attention", [
    AllElementTypesMatch<["query", "key", "value", "result"]>]> {
  let summary = "scaled dot-product attention";
  let description = [{
    `softmax(scale · Q·Kᵀ + mask) · V` over the last two dimensions, with equal
    leading (batch, head) dimensions. `query` is `[b…, sq, d]`, `key`
    `[b…, sk, d]`, `value` `[b…, sk, dv]`, the result `[b…, sq, dv]`. `scale`
    defaults to `1/√d`. `causal` hides key positions after the query position
    (aligned at the top left). The optional `mask` is `[b…, sq, sk]`: boolean
    (true keeps a score) or additive.

    A `schedule` (`#sopt.attention_schedule`, chosen by
    `sopt-schedule-attention` or written by hand) has the op run as one
    launch of the project's fused attention kernel instead of being
    decomposed: f16 or bf16, no `mask` operand, equal query and value head
    dimensions of 64, 80, 96, 128 or 256, sequence lengths below 2^31.

    ```mlir
    %o = sopt.attention %q, %k, %v causal
        : tensor<8x512x64xbf16>, tensor<8x512x64xbf16>, tensor<8x512x64xbf16> -> tensor<8x512x64xbf16>
    ```
  }];
  let arguments = (ins SOpt_FloatTensor:$query, SOpt_FloatTensor:$key,
                       SOpt_FloatTensor:$value, Optional<SOpt_MaskTensor>:$mask,
                       UnitAttr:$causal, OptionalAttr<F64Attr>:$scale,
                       OptionalAttr<SOpt_AttentionScheduleAttr>:$schedule);
  let results = (outs SOpt_FloatTensor:$result);
  let assemblyFormat = [{
    $query `,` $key `,` $value (`mask` `(` $mask^ `:` type($mask) `)`)?
    (`causal` $causal^)? (`scale` `=` $scale^)? attr-dict
    `:` type($query) `,` type($key) `,` type($value) `->` type($result)
  }];
  let hasVerifier = 1;
}

def SOpt_SparseAttentionOp : SOpt_Op<"sparse_attention", [
    AllElementTypesMatch<["query", "key", "value", "pattern", "result"]>]> {
  let summary = "attention over the stored entries of a CSR pattern, in one kernel";
  let description = [{
    For every leading (batch, head) index and every row `r` of the CSR
    `pattern` (`[sq, sk]`, one pattern shared by all heads):
    `result[…, r, :] = Σ_e p_e · value[…, c_e, :]`, with `p` the softmax
    over the row's stored entries `e` (column `c_e`, value `S_e`) of
    `scale · S_e · (query[…, r, :] · key[…, c_e, :])`. That is the chain
    `sopt.sddmm` (transpose_rhs) → a scale → `sopt.softmax` over stored
    entries → `sopt.spmm`, which `sopt-fuse-sparse-attention` folds into
    this op, computed without writing the scores or probabilities (the
    runtime's kernel, `Runtime/Kernels/SparseAttention.cuh`). A row with no
    stored entry gives 0. `query` is `[b…, sq, d]`, `key` `[b…, sk, d]`,
    `value` `[b…, sk, dv]`, the result `[b…, sq, dv]`.

    ```mlir
    %o = sopt.sparse_attention %q, %k, %v, %s scale = 1.250000e-01
        : tensor<8x512x64xf32>, tensor<8x512x64xf32>, tensor<8x512x64xf32>,
          tensor<512x512xf32, #CSR> -> tensor<8x512x64xf32>
    ```
  }];
  let arguments = (ins SOpt_FloatTensor:$query, SOpt_FloatTensor:$key,
                       SOpt_FloatTensor:$value, SOpt_SparseFloatTensor:$pattern,
                       F64Attr:$scale);
  let results = (outs SOpt_FloatTensor:$result);
  let assemblyFormat = [{
    $query `,` $key `,` $value `,` $pattern `scale` `=` $scale attr-dict
    `:` type($query) `,` type($key) `,` type($value) `,` type($pattern) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Fusion regions
//===----------------------------------------------------------------------===//

def SOpt_FusionOp : SOpt_Op<"fusion", [IsolatedFromAbove,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "a memory-bound subgraph compiled into one kernel";
  let description = [{
    Holds the connected memory-bound ops between compute-intensive ones. The
    region is isolated: its block arguments are the `inputs`, and
    `sopt.yield` gives the results. `sopt-form-fusion-regions` creates these;
    the later fusion passes annotate the ops inside (groups, backbones,
    thread mappings, memory plan), and the CUDA emitter turns each into one
    `__global__` kernel.

    ```mlir
    %y = sopt.fusion ins(%x, %b : tensor<128x768xf32>, tensor<768xf32>) -> tensor<128x768xf32> {
    ^bb0(%xa: tensor<128x768xf32>, %ba: tensor<768xf32>):
      %bb = sopt.broadcast %ba dims = [1] : tensor<768xf32> -> tensor<128x768xf32>
      %s = sopt.add %xa, %bb : tensor<128x768xf32>
      %g = sopt.gelu %s : tensor<128x768xf32>
      sopt.yield %g : tensor<128x768xf32>
    }
    ```

    A region whose result is a CSR matrix is *over stored entries*: it
    holds elementwise ops on the entries of CSR inputs (and the broadcasts
    and splat constants they read), formed by `sopt-fuse-sparse-epilogues`,
    and runs per stored entry — inside an SDDMM's kernel when marked
    `sopt.sparse_epilogue`, else as a kernel of its own.
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$inputs);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`ins` `(` $inputs^ `:` type($inputs) `)`)? attr-dict-with-keyword
    `->` type($results) $body
  }];
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    YieldOp getYield();
    /// Whether the region computes on the stored entries of CSR matrices
    /// (its results are sparse) rather than over a dense domain.
    bool isOverStoredEntries();
  }];
}

def SOpt_YieldOp : SOpt_Op<"yield", [Terminator, ReturnLike,
    HasParent<"FusionOp">]> {
  let summary = "results of a fusion region";
  let arguments = (ins Variadic<AnyRankedTensor>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let builders = [OpBuilder<(ins), [{ /* nothing */ }]>];
}

//===----------------------------------------------------------------------===//
// Tables prepared for emission
//===----------------------------------------------------------------------===//

// Not Pure: a module-level table has no uses but must stay while a product
// names it.
def SOpt_PatternTablesOp : Op<SOpt_Dialect, "pattern_tables",
    [Symbol, HasParent<"::mlir::ModuleOp">]> {
  let summary = "tables a sparse product's launch reads, prepared from a pattern known at compile time";
  let description = [{
    What `sopt-prepare-sparse-emission` prepares, once, from the pattern file
    (`sopt.sparsity_pattern`) of one scheduled `sopt.spmm` or `sopt.sddmm`,
    or of a `sopt.sparse_attention`, which names it with `sopt.pattern_tables = @name`. Every table is a 1-D
    `i32` tensor (`dense<...>`, or `dense_resource<...>` above the pass's
    inline limit) describing the CSR matrix the kernel runs on: the file's
    pattern (`pattern`, the resolved path), transposed for a dense × CSR
    product (`transposed`), of `rows` x `cols` and `nnz` entries. The CUDA
    emitter prints each as a static array, uploaded once per device and
    guarded by the caller's nnz.

    - `row_order`: the rows longest first (`sopt_csr_row_order`), `rows`
      entries.
    - `row_segments`, `long_rows`: the long rows' segments
      (`sopt_csr_row_segments` for the schedule's `row_segment`).
    - `column_windows`: where each row reaches each block of the SDDMM's
      `block_size` columns (`sopt_csr_column_windows`).
    - `occupied_blocks`, `occupied_windows`: the dense blocks holding
      entries (`sopt_csr_occupied_blocks`) and their rows' windows
      (`sopt_csr_block_windows`), when launching only those pays.
    - `positions`: the rows' positions (`rows + 1`), from which the SDDMM
      tiles' entry rows (and column-panel order) are made on the device.
    - `transpose_positions`, `transpose_coordinates`,
      `transpose_permutation`: the matrix in CSR (the file transposed,
      `sopt_csr_transpose`) and, for each of its entries, the file's entry
      it comes from; each call permutes the caller's values.
    - `split_length`, `split_rows`, `unsplit_rows`: the row plan of a
      `sopt.sparse_attention` (`planSparseAttentionRows`,
      `Runtime/Kernels/SparseAttentionPlan.h`): the rows longer than
      `split_length` entries, longest first, each split across a block;
      and the other rows in the order the lane groups take them (absent
      when no row is split and all run in order). An empty `split_rows`
      records that the pattern has no long row (the launch then passes the
      empty plan).

    ```mlir
    sopt.pattern_tables @linear_spmm0 of "/data/w.smtx" {cols = 6 : i64,
        nnz = 6 : i64, row_order = dense<[1, 3, 0, 2]> : tensor<4xi32>,
        rows = 4 : i64}
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrAttr:$pattern,
                       UnitAttr:$transposed, I64Attr:$rows, I64Attr:$cols,
                       I64Attr:$nnz,
                       OptionalAttr<ElementsAttr>:$row_order,
                       OptionalAttr<ElementsAttr>:$row_segments,
                       OptionalAttr<I64Attr>:$long_rows,
                       OptionalAttr<ElementsAttr>:$column_windows,
                       OptionalAttr<ElementsAttr>:$occupied_blocks,
                       OptionalAttr<ElementsAttr>:$occupied_windows,
                       OptionalAttr<ElementsAttr>:$positions,
                       OptionalAttr<ElementsAttr>:$transpose_positions,
                       OptionalAttr<ElementsAttr>:$transpose_coordinates,
                       OptionalAttr<ElementsAttr>:$transpose_permutation,
                       OptionalAttr<I64Attr>:$split_length,
                       OptionalAttr<ElementsAttr>:$split_rows,
                       OptionalAttr<ElementsAttr>:$unsplit_rows);
  let assemblyFormat = "$sym_name `of` $pattern (`transposed` $transposed^)? attr-dict";
  let hasVerifier = 1;
}

#endif // SOPT_OPS_TD
