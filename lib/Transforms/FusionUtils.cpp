//===- FusionUtils.cpp - building and taking apart sopt.fusion ------------===//

#include "sparse-opt/Transforms/FusionUtils.h"

#include "sparse-opt/Analysis/OpClassification.h"
#include "sparse-opt/Analysis/ThreadMapping.h"
#include "sparse-opt/Dialect/SOpt/FusionAnnotations.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::sopt;

FusionOp sopt::outlineIntoFusion(ArrayRef<Operation *> ops) {
  Block *block = ops.front()->getBlock();
  llvm::SmallPtrSet<Operation *, 16> members(ops.begin(), ops.end());
  auto isMember = [&](Operation *user) {
    Operation *top = block->findAncestorOpInBlock(*user);
    return top && members.contains(top);
  };

  llvm::SetVector<Value> inputs;
  llvm::SetVector<Operation *> splats;
  SmallVector<Value> outputs;
  SmallVector<Location> locs;
  for (Operation *op : ops) {
    locs.push_back(op->getLoc());
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && members.contains(def))
        continue;
      if (def && isSplatConstant(def))
        splats.insert(def);
      else
        inputs.insert(operand);
    }
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(),
                       [&](Operation *user) { return !isMember(user); }))
        outputs.push_back(result);
  }
  if (outputs.empty())
    return nullptr;

  OpBuilder builder(ops.back());
  Location loc = builder.getFusedLoc(locs);
  auto fusion = FusionOp::create(builder, loc, ValueRange(outputs).getTypes(),
                                 inputs.getArrayRef());
  SmallVector<Location> argLocs;
  for (Value input : inputs)
    argLocs.push_back(input.getLoc());
  Block *body = builder.createBlock(&fusion.getBody(), {},
                                    ValueRange(inputs.getArrayRef()).getTypes(),
                                    argLocs);
  IRMapping mapping;
  mapping.map(inputs.getArrayRef(), body->getArguments());
  for (Operation *splat : splats)
    builder.clone(*splat, mapping);
  for (Operation *op : ops)
    builder.clone(*op, mapping);
  SmallVector<Value> yielded;
  for (Value output : outputs)
    yielded.push_back(mapping.lookup(output));
  YieldOp::create(builder, loc, yielded);

  for (auto [output, result] : llvm::zip(outputs, fusion.getResults()))
    output.replaceUsesWithIf(result, [&](OpOperand &use) {
      return !isMember(use.getOwner());
    });
  for (Operation *op : llvm::reverse(ops))
    op->erase();
  return fusion;
}

SmallVector<Operation *> sopt::inlineFusion(FusionOp fusion) {
  Block &body = fusion.getBodyBlock();
  YieldOp yield = fusion.getYield();
  for (auto [arg, input] : llvm::zip(body.getArguments(), fusion.getInputs()))
    arg.replaceAllUsesWith(input);
  fusion.replaceAllUsesWith(yield.getValues());
  SmallVector<Operation *> moved;
  for (Operation &op : llvm::make_early_inc_range(body.without_terminator())) {
    op.moveBefore(fusion);
    moved.push_back(&op);
  }
  fusion.erase();
  return moved;
}

LogicalResult sopt::mapGroups(const BackboneGrouping &grouping,
                              const GpuTarget &target) {
  bool failed = false;
  for (const FusionGroup &group : grouping.getGroups()) {
    FailureOr<DenseMap<Operation *, AffineMap>> maps = propagateIndexMaps(group);
    if (llvm::failed(maps)) {
      failed = true;
      continue;
    }
    for (Operation *op : group.ops) {
      op->setAttr(attr::kIndexMap, AffineMapAttr::get((*maps)[op]));
      op->removeAttr(attr::kMapping);
    }
    ReduceOp backbone = group.backbone;
    Operation *anchor = backbone ? backbone.getOperation() : group.ops.back();
    anchor->setAttr(attr::kMapping,
                    chooseMapping(group, target, anchor->getContext()));
  }
  return failure(failed);
}

void sopt::forEachFusion(Operation *root, function_ref<void(FusionOp)> fn) {
  SmallVector<FusionOp> fusions;
  root->walk([&](FusionOp fusion) { fusions.push_back(fusion); });
  for (FusionOp fusion : fusions)
    fn(fusion);
}
