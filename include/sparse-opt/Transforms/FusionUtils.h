//===- FusionUtils.h - building and taking apart sopt.fusion ----*- C++ -*-===//

#ifndef SPARSE_OPT_TRANSFORMS_FUSIONUTILS_H
#define SPARSE_OPT_TRANSFORMS_FUSIONUTILS_H

#include "sparse-opt/Analysis/BackboneGrouping.h"
#include "sparse-opt/Dialect/SOpt/SOptOps.h"
#include "sparse-opt/Target/GpuTarget.h"

namespace mlir::sopt {

/// Moves `ops` (fusible ops of one block, in block order) into a new
/// sopt.fusion placed where the last of them was; splat constants they use
/// are cloned inside, other outside values become inputs. Returns null when
/// no result of `ops` is used outside them (dead code, left alone). The block
/// may need a topological re-sort afterwards.
FusionOp outlineIntoFusion(ArrayRef<Operation *> ops);

/// The inverse: moves the body of `fusion` in front of it and erases it.
/// Returns the moved ops in order.
SmallVector<Operation *> inlineFusion(FusionOp fusion);

/// Gives every group of `grouping` its thread mapping on `target` and every
/// op its sopt.index_map (what sopt-propagate-mapping does for a region).
/// Fails, with a diagnostic on the op, where indices cannot be propagated.
LogicalResult mapGroups(const BackboneGrouping &grouping, const GpuTarget &target);

/// Calls `fn` on every sopt.fusion nested in `root`, in pre-order.
void forEachFusion(Operation *root, function_ref<void(FusionOp)> fn);

} // namespace mlir::sopt

#endif // SPARSE_OPT_TRANSFORMS_FUSIONUTILS_H
