//===- ReusePlan.h - where a fused kernel keeps its values ------*- C++ -*-===//
//
// A fused kernel runs each group in phases separated by its reductions.
// Values crossing a phase boundary must be kept somewhere: a backbone's
// result reaches its consumers in registers when one thread (or a warp, via
// shuffles) owns the row, in shared memory when the row spans a block, and in
// global memory behind a grid-wide barrier when it spans blocks. Row elements
// needed again after a reduction are cached in registers when they fit,
// otherwise in shared memory, otherwise re-read. Values passed between groups
// go through global memory; a grid-wide barrier is legal only when every
// block is resident at once, so beyond one wave the kernel is split there.
// Shared buffers whose lifetimes (in phases) do not overlap share storage.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_ANALYSIS_REUSEPLAN_H
#define SPARSE_OPT_ANALYSIS_REUSEPLAN_H

#include "sparse-opt/Analysis/BackboneGrouping.h"
#include "sparse-opt/Target/GpuTarget.h"
#include <map>
#include <optional>

namespace mlir::sopt {

struct SharedSlot {
  int64_t offset = 0;
  int64_t bytes = 0;
  /// Phases in which the buffer is live, inclusive.
  int64_t firstPhase = 0, lastPhase = 0;
};

struct ReusePlan {
  /// Where each backbone's (and sub-backbone's) result lives.
  DenseMap<Operation *, MemoryLevel> backboneResult;
  /// Row values (op results or region arguments) kept across a reduction.
  DenseMap<Value, MemoryLevel> cached;
  /// Shared buffers by owning value (a reduction's scratch, or a cache).
  DenseMap<Value, SharedSlot> sharedSlots;
  /// Values passed between groups of one kernel through global memory.
  SmallVector<Value> crossGroup;
  int64_t sharedBytes = 0;
  int64_t gridBarriers = 0;
  /// Blocks every SM must hold at once for the grid-wide barriers between
  /// groups (0: none); the kernel's launch bounds ask the compiler for it.
  int64_t residentBlocksPerSM = 0;
  /// Consecutive groups that form one kernel; more than one entry means the
  /// region must be split (a grid-wide barrier would not be legal).
  SmallVector<SmallVector<unsigned>> kernels;
  /// A region of one group is cut after this phase into two kernels when a
  /// later phase needs a value that fits neither registers nor shared memory
  /// and takes more than a few ops to recompute: the value then reaches the
  /// second kernel through global memory, and a long chain of reductions
  /// costs work (and kernel text) linear in its length.
  std::optional<int64_t> cutAfterPhase;
  /// The groups' mappings by group id: those given, except that the groups
  /// of a kernel of several run with one block size (the largest).
  SmallVector<MappingAttr> mappings;
};

/// Plans `fusion`, whose groups are `grouping` and whose mappings are
/// `mappings` (one per group, by group id).
ReusePlan planReuse(FusionOp fusion, const BackboneGrouping &grouping,
                    ArrayRef<MappingAttr> mappings, const GpuTarget &target);

} // namespace mlir::sopt

#endif // SPARSE_OPT_ANALYSIS_REUSEPLAN_H
