//===- BackboneGrouping.cpp - groups around reduce backbones --------------===//

#include "sparse-opt/Analysis/BackboneGrouping.h"

#include "llvm/ADT/EquivalenceClasses.h"
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

} // namespace

BackboneGrouping::BackboneGrouping(FusionOp fusion) {
  SmallVector<Operation *> nodes;
  for (Operation &op : fusion.getBodyBlock().without_terminator())
    if (!isa<ConstantOp>(op))
      nodes.push_back(&op);

  // Union along def-use edges, except between classes whose reduces impose
  // different iteration spaces: there the mapping cannot flow.
  llvm::EquivalenceClasses<Operation *> classes;
  DenseMap<Operation *, std::optional<ReduceSpace>> spaceOfLeader;
  for (Operation *op : nodes) {
    classes.insert(op);
    if (auto reduce = dyn_cast<ReduceOp>(op))
      spaceOfLeader[op] = spaceOf(reduce);
    else
      spaceOfLeader[op] = std::nullopt;
  }
  for (Operation *consumer : nodes) {
    for (Value operand : consumer->getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if (!producer || !classes.contains(producer))
        continue;
      Operation *a = classes.getLeaderValue(producer);
      Operation *b = classes.getLeaderValue(consumer);
      if (a == b)
        continue;
      std::optional<ReduceSpace> sa = spaceOfLeader[a], sb = spaceOfLeader[b];
      if (sa && sb && !(*sa == *sb))
        continue;
      classes.unionSets(a, b);
      Operation *leader = classes.getLeaderValue(a);
      spaceOfLeader[leader] = sa ? sa : sb;
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
      if (!group.backbone) {
        group.backbone = reduce;
        ReduceSpace space = spaceOf(reduce);
        group.domain = space.shape;
        group.reducedDims = space.dims;
      } else {
        group.subBackbones.push_back(reduce);
      }
    }
  }
  for (FusionGroup &group : groups) {
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

const FusionGroup *BackboneGrouping::getGroup(Operation *op) const {
  auto it = groupOf.find(op);
  return it == groupOf.end() ? nullptr : &groups[it->second];
}
