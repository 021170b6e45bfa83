//===- CompileDriver.h - the --emit path of sparse-opt ----------*- C++ -*-===//

#ifndef SPARSE_OPT_TOOLS_COMPILEDRIVER_H
#define SPARSE_OPT_TOOLS_COMPILEDRIVER_H

namespace mlir::sopt {

/// Whether the command line asks for the compile path (`--emit=...`) rather
/// than mlir-opt style pass running.
bool wantsCompileDriver(int argc, char **argv);

/// Parses, runs sopt-pipeline and writes CUDA (or the final IR). Returns the
/// process exit code.
int runCompileDriver(int argc, char **argv);

} // namespace mlir::sopt

#endif // SPARSE_OPT_TOOLS_COMPILEDRIVER_H
