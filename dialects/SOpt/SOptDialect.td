//===- SOptDialect.td - the sopt dialect, its types and enums -*- tablegen -*-===//
//
// The `sopt` dialect holds ML graph operations on ranked tensors with value
// semantics. Sparse operands are tensors that carry an upstream
// `#sparse_tensor.encoding`; there is no sopt-specific sparse format.
//
//===----------------------------------------------------------------------===//

#ifndef SOPT_DIALECT_TD
#define SOPT_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/EnumAttr.td"

def SOpt_Dialect : Dialect {
  let name = "sopt";
  let cppNamespace = "::mlir::sopt";
  let summary = "Graph operations for the sparse-opt fusion and sparse compiler";
  let description = [{
    Operations on statically shaped, ranked tensors with value semantics:
    elementwise math, explicit broadcasts, reductions, layout changes, dense
    and sparse matrix products, and composite layers (softmax, layer_norm,
    rms_norm, attention) that the fusion passes decompose or schedule.

    Elementwise operands have equal types; broadcasting is explicit through
    `sopt.broadcast`. Sparse operands are tensors carrying a
    `#sparse_tensor.encoding` (CSR, CSC or BSR, with 32- or 64-bit positions
    and coordinates).
  }];
  let dependentDialects = ["::mlir::sparse_tensor::SparseTensorDialect"];
  let hasConstantMaterializer = 1;
  let useDefaultAttributePrinterParser = 1;
  // The fusion passes' marks (FusionAnnotations.cpp) and a sparse product's
  // sopt.pattern_tables and sopt.launch (SparseEmission.cpp).
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// The pattern files read in this context, kept by
    /// sparse-opt/Analysis/SparseScheduling.h so that each is read once per
    /// compile; opaque to the dialect.
    std::shared_ptr<void> &getPatternFileCache() { return patternFileCache; }

  private:
    std::shared_ptr<void> patternFileCache;

  public:
  }];
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def SOpt_IsDense
    : CPred<"!::mlir::sparse_tensor::getSparseTensorEncoding($_self)">;
def SOpt_IsSparse
    : CPred<"static_cast<bool>(::mlir::sparse_tensor::getSparseTensorEncoding($_self))">;

// A statically shaped tensor without a sparse encoding. Kernels are generated
// ahead of time for one shape, so dynamic dimensions are rejected up front.
class SOpt_DenseTensorOf<list<Type> allowed>
    : Type<And<[RankedTensorOf<allowed>.predicate, SOpt_IsDense,
                          HasStaticShapePred]>,
                     "statically shaped dense tensor of " #
                         AnyTypeOf<allowed>.summary # " values",
                     "::mlir::RankedTensorType">;

class SOpt_SparseTensorOf<list<Type> allowed>
    : Type<And<[RankedTensorOf<allowed>.predicate, SOpt_IsSparse,
                          HasStaticShapePred]>,
                     "statically shaped sparse tensor (#sparse_tensor.encoding) of " #
                         AnyTypeOf<allowed>.summary # " values",
                     "::mlir::RankedTensorType">;

// Storage element types. f64 exists for reference computations.
defvar SOpt_FloatTypes = [F16, BF16, F32, F64];

def SOpt_FloatTensor : SOpt_DenseTensorOf<SOpt_FloatTypes>;
def SOpt_BoolTensor : SOpt_DenseTensorOf<[I1]>;
def SOpt_CastableTensor : SOpt_DenseTensorOf<[F16, BF16, F32, F64, I1, I32, I64]>;
def SOpt_SparseFloatTensor : SOpt_SparseTensorOf<SOpt_FloatTypes>;

// A float tensor that may or may not be sparse; the op verifier decides
// which combinations are legal.
def SOpt_AnyFloatTensor
    : Type<And<[RankedTensorOf<SOpt_FloatTypes>.predicate,
                          HasStaticShapePred]>,
                     "statically shaped tensor of " #
                         AnyTypeOf<SOpt_FloatTypes>.summary # " values",
                     "::mlir::RankedTensorType">;

// Attention masks are either boolean (true keeps a score) or additive floats.
def SOpt_MaskTensor : SOpt_DenseTensorOf<[I1, F16, BF16, F32, F64]>;

//===----------------------------------------------------------------------===//
// Enums (specialised integer attributes: they print as bare keywords)
//===----------------------------------------------------------------------===//

def SOpt_ReduceKind : I32EnumAttr<"ReduceKind", "reduction kind", [
    I32EnumAttrCase<"Sum", 0, "sum">,
    I32EnumAttrCase<"Max", 1, "max">,
    I32EnumAttrCase<"Min", 2, "min">,
    I32EnumAttrCase<"Mean", 3, "mean">
  ]> {
  let cppNamespace = "::mlir::sopt";
}

def SOpt_CompareDirection : I32EnumAttr<"CompareDirection",
    "elementwise comparison", [
    I32EnumAttrCase<"EQ", 0, "eq">,
    I32EnumAttrCase<"NE", 1, "ne">,
    I32EnumAttrCase<"LT", 2, "lt">,
    I32EnumAttrCase<"LE", 3, "le">,
    I32EnumAttrCase<"GT", 4, "gt">,
    I32EnumAttrCase<"GE", 5, "ge">
  ]> {
  let cppNamespace = "::mlir::sopt";
}

def SOpt_GeluApproximation : I32EnumAttr<"GeluApproximation",
    "GELU formulation", [
    I32EnumAttrCase<"Erf", 0, "erf">,
    I32EnumAttrCase<"Tanh", 1, "tanh">
  ]> {
  let cppNamespace = "::mlir::sopt";
}

#endif // SOPT_DIALECT_TD
