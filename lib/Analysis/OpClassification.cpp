//===- OpClassification.cpp - compute-intensive vs memory-bound -----------===//

#include "sparse-opt/Analysis/OpClassification.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "sparse-opt/Dialect/SOpt/SOptOps.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::sopt;

bool sopt::isComputeIntensive(Operation *op) {
  return isa<MatmulOp, SpmmOp, SddmmOp, SpmvOp, AttentionOp, SparseAttentionOp>(op);
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

int64_t sopt::estimatedInstructionsPerElement(Operation *op) {
  if (!op->hasTrait<OpTrait::Elementwise>())
    return 0;
  // Full-precision library calls are polynomials with range handling; the
  // special-function unit covers only the approximate core of exp and rsqrt.
  return llvm::TypeSwitch<Operation *, int64_t>(op)
      .Case<ExpOp, RsqrtOp, SqrtOp>([](auto) { return 4; })
      .Case<LogOp, ReciprocalOp>([](auto) { return 8; })
      .Case<DivOp, TanhOp, SigmoidOp>([](auto) { return 12; })
      .Case<ErfOp>([](auto) { return 24; })
      .Case<GeluOp>([](GeluOp gelu) {
        return gelu.getApproximation() == GeluApproximation::Erf ? 28 : 18;
      })
      .Case<PowOp>([](auto) { return 32; })
      .Default([](Operation *) { return 1; });
}
