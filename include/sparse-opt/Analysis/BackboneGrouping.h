//===- BackboneGrouping.h - groups around reduce backbones ------*- C++ -*-===//
//
// Inside a fusion region, every reduce is a backbone: the shape changes
// there, so a thread mapping cannot flow through it unchanged. Each backbone
// is grouped with its producers and with the consumers that work in its
// iteration space. A later reduce over the same iteration space (same input
// shape, same reduced dims) that is linked to the group by a path joins it
// as a sub-backbone: LayerNorm's variance after its mean, softmax's sum
// after its max. Ops linked to no reduce form groups without a backbone.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_ANALYSIS_BACKBONEGROUPING_H
#define SPARSE_OPT_ANALYSIS_BACKBONEGROUPING_H

#include "mlir/IR/BuiltinTypes.h"
#include "sparse-opt/Dialect/SOpt/SOptOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::sopt {

struct FusionGroup {
  /// Position among the region's groups: after every group it reads from,
  /// otherwise in region order of first ops.
  unsigned id = 0;
  /// The group's ops in region order (constants excluded: they are scalars).
  SmallVector<Operation *> ops;
  /// The first reduce of the group; null for an elementwise group.
  ReduceOp backbone;
  /// Later reduces over the same iteration space.
  SmallVector<ReduceOp> subBackbones;
  /// The iteration space: the backbone's input shape, or for an elementwise
  /// group the largest shape among its ops.
  SmallVector<int64_t> domain;
  /// Dimensions of `domain` that the backbones reduce (empty: elementwise).
  SmallVector<int64_t> reducedDims;

  bool hasBackbone() const { return static_cast<bool>(backbone); }
};

/// Computed once, by sopt-group-backbones, and carried in the IR as marks
/// (sopt.group, sopt.backbone, sopt.sub_backbone: FusionAnnotations.h); the
/// later passes and the emitter read the marks back with `fromMarks`.
class BackboneGrouping {
public:
  /// Groups the ops of `fusion`.
  explicit BackboneGrouping(FusionOp fusion);

  /// The grouping recorded on the ops of `fusion`. Fails, with a diagnostic
  /// when `diagnose` is set, where an op has no group or the marks do not
  /// describe a grouping (a group without ops, a backbone that is not its
  /// group's first reduce).
  static FailureOr<BackboneGrouping> fromMarks(FusionOp fusion,
                                               bool diagnose = true);

  /// Records the grouping on its ops, replacing earlier marks.
  void mark() const;

  ArrayRef<FusionGroup> getGroups() const { return groups; }
  /// The group of `op`, or null for ops outside every group (constants).
  const FusionGroup *getGroup(Operation *op) const;

private:
  BackboneGrouping() = default;
  void orderByDependence();
  /// The iteration space of each group, from its backbone or its ops.
  void computeDomains();

  SmallVector<FusionGroup, 0> groups;
  DenseMap<Operation *, unsigned> groupOf;
};

} // namespace mlir::sopt

#endif // SPARSE_OPT_ANALYSIS_BACKBONEGROUPING_H
