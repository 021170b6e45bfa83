//===- CompileDriver.cpp - sparse-opt graph.mlir --emit=cuda -o graph.cu --===//
//
// The one-step path from a sopt or TOSA graph to CUDA: parse, run
// sopt-pipeline, emit the .cu and its C header (or the kernels spread over
// several sources), and optionally report the kernels and the compile time
// and draw the fusion groups. MLIR's context, pass manager, timing and
// printer options (--mlir-timing, --mlir-print-ir-after-all, ...) apply.
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
#include "mlir/Support/Timing.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/Timer.h"
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

/// `base` with its extension replaced by `extension` (".h", ".1.cu").
std::string withExtension(StringRef base, StringRef extension) {
  SmallString<128> path(base);
  llvm::sys::path::replace_extension(path, extension);
  return std::string(path);
}

/// Wall and processor time of each phase of the compile, for the summary.
class PhaseClock {
public:
  /// Ends the current phase, named `name`, and starts the next.
  void lap(StringRef name) {
    llvm::TimeRecord now = llvm::TimeRecord::getCurrentTime(/*Start=*/false);
    llvm::TimeRecord phase = now;
    phase -= last;
    phases.push_back({name.str(), phase});
    last = now;
  }

  /// "compile time: 0.41 s wall, 0.40 s CPU (parse 0.05, pipeline 0.30, ...)",
  /// each phase in wall seconds.
  std::string describe() const {
    llvm::TimeRecord total;
    for (const auto &[name, time] : phases)
      total += time;
    std::string line;
    llvm::raw_string_ostream os(line);
    os << "compile time: " << llvm::format("%.3f", total.getWallTime())
       << " s wall, " << llvm::format("%.3f", total.getProcessTime()) << " s CPU (";
    llvm::interleaveComma(phases, os, [&](const auto &phase) {
      os << phase.first << " " << llvm::format("%.3f", phase.second.getWallTime());
    });
    os << ")";
    return line;
  }

private:
  llvm::TimeRecord last = llvm::TimeRecord::getCurrentTime(/*Start=*/true);
  SmallVector<std::pair<std::string, llvm::TimeRecord>> phases;
};

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
  cl::opt<bool> summary(
      "kernel-summary",
      cl::desc("Print one line per kernel to stderr, and the compile time"),
      cl::cat(category));
  cl::opt<unsigned> splitKernels(
      "split-kernels",
      cl::desc("Write the kernels to N more sources, <output>.1.cu ... "
               "<output>.N.cu, for nvcc to compile in parallel; the output "
               "keeps the host code (0: one source)"),
      cl::value_desc("N"), cl::init(0), cl::cat(category));
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
  cl::opt<bool> attentionKernel(
      "attention-kernel",
      cl::desc("Run the sopt.attention ops the fused attention kernel takes "
               "(f16/bf16, no mask operand, head dim 64/80/96/128/256) on it; "
               "=false decomposes every one"),
      cl::init(true), cl::cat(category));
  cl::opt<bool> cusparse(
      "cusparse",
      cl::desc("Lower SpMM to cuSPARSE instead of the project's kernels"),
      cl::cat(category));
  cl::opt<bool> skipPipeline(
      "skip-pipeline",
      cl::desc("Emit the module as given, without running sopt-pipeline: for "
               "IR already through it (--emit=mlir output) or an embedder's own"),
      cl::cat(category));
  cl::opt<bool> gemmKernel(
      "gemm-kernel",
      cl::desc("Run f32 matrix products on the project's GEMM kernel (with their "
               "elementwise consumers as its epilogue) instead of cuBLAS"),
      cl::cat(category));
  // Pass names for --mlir-print-ir-after=... and friends.
  registerAllSparseOptPasses();
  registerTransformsPasses();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  registerAsmPrinterCLOptions();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "sparse-opt: compile a sopt or TOSA graph to CUDA\n\n"
      "  sparse-opt graph.mlir --emit=cuda -o graph.cu   (also writes graph.h)\n\n"
      "MLIR's options apply too: --mlir-timing, --mlir-print-ir-after-all,\n"
      "--mlir-pass-statistics, --mlir-disable-threading, ...\n");
  PhaseClock clock;

  if (emit != "cuda" && emit != "mlir") {
    llvm::errs() << "sparse-opt: unknown --emit=" << emit
                 << " (expected cuda or mlir)\n";
    return 1;
  }
  if (splitKernels && (emit != "cuda" || output == "-")) {
    llvm::errs() << "sparse-opt: --split-kernels needs --emit=cuda and an "
                    "output file (-o graph.cu)\n";
    return 1;
  }

  DefaultTimingManager timing;
  applyDefaultTimingManagerCLOptions(timing);
  TimingScope timingRoot = timing.getRootScope();

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
  TimingScope parseTiming = timingRoot.nest("Parser");
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  parseTiming.stop();
  if (!module)
    return 1;
  clock.lap("parse");

  PassManager pm(&context, ModuleOp::getOperationName());
  SparseOptPipelineOptions options;
  options.keepAttention = keepAttention;
  options.cusparse = cusparse;
  options.attentionKernel = attentionKernel;
  options.gemmKernel = gemmKernel;
  options.smCount = smCount;
  options.sharedMemoryPerBlock = sharedMemory;
  options.registerElementsPerThread = registerElements;
  if (!skipPipeline)
    buildSparseOptPipeline(pm, options);
  if (failed(applyPassManagerCLOptions(pm)))
    return 1;
  pm.enableTiming(timingRoot);
  if (failed(pm.run(*module)))
    return 1;
  clock.lap("pipeline");

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
  if (header.empty() && output != "-")
    header = withExtension(output, "h");
  TimingScope emitTiming = timingRoot.nest("Emit CUDA");
  std::string source, headerText;
  llvm::raw_string_ostream sourceOs(source), headerOs(headerText);
  SmallVector<std::string> kernelTexts(splitKernels);
  SmallVector<std::unique_ptr<llvm::raw_string_ostream>> kernelStreams;
  SmallVector<raw_ostream *> kernelSources;
  for (std::string &text : kernelTexts) {
    kernelStreams.push_back(std::make_unique<llvm::raw_string_ostream>(text));
    kernelSources.push_back(kernelStreams.back().get());
  }
  FailureOr<CudaEmitResult> result =
      emitCuda(*module, sourceOs, header.empty() ? nullptr : &headerOs,
               header.empty() ? "" : llvm::sys::path::filename(header),
               kernelSources);
  if (failed(result))
    return 1;
  if (failed(writeFile(output, [&](raw_ostream &os) { os << source; })))
    return 1;
  for (auto [i, text] : llvm::enumerate(kernelTexts)) {
    std::string path = withExtension(output, "." + std::to_string(i + 1) + ".cu");
    if (failed(writeFile(path, [&](raw_ostream &os) { os << text; })))
      return 1;
  }
  if (!header.empty() &&
      failed(writeFile(header, [&](raw_ostream &os) { os << headerText; })))
    return 1;
  emitTiming.stop();
  clock.lap("CUDA");
  if (summary) {
    for (const std::string &line : result->kernelSummaries)
      llvm::errs() << line << "\n";
    llvm::errs() << clock.describe() << "\n";
  }
  return 0;
}
