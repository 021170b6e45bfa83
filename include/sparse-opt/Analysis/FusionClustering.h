//===- FusionClustering.h - cycle-free memory-bound clusters ----*- C++ -*-===//
//
// Finds the memory-bound subgraphs of a block: fusible ops connected by
// def-use edges, merged greedily in block order, except where a merge would
// create a cycle through an op outside the cluster (a cluster must run as
// one kernel, so nothing outside it may sit both after and before it).
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_ANALYSIS_FUSIONCLUSTERING_H
#define SPARSE_OPT_ANALYSIS_FUSIONCLUSTERING_H

#include "mlir/IR/Block.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::sopt {

class FusionClustering {
public:
  explicit FusionClustering(Block &block);

  /// The clusters, each listing its ops in block order; clusters are ordered
  /// by their first op.
  ArrayRef<SmallVector<Operation *>> getClusters() const { return clusters; }

private:
  /// The op of `block` that holds `op` (itself, or an ancestor).
  Operation *topLevel(Operation *op) const;
  unsigned find(unsigned node);
  /// Whether merging the clusters of `a` and `b` keeps the graph acyclic.
  bool canMerge(unsigned a, unsigned b);
  /// Whether a path leaves cluster `from`, passes an op outside both
  /// clusters, and reaches cluster `to`.
  bool reachesThroughOutside(unsigned from, unsigned to);

  Block &block;
  SmallVector<Operation *> nodes;
  DenseMap<Operation *, unsigned> index;
  SmallVector<SmallVector<unsigned>> successors;
  SmallVector<unsigned> parent;
  SmallVector<SmallVector<Operation *>> clusters;
};

} // namespace mlir::sopt

#endif // SPARSE_OPT_ANALYSIS_FUSIONCLUSTERING_H
