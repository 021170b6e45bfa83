//===- FusionClustering.cpp - cycle-free memory-bound clusters ------------===//

#include "sparse-opt/Analysis/FusionClustering.h"

#include "sparse-opt/Analysis/OpClassification.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::sopt;

FusionClustering::FusionClustering(Block &block) : block(block) {
  for (Operation &op : block.without_terminator()) {
    index[&op] = nodes.size();
    nodes.push_back(&op);
  }
  successors.resize(nodes.size());
  for (auto [i, op] : llvm::enumerate(nodes)) {
    llvm::SmallSetVector<unsigned, 4> users;
    for (Operation *user : op->getUsers())
      if (Operation *top = topLevel(user); top && index.count(top))
        users.insert(index[top]);
    successors[i].assign(users.begin(), users.end());
  }
  parent.resize(nodes.size());
  for (unsigned i = 0; i < nodes.size(); ++i)
    parent[i] = i;

  // Block order is a topological order, so each edge is seen once with both
  // ends already placed.
  for (auto [consumer, op] : llvm::enumerate(nodes)) {
    if (!isFusible(op))
      continue;
    for (Value operand : op->getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if (!producer || producer->getBlock() != &block || !isFusible(producer))
        continue;
      unsigned p = index[producer];
      if (find(p) != find(consumer) && canMerge(p, consumer))
        parent[find(p)] = find(consumer);
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

Operation *FusionClustering::topLevel(Operation *op) const {
  return block.findAncestorOpInBlock(*op);
}

unsigned FusionClustering::find(unsigned node) {
  while (parent[node] != node)
    node = parent[node] = parent[parent[node]];
  return node;
}

bool FusionClustering::canMerge(unsigned a, unsigned b) {
  return !reachesThroughOutside(a, b) && !reachesThroughOutside(b, a);
}

bool FusionClustering::reachesThroughOutside(unsigned from, unsigned to) {
  unsigned fromRoot = find(from), toRoot = find(to);
  llvm::BitVector visited(nodes.size());
  SmallVector<unsigned> worklist;
  // Start at the successors of `from`'s cluster that lie outside both.
  for (unsigned i = 0; i < nodes.size(); ++i) {
    if (find(i) != fromRoot)
      continue;
    for (unsigned s : successors[i]) {
      unsigned root = find(s);
      if (root != fromRoot && root != toRoot && !visited.test(s)) {
        visited.set(s);
        worklist.push_back(s);
      }
    }
  }
  while (!worklist.empty()) {
    unsigned n = worklist.pop_back_val();
    for (unsigned s : successors[n]) {
      if (find(s) == toRoot)
        return true;
      if (!visited.test(s)) {
        visited.set(s);
        worklist.push_back(s);
      }
    }
  }
  return false;
}
