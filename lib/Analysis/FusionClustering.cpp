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
  entries.resize(count);
  for (unsigned i = 0; i < count; ++i)
    for (unsigned user : exits[i])
      entries[user].push_back(i);
  parent.resize(count);
  for (unsigned i = 0; i < count; ++i)
    parent[i] = i;
  forwardMark.assign(count, 0);
  backwardMark.assign(count, 0);

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

bool FusionClustering::expand(Direction &side, unsigned root, unsigned bound) {
  SmallVector<unsigned> &edges = (*side.edges)[root];
  unsigned kept = 0;
  bool reached = false;
  for (unsigned node : edges) {
    unsigned next = find(node);
    if (next == root) // merged into `root` since recorded
      continue;
    edges[kept++] = node;
    if (node > bound || (*side.marks)[next] == searchId)
      continue;
    // Straight from the start to the goal is the merge itself, not a detour.
    if (next == side.goal) {
      reached |= root != side.start;
      continue;
    }
    (*side.marks)[next] = searchId;
    side.queue.push_back(next);
  }
  edges.truncate(kept);
  return reached;
}

bool FusionClustering::reachesThroughOutside(unsigned fromRoot,
                                             unsigned toRoot, unsigned bound) {
  ++searchId;
  // Forward from `from` along exits and backward from `to` along entries, a
  // cluster at a time, each step on the side whose next cluster has fewer
  // edges: either search alone decides, so the first to find the other end
  // or to run out answers (a long chain with a matmul off every op runs out
  // at once backward, a sequential model forward).
  Direction forward{&exits, &forwardMark, fromRoot, toRoot, {fromRoot}};
  Direction backward{&entries, &backwardMark, toRoot, fromRoot, {toRoot}};
  forwardMark[fromRoot] = backwardMark[toRoot] = searchId;
  while (!forward.queue.empty() && !backward.queue.empty()) {
    Direction &side = exits[forward.queue.back()].size() <=
                              entries[backward.queue.back()].size()
                          ? forward
                          : backward;
    if (expand(side, side.queue.pop_back_val(), bound))
      return true;
  }
  return false;
}

void FusionClustering::merge(unsigned a, unsigned b) {
  parent[b] = a;
  // Each shorter list is appended to the longer, which stays in place.
  for (SmallVector<SmallVector<unsigned>> *lists : {&exits, &entries}) {
    SmallVector<unsigned> &into = (*lists)[a], &from = (*lists)[b];
    if (into.size() < from.size())
      std::swap(into, from);
    into.append(from.begin(), from.end());
    from = {};
  }
}
