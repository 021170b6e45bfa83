//===- ReusePlan.cpp - where a fused kernel keeps its values --------------===//

#include "sparse-opt/Analysis/ReusePlan.h"
#include "sparse-opt/Analysis/ThreadMapping.h"
#include "sparse-opt/Support/Extents.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include <functional>

using namespace mlir;
using namespace mlir::sopt;

namespace {

constexpr int64_t kAccumulatorBytes = 4; // rows accumulate in f32
constexpr int64_t kSharedAlignment = 16; // 128-bit shared accesses
/// A later phase recomputes a row value rather than keep it when that takes
/// at most this many ops: a register costs occupancy, a short recomputation
/// almost nothing. The bound keeps the work (and the kernel text) of a chain
/// of reductions linear in its length instead of recomputing the whole chain
/// after every reduction.
constexpr int64_t kMaxRecomputedOps = 8;

int64_t alignTo(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

bool isRowKind(MappingKind kind) {
  return kind == MappingKind::SubwarpRows || kind == MappingKind::WarpRows ||
         kind == MappingKind::BlockRows || kind == MappingKind::SplitRow;
}

/// Where a reduction's result meets its consumers.
MemoryLevel backboneLevel(MappingAttr mapping, const GpuTarget &target) {
  if (mapping.getBlocksPerRow() > 1)
    return MemoryLevel::Global;
  switch (mapping.getKind()) {
  case MappingKind::SubwarpRows:
  case MappingKind::WarpRows:
    return MemoryLevel::Register; // warp shuffles give every lane the result
  case MappingKind::Columns:
    return mapping.getThreadsPerRow() > 1 ? MemoryLevel::Shared
                                          : MemoryLevel::Register;
  default:
    return MemoryLevel::Shared;
  }
}

/// Bytes of shared scratch a block-wide reduction needs: one partial per
/// warp and per row, plus the broadcast slot of each row.
int64_t reductionScratchBytes(MappingAttr mapping, const GpuTarget &target) {
  // Columns: every thread's partial, combined across the block's slices.
  if (mapping.getKind() == MappingKind::Columns)
    return mapping.getThreadsPerBlock() * kAccumulatorBytes;
  int64_t warps = ceilDiv(mapping.getThreadsPerBlock(), target.warpSize);
  return (warps + mapping.getRowsPerBlock()) * kAccumulatorBytes;
}

class Planner {
public:
  Planner(FusionOp fusion, const BackboneGrouping &grouping,
          ArrayRef<MappingAttr> mappings, const GpuTarget &target)
      : fusion(fusion), grouping(grouping),
        mappings(mappings.begin(), mappings.end()), target(target) {}

  ReusePlan run() {
    computePhases();
    planAll();
    // One kernel of several groups launches one block size: plan again with
    // every group at the largest (its reductions' scratch, its shared
    // budget and its wave all change with it).
    if (plan.kernels.size() == 1 && plan.kernels.front().size() > 1) {
      int64_t threads = 0;
      for (MappingAttr m : mappings)
        threads = std::max(threads, m.getThreadsPerBlock());
      bool resized = false;
      for (MappingAttr &m : mappings) {
        MappingAttr wider = withThreadsPerBlock(m, threads);
        resized |= wider != m;
        m = wider;
      }
      if (resized)
        planAll();
    }
    if (plan.kernels.size() == 1 && plan.gridBarriers > 0) {
      int64_t grid = 0;
      for (MappingAttr m : mappings)
        grid = std::max(grid, m.getGrid());
      plan.residentBlocksPerSM = ceilDiv(grid, target.smCount);
    }
    plan.mappings = mappings;
    return std::move(plan);
  }

private:
  void planAll() {
    plan = ReusePlan();
    requests.clear();
    sharedBudget = target.sharedMemoryPerBlock;
    planGroups();
    allocateShared();
    planKernels();
  }

  /// Phase of a value inside its group: reductions end a phase.
  void computePhases() {
    for (Operation &op : fusion.getBodyBlock().without_terminator()) {
      int64_t p = 0;
      for (Value operand : op.getOperands())
        if (Operation *def = operand.getDefiningOp();
            def && grouping.getGroup(def) == grouping.getGroup(&op))
          p = std::max(p, phase.lookup(operand));
      for (Value result : op.getResults())
        phase[result] = isa<ReduceOp>(op) ? p + 1 : p;
      usePhase[&op] = p;
    }
  }

  void planGroups() {
    for (const FusionGroup &group : grouping.getGroups()) {
      if (!group.hasBackbone())
        continue;
      MappingAttr mapping = mappings[group.id];
      MemoryLevel level = backboneLevel(mapping, target);
      SmallVector<ReduceOp> reduces{group.backbone};
      llvm::append_range(reduces, group.subBackbones);
      // A row spanning several warps is reduced through shared scratch, also
      // on the way to a grid-wide combine.
      bool blockReduction = mapping.getThreadsPerRow() > target.warpSize ||
                            mapping.getKind() == MappingKind::Columns ||
                            level == MemoryLevel::Shared;
      for (ReduceOp reduce : reduces) {
        plan.backboneResult[reduce] = level;
        if (blockReduction) {
          int64_t p = phase.lookup(reduce.getInput());
          int64_t bytes = reductionScratchBytes(mapping, target);
          requests.push_back({reduce.getResult(), bytes, p, p + 1});
          sharedBudget -= alignTo(bytes, kSharedAlignment);
        }
      }
      planCaches(group, mapping);
    }
  }

  /// Row values read again after a reduction of their group.
  void planCaches(const FusionGroup &group, MappingAttr mapping) {
    llvm::SmallPtrSet<Operation *, 16> members(group.ops.begin(),
                                               group.ops.end());
    llvm::MapVector<Value, int64_t> lastUse; // value -> last phase it is read
    for (Operation *op : group.ops)
      for (Value operand : op->getOperands()) {
        Operation *def = operand.getDefiningOp();
        // Reduce results are row scalars, and a broadcast is only a load of
        // something smaller: neither is worth a cache.
        bool rowValue = isa<BlockArgument>(operand) ||
                        (def && members.contains(def) &&
                         !isa<ReduceOp, BroadcastOp>(def));
        auto type = cast<RankedTensorType>(operand.getType());
        if (!rowValue || type.getShape() != ArrayRef(group.domain))
          continue; // row scalars and column vectors are cheap to re-read
        int64_t &last = lastUse[operand];
        last = std::max(last, usePhase.lookup(op));
      }
    int64_t perThread =
        ceilDiv(mapping.getCols(),
                mapping.getThreadsPerRow() * mapping.getBlocksPerRow());
    // Values a later phase can get without a cache of their own: kept ones,
    // row scalars, constants, small broadcast operands, and anything cheap
    // computed from those alone (rematerialised instead of kept: registers
    // are what limits occupancy here, not arithmetic).
    llvm::SmallPtrSet<Value, 16> kept;
    std::function<bool(Value)> availableLater = [&](Value v) -> bool {
      if (kept.contains(v))
        return true;
      auto type = cast<RankedTensorType>(v.getType());
      Operation *def = v.getDefiningOp();
      if (!def) // a region argument: small ones are cheap to re-read
        return type.getShape() != ArrayRef(group.domain);
      if (isa<ConstantOp, ReduceOp>(def) || !members.contains(def))
        return true;
      if (isa<BroadcastOp>(def))
        return availableLater(def->getOperand(0));
      return def->hasTrait<OpTrait::Elementwise>() &&
             llvm::all_of(def->getOperands(), availableLater);
    };
    SmallVector<std::pair<Value, int64_t>> candidates(lastUse.begin(),
                                                      lastUse.end());
    // Arguments first, then values in the order they are computed.
    llvm::stable_sort(candidates, [&](const auto &a, const auto &b) {
      auto order = [&](Value v) {
        return isa<BlockArgument>(v) ? -1 : phase.lookup(v);
      };
      return order(a.first) < order(b.first);
    });
    // Values a later phase reads from a register or shared cache: there a
    // recomputation stops.
    llvm::SmallPtrSet<Value, 16> stored;
    // The elementwise ops a later phase runs again to get `v`, counted up to
    // `limit + 1`. Row scalars are computed once per row and not counted.
    std::function<int64_t(Value, llvm::SmallPtrSetImpl<Operation *> &, int64_t)>
        recomputedOps = [&](Value v, llvm::SmallPtrSetImpl<Operation *> &seen,
                            int64_t limit) -> int64_t {
      Operation *def = v.getDefiningOp();
      auto type = cast<RankedTensorType>(v.getType());
      if (!def || stored.contains(v) || isa<ConstantOp, ReduceOp>(def) ||
          !members.contains(def) || type.getShape() != ArrayRef(group.domain) ||
          !seen.insert(def).second)
        return 0;
      int64_t ops = def->hasTrait<OpTrait::Elementwise>() ? 1 : 0;
      for (Value operand : def->getOperands()) {
        if (ops > limit)
          break;
        ops += recomputedOps(operand, seen, limit - ops);
      }
      return ops;
    };
    for (auto [value, last] : candidates) {
      int64_t first = isa<BlockArgument>(value) ? 0 : phase.lookup(value);
      if (last <= first)
        continue;
      llvm::SmallPtrSet<Operation *, 16> seen;
      if (availableLater(value) &&
          recomputedOps(value, seen, kMaxRecomputedOps) <= kMaxRecomputedOps) {
        kept.insert(value); // recomputed where needed
        continue;
      }
      auto type = cast<RankedTensorType>(value.getType());
      int64_t rowBytes = ceilDiv(mapping.getCols(), mapping.getBlocksPerRow()) *
                         type.getElementTypeBitWidth() / 8;
      int64_t blockBytes = rowBytes * mapping.getRowsPerBlock();
      if (isRowKind(mapping.getKind()) &&
          perThread <= target.registerElementsPerThread) {
        plan.cached[value] = MemoryLevel::Register;
        kept.insert(value);
        stored.insert(value);
      } else if (alignTo(blockBytes, kSharedAlignment) <= sharedBudget) {
        // Admitted against what is left of the block's shared memory, before
        // any lifetime reuse: the total can never exceed the budget.
        plan.cached[value] = MemoryLevel::Shared;
        requests.push_back({value, blockBytes, first, last});
        sharedBudget -= alignTo(blockBytes, kSharedAlignment);
        kept.insert(value);
        stored.insert(value);
      } else {
        plan.cached[value] = MemoryLevel::Global; // re-read from its source
        llvm::SmallPtrSet<Operation *, 16> recomputed;
        if (grouping.getGroups().size() == 1 && !plan.cutAfterPhase &&
            recomputedOps(value, recomputed, kMaxRecomputedOps) > kMaxRecomputedOps)
          plan.cutAfterPhase = first;
      }
    }
  }

  /// First-fit by phase lifetime: buffers that are never live together share
  /// their bytes.
  void allocateShared() {
    llvm::stable_sort(requests, [](const Request &a, const Request &b) {
      return a.first < b.first;
    });
    SmallVector<SharedSlot> placed;
    for (const Request &request : requests) {
      SharedSlot slot{0, alignTo(request.bytes, kSharedAlignment), request.first,
                      request.last};
      bool moved = true;
      while (moved) {
        moved = false;
        for (const SharedSlot &other : placed) {
          bool liveTogether = !(other.lastPhase < slot.firstPhase ||
                                slot.lastPhase < other.firstPhase);
          bool overlap = slot.offset < other.offset + other.bytes &&
                         other.offset < slot.offset + slot.bytes;
          if (liveTogether && overlap) {
            slot.offset = other.offset + other.bytes;
            moved = true;
          }
        }
      }
      placed.push_back(slot);
      plan.sharedSlots[request.value] = slot;
      plan.sharedBytes = std::max(plan.sharedBytes, slot.offset + slot.bytes);
    }
  }

  /// Consecutive groups share a kernel while every inter-group dependence
  /// can wait at a grid-wide barrier, i.e. while all their grids fit in one
  /// wave; otherwise a new kernel starts at the consuming group. A barrier
  /// goes before a group that reads one written since the last barrier (the
  /// emitter places them so and checks the count against this plan).
  void planKernels() {
    ArrayRef<FusionGroup> groups = grouping.getGroups();
    llvm::SmallDenseSet<unsigned> sinceBarrier;
    for (const FusionGroup &group : groups) {
      bool dependsOnCurrent = false, readsSinceBarrier = false;
      for (Operation *op : group.ops)
        for (Value operand : op->getOperands())
          if (Operation *def = operand.getDefiningOp())
            if (const FusionGroup *from = grouping.getGroup(def);
                from && from != &group && !plan.kernels.empty() &&
                llvm::is_contained(plan.kernels.back(), from->id)) {
              dependsOnCurrent = true;
              readsSinceBarrier |= sinceBarrier.contains(from->id);
              if (!llvm::is_contained(plan.crossGroup, operand))
                plan.crossGroup.push_back(operand);
            }
      if (plan.kernels.empty() ||
          (dependsOnCurrent && !fitsOneWave(plan.kernels.back(), group.id))) {
        plan.kernels.push_back({group.id});
        sinceBarrier = {group.id};
        continue;
      }
      if (readsSinceBarrier) {
        ++plan.gridBarriers;
        sinceBarrier.clear();
      }
      sinceBarrier.insert(group.id);
      plan.kernels.back().push_back(group.id);
    }
    // Values between kernels are ordinary kernel outputs, not barriers.
    if (plan.kernels.size() > 1)
      plan.gridBarriers = 0;
  }

  /// The kernel runs at the largest block size of its groups (see run()),
  /// each group over its own grid, launched as the largest of them.
  bool fitsOneWave(ArrayRef<unsigned> kernel, unsigned next) {
    int64_t threads = mappings[next].getThreadsPerBlock();
    for (unsigned id : kernel)
      threads = std::max(threads, mappings[id].getThreadsPerBlock());
    auto fits = [&](unsigned id) {
      return withThreadsPerBlock(mappings[id], threads).getGrid() <=
             target.residentBlocksPerWave(threads, plan.sharedBytes);
    };
    return llvm::all_of(kernel, fits) && fits(next);
  }

  struct Request {
    Value value;
    int64_t bytes, first, last;
  };

  FusionOp fusion;
  const BackboneGrouping &grouping;
  SmallVector<MappingAttr> mappings;
  const GpuTarget &target;
  DenseMap<Value, int64_t> phase;
  DenseMap<Operation *, int64_t> usePhase;
  SmallVector<Request> requests;
  int64_t sharedBudget = 0;
  ReusePlan plan;
};

} // namespace

ReusePlan sopt::planReuse(FusionOp fusion, const BackboneGrouping &grouping,
                          ArrayRef<MappingAttr> mappings,
                          const GpuTarget &target) {
  return Planner(fusion, grouping, mappings, target).run();
}
