//===- Pipelines.h - registered sparse-opt pass pipelines -------*- C++ -*-===//

#ifndef SPARSE_OPT_PIPELINES_H
#define SPARSE_OPT_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::sopt {

struct SparseOptPipelineOptions
    : public PassPipelineOptions<SparseOptPipelineOptions> {
  PassOptions::Option<bool> keepAttention{
      *this, "keep-attention",
      llvm::cl::desc("Leave sopt.attention for a fused attention schedule"),
      llvm::cl::init(false)};
};

/// The compiler's main pipeline as far as it exists: composite layers are
/// decomposed into primitives, then the graph is canonicalised and
/// common subexpressions are merged.
void buildSparseOptPipeline(OpPassManager &pm,
                            const SparseOptPipelineOptions &options);

/// Registers `sopt-pipeline` with the pass registry.
void registerSparseOptPipelines();

} // namespace mlir::sopt

#endif // SPARSE_OPT_PIPELINES_H
