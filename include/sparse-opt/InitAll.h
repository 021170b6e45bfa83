//===- InitAll.h - register everything sparse-opt provides ------*- C++ -*-===//
//
// The embedding API: a tool of another project calls these to get our
// dialect, passes and pipelines, exactly as `sparse-opt` has them.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_INITALL_H
#define SPARSE_OPT_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::sopt {

/// Adds the sopt dialect and the upstream dialects our passes produce.
void registerAllSparseOptDialects(DialectRegistry &registry);

/// Registers every sparse-opt pass and pipeline (idempotent).
void registerAllSparseOptPasses();

} // namespace mlir::sopt

#endif // SPARSE_OPT_INITALL_H
