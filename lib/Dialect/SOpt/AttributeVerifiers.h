//===- AttributeVerifiers.h - the sopt attributes passes put on ops -*- C++ -*-===//
//
// SOptDialect::verifyOperationAttribute hands each `sopt.*` attribute on an
// op to the verifier of the passes that write it. Each returns success for
// names it does not own.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_LIB_DIALECT_SOPT_ATTRIBUTEVERIFIERS_H
#define SPARSE_OPT_LIB_DIALECT_SOPT_ATTRIBUTEVERIFIERS_H

#include "mlir/IR/Operation.h"

namespace mlir::sopt {

/// The fusion passes' marks: group, backbones, index maps, mappings, memory
/// levels and shared-memory slots (FusionAnnotations.h).
LogicalResult verifyFusionAnnotation(Operation *op, NamedAttribute named);

/// A sparse product's `sopt.pattern_tables` and `sopt.launch`
/// (sopt-prepare-sparse-emission).
LogicalResult verifySparseEmissionAttribute(Operation *op, NamedAttribute named);

} // namespace mlir::sopt

#endif // SPARSE_OPT_LIB_DIALECT_SOPT_ATTRIBUTEVERIFIERS_H
