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
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "sparse-opt/InitAll.h"
#include "sparse-opt/Support/NestingDepth.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"

#include "CompileDriver.h"

using namespace mlir;

namespace {

/// mlir-opt's main, with the input read here first so that input nested
/// deeper than the parser's stack takes is refused with a location.
LogicalResult optMain(int argc, char **argv, DialectRegistry &registry) {
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "sparse-opt: sparse and fusion compiler for NVIDIA GPUs\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return MlirOptMain(argc, argv, inputFilename, outputFilename, registry);
  // What that MlirOptMain sets up first: stack traces on a crash.
  llvm::InitLLVM initLLVM(argc, argv);
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input = openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return failure();
  }
  llvm::SourceMgr scanned;
  scanned.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(input->getMemBufferRef()),
                             llvm::SMLoc());
  if (!sopt::checkNestingDepth(scanned))
    return failure();
  std::unique_ptr<llvm::ToolOutputFile> output = openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return failure();
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return failure();
  output->keep();
  return success();
}

} // namespace

int main(int argc, char **argv) {
  if (sopt::wantsCompileDriver(argc, argv))
    return sopt::runCompileDriver(argc, argv);

  registerAllPasses();
  sopt::registerAllSparseOptPasses();

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  sopt::registerAllSparseOptDialects(registry);

  return asMainReturnCode(optMain(argc, argv, registry));
}
