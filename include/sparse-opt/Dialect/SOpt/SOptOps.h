//===- SOptOps.h - sopt operations ------------------------------*- C++ -*-===//

#ifndef SPARSE_OPT_DIALECT_SOPT_SOPTOPS_H
#define SPARSE_OPT_DIALECT_SOPT_SOPTOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "sparse-opt/Dialect/SOpt/SOptDialect.h"

namespace mlir::sopt {
/// The i1 tensor type of the same shape as `type` (results of comparisons,
/// conditions of selects).
Type getBoolTensorLike(Type type);
} // namespace mlir::sopt

#define GET_OP_CLASSES
#include "sparse-opt/Dialect/SOpt/SOptOps.h.inc"

#endif // SPARSE_OPT_DIALECT_SOPT_SOPTOPS_H
