//===- OpClassification.cpp - compute-intensive vs memory-bound -----------===//

#include "sparse-opt/Analysis/OpClassification.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "sparse-opt/Dialect/SOpt/SOptOps.h"

using namespace mlir;
using namespace mlir::sopt;

bool sopt::isComputeIntensive(Operation *op) {
  return isa<MatmulOp, SpmmOp, SddmmOp, SpmvOp, AttentionOp>(op);
}

bool sopt::isFusible(Operation *op) {
  if (!isa<SOptDialect>(op->getDialect()) || isComputeIntensive(op))
    return false;
  // Composites are decomposed before fusion; regions never nest.
  return !isa<ConstantOp, FusionOp, YieldOp, SoftmaxOp, LayerNormOp, RmsNormOp>(
      op);
}

bool sopt::isSplatConstant(Operation *op) {
  auto constant = dyn_cast<ConstantOp>(op);
  if (!constant)
    return false;
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  return dense && dense.isSplat();
}
