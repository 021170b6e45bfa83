//===- BackboneGrouping.cpp - groups around reduce backbones --------------===//

#include "sparse-opt/Analysis/BackboneGrouping.h"

#include "sparse-opt/Dialect/SOpt/FusionAnnotations.h"
#include "sparse-opt/Support/Extents.h"

#include "mlir/IR/Builders.h"

#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/SetVector.h"
#include <optional>

using namespace mlir;
using namespace mlir::sopt;

namespace {

/// The iteration space a reduce imposes on its group.
struct ReduceSpace {
  SmallVector<int64_t> shape;
  SmallVector<int64_t> dims;
  bool operator==(const ReduceSpace &other) const {
    return shape == other.shape && dims == other.dims;
  }
};

ReduceSpace spaceOf(ReduceOp reduce) {
  auto input = reduce.getInput().getType();
  return {SmallVector<int64_t>(input.getShape()),
          SmallVector<int64_t>(reduce.getDims())};
}

int64_t elementsOf(Operation *op) {
  return cast<RankedTensorType>(op->getResult(0).getType()).getNumElements();
}

} // namespace

BackboneGrouping::BackboneGrouping(FusionOp fusion) {
  SmallVector<Operation *> nodes;
  for (Operation &op : fusion.getBodyBlock().without_terminator())
    if (!isa<ConstantOp>(op))
      nodes.push_back(&op);

  // Union along def-use edges, except between classes whose reduces impose
  // different iteration spaces, and where an op would be larger than the
  // space (a broadcast of a reduction's result back to a bigger shape):
  // there the mapping cannot flow.
  llvm::EquivalenceClasses<Operation *> classes;
  DenseMap<Operation *, std::optional<ReduceSpace>> spaceOfLeader;
  DenseMap<Operation *, int64_t> largestOfLeader; // elements of its largest op
  for (Operation *op : nodes) {
    classes.insert(op);
    largestOfLeader[op] = elementsOf(op);
    if (auto reduce = dyn_cast<ReduceOp>(op)) {
      spaceOfLeader[op] = spaceOf(reduce);
      largestOfLeader[op] = reduce.getInput().getType().getNumElements();
    } else {
      spaceOfLeader[op] = std::nullopt;
    }
  }
  // Where a consumer could join classes of different spaces, it joins the
  // one computed last: that one may depend on the others, never the other
  // way round, so the groups stay free of cycles (softmax over row sums: the
  // subtraction of the max joins the max's group, not the row sums').
  DenseMap<Operation *, int64_t> lastOfLeader; // region position of its last op
  for (auto [position, op] : llvm::enumerate(nodes))
    lastOfLeader[op] = position;
  for (Operation *consumer : nodes) {
    SmallVector<Operation *> producers;
    for (Value operand : consumer->getOperands())
      if (Operation *producer = operand.getDefiningOp();
          producer && classes.contains(producer))
        producers.push_back(producer);
    llvm::stable_sort(producers, [&](Operation *x, Operation *y) {
      return lastOfLeader[classes.getLeaderValue(x)] >
             lastOfLeader[classes.getLeaderValue(y)];
    });
    for (Operation *producer : producers) {
      Operation *a = classes.getLeaderValue(producer);
      Operation *b = classes.getLeaderValue(consumer);
      if (a == b)
        continue;
      std::optional<ReduceSpace> sa = spaceOfLeader[a], sb = spaceOfLeader[b];
      if (sa && sb && !(*sa == *sb))
        continue;
      std::optional<ReduceSpace> space = sa ? sa : sb;
      int64_t largest = std::max(largestOfLeader[a], largestOfLeader[b]);
      if (space && largest > product(space->shape))
        continue;
      int64_t last = std::max(lastOfLeader[a], lastOfLeader[b]);
      classes.unionSets(a, b);
      Operation *leader = classes.getLeaderValue(a);
      spaceOfLeader[leader] = space;
      largestOfLeader[leader] = largest;
      lastOfLeader[leader] = last;
    }
  }

  DenseMap<Operation *, unsigned> groupOfLeader;
  for (Operation *op : nodes) {
    Operation *leader = classes.getLeaderValue(op);
    auto [it, inserted] = groupOfLeader.try_emplace(leader, groups.size());
    if (inserted) {
      groups.emplace_back();
      groups.back().id = it->second;
    }
    FusionGroup &group = groups[it->second];
    group.ops.push_back(op);
    groupOf[op] = it->second;
    if (auto reduce = dyn_cast<ReduceOp>(op)) {
      if (!group.backbone)
        group.backbone = reduce;
      else
        group.subBackbones.push_back(reduce);
    }
  }
  computeDomains();
  orderByDependence();
}

void BackboneGrouping::computeDomains() {
  for (FusionGroup &group : groups) {
    if (group.hasBackbone()) {
      ReduceSpace space = spaceOf(group.backbone);
      group.domain = space.shape;
      group.reducedDims = space.dims;
      continue;
    }
    if (group.hasBackbone())
      continue;
    int64_t largest = -1;
    for (Operation *op : group.ops) {
      auto type = cast<RankedTensorType>(op->getResult(0).getType());
      if (type.getNumElements() > largest) {
        largest = type.getNumElements();
        group.domain.assign(type.getShape().begin(), type.getShape().end());
      }
    }
  }
}

void BackboneGrouping::orderByDependence() {
  // Renumber so that a group comes after every group it reads from (the
  // lowest id first among those ready): the reuse plan and the emitter both
  // walk groups by id. Region order of first ops is such an order unless an
  // early op joined a later group. Groups that read from each other keep
  // their order; the emitter reports them.
  SmallVector<llvm::SmallSetVector<unsigned, 4>> readsFrom(groups.size());
  for (const FusionGroup &group : groups)
    for (Operation *op : group.ops)
      for (Value operand : op->getOperands())
        if (Operation *def = operand.getDefiningOp())
          if (auto it = groupOf.find(def);
              it != groupOf.end() && it->second != group.id)
            readsFrom[group.id].insert(it->second);
  SmallVector<unsigned> order;
  SmallVector<bool> placed(groups.size(), false);
  while (order.size() < groups.size()) {
    auto ready = llvm::find_if(llvm::seq<unsigned>(0, groups.size()), [&](unsigned id) {
      return !placed[id] &&
             llvm::all_of(readsFrom[id], [&](unsigned from) { return placed[from]; });
    });
    if (ready == llvm::seq<unsigned>(0, groups.size()).end())
      return; // a cycle: leave the region order
    placed[*ready] = true;
    order.push_back(*ready);
  }
  SmallVector<FusionGroup, 0> sorted;
  for (unsigned old : order) {
    sorted.push_back(std::move(groups[old]));
    sorted.back().id = sorted.size() - 1;
    for (Operation *op : sorted.back().ops)
      groupOf[op] = sorted.back().id;
  }
  groups = std::move(sorted);
}

const FusionGroup *BackboneGrouping::getGroup(Operation *op) const {
  auto it = groupOf.find(op);
  return it == groupOf.end() ? nullptr : &groups[it->second];
}

FailureOr<BackboneGrouping> BackboneGrouping::fromMarks(FusionOp fusion,
                                                        bool diagnose) {
  auto fail = [&](Operation *op, const Twine &message) {
    if (diagnose)
      op->emitOpError(message);
    return failure();
  };
  BackboneGrouping grouping;
  size_t regionOps = fusion.getBodyBlock().getOperations().size();
  for (Operation &op : fusion.getBodyBlock().without_terminator()) {
    if (isa<ConstantOp>(op))
      continue;
    auto id = op.getAttrOfType<IntegerAttr>(attr::kGroup);
    if (!id)
      return fail(&op, "has no sopt.group; run sopt-group-backbones first");
    uint64_t index = id.getValue().getZExtValue();
    if (index >= regionOps)
      return fail(&op, "has a sopt.group beyond the region's ops");
    if (grouping.groups.size() <= index)
      grouping.groups.resize(index + 1);
    FusionGroup &group = grouping.groups[index];
    group.id = index;
    group.ops.push_back(&op);
    grouping.groupOf[&op] = index;
    auto reduce = dyn_cast<ReduceOp>(op);
    if (op.hasAttr(attr::kBackbone)) {
      if (!reduce || group.backbone || !group.subBackbones.empty())
        return fail(&op, "is marked sopt.backbone but is not the first reduce "
                         "of its group");
      group.backbone = reduce;
    } else if (op.hasAttr(attr::kSubBackbone)) {
      if (!reduce || !group.backbone)
        return fail(&op, "is marked sopt.sub_backbone but is not a later "
                         "reduce of a group with a backbone");
      if (!(spaceOf(reduce) == spaceOf(group.backbone)))
        return fail(&op, "is marked sopt.sub_backbone but reduces another "
                         "iteration space than its group's backbone");
      group.subBackbones.push_back(reduce);
    } else if (reduce) {
      return fail(&op, "is a reduce without a sopt.backbone or "
                       "sopt.sub_backbone mark");
    }
  }
  for (const FusionGroup &group : grouping.groups)
    if (group.ops.empty())
      return fail(fusion, "has group ids with no ops; run sopt-group-backbones");
  grouping.computeDomains();
  return grouping;
}

void BackboneGrouping::mark() const {
  for (const FusionGroup &group : groups) {
    for (Operation *op : group.ops) {
      Builder b(op->getContext());
      op->setAttr(attr::kGroup, b.getI64IntegerAttr(group.id));
      op->removeAttr(attr::kBackbone);
      op->removeAttr(attr::kSubBackbone);
    }
    if (group.backbone)
      group.backbone->setAttr(attr::kBackbone,
                              UnitAttr::get(group.backbone->getContext()));
    for (ReduceOp sub : group.subBackbones)
      sub->setAttr(attr::kSubBackbone, UnitAttr::get(sub->getContext()));
  }
}
