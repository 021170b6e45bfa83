//===- Passes.h - sparse-opt conversion passes ------------------*- C++ -*-===//

#ifndef SPARSE_OPT_CONVERSION_PASSES_H
#define SPARSE_OPT_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"
#include "sparse-opt/Dialect/SOpt/SOptDialect.h"

namespace mlir::sopt {

#define GEN_PASS_DECL
#include "sparse-opt/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "sparse-opt/Conversion/Passes.h.inc"

} // namespace mlir::sopt

#endif // SPARSE_OPT_CONVERSION_PASSES_H
