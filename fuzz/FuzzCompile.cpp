//===- FuzzCompile.cpp - libFuzzer target: .mlir text to CUDA -------------===//
//
// Each input is a .mlir file taken the way `sparse-opt --emit=cuda` takes it:
// the nesting check, the parser, sopt-pipeline with its default options, and
// the CUDA emitter writing into a null stream. Diagnostics are swallowed; a
// crash, a sanitizer report, a hang or memory past libFuzzer's limit is a
// finding.
//
//===----------------------------------------------------------------------===//

#include "sparse-opt/InitAll.h"
#include "sparse-opt/Pipelines.h"
#include "sparse-opt/Support/NestingDepth.h"
#include "sparse-opt/Target/CUDA/EmitCuda.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

// Debian's libMLIR.so is not instrumented, but the LLVM allocator code our
// instrumented code inlines poisons fresh slabs that libMLIR.so then
// allocates from without unpoisoning: user poisoning would only report
// that. Leaks are not findings (MLIR keeps its registries to exit).
extern "C" const char *__asan_default_options() {
  return "detect_leaks=0:allow_user_poisoning=0";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static DialectRegistry *registry = [] {
    auto *r = new DialectRegistry;
    sopt::registerAllSparseOptDialects(*r);
    return r;
  }();
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  if (sopt::findExcessiveNesting(text))
    return 0; // refused before parsing, as the driver does

  // A fresh context per input: nothing one input uniqued leaks into the next.
  MLIRContext context(*registry, MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  ScopedDiagnosticHandler swallow(&context, [](Diagnostic &) { return success(); });
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.mlir"),
                               llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module)
    return 0;
  PassManager pm(&context, ModuleOp::getOperationName());
  sopt::buildSparseOptPipeline(pm, sopt::SparseOptPipelineOptions());
  if (failed(pm.run(*module)))
    return 0;
  llvm::raw_null_ostream source, header;
  (void)sopt::emitCuda(*module, source, &header, "fuzz.h");
  return 0;
}
