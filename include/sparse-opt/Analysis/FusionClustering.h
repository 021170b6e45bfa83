//===- FusionClustering.h - cycle-free memory-bound clusters ----*- C++ -*-===//
//
// Finds the memory-bound subgraphs of a block: fusible ops connected by
// def-use edges, merged greedily in block order, except where a merge would
// create a cycle through anything outside the cluster (a cluster must run as
// one kernel, so nothing outside it may sit both after and before it). The
// check is on the graph of clusters, each contracted to one node: two
// clusters that feed each other through different members form a cycle of
// kernels even where no path of ops does.
//
// Cost: clusters are union-find sets that carry the ops their members feed
// outside them and the ops that feed them. The cycle check before a merge
// searches the cluster graph forward from one and backward from the other
// at once, stopping when either search is done, and only among ops placed
// before the consumer being merged: block order is topological and every op
// after it is still alone, so nothing there leads back. On graphs whose
// clusters are local (models built from blocks) that makes the whole
// clustering about linear in the ops.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_ANALYSIS_FUSIONCLUSTERING_H
#define SPARSE_OPT_ANALYSIS_FUSIONCLUSTERING_H

#include "mlir/IR/Block.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::sopt {

class FusionClustering {
public:
  explicit FusionClustering(Block &block);

  /// The clusters, each listing its ops in block order; clusters are ordered
  /// by their first op.
  ArrayRef<SmallVector<Operation *>> getClusters() const { return clusters; }

private:
  /// The representative of `node`'s cluster.
  unsigned find(unsigned node);
  /// Whether merging the clusters with roots `a` and `b`, while merging
  /// into the cluster of node `consumer`, keeps the cluster graph acyclic.
  bool canMerge(unsigned a, unsigned b, unsigned consumer);
  /// Whether a path of the cluster graph leaves cluster `fromRoot`, passes a
  /// cluster other than both, and reaches cluster `toRoot`; it only passes
  /// nodes up to `bound`.
  bool reachesThroughOutside(unsigned fromRoot, unsigned toRoot,
                             unsigned bound);
  /// One side of that search: from cluster `start` along `edges` (exits
  /// forward, entries backward) towards cluster `goal`.
  struct Direction {
    SmallVector<SmallVector<unsigned>> *edges;
    SmallVector<unsigned> *marks;
    unsigned start, goal;
    SmallVector<unsigned> queue;
  };
  /// Visits the clusters that `root`'s edges lead to, queueing the new ones;
  /// returns whether one is the goal (other than by a direct edge from the
  /// start).
  bool expand(Direction &side, unsigned root, unsigned bound);
  /// Unites the clusters with roots `a` and `b`.
  void merge(unsigned a, unsigned b);

  /// The ops of the block (but its terminator), in order: a node is an index.
  SmallVector<Operation *> nodes;
  SmallVector<unsigned> parent;
  /// Per cluster root: the users in the block (their ancestors there) of its
  /// members that lay outside it when they were recorded, and the ops that
  /// fed its members from outside (a node merged in since is dropped on the
  /// next search through the cluster).
  SmallVector<SmallVector<unsigned>> exits, entries;
  /// The cycle search's visited marks, per cluster root and direction: root
  /// r is visited when its mark equals searchId, so a search starts without
  /// clearing them.
  SmallVector<unsigned> forwardMark, backwardMark;
  unsigned searchId = 0;
  SmallVector<SmallVector<Operation *>> clusters;
};

} // namespace mlir::sopt

#endif // SPARSE_OPT_ANALYSIS_FUSIONCLUSTERING_H
