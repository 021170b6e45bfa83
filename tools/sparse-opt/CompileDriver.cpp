//===- CompileDriver.cpp - sparse-opt graph.mlir --emit=cuda -o graph.cu --===//
//
// The one-step path from a sopt or TOSA graph to CUDA: parse, run
// sopt-pipeline, emit the .cu and its C header, and optionally report the
// kernels and draw the fusion groups.
//
//===----------------------------------------------------------------------===//

#include "CompileDriver.h"

#include "sparse-opt/InitAll.h"
#include "sparse-opt/Pipelines.h"
#include "sparse-opt/Target/CUDA/EmitCuda.h"
#include "sparse-opt/Support/NestingDepth.h"
#include "sparse-opt/Target/FusionDot.h"
#include "sparse-opt/Target/GpuTarget.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
namespace cl = llvm::cl;

bool sopt::wantsCompileDriver(int argc, char **argv) {
  for (int i = 1; i < argc; ++i)
    if (llvm::StringRef(argv[i]).starts_with("--emit=") ||
        llvm::StringRef(argv[i]).starts_with("-emit="))
      return true;
  return false;
}

namespace {

LogicalResult writeFile(StringRef path, function_ref<void(raw_ostream &)> fill) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
  if (!file) {
    llvm::errs() << "sparse-opt: " << error << "\n";
    return failure();
  }
  fill(file->os());
  file->keep();
  return success();
}

} // namespace

int sopt::runCompileDriver(int argc, char **argv) {
  cl::OptionCategory category("sparse-opt compile options");
  cl::opt<std::string> input(cl::Positional, cl::desc("<graph.mlir>"),
                             cl::init("-"), cl::cat(category));
  cl::opt<std::string> output("o", cl::desc("Output file (default: stdout)"),
                              cl::value_desc("file"), cl::init("-"),
                              cl::cat(category));
  cl::opt<std::string> emit(
      "emit", cl::desc("What to write: cuda (kernels and host code) or mlir "
                       "(the IR after the pipeline)"),
      cl::init("cuda"), cl::cat(category));
  cl::opt<std::string> headerPath(
      "header", cl::desc("C header of the host functions (default: the "
                         "output's name with .h, when writing a file)"),
      cl::value_desc("file"), cl::cat(category));
  cl::opt<bool> summary("kernel-summary",
                        cl::desc("Print one line per kernel to stderr"),
                        cl::cat(category));
  cl::opt<std::string> dot(
      "fusion-dot", cl::desc("Write the fusion groups as Graphviz DOT"),
      cl::value_desc("file"), cl::cat(category));
  cl::opt<int64_t> smCount("sm-count", cl::desc("SMs of the target GPU"),
                           cl::init(132), cl::cat(category));
  cl::opt<int64_t> sharedMemory(
      "shared-memory-per-block",
      cl::desc("Shared memory a block may use, in bytes"), cl::init(232448),
      cl::cat(category));
  cl::opt<int64_t> registerElements(
      "register-elements-per-thread",
      cl::desc("Cap on the row elements a thread keeps in registers "
               "across a reduction (default mappings keep 64 bytes per thread)"),
      cl::init(32), cl::cat(category));
  cl::opt<bool> keepAttention(
      "keep-attention", cl::desc("Leave sopt.attention for its own schedule"),
      cl::cat(category));
  cl::opt<bool> cusparse(
      "cusparse",
      cl::desc("Lower SpMM to cuSPARSE instead of the project's kernels"),
      cl::cat(category));
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "sparse-opt: compile a sopt or TOSA graph to CUDA\n\n"
      "  sparse-opt graph.mlir --emit=cuda -o graph.cu   (also writes graph.h)\n");

  if (emit != "cuda" && emit != "mlir") {
    llvm::errs() << "sparse-opt: unknown --emit=" << emit
                 << " (expected cuda or mlir)\n";
    return 1;
  }

  GpuTarget target;
  target.smCount = smCount;
  target.sharedMemoryPerBlock = sharedMemory;
  target.registerElementsPerThread = registerElements;
  if (std::string bad = target.checkOptionRanges(); !bad.empty()) {
    llvm::errs() << "sparse-opt: --" << bad << "\n";
    return 1;
  }

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllSparseOptDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(input, &error);
  if (!buffer) {
    llvm::errs() << "sparse-opt: " << error << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  if (!checkNestingDepth(sourceMgr))
    return 1;
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module)
    return 1;

  PassManager pm(&context, ModuleOp::getOperationName());
  SparseOptPipelineOptions options;
  options.keepAttention = keepAttention;
  options.cusparse = cusparse;
  options.smCount = smCount;
  options.sharedMemoryPerBlock = sharedMemory;
  options.registerElementsPerThread = registerElements;
  buildSparseOptPipeline(pm, options);
  if (failed(pm.run(*module)))
    return 1;

  if (!dot.empty() &&
      failed(writeFile(dot, [&](raw_ostream &os) { writeFusionDot(*module, os); })))
    return 1;

  if (emit == "mlir")
    return failed(writeFile(output, [&](raw_ostream &os) {
             module->print(os);
             os << "\n";
           }))
               ? 1
               : 0;

  std::string header = headerPath;
  if (header.empty() && output != "-") {
    SmallString<128> path(output.getValue());
    llvm::sys::path::replace_extension(path, "h");
    header = std::string(path);
  }
  std::string source, headerText;
  llvm::raw_string_ostream sourceOs(source), headerOs(headerText);
  FailureOr<CudaEmitResult> result =
      emitCuda(*module, sourceOs, header.empty() ? nullptr : &headerOs,
               header.empty() ? "" : llvm::sys::path::filename(header));
  if (failed(result))
    return 1;
  if (failed(writeFile(output, [&](raw_ostream &os) { os << source; })))
    return 1;
  if (!header.empty() &&
      failed(writeFile(header, [&](raw_ostream &os) { os << headerText; })))
    return 1;
  if (summary)
    for (const std::string &line : result->kernelSummaries)
      llvm::errs() << line << "\n";
  return 0;
}
