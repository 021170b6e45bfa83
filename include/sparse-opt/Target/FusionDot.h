//===- FusionDot.h - fusion groups as a Graphviz graph ----------*- C++ -*-===//

#ifndef SPARSE_OPT_TARGET_FUSIONDOT_H
#define SPARSE_OPT_TARGET_FUSIONDOT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::sopt {

/// Draws every function of `module` after the fusion passes: one cluster per
/// kernel (sopt.fusion region), ops filled with their group's colour,
/// backbones as double octagons and sub-backbones as octagons,
/// compute-intensive ops as grey boxes, edges along def-use chains.
void writeFusionDot(ModuleOp module, llvm::raw_ostream &os);

} // namespace mlir::sopt

#endif // SPARSE_OPT_TARGET_FUSIONDOT_H
