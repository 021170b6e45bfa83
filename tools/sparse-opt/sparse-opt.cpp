//===- sparse-opt.cpp - the sparse-opt compiler driver --------------------===//
//
// Two modes. `sparse-opt graph.mlir --emit=cuda -o graph.cu` compiles a graph
// to CUDA in one step. Anything else follows mlir-opt conventions: every
// upstream dialect and pass a user may combine with ours is registered, plus
// the sopt dialect, passes and pipelines.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "sparse-opt/InitAll.h"

#include "CompileDriver.h"

int main(int argc, char **argv) {
  if (mlir::sopt::wantsCompileDriver(argc, argv))
    return mlir::sopt::runCompileDriver(argc, argv);

  mlir::registerAllPasses();
  mlir::sopt::registerAllSparseOptPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::sopt::registerAllSparseOptDialects(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "sparse-opt: sparse and fusion compiler for NVIDIA GPUs\n",
      registry));
}
