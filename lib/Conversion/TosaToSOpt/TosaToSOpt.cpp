//===- TosaToSOpt.cpp - TOSA graphs to sopt ops ---------------------------===//
//
// torch-mlir and TFLite hand graphs over as TOSA. Each pattern here turns one
// TOSA op on statically shaped float tensors into the sopt op (or the few sopt
// ops) that computes the same thing; TOSA's implicit broadcasting of size-1
// dimensions becomes an explicit sopt.broadcast.
//
// TOSA ops are left at unknown legality, so that a pattern that declines
// leaves its op in place; the pass then reports every TOSA op still in the IR
// at its own location, with the reason the pattern recorded, and fails.
//
//===----------------------------------------------------------------------===//

#include "sparse-opt/Conversion/Passes.h"
#include "sparse-opt/Dialect/SOpt/SOptOps.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <array>

#define DEBUG_TYPE "sopt-convert-tosa"

namespace mlir::sopt {
#define GEN_PASS_DEF_CONVERTTOSATOSOPT
#include "sparse-opt/Conversion/Passes.h.inc"
} // namespace mlir::sopt

using namespace mlir;
using namespace mlir::sopt;

namespace {

/// Why a pattern declined each TOSA op it left in place.
using RejectionReasons = llvm::DenseMap<Operation *, std::string>;

bool isTosa(Operation *op) {
  return op->getName().getDialectNamespace() ==
         tosa::TosaDialect::getDialectNamespace();
}

//===----------------------------------------------------------------------===//
// Type and constant checks
//===----------------------------------------------------------------------===//

bool isSOptFloat(Type type) {
  return isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(type);
}

bool isBool(Type type) { return type.isSignlessInteger(1); }

/// The element types sopt.cast, sopt.reshape and sopt.transpose accept.
bool isSOptCastable(Type type) {
  return isSOptFloat(type) || type.isSignlessInteger(1) ||
         type.isSignlessInteger(32) || type.isSignlessInteger(64);
}

std::string quote(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "'" << type << "'";
  return text;
}

std::string shapeString(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "[";
  llvm::interleaveComma(shape, os);
  os << "]";
  return text;
}

/// An element-type family: the predicate and how a diagnostic names it.
struct ElementKind {
  bool (*accepts)(Type);
  const char *name;
};
constexpr ElementKind kFloat{isSOptFloat, "f16, bf16, f32 or f64"};
constexpr ElementKind kBool{isBool, "i1"};
constexpr ElementKind kCastable{isSOptCastable,
                                "f16, bf16, f32, f64, i1, i32 or i64"};

/// Empty when `type` is a statically shaped dense tensor of `kind`;
/// otherwise why it is not.
std::string checkTensor(Type type, ElementKind kind) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() || tensor.getEncoding())
    return "expects statically shaped tensors, got " + quote(type);
  if (!kind.accepts(tensor.getElementType()))
    return std::string("expects tensors of ") + kind.name + ", got " +
           quote(type);
  return {};
}

/// Empty when a same-rank `operand` stretches to `shape` along its size-1
/// dimensions (TOSA's implicit broadcast); otherwise why it does not.
std::string checkBroadcast(RankedTensorType operand, ArrayRef<int64_t> shape) {
  bool ok = operand.getRank() == static_cast<int64_t>(shape.size());
  for (auto [have, want] : llvm::zip(operand.getShape(), shape))
    ok &= have == want || have == 1;
  if (ok)
    return {};
  return "operand " + quote(operand) +
         " does not broadcast to the result shape " + shapeString(shape);
}

/// Whether `value` is a constant (tosa.const or sopt.constant) whose elements
/// are all zero: the only zero point or shift a float op can carry.
bool isConstantZero(Value value) {
  DenseElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return false;
  if (isa<FloatType>(attr.getElementType()))
    return llvm::all_of(attr.getValues<APFloat>(),
                        [](const APFloat &v) { return v.isZero(); });
  if (attr.getElementType().isIntOrIndex())
    return llvm::all_of(attr.getValues<APInt>(),
                        [](const APInt &v) { return v.isZero(); });
  return false;
}

/// Whether `use` is a scalar parameter of a TOSA op (a shift or a zero point)
/// rather than data: the patterns read such constants, so they need no sopt
/// counterpart and are erased once their users are converted.
bool isParameterUse(OpOperand &use) {
  Operation *user = use.getOwner();
  if (auto mul = dyn_cast<tosa::MulOp>(user))
    return &use == &mul.getShiftMutable();
  if (auto negate = dyn_cast<tosa::NegateOp>(user))
    return &use == &negate.getInput1ZpMutable() ||
           &use == &negate.getOutputZpMutable();
  if (auto matmul = dyn_cast<tosa::MatMulOp>(user))
    return &use == &matmul.getAZpMutable() || &use == &matmul.getBZpMutable();
  return false;
}

//===----------------------------------------------------------------------===//
// Pattern base
//===----------------------------------------------------------------------===//

template <typename OpTy>
class TosaPattern : public OpConversionPattern<OpTy> {
public:
  TosaPattern(MLIRContext *context, RejectionReasons &reasons)
      : OpConversionPattern<OpTy>(context), reasons(reasons) {}

protected:
  /// Declines `op`, remembering why for the diagnostic of the leftovers.
  LogicalResult reject(Operation *op, ConversionPatternRewriter &rewriter,
                       const Twine &reason) const {
    std::string text = reason.str();
    (void)rewriter.notifyMatchFailure(op, text);
    reasons[op] = std::move(text);
    return failure();
  }

  /// Declines `op` unless every type in `types` is a static tensor of `kind`.
  LogicalResult checkTensors(Operation *op, ConversionPatternRewriter &rewriter,
                             TypeRange types, ElementKind kind) const {
    for (Type type : types)
      if (std::string why = checkTensor(type, kind); !why.empty())
        return reject(op, rewriter, why);
    return success();
  }

  /// Declines `op` unless every operand broadcasts to `shape`.
  LogicalResult checkBroadcasts(Operation *op,
                                ConversionPatternRewriter &rewriter,
                                ValueRange operands,
                                ArrayRef<int64_t> shape) const {
    for (Value operand : operands)
      if (std::string why = checkBroadcast(
              cast<RankedTensorType>(operand.getType()), shape);
          !why.empty())
        return reject(op, rewriter, why);
    return success();
  }

  /// Declines an op whose NaN handling sopt cannot express. sopt.max,
  /// sopt.min and sopt.relu propagate NaN, which is TOSA's default.
  LogicalResult checkNanPropagation(Operation *op,
                                    ConversionPatternRewriter &rewriter,
                                    tosa::NanPropagationMode mode) const {
    if (mode == tosa::NanPropagationMode::PROPAGATE)
      return success();
    return reject(op, rewriter,
                  "nan_mode = " + tosa::stringifyNanPropagationMode(mode) +
                      " has no sopt equivalent");
  }

private:
  RejectionReasons &reasons;
};

/// TOSA's implicit broadcast made explicit: `value`, of the same rank as
/// `shape` with size 1 where they differ, stretched to `shape`.
Value broadcastTo(OpBuilder &builder, Location loc, Value value,
                  ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == shape)
    return value;
  auto dims = llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  return BroadcastOp::create(builder, loc, type.clone(shape), value, dims);
}

/// broadcastTo on each of `values`, in order (so the broadcasts appear in
/// operand order).
template <size_t N>
std::array<Value, N> broadcastAll(OpBuilder &builder, Location loc,
                                  std::array<Value, N> values,
                                  ArrayRef<int64_t> shape) {
  for (Value &value : values)
    value = broadcastTo(builder, loc, value, shape);
  return values;
}

/// A constant of `type` with every element equal to `value`, rounded to the
/// element type.
Value splat(OpBuilder &builder, Location loc, RankedTensorType type,
            APFloat value) {
  auto elementType = cast<FloatType>(type.getElementType());
  bool losesInfo = false;
  value.convert(elementType.getFloatSemantics(),
                APFloat::rmNearestTiesToEven, &losesInfo);
  return ConstantOp::create(
      builder, loc,
      DenseElementsAttr::get(type, FloatAttr::get(elementType, value)));
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

/// One-operand float ops with a direct sopt counterpart.
template <typename TosaOp, typename SOptOp>
struct ConvertUnary : TosaPattern<TosaOp> {
  using TosaPattern<TosaOp>::TosaPattern;
  LogicalResult
  matchAndRewrite(TosaOp op, typename TosaOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getOperands().front();
    if (failed(this->checkTensors(op, rewriter,
                                  {input.getType(), op.getType()}, kFloat)))
      return failure();
    if (input.getType() != op.getType())
      return this->reject(op, rewriter,
                          "operand and result types differ");
    rewriter.replaceOpWithNewOp<SOptOp>(op, input);
    return success();
  }
};

/// Broadcasts `operands` to the shape of `op`'s result and builds `SOptOp`.
template <typename TosaOp, typename SOptOp>
struct ConvertBinary : TosaPattern<TosaOp> {
  using TosaPattern<TosaOp>::TosaPattern;
  LogicalResult
  matchAndRewrite(TosaOp op, typename TosaOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value lhs = adaptor.getInput1(), rhs = adaptor.getInput2();
    if (failed(this->checkTensors(
            op, rewriter, {lhs.getType(), rhs.getType(), op.getType()},
            kFloat)))
      return failure();
    if constexpr (std::is_same_v<TosaOp, tosa::MaximumOp> ||
                  std::is_same_v<TosaOp, tosa::MinimumOp>) {
      if (failed(this->checkNanPropagation(op, rewriter, op.getNanMode())))
        return failure();
    }
    if constexpr (std::is_same_v<TosaOp, tosa::MulOp>) {
      if (!isConstantZero(adaptor.getShift()))
        return this->reject(op, rewriter,
                            "shift must be a constant 0 for float operands");
    }
    auto type = cast<RankedTensorType>(op.getType());
    if (failed(this->checkBroadcasts(op, rewriter, {lhs, rhs},
                                     type.getShape())))
      return failure();
    auto [l, r] = broadcastAll<2>(rewriter, op.getLoc(), {lhs, rhs},
                                  type.getShape());
    rewriter.replaceOpWithNewOp<SOptOp>(op, l, r);
    return success();
  }
};

/// equal, greater and greater_equal on floats; the i1 result has the
/// broadcast shape, and each operand is broadcast to it.
template <typename TosaOp, CompareDirection direction>
struct ConvertCompare : TosaPattern<TosaOp> {
  using TosaPattern<TosaOp>::TosaPattern;
  LogicalResult
  matchAndRewrite(TosaOp op, typename TosaOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value lhs = adaptor.getInput1(), rhs = adaptor.getInput2();
    if (failed(this->checkTensors(op, rewriter,
                                  {lhs.getType(), rhs.getType()}, kFloat)) ||
        failed(this->checkTensors(op, rewriter, op.getType(), kBool)))
      return failure();
    if (cast<RankedTensorType>(lhs.getType()).getElementType() !=
        cast<RankedTensorType>(rhs.getType()).getElementType())
      return this->reject(op, rewriter, "operand element types differ");
    auto shape = cast<RankedTensorType>(op.getType()).getShape();
    if (failed(this->checkBroadcasts(op, rewriter, {lhs, rhs}, shape)))
      return failure();
    auto [l, r] = broadcastAll<2>(rewriter, op.getLoc(), {lhs, rhs}, shape);
    rewriter.replaceOpWithNewOp<CompareOp>(op, direction, l, r);
    return success();
  }
};

struct ConvertSelect : TosaPattern<tosa::SelectOp> {
  using TosaPattern::TosaPattern;
  LogicalResult
  matchAndRewrite(tosa::SelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value pred = adaptor.getInput1();
    Value onTrue = adaptor.getInput2(), onFalse = adaptor.getInput3();
    if (failed(checkTensors(op, rewriter, pred.getType(), kBool)) ||
        failed(checkTensors(op, rewriter,
                            {onTrue.getType(), onFalse.getType(), op.getType()},
                            kFloat)))
      return failure();
    auto shape = cast<RankedTensorType>(op.getType()).getShape();
    if (failed(checkBroadcasts(op, rewriter, {pred, onTrue, onFalse}, shape)))
      return failure();
    auto [p, t, f] = broadcastAll<3>(rewriter, op.getLoc(),
                                     {pred, onTrue, onFalse}, shape);
    rewriter.replaceOpWithNewOp<SelectOp>(op, p, t, f);
    return success();
  }
};

/// -x; a float negate carries zero points that must be 0.
struct ConvertNegate : TosaPattern<tosa::NegateOp> {
  using TosaPattern::TosaPattern;
  LogicalResult
  matchAndRewrite(tosa::NegateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getInput1();
    if (failed(checkTensors(op, rewriter, {input.getType(), op.getType()},
                            kFloat)))
      return failure();
    if (input.getType() != op.getType())
      return reject(op, rewriter, "operand and result types differ");
    if (!isConstantZero(adaptor.getInput1Zp()) ||
        !isConstantZero(adaptor.getOutputZp()))
      return reject(op, rewriter, "zero points must be constant 0");
    rewriter.replaceOpWithNewOp<NegOp>(op, input);
    return success();
  }
};

/// clamp(x, 0, +inf) is relu; other bounds become max/min against splats.
/// A bound at or beyond the largest finite value of the element type (what
/// torch-mlir writes for "no upper bound") imposes nothing.
struct ConvertClamp : TosaPattern<tosa::ClampOp> {
  using TosaPattern::TosaPattern;
  LogicalResult
  matchAndRewrite(tosa::ClampOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getInput();
    if (failed(checkTensors(op, rewriter, {input.getType(), op.getType()},
                            kFloat)) ||
        failed(checkNanPropagation(op, rewriter, op.getNanMode())))
      return failure();
    if (input.getType() != op.getType())
      return reject(op, rewriter, "operand and result types differ");
    auto minAttr = dyn_cast<FloatAttr>(op.getMinValAttr());
    auto maxAttr = dyn_cast<FloatAttr>(op.getMaxValAttr());
    if (!minAttr || !maxAttr)
      return reject(op, rewriter, "min_val and max_val must be float");

    auto type = cast<RankedTensorType>(op.getType());
    const llvm::fltSemantics &semantics =
        cast<FloatType>(type.getElementType()).getFloatSemantics();
    APFloat largest = APFloat::getLargest(semantics);
    auto atLeast = [&](APFloat value, const APFloat &bound) {
      bool losesInfo = false;
      value.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
      return value.compare(bound) != APFloat::cmpLessThan;
    };
    APFloat lo = minAttr.getValue(), hi = maxAttr.getValue();
    if (lo.isNaN() || hi.isNaN())
      return reject(op, rewriter, "min_val and max_val must not be NaN");
    bool noUpper = atLeast(hi, largest);
    bool noLower = atLeast(llvm::neg(lo), largest);

    Location loc = op.getLoc();
    Value result = input;
    if (noUpper && lo.isZero()) {
      result = ReluOp::create(rewriter, loc, input);
    } else {
      if (!noLower)
        result = MaxOp::create(rewriter, loc, result,
                               splat(rewriter, loc, type, lo));
      if (!noUpper)
        result = MinOp::create(rewriter, loc, result,
                               splat(rewriter, loc, type, hi));
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ConvertCast : TosaPattern<tosa::CastOp> {
  using TosaPattern::TosaPattern;
  LogicalResult
  matchAndRewrite(tosa::CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getInput();
    if (failed(checkTensors(op, rewriter, {input.getType(), op.getType()},
                            kCastable)))
      return failure();
    rewriter.replaceOpWithNewOp<CastOp>(op, op.getType(), input);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Reductions and layout
//===----------------------------------------------------------------------===//

/// TOSA reductions reduce one axis and keep it with size 1.
template <typename TosaOp, ReduceKind kind>
struct ConvertReduce : TosaPattern<TosaOp> {
  using TosaPattern<TosaOp>::TosaPattern;
  LogicalResult
  matchAndRewrite(TosaOp op, typename TosaOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getInput();
    if (failed(this->checkTensors(op, rewriter,
                                  {input.getType(), op.getType()}, kFloat)))
      return failure();
    if constexpr (std::is_same_v<TosaOp, tosa::ReduceMaxOp> ||
                  std::is_same_v<TosaOp, tosa::ReduceMinOp>) {
      if (failed(this->checkNanPropagation(op, rewriter, op.getNanMode())))
        return failure();
    }
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t axis = op.getAxis();
    if (axis >= inputType.getRank())
      return this->reject(op, rewriter, "axis is out of range");
    SmallVector<int64_t> shape(inputType.getShape());
    shape[axis] = 1;
    if (inputType.clone(shape) != op.getType())
      return this->reject(op, rewriter,
                          "result type is not the operand type with the "
                          "reduced axis of size 1");
    rewriter.replaceOpWithNewOp<ReduceOp>(op, op.getType(), kind, input,
                                          ArrayRef<int64_t>{axis},
                                          /*keep_dims=*/true);
    return success();
  }
};

/// The result type is static already; the constant shape is checked against
/// it (-1 stands for an inferred dimension).
struct ConvertReshape : TosaPattern<tosa::ReshapeOp> {
  using TosaPattern::TosaPattern;
  LogicalResult
  matchAndRewrite(tosa::ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getInput1();
    if (failed(checkTensors(op, rewriter, {input.getType(), op.getType()},
                            kCastable)))
      return failure();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto type = cast<RankedTensorType>(op.getType());
    DenseIntElementsAttr shapeAttr;
    if (!matchPattern(adaptor.getShape(), m_Constant(&shapeAttr)))
      return reject(op, rewriter, "shape must be a tosa.const_shape");
    auto shape = llvm::to_vector(llvm::map_range(
        shapeAttr.getValues<APInt>(),
        [](const APInt &v) { return v.getSExtValue(); }));
    bool matches = static_cast<int64_t>(shape.size()) == type.getRank();
    for (auto [given, want] : llvm::zip(shape, type.getShape()))
      matches &= given == want || given == -1;
    if (!matches)
      return reject(op, rewriter,
                    "shape " + shapeString(shape) +
                        " does not match the result type " + quote(type));
    if (inputType.getElementType() != type.getElementType() ||
        inputType.getNumElements() != type.getNumElements())
      return reject(op, rewriter,
                    "operand and result differ in element type or count");
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, type, input);
    return success();
  }
};

struct ConvertTranspose : TosaPattern<tosa::TransposeOp> {
  using TosaPattern::TosaPattern;
  LogicalResult
  matchAndRewrite(tosa::TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getInput1();
    if (failed(checkTensors(op, rewriter, {input.getType(), op.getType()},
                            kCastable)))
      return failure();
    auto inputType = cast<RankedTensorType>(input.getType());
    ArrayRef<int32_t> given = op.getPerms();
    SmallVector<int64_t> perms(given.begin(), given.end());
    SmallVector<int64_t> shape;
    bool valid = static_cast<int64_t>(perms.size()) == inputType.getRank();
    SmallVector<bool> seen(perms.size(), false);
    for (int64_t p : perms) {
      valid &= p >= 0 && p < static_cast<int64_t>(perms.size()) && !seen[p];
      if (!valid)
        break;
      seen[p] = true;
      shape.push_back(inputType.getDimSize(p));
    }
    if (!valid || inputType.clone(shape) != op.getType())
      return reject(op, rewriter,
                    "perms " + shapeString(perms) +
                        " do not permute the operand into the result type");
    rewriter.replaceOpWithNewOp<TransposeOp>(op, op.getType(), input, perms);
    return success();
  }
};

/// a[b, m, k] · b[b, k, n] with zero zero points. A wider result than the
/// operands (f16 or bf16 into f32, TOSA's accumulator choice) widens the
/// operands first, which is exact.
struct ConvertMatmul : TosaPattern<tosa::MatMulOp> {
  using TosaPattern::TosaPattern;
  LogicalResult
  matchAndRewrite(tosa::MatMulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value lhs = adaptor.getA(), rhs = adaptor.getB();
    if (failed(checkTensors(op, rewriter,
                            {lhs.getType(), rhs.getType(), op.getType()},
                            kFloat)))
      return failure();
    if (!isConstantZero(adaptor.getAZp()) || !isConstantZero(adaptor.getBZp()))
      return reject(op, rewriter, "zero points must be constant 0");
    auto a = cast<RankedTensorType>(lhs.getType());
    auto b = cast<RankedTensorType>(rhs.getType());
    auto type = cast<RankedTensorType>(op.getType());
    if (a.getRank() != 3 || b.getRank() != 3 || type.getRank() != 3 ||
        a.getDimSize(0) != b.getDimSize(0) ||
        type.getDimSize(0) != a.getDimSize(0) ||
        a.getDimSize(2) != b.getDimSize(1) ||
        type.getDimSize(1) != a.getDimSize(1) ||
        type.getDimSize(2) != b.getDimSize(2))
      return reject(op, rewriter,
                    "expects [b, m, k] x [b, k, n] -> [b, m, n], got " +
                        quote(a) + " x " + quote(b) + " -> " + quote(type));
    Type element = type.getElementType();
    if (a.getElementType() != b.getElementType() ||
        a.getElementType().getIntOrFloatBitWidth() >
            element.getIntOrFloatBitWidth() ||
        (a.getElementType() != element && !element.isF32() &&
         !element.isF64()))
      return reject(op, rewriter,
                    "operand element types must match and widen to the "
                    "result's");
    Location loc = op.getLoc();
    if (a.getElementType() != element) {
      lhs = CastOp::create(rewriter, loc, a.clone(element), lhs);
      rhs = CastOp::create(rewriter, loc, b.clone(element), rhs);
    }
    rewriter.replaceOpWithNewOp<MatmulOp>(op, type, lhs, rhs,
                                          /*transpose_lhs=*/false,
                                          /*transpose_rhs=*/false);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Constants and identity
//===----------------------------------------------------------------------===//

/// Data constants become sopt.constant with the same attribute (including
/// dense_resource weights). Constants used only as shifts or zero points stay
/// until their users are gone and are then erased.
struct ConvertConst : TosaPattern<tosa::ConstOp> {
  using TosaPattern::TosaPattern;
  LogicalResult
  matchAndRewrite(tosa::ConstOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op->use_empty() || llvm::all_of(op->getUses(), isParameterUse))
      return rewriter.notifyMatchFailure(op, "not used as data");
    if (failed(checkTensors(op, rewriter, op.getType(), kCastable)))
      return failure();
    ElementsAttr values = op.getValuesAttr();
    if (values.getType() != op.getType())
      return reject(op, rewriter, "values and result types differ");
    rewriter.replaceOpWithNewOp<ConstantOp>(op, values);
    return success();
  }
};

struct ConvertIdentity : TosaPattern<tosa::IdentityOp> {
  using TosaPattern::TosaPattern;
  LogicalResult
  matchAndRewrite(tosa::IdentityOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (adaptor.getInput1().getType() != op.getType())
      return reject(op, rewriter, "operand and result types differ");
    rewriter.replaceOp(op, adaptor.getInput1());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

void populatePatterns(RewritePatternSet &patterns, RejectionReasons &reasons) {
  MLIRContext *context = patterns.getContext();
  patterns.add<
      // Elementwise.
      ConvertBinary<tosa::AddOp, AddOp>, ConvertBinary<tosa::SubOp, SubOp>,
      ConvertBinary<tosa::MulOp, MulOp>,
      ConvertBinary<tosa::MaximumOp, MaxOp>,
      ConvertBinary<tosa::MinimumOp, MinOp>,
      ConvertBinary<tosa::PowOp, PowOp>, ConvertUnary<tosa::AbsOp, AbsOp>,
      ConvertUnary<tosa::ExpOp, ExpOp>, ConvertUnary<tosa::LogOp, LogOp>,
      ConvertUnary<tosa::TanhOp, TanhOp>,
      ConvertUnary<tosa::SigmoidOp, SigmoidOp>,
      ConvertUnary<tosa::ErfOp, ErfOp>, ConvertUnary<tosa::RsqrtOp, RsqrtOp>,
      ConvertUnary<tosa::ReciprocalOp, ReciprocalOp>, ConvertNegate,
      ConvertClamp, ConvertCast, ConvertSelect,
      ConvertCompare<tosa::EqualOp, CompareDirection::EQ>,
      ConvertCompare<tosa::GreaterOp, CompareDirection::GT>,
      ConvertCompare<tosa::GreaterEqualOp, CompareDirection::GE>,
      // Reductions, layout, products.
      ConvertReduce<tosa::ReduceSumOp, ReduceKind::Sum>,
      ConvertReduce<tosa::ReduceMaxOp, ReduceKind::Max>,
      ConvertReduce<tosa::ReduceMinOp, ReduceKind::Min>, ConvertReshape,
      ConvertTranspose, ConvertMatmul,
      // Values.
      ConvertConst, ConvertIdentity>(context, reasons);
}

struct ConvertTosaToSOptPass
    : sopt::impl::ConvertTosaToSOptBase<ConvertTosaToSOptPass> {
  using ConvertTosaToSOptBase::ConvertTosaToSOptBase;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RejectionReasons reasons;
    RewritePatternSet patterns(context);
    populatePatterns(patterns, reasons);

    // TOSA stays at unknown legality: the conversion then leaves what it
    // cannot convert instead of stopping at the first such op with a generic
    // "failed to legalize", and every leftover is reported below.
    ConversionTarget target(*context);
    target.addLegalDialect<SOptDialect>();
    ConversionConfig config;
    // Convert op for op; folding is for the canonicalizer afterwards.
    config.foldingMode = DialectConversionFoldingMode::Never;
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns), config)))
      return signalPassFailure();

    // Shift, zero-point and shape constants whose users were converted.
    SmallVector<Operation *> dead;
    getOperation()->walk([&](Operation *op) {
      if (isa<tosa::ConstOp, tosa::ConstShapeOp>(op) && op->use_empty())
        dead.push_back(op);
    });
    for (Operation *op : dead)
      op->erase();

    bool failedAny = false;
    getOperation()->walk([&](Operation *op) {
      if (!isTosa(op))
        return;
      // The terminator of an unconverted TOSA region op (tosa.yield) is
      // reported through its parent.
      if (op->hasTrait<OpTrait::IsTerminator>() && op->getParentOp() &&
          isTosa(op->getParentOp()))
        return;
      // A constant that feeds only unconverted TOSA ops is reported through
      // them.
      if (isa<tosa::ConstOp, tosa::ConstShapeOp>(op) &&
          llvm::all_of(op->getUsers(), isTosa))
        return;
      failedAny = true;
      InFlightDiagnostic diag =
          op->emitOpError("is not supported by sopt-convert-tosa");
      if (auto it = reasons.find(op); it != reasons.end())
        diag << ": " << it->second;
    });
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
