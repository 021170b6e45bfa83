//===- TopologicalOrder.h - linear-time stable block sort -------*- C++ -*-===//

#ifndef SPARSE_OPT_TRANSFORMS_TOPOLOGICALORDER_H
#define SPARSE_OPT_TRANSFORMS_TOPOLOGICALORDER_H

#include "mlir/IR/Block.h"

namespace mlir::sopt {

/// Orders the ops of `block` (but its terminator) so that each comes after
/// the ops that define its operands, in exactly the order that
/// mlir::sortTopologically gives, but in O(ops + uses log) time where that one
/// rescans the block once per op found out of order. Outlining thousands of
/// regions leaves that many out of place. Returns false, leaving the order
/// to mlir::sortTopologically, when the ops form a cycle.
bool sortTopologicallyInLinearTime(Block &block);

} // namespace mlir::sopt

#endif // SPARSE_OPT_TRANSFORMS_TOPOLOGICALORDER_H
