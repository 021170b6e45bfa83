//===- SOptDialect.h - the sopt dialect -------------------------*- C++ -*-===//

#ifndef SPARSE_OPT_DIALECT_SOPT_SOPTDIALECT_H
#define SPARSE_OPT_DIALECT_SOPT_SOPTDIALECT_H

#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"

#include "sparse-opt/Dialect/SOpt/SOptDialect.h.inc"

#include "sparse-opt/Dialect/SOpt/SOptEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "sparse-opt/Dialect/SOpt/SOptAttrs.h.inc"

#endif // SPARSE_OPT_DIALECT_SOPT_SOPTDIALECT_H
