//===- FusionClustering.cpp - cycle-free memory-bound clusters ------------===//

#include "sparse-opt/Analysis/FusionClustering.h"

#include "sparse-opt/Analysis/OpClassification.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::sopt;

FusionClustering::FusionClustering(Block &block) {
  DenseMap<Operation *, unsigned> index;
  for (Operation &op : block.without_terminator()) {
    index[&op] = nodes.size();
    nodes.push_back(&op);
  }
  unsigned count = nodes.size();
  exits.resize(count);
  for (auto [i, op] : llvm::enumerate(nodes)) {
    for (Operation *user : op->getUsers())
      if (Operation *top = block.findAncestorOpInBlock(*user))
        if (auto it = index.find(top); it != index.end())
          exits[i].push_back(it->second);
    llvm::sort(exits[i]);
    exits[i].erase(llvm::unique(exits[i]), exits[i].end());
  }
  parent.resize(count);
  for (unsigned i = 0; i < count; ++i)
    parent[i] = i;
  visitMark.assign(count, 0);

  // Block order is a topological order, so each edge is seen once with both
  // ends already placed.
  for (auto [consumer, op] : llvm::enumerate(nodes)) {
    if (!isFusible(op))
      continue;
    for (Value operand : op->getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if (!producer || producer->getBlock() != &block || !isFusible(producer))
        continue;
      unsigned from = find(index[producer]), to = find(consumer);
      if (from != to && canMerge(from, to, consumer))
        merge(from, to);
    }
  }

  DenseMap<unsigned, unsigned> clusterOf;
  for (auto [i, op] : llvm::enumerate(nodes)) {
    if (!isFusible(op))
      continue;
    auto [it, inserted] = clusterOf.try_emplace(find(i), clusters.size());
    if (inserted)
      clusters.emplace_back();
    clusters[it->second].push_back(op);
  }
}

unsigned FusionClustering::find(unsigned node) {
  while (parent[node] != node)
    node = parent[node] = parent[parent[node]];
  return node;
}

bool FusionClustering::canMerge(unsigned a, unsigned b, unsigned consumer) {
  return !reachesThroughOutside(a, b, consumer) &&
         !reachesThroughOutside(b, a, consumer);
}

bool FusionClustering::reachesThroughOutside(unsigned fromRoot,
                                             unsigned toRoot, unsigned bound) {
  ++searchId;
  visitMark[fromRoot] = searchId;
  SmallVector<unsigned> worklist;
  // Whether cluster `root`'s exits reach `to` at once; queues the clusters
  // they enter, forgetting the exits merged into `root` since recorded.
  auto expand = [&](unsigned root) {
    SmallVector<unsigned> &rootExits = exits[root];
    unsigned kept = 0;
    bool reached = false;
    for (unsigned exit : rootExits) {
      unsigned next = find(exit);
      if (next == root)
        continue;
      rootExits[kept++] = exit;
      if (exit > bound || visitMark[next] == searchId)
        continue;
      // Straight from `from` to `to` is the merge itself, not a detour.
      if (next == toRoot) {
        reached |= root != fromRoot;
        continue;
      }
      visitMark[next] = searchId;
      worklist.push_back(next);
    }
    rootExits.truncate(kept);
    return reached;
  };
  if (expand(fromRoot))
    return true;
  while (!worklist.empty())
    if (expand(worklist.pop_back_val()))
      return true;
  return false;
}

void FusionClustering::merge(unsigned a, unsigned b) {
  // The longer exit list stays in place; the shorter is appended to it.
  if (exits[a].size() < exits[b].size())
    std::swap(a, b);
  parent[b] = a;
  exits[a].append(exits[b].begin(), exits[b].end());
  exits[b] = {};
}
