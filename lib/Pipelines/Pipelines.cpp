//===- Pipelines.cpp - the sopt-pipeline ----------------------------------===//

#include "sparse-opt/Pipelines.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "sparse-opt/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::sopt;

void sopt::buildSparseOptPipeline(OpPassManager &pm,
                                  const SparseOptPipelineOptions &options) {
  DecomposeCompositesOptions decompose;
  decompose.keepAttention = options.keepAttention;
  pm.addPass(createDecomposeComposites(decompose));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void sopt::registerSparseOptPipelines() {
  PassPipelineRegistration<SparseOptPipelineOptions>(
      "sopt-pipeline",
      "Compile a sopt graph: decompose composites, canonicalize, CSE",
      buildSparseOptPipeline);
}
