//===- SOptOps.h - sopt operations ------------------------------*- C++ -*-===//

#ifndef SPARSE_OPT_DIALECT_SOPT_SOPTOPS_H
#define SPARSE_OPT_DIALECT_SOPT_SOPTOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "sparse-opt/Dialect/SOpt/IndexableExtents.h"
#include "sparse-opt/Dialect/SOpt/SOptDialect.h"

namespace mlir::sopt {
/// The dense i1 tensor type of the same shape as `type` (results of
/// comparisons, conditions of selects).
Type getBoolTensorLike(Type type);

/// The result type of an elementwise op over `operands`: the sparse
/// operand's type if there is one, else the first operand's.
Type getElementwiseResultType(ArrayRef<Value> operands);

/// The checks of StoredEntriesElementwise: sparse operands are CSR, all of
/// one type, and the result has that type.
LogicalResult verifyStoredEntriesOperands(Operation *op);

/// An elementwise op that may act on the stored entries of CSR operands.
template <typename ConcreteType>
class StoredEntriesElementwise
    : public OpTrait::TraitBase<ConcreteType, StoredEntriesElementwise> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyStoredEntriesOperands(op);
  }
};

/// Whether `op` is an elementwise op acting on the stored entries of a CSR
/// operand (one of its operands is sparse).
bool isStoredEntriesOp(Operation *op);
} // namespace mlir::sopt

#define GET_OP_CLASSES
#include "sparse-opt/Dialect/SOpt/SOptOps.h.inc"

#endif // SPARSE_OPT_DIALECT_SOPT_SOPTOPS_H
