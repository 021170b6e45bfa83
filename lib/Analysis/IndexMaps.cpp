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
