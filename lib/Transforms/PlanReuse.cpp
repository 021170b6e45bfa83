//===- PlanReuse.cpp - registers, shared or global memory for fused values ===//

#include "sparse-opt/Analysis/ReusePlan.h"
#include "sparse-opt/Analysis/ThreadMapping.h"
#include "sparse-opt/Dialect/SOpt/FusionAnnotations.h"
#include "sparse-opt/Transforms/FusionUtils.h"
#include "sparse-opt/Transforms/Passes.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "sopt-plan-reuse"

namespace mlir::sopt {
#define GEN_PASS_DEF_PLANREUSE
#include "sparse-opt/Transforms/Passes.h.inc"
} // namespace mlir::sopt

using namespace mlir;
using namespace mlir::sopt;

namespace {

void recordPlan(FusionOp fusion, const ReusePlan &plan) {
  MLIRContext *ctx = fusion.getContext();
  Builder b(ctx);
  auto memory = [&](MemoryLevel level) { return MemoryLevelAttr::get(ctx, level); };
  for (auto [op, level] : plan.backboneResult)
    op->setAttr(attr::kResultMemory, memory(level));
  for (Value value : plan.crossGroup)
    if (Operation *def = value.getDefiningOp())
      def->setAttr(attr::kResultMemory, memory(MemoryLevel::Global));
  SmallVector<Attribute> argCache(fusion.getInputs().size(), b.getUnitAttr());
  for (auto [value, level] : plan.cached) {
    if (auto arg = dyn_cast<BlockArgument>(value))
      argCache[arg.getArgNumber()] = memory(level);
    else
      value.getDefiningOp()->setAttr(attr::kCache, memory(level));
  }
  if (!fusion.getInputs().empty())
    fusion->setAttr(attr::kArgCache, b.getArrayAttr(argCache));
  SmallVector<Attribute> argSlots(fusion.getInputs().size(), b.getUnitAttr());
  bool anyArgSlot = false;
  for (auto [value, slot] : plan.sharedSlots) {
    auto slotAttr = b.getDenseI64ArrayAttr({slot.offset, slot.bytes});
    if (Operation *def = value.getDefiningOp()) {
      def->setAttr(attr::kSharedSlot, slotAttr);
    } else {
      argSlots[cast<BlockArgument>(value).getArgNumber()] = slotAttr;
      anyArgSlot = true;
    }
  }
  if (anyArgSlot)
    fusion->setAttr(attr::kArgSharedSlot, b.getArrayAttr(argSlots));
  fusion->setAttr(attr::kSharedBytes, b.getI64IntegerAttr(plan.sharedBytes));
  fusion->setAttr(attr::kGridBarriers, b.getI64IntegerAttr(plan.gridBarriers));
  if (plan.residentBlocksPerSM > 0)
    fusion->setAttr(attr::kResidentBlocks,
                    b.getI64IntegerAttr(plan.residentBlocksPerSM));
}

struct PlanReusePass : sopt::impl::PlanReuseBase<PlanReusePass> {
  using PlanReuseBase::PlanReuseBase;

  void runOnOperation() override {
    target.smCount = smCount;
    target.sharedMemoryPerBlock = sharedMemoryPerBlock;
    target.registerElementsPerThread = registerElementsPerThread;
    if (std::string bad = target.checkOptionRanges(); !bad.empty()) {
      getOperation()->emitError() << "sopt-plan-reuse: " << bad;
      return signalPassFailure();
    }
    SmallVector<FusionOp> worklist;
    forEachFusion(getOperation(), [&](FusionOp f) { worklist.push_back(f); });
    while (!worklist.empty()) {
      FusionOp fusion = worklist.pop_back_val();
      FailureOr<BackboneGrouping> marks = BackboneGrouping::fromMarks(fusion);
      if (failed(marks))
        return signalPassFailure();
      const BackboneGrouping &grouping = *marks;
      SmallVector<MappingAttr> mappings;
      for (const FusionGroup &group : grouping.getGroups()) {
        MappingAttr mapping = getRecordedMapping(group);
        if (!mapping) {
          group.ops.front()->emitOpError(
              "has no thread mapping; run sopt-propagate-mapping first");
          return signalPassFailure();
        }
        mappings.push_back(mapping);
      }
      ReusePlan plan = planReuse(fusion, grouping, mappings, target);
      if (plan.cutAfterPhase) {
        FailureOr<SmallVector<FusionOp>> parts = cut(fusion, *plan.cutAfterPhase);
        if (failed(parts))
          return signalPassFailure();
        worklist.append(*parts);
        continue;
      }
      if (plan.kernels.size() <= 1) {
        for (const FusionGroup &group : grouping.getGroups())
          recordMapping(group, plan.mappings[group.id]);
        recordPlan(fusion, plan);
        continue;
      }
      // A grid-wide barrier would not be legal: one kernel per part.
      worklist.append(split(fusion, grouping, plan));
    }
  }

  SmallVector<FusionOp> split(FusionOp fusion, const BackboneGrouping &grouping,
                              const ReusePlan &plan) {
    // Each part keeps its groups' marks, numbered from 0 in the part.
    Builder b(fusion.getContext());
    DenseMap<Operation *, unsigned> kernelOfGroupOp;
    for (auto [k, ids] : llvm::enumerate(plan.kernels))
      for (auto [position, id] : llvm::enumerate(ids))
        for (Operation *op : grouping.getGroups()[id].ops) {
          kernelOfGroupOp[op] = k;
          op->setAttr(attr::kGroup, b.getI64IntegerAttr(position));
        }
    return outlineParts(fusion, kernelOfGroupOp, plan.kernels.size());
  }

  /// Moves the work of `fusion` (one group) after phase `last` into a
  /// region of its own; both regions are grouped and mapped afresh.
  FailureOr<SmallVector<FusionOp>> cut(FusionOp fusion, int64_t last) {
    DenseMap<Value, int64_t> phase;
    DenseMap<Operation *, unsigned> part;
    for (Operation &op : fusion.getBodyBlock().without_terminator()) {
      if (isa<ConstantOp>(op))
        continue;
      int64_t p = 0;
      for (Value operand : op.getOperands())
        p = std::max(p, phase.lookup(operand));
      for (Value result : op.getResults())
        phase[result] = isa<ReduceOp>(op) ? p + 1 : p;
      part[&op] = phase[op.getResult(0)] <= last ? 0 : 1;
    }
    SmallVector<FusionOp> result = outlineParts(fusion, part, 2);
    for (FusionOp f : result) {
      BackboneGrouping grouping(f);
      grouping.mark();
      if (failed(mapGroups(grouping, target)))
        return failure();
    }
    LLVM_DEBUG(llvm::dbgs() << "cut after phase " << last << ": "
                            << result.size() << " regions\n");
    return result;
  }

  /// Replaces `fusion` by one region per part (`partOf` numbers the ops of
  /// its body; splat constants follow their users).
  SmallVector<FusionOp> outlineParts(FusionOp fusion,
                                     const DenseMap<Operation *, unsigned> &partOf,
                                     unsigned numParts) {
    Block *block = fusion->getBlock();
    SmallVector<Operation *> moved = inlineFusion(fusion);
    SmallVector<SmallVector<Operation *>> parts(numParts);
    for (Operation *op : moved)
      if (auto it = partOf.find(op); it != partOf.end())
        parts[it->second].push_back(op);
    SmallVector<FusionOp> result;
    for (ArrayRef<Operation *> part : parts)
      if (FusionOp f = outlineIntoFusion(part))
        result.push_back(f);
    // Splat constants left without users. Only ops of no group: those of a
    // part were erased by outlineIntoFusion (reading them is a use after
    // free).
    for (Operation *op : moved)
      if (!partOf.count(op) && op->use_empty() && isa<ConstantOp>(op))
        op->erase();
    (void)sortTopologically(block);
    return result;
  }

  GpuTarget target;
};

} // namespace
