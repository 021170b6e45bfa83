//===- TopologicalOrder.cpp - linear-time stable block sort ---------------===//
//
// mlir::sortTopologically sweeps the unscheduled ops in block order, moving
// each op whose producers are all scheduled to the front, and sweeps again
// until none is left. So an op lands in the first sweep that finds its
// producers scheduled: the sweep of its latest producer, or the next one when
// that producer sits after it in the block. The final order is by sweep, then
// by block position. Here the sweep of every op is computed once, in an
// order where producers come first (Kahn's algorithm), and the ops are then
// sorted by (sweep, position).
//
//===----------------------------------------------------------------------===//

#include "sparse-opt/Transforms/TopologicalOrder.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;

bool sopt::sortTopologicallyInLinearTime(Block &block) {
  SmallVector<Operation *> ops;
  DenseMap<Operation *, unsigned> position;
  for (Operation &op : block.without_terminator()) {
    position[&op] = ops.size();
    ops.push_back(&op);
  }
  unsigned count = ops.size();

  // Producers as mlir::sortTopologically sees them: the op of this block that
  // holds the definition of any operand used in the op or its regions.
  SmallVector<SmallVector<unsigned>> users(count);
  SmallVector<unsigned> pendingProducers(count, 0);
  for (auto [i, op] : llvm::enumerate(ops)) {
    SmallVector<unsigned> producers;
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        Operation *def = operand.getDefiningOp();
        Operation *top = def ? block.findAncestorOpInBlock(*def) : nullptr;
        if (!top || top == op)
          continue;
        if (auto it = position.find(top); it != position.end())
          producers.push_back(it->second);
      }
    });
    llvm::sort(producers);
    producers.erase(llvm::unique(producers), producers.end());
    pendingProducers[i] = producers.size();
    for (unsigned producer : producers)
      users[producer].push_back(i);
  }

  SmallVector<unsigned> sweep(count, 0), ready;
  for (unsigned i = 0; i < count; ++i)
    if (pendingProducers[i] == 0)
      ready.push_back(i);
  unsigned scheduled = 0;
  while (!ready.empty()) {
    unsigned producer = ready.pop_back_val();
    ++scheduled;
    for (unsigned user : users[producer]) {
      sweep[user] = std::max(sweep[user],
                             sweep[producer] + (producer > user ? 1 : 0));
      if (--pendingProducers[user] == 0)
        ready.push_back(user);
    }
  }
  if (scheduled != count)
    return sortTopologically(&block);

  auto order = llvm::to_vector(llvm::seq<unsigned>(0, count));
  llvm::stable_sort(order,
                    [&](unsigned a, unsigned b) { return sweep[a] < sweep[b]; });
  Operation *end = block.mightHaveTerminator() ? block.getTerminator() : nullptr;
  for (unsigned i : order) {
    if (end)
      ops[i]->moveBefore(end);
    else
      ops[i]->moveBefore(&block, block.end());
  }
  return true;
}
