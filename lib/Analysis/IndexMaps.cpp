//===- IndexMaps.cpp - how indices flow through layout ops ----------------===//

#include "sparse-opt/Analysis/IndexMaps.h"

#include "mlir/IR/AffineExpr.h"
#include "sparse-opt/Dialect/SOpt/SOptOps.h"

using namespace mlir;
using namespace mlir::sopt;

namespace {

ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

AffineMap makeMap(AffineMap like, ArrayRef<AffineExpr> exprs) {
  SmallVector<AffineExpr> simplified;
  for (AffineExpr e : exprs)
    simplified.push_back(simplifyAffineExpr(e, like.getNumDims(), 0));
  return AffineMap::get(like.getNumDims(), 0, simplified, like.getContext());
}

/// Indices into `to` of the element that `indices` address in `from`, both
/// row-major views of the same elements.
AffineMap relinearize(AffineMap indices, ArrayRef<int64_t> from,
                      ArrayRef<int64_t> to) {
  AffineExpr linear = linearOffset(indices, from);
  SmallVector<AffineExpr> result;
  for (auto [size, stride] : llvm::zip(to, rowMajorStrides(to)))
    result.push_back(size == 1 ? getAffineConstantExpr(0, indices.getContext())
                               : linear.floorDiv(stride) % size);
  return makeMap(indices, result);
}

} // namespace

SmallVector<int64_t> sopt::rowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

AffineExpr sopt::linearOffset(AffineMap indices, ArrayRef<int64_t> shape) {
  AffineExpr linear = getAffineConstantExpr(0, indices.getContext());
  for (auto [index, stride] : llvm::zip(indices.getResults(), rowMajorStrides(shape)))
    linear = linear + index * stride;
  return simplifyAffineExpr(linear, indices.getNumDims(), 0);
}

std::optional<AffineMap> sopt::operandIndices(Operation *op, unsigned operand,
                                              AffineMap result) {
  ArrayRef<AffineExpr> out = result.getResults();
  if (auto broadcast = dyn_cast<BroadcastOp>(op)) {
    ArrayRef<int64_t> in = shapeOf(broadcast.getInput());
    SmallVector<AffineExpr> exprs;
    for (auto [i, d] : llvm::enumerate(broadcast.getDims()))
      exprs.push_back(in[i] == 1 ? getAffineConstantExpr(0, op->getContext())
                                 : out[d]);
    return makeMap(result, exprs);
  }
  if (auto transpose = dyn_cast<TransposeOp>(op)) {
    SmallVector<AffineExpr> exprs(out.size());
    for (auto [i, p] : llvm::enumerate(transpose.getPermutation()))
      exprs[p] = out[i];
    return makeMap(result, exprs);
  }
  if (auto reshape = dyn_cast<ReshapeOp>(op))
    return relinearize(result, shapeOf(reshape.getResult()),
                       shapeOf(reshape.getInput()));
  if (op->hasTrait<OpTrait::Elementwise>())
    return result;
  return std::nullopt;
}

std::optional<AffineMap> sopt::resultIndices(Operation *op, unsigned operand,
                                             AffineMap operandMap) {
  ArrayRef<AffineExpr> in = operandMap.getResults();
  if (op->hasTrait<OpTrait::Elementwise>())
    return operandMap;
  if (auto transpose = dyn_cast<TransposeOp>(op)) {
    SmallVector<AffineExpr> exprs;
    for (int64_t p : transpose.getPermutation())
      exprs.push_back(in[p]);
    return makeMap(operandMap, exprs);
  }
  if (auto reshape = dyn_cast<ReshapeOp>(op))
    return relinearize(operandMap, shapeOf(reshape.getInput()),
                       shapeOf(reshape.getResult()));
  if (auto reduce = dyn_cast<ReduceOp>(op)) {
    SmallVector<AffineExpr> exprs;
    for (auto [d, e] : llvm::enumerate(in)) {
      if (!llvm::is_contained(reduce.getDims(), static_cast<int64_t>(d)))
        exprs.push_back(e);
      else if (reduce.getKeepDims())
        exprs.push_back(getAffineConstantExpr(0, op->getContext()));
    }
    return makeMap(operandMap, exprs);
  }
  return std::nullopt;
}

namespace {

/// sum(coefficients[i] * d_i) + constant, when an expression has that form.
struct Linear {
  SmallVector<int64_t> coefficients;
  int64_t constant = 0;
};

std::optional<Linear> linearize(AffineExpr e, unsigned numDims) {
  if (auto c = dyn_cast<AffineConstantExpr>(e)) {
    Linear l;
    l.coefficients.assign(numDims, 0);
    l.constant = c.getValue();
    return l;
  }
  if (auto d = dyn_cast<AffineDimExpr>(e)) {
    Linear l;
    l.coefficients.assign(numDims, 0);
    l.coefficients[d.getPosition()] = 1;
    return l;
  }
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return std::nullopt;
  if (bin.getKind() == AffineExprKind::Add) {
    auto a = linearize(bin.getLHS(), numDims), b = linearize(bin.getRHS(), numDims);
    if (!a || !b)
      return std::nullopt;
    for (unsigned i = 0; i < numDims; ++i)
      a->coefficients[i] += b->coefficients[i];
    a->constant += b->constant;
    return a;
  }
  if (bin.getKind() == AffineExprKind::Mul)
    if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
      if (auto a = linearize(bin.getLHS(), numDims)) {
        for (int64_t &coefficient : a->coefficients)
          coefficient *= c.getValue();
        a->constant *= c.getValue();
        return a;
      }
  return std::nullopt;
}

AffineExpr rebuild(const Linear &l, MLIRContext *ctx) {
  AffineExpr e = getAffineConstantExpr(l.constant, ctx);
  for (auto [i, c] : llvm::enumerate(l.coefficients))
    if (c != 0)
      e = e + getAffineDimExpr(i, ctx) * c;
  return e;
}

AffineExpr simplifyExpr(AffineExpr e, ArrayRef<int64_t> extents) {
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return e;
  AffineExpr lhs = simplifyExpr(bin.getLHS(), extents);
  AffineExpr rhs = simplifyExpr(bin.getRHS(), extents);
  auto divisor = dyn_cast<AffineConstantExpr>(rhs);
  std::optional<Linear> l = linearize(lhs, extents.size());
  bool divides = bin.getKind() == AffineExprKind::FloorDiv ||
                 bin.getKind() == AffineExprKind::Mod;
  if (divides && divisor && divisor.getValue() > 0 && l && l->constant >= 0) {
    // Split into terms that are multiples of the divisor and the rest; if
    // the rest never reaches the divisor, floordiv keeps the first part
    // (divided) and mod the second.
    int64_t d = divisor.getValue();
    Linear high, low;
    high.coefficients.assign(extents.size(), 0);
    low.coefficients.assign(extents.size(), 0);
    low.constant = l->constant;
    int64_t lowMax = l->constant;
    bool ok = true;
    for (auto [i, c] : llvm::enumerate(l->coefficients)) {
      if (c < 0)
        ok = false;
      else if (c % d == 0)
        high.coefficients[i] = c / d;
      else {
        low.coefficients[i] = c;
        lowMax += c * (extents[i] - 1);
      }
    }
    if (ok && lowMax < d)
      return bin.getKind() == AffineExprKind::FloorDiv
                 ? rebuild(high, e.getContext())
                 : rebuild(low, e.getContext());
  }
  // (x floordiv d) mod m is x floordiv d when x < d * m.
  if (bin.getKind() == AffineExprKind::Mod && divisor) {
    auto inner = dyn_cast<AffineBinaryOpExpr>(lhs);
    if (inner && inner.getKind() == AffineExprKind::FloorDiv)
      if (auto d = dyn_cast<AffineConstantExpr>(inner.getRHS()))
        if (auto x = linearize(inner.getLHS(), extents.size());
            x && x->constant >= 0 &&
            llvm::all_of(x->coefficients, [](int64_t c) { return c >= 0; })) {
          int64_t max = x->constant;
          for (auto [i, c] : llvm::enumerate(x->coefficients))
            max += c * (extents[i] - 1);
          if (max < d.getValue() * divisor.getValue())
            return lhs;
        }
  }
  return getAffineBinaryOpExpr(bin.getKind(), lhs, rhs);
}

} // namespace

AffineMap sopt::simplifyWithExtents(AffineMap map, ArrayRef<int64_t> extents) {
  if (extents.size() != map.getNumDims() ||
      llvm::any_of(extents, [](int64_t e) { return e <= 0; }))
    return map;
  SmallVector<AffineExpr> exprs;
  for (AffineExpr e : map.getResults())
    exprs.push_back(simplifyAffineExpr(simplifyExpr(e, extents),
                                       map.getNumDims(), 0));
  return AffineMap::get(map.getNumDims(), 0, exprs, map.getContext());
}
