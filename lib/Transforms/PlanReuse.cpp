//===- PlanReuse.cpp - registers, shared or global memory for fused values ===//

#include "sparse-opt/Analysis/ReusePlan.h"
#include "sparse-opt/Analysis/ThreadMapping.h"
#include "sparse-opt/Dialect/SOpt/FusionAnnotations.h"
#include "sparse-opt/Transforms/FusionUtils.h"
#include "sparse-opt/Transforms/Passes.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/IR/Builders.h"

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
      BackboneGrouping grouping(fusion);
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
      if (plan.kernels.size() <= 1) {
        annotateGroups(grouping);
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
    Block *block = fusion->getBlock();
    DenseMap<Operation *, unsigned> kernelOfGroupOp;
    for (auto [k, ids] : llvm::enumerate(plan.kernels))
      for (unsigned id : ids)
        for (Operation *op : grouping.getGroups()[id].ops)
          kernelOfGroupOp[op] = k;
    SmallVector<Operation *> moved = inlineFusion(fusion);
    SmallVector<SmallVector<Operation *>> parts(plan.kernels.size());
    for (Operation *op : moved)
      if (auto it = kernelOfGroupOp.find(op); it != kernelOfGroupOp.end())
        parts[it->second].push_back(op);
    SmallVector<FusionOp> result;
    for (ArrayRef<Operation *> part : parts)
      if (FusionOp f = outlineIntoFusion(part))
        result.push_back(f);
    // Splat constants left without users. Only ops of no group: those of a
    // part were erased by outlineIntoFusion (reading them is a use after
    // free).
    for (Operation *op : moved)
      if (!kernelOfGroupOp.count(op) && op->use_empty() && isa<ConstantOp>(op))
        op->erase();
    (void)sortTopologically(block);
    return result;
  }

  GpuTarget target;
};

} // namespace
