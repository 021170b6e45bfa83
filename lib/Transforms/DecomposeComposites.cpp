//===- DecomposeComposites.cpp - composite layers to primitives -----------===//
//
// The fusion passes reason about reductions and elementwise ops; composite
// layers hide both. Each pattern here spells one layer out in primitive sopt
// ops, keeping the element type and the numerically stable formulation.
//
//===----------------------------------------------------------------------===//

#include "sparse-opt/Dialect/SOpt/SOptOps.h"
#include "sparse-opt/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include <cmath>
#include <limits>

#define DEBUG_TYPE "sopt-decompose-composites"

namespace mlir::sopt {
#define GEN_PASS_DEF_DECOMPOSECOMPOSITES
#include "sparse-opt/Transforms/Passes.h.inc"
} // namespace mlir::sopt

using namespace mlir;
using namespace mlir::sopt;

namespace {

/// Small helpers that build the recurring shapes of a decomposition.
class GraphBuilder {
public:
  GraphBuilder(PatternRewriter &rewriter, Location loc)
      : rewriter(rewriter), loc(loc) {}

  /// A constant of `type` with every element equal to `value`.
  Value splat(RankedTensorType type, double value) {
    auto attr = DenseElementsAttr::get(
        type, FloatAttr::get(type.getElementType(), value));
    return ConstantOp::create(rewriter, loc, attr);
  }

  /// Reduces the last dimension, keeping it with size 1.
  Value reduceLast(ReduceKind kind, Value x) {
    auto type = cast<RankedTensorType>(x.getType());
    return reduceKeep(kind, x, type.getRank() - 1);
  }

  Value reduceKeep(ReduceKind kind, Value x, int64_t dim) {
    auto type = cast<RankedTensorType>(x.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape[dim] = 1;
    return ReduceOp::create(rewriter, loc, type.clone(shape), kind, x,
                            ArrayRef<int64_t>{dim}, /*keep_dims=*/true);
  }

  /// Broadcasts a keep-dims value (same rank, some sizes 1) to `type`.
  Value expand(Value x, RankedTensorType type) {
    if (x.getType() == type)
      return x;
    auto dims = llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
    return BroadcastOp::create(rewriter, loc, type, x, dims);
  }

  /// Broadcasts a vector along the last dimension of `type` (scale, bias).
  Value expandRowVector(Value v, RankedTensorType type) {
    return BroadcastOp::create(rewriter, loc, type, v,
                               ArrayRef<int64_t>{type.getRank() - 1});
  }

  template <typename OpTy, typename... Args>
  Value op(Args &&...args) {
    return OpTy::create(rewriter, loc, std::forward<Args>(args)...);
  }

  /// x / sqrt(mean_sq + epsilon), broadcast back to x's shape; shared by the
  /// two normalisations.
  Value normalize(Value x, Value meanOfSquares, double epsilon) {
    auto type = cast<RankedTensorType>(x.getType());
    auto reducedType = cast<RankedTensorType>(meanOfSquares.getType());
    Value shifted =
        op<AddOp>(meanOfSquares, splat(reducedType, epsilon));
    Value inverse = op<RsqrtOp>(shifted);
    return op<MulOp>(x, expand(inverse, type));
  }

  Value applyScaleAndBias(Value y, Value scale, Value bias) {
    auto type = cast<RankedTensorType>(y.getType());
    if (scale)
      y = op<MulOp>(y, expandRowVector(scale, type));
    if (bias)
      y = op<AddOp>(y, expandRowVector(bias, type));
    return y;
  }

private:
  PatternRewriter &rewriter;
  Location loc;
};

/// softmax(x) = exp(x - max) · (1 / sum(exp(x - max))) along `dim`: one
/// division per row, not per element (as the norms take one rsqrt).
Value buildSoftmax(GraphBuilder &g, Value x, int64_t dim) {
  auto type = cast<RankedTensorType>(x.getType());
  Value max = g.expand(g.reduceKeep(ReduceKind::Max, x, dim), type);
  Value e = g.op<ExpOp>(g.op<SubOp>(x, max));
  Value sum = g.reduceKeep(ReduceKind::Sum, e, dim);
  return g.op<MulOp>(e, g.expand(g.op<ReciprocalOp>(sum), type));
}

struct DecomposeSoftmax : OpRewritePattern<SoftmaxOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SoftmaxOp op,
                                PatternRewriter &rewriter) const override {
    if (sparse_tensor::getSparseTensorEncoding(op.getType()))
      return rewriter.notifyMatchFailure(op, "over stored entries: sparse attention's");
    GraphBuilder g(rewriter, op.getLoc());
    rewriter.replaceOp(op, buildSoftmax(g, op.getInput(), op.getDimAttr().getInt()));
    return success();
  }
};

/// mean = sum * (1/n); the reduce stays a backbone for the fusion passes.
struct DecomposeMean : OpRewritePattern<ReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReduceOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getKind() != ReduceKind::Mean)
      return failure();
    auto input = op.getInput().getType();
    int64_t count = 1;
    for (int64_t d : op.getDims())
      count *= input.getDimSize(d);
    GraphBuilder g(rewriter, op.getLoc());
    Value sum = ReduceOp::create(rewriter, op.getLoc(), op.getType(),
                                 ReduceKind::Sum, op.getInput(), op.getDims(),
                                 op.getKeepDims());
    // An empty reduction has no mean; 1/0 gives the NaN that is its value.
    double inverse = count == 0 ? std::numeric_limits<double>::quiet_NaN()
                                : 1.0 / static_cast<double>(count);
    rewriter.replaceOp(op, g.op<MulOp>(sum, g.splat(op.getType(), inverse)));
    return success();
  }
};

struct DecomposeLayerNorm : OpRewritePattern<LayerNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LayerNormOp op,
                                PatternRewriter &rewriter) const override {
    GraphBuilder g(rewriter, op.getLoc());
    Value x = op.getInput();
    auto type = op.getType();
    Value mean = g.expand(g.reduceLast(ReduceKind::Mean, x), type);
    Value centered = g.op<SubOp>(x, mean);
    Value variance =
        g.reduceLast(ReduceKind::Mean, g.op<MulOp>(centered, centered));
    Value y = g.normalize(centered, variance,
                          op.getEpsilon().convertToDouble());
    rewriter.replaceOp(op, g.applyScaleAndBias(y, op.getScale(), op.getBias()));
    return success();
  }
};

struct DecomposeRmsNorm : OpRewritePattern<RmsNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RmsNormOp op,
                                PatternRewriter &rewriter) const override {
    GraphBuilder g(rewriter, op.getLoc());
    Value x = op.getInput();
    Value meanSquare = g.reduceLast(ReduceKind::Mean, g.op<MulOp>(x, x));
    Value y = g.normalize(x, meanSquare, op.getEpsilon().convertToDouble());
    rewriter.replaceOp(op, g.applyScaleAndBias(y, op.getScale(), Value()));
    return success();
  }
};

/// erf form:  0.5 x (1 + erf(x / √2))
/// tanh form: 0.5 x (1 + tanh(√(2/π) (x + 0.044715 x³)))
struct DecomposeGelu : OpRewritePattern<GeluOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GeluOp op,
                                PatternRewriter &rewriter) const override {
    GraphBuilder g(rewriter, op.getLoc());
    Value x = op.getInput();
    auto type = op.getType();
    Value inner;
    if (op.getApproximation() == GeluApproximation::Erf) {
      inner = g.op<ErfOp>(g.op<MulOp>(x, g.splat(type, M_SQRT1_2)));
    } else {
      Value cube = g.op<MulOp>(g.op<MulOp>(x, x), x);
      Value poly = g.op<AddOp>(x, g.op<MulOp>(cube, g.splat(type, 0.044715)));
      double sqrt2OverPi = M_2_SQRTPI * M_SQRT1_2; // (2/√π)(1/√2) = √(2/π)
      inner = g.op<TanhOp>(g.op<MulOp>(poly, g.splat(type, sqrt2OverPi)));
    }
    Value onePlus = g.op<AddOp>(inner, g.splat(type, 1.0));
    Value half = g.op<MulOp>(x, g.splat(type, 0.5));
    rewriter.replaceOp(op, g.op<MulOp>(half, onePlus));
    return success();
  }
};

/// A [sq, sk] boolean constant, true where key position <= query position.
Value buildCausalMask(PatternRewriter &rewriter, Location loc, int64_t sq,
                      int64_t sk) {
  auto type = RankedTensorType::get({sq, sk}, rewriter.getI1Type());
  SmallVector<bool> keep(sq * sk);
  for (int64_t i = 0; i < sq; ++i)
    for (int64_t j = 0; j < sk; ++j)
      keep[i * sk + j] = j <= i;
  return ConstantOp::create(rewriter, loc, DenseElementsAttr::get(type, keep));
}

/// matmul(softmax(scale · Q·Kᵀ, masked), V).
struct DecomposeAttention : OpRewritePattern<AttentionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AttentionOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getScheduleAttr()) // runs on the fused attention kernel
      return rewriter.notifyMatchFailure(op, "scheduled for the fused kernel");
    GraphBuilder g(rewriter, op.getLoc());
    auto q = op.getQuery().getType();
    int64_t rank = q.getRank();
    int64_t sq = q.getDimSize(rank - 2), d = q.getDimSize(rank - 1);
    int64_t sk = op.getKey().getType().getDimSize(rank - 2);
    SmallVector<int64_t> scoreShape(q.getShape().drop_back(2));
    scoreShape.append({sq, sk});
    auto scoreType = q.clone(scoreShape);

    Value scores = MatmulOp::create(rewriter, op.getLoc(), scoreType,
                                    op.getQuery(), op.getKey(),
                                    /*transpose_lhs=*/false,
                                    /*transpose_rhs=*/true);
    double scale = op.getScaleAttr() ? op.getScaleAttr().getValueAsDouble()
                                     : 1.0 / std::sqrt(static_cast<double>(d));
    scores = g.op<MulOp>(scores, g.splat(scoreType, scale));

    Value negInf =
        g.splat(scoreType, -std::numeric_limits<double>::infinity());
    auto boolScores = cast<RankedTensorType>(getBoolTensorLike(scoreType));
    if (op.getCausal()) {
      Value mask = buildCausalMask(rewriter, op.getLoc(), sq, sk);
      // The [sq, sk] mask lands on the last two dimensions of the scores.
      Value keep = BroadcastOp::create(rewriter, op.getLoc(), boolScores, mask,
                                       ArrayRef<int64_t>{rank - 2, rank - 1});
      scores = g.op<SelectOp>(keep, scores, negInf);
    }
    if (Value mask = op.getMask()) {
      if (cast<RankedTensorType>(mask.getType()).getElementType().isInteger(1))
        scores = g.op<SelectOp>(mask, scores, negInf);
      else
        scores = g.op<AddOp>(scores, mask);
    }
    Value probabilities = buildSoftmax(g, scores, rank - 1);
    rewriter.replaceOp(op, MatmulOp::create(rewriter, op.getLoc(), op.getType(),
                                            probabilities, op.getValue(),
                                            false, false));
    return success();
  }
};

struct DecomposeCompositesPass
    : sopt::impl::DecomposeCompositesBase<DecomposeCompositesPass> {
  using DecomposeCompositesBase::DecomposeCompositesBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<DecomposeSoftmax, DecomposeMean, DecomposeLayerNorm,
                 DecomposeRmsNorm, DecomposeGelu>(&getContext());
    if (!keepAttention)
      patterns.add<DecomposeAttention>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
