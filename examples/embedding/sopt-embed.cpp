//===- sopt-embed.cpp - a tool of another project that embeds sparse-opt --===//
//
// Parses a .mlir file, runs sparse-opt's registered `sopt-pipeline` through
// the pass registry (the way an embedder composes its own pipelines), and
// prints the result.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/IR/Diagnostics.h"
#include "sparse-opt/InitAll.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: sopt-embed <file.mlir>\n";
    return 2;
  }
  mlir::sopt::registerAllSparseOptPasses();
  mlir::DialectRegistry registry;
  mlir::sopt::registerAllSparseOptDialects(registry);
  mlir::MLIRContext context(registry);

  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  mlir::ParserConfig config(&context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], sourceMgr, config);
  if (!module)
    return 1;

  mlir::PassManager pm(&context, mlir::ModuleOp::getOperationName());
  if (mlir::failed(mlir::parsePassPipeline("sopt-pipeline", pm,
                                           llvm::errs())) ||
      mlir::failed(pm.run(*module)))
    return 1;
  module->print(llvm::outs());
  return 0;
}
