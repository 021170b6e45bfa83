//===- ThreadMapping.h - a group's mapping onto threads ---------*- C++ -*-===//
//
// The backbone picks how its iteration space maps onto the GPU from its
// shape and the target; the choice then flows to every op of the group as
// an indexing map from the group's iteration space to the op's result, so
// that each index expression is formed once and shared.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_ANALYSIS_THREADMAPPING_H
#define SPARSE_OPT_ANALYSIS_THREADMAPPING_H

#include "mlir/IR/AffineMap.h"
#include "sparse-opt/Analysis/BackboneGrouping.h"
#include "sparse-opt/Target/GpuTarget.h"

namespace mlir::sopt {

/// The group's iteration space as rows x cols, the extents a mapping covers:
/// the product of its parallel dimensions and of its reduced ones (1 for an
/// elementwise group).
std::pair<int64_t, int64_t> mappedExtents(const FusionGroup &group);

/// Picks the thread mapping of `group` on `target`.
MappingAttr chooseMapping(const FusionGroup &group, const GpuTarget &target,
                          MLIRContext *context);

/// Indexing maps from the group's iteration space (its `domain`) to each
/// op's result indices, propagated from the backbone (or, in an elementwise
/// group, from the op with the domain's shape) along the group's edges.
/// Returns failure, with a diagnostic on the op, when an op's indices cannot
/// be expressed in the iteration space.
FailureOr<DenseMap<Operation *, AffineMap>>
propagateIndexMaps(const FusionGroup &group);

/// The mapping recorded on one of the group's ops (sopt.mapping), if any.
MappingAttr getRecordedMapping(const FusionGroup &group);

/// Replaces the mapping recorded on the group's ops by `mapping`.
void recordMapping(const FusionGroup &group, MappingAttr mapping);

/// `mapping` run by blocks of `threads` threads (a multiple of its threads
/// per row): the same threads per row, more or fewer rows per block, the grid
/// resized to match. Groups that share one kernel share its block size.
MappingAttr withThreadsPerBlock(MappingAttr mapping, int64_t threads);

} // namespace mlir::sopt

#endif // SPARSE_OPT_ANALYSIS_THREADMAPPING_H
