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
  // A dense region's thread mapping covers every element of a dense domain;
  // ops on stored entries have none. sopt-fuse-sparse-epilogues gives them
  // regions of their own, with the broadcasts they sample.
  if (isStoredEntriesOp(op) || isSampledBroadcast(op))
    return false;
  // Composites are decomposed before fusion; regions never nest.
  return !isa<ConstantOp, FusionOp, YieldOp, SoftmaxOp, LayerNormOp, RmsNormOp>(
      op);
}

bool sopt::isSampledBroadcast(Operation *op) {
  return isa<BroadcastOp>(op) && !op->use_empty() &&
         llvm::all_of(op->getUsers(), [](Operation *user) { return isStoredEntriesOp(user); });
}

bool sopt::isSplatConstant(Operation *op) {
  auto constant = dyn_cast<ConstantOp>(op);
  if (!constant)
    return false;
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  return dense && dense.isSplat();
}
