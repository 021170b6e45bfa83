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
  PassOptions::Option<bool> attentionKernel{
      *this, "attention-kernel",
      llvm::cl::desc("Run the sopt.attention ops the fused attention kernel "
                     "takes on it (else every one is decomposed)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> smCount{
      *this, "sm-count",
      llvm::cl::desc("Streaming multiprocessors of the target GPU"),
      llvm::cl::init(132)};
  PassOptions::Option<int64_t> sharedMemoryPerBlock{
      *this, "shared-memory-per-block",
      llvm::cl::desc("Shared memory a block may use, in bytes"),
      llvm::cl::init(232448)};
  PassOptions::Option<int64_t> registerElementsPerThread{
      *this, "register-elements-per-thread",
      llvm::cl::desc("Cap on the row elements a thread keeps in registers "
                     "across a reduction (row mappings otherwise keep 64 bytes "
                     "per thread; fewer: more threads per row)"),
      llvm::cl::init(32)};
  PassOptions::Option<bool> cusparse{
      *this, "cusparse",
      llvm::cl::desc("Leave SpMM unscheduled so that it lowers to cuSPARSE "
                     "(SDDMM still gets the project's kernel)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> gemmKernel{
      *this, "gemm-kernel",
      llvm::cl::desc("Schedule f32 matrix products onto the project's GEMM kernel "
                     "(default: cuBLAS, which is faster on every shape measured)"),
      llvm::cl::init(false)};
};

/// The compiler's pipeline up to CUDA emission: TOSA is converted to sopt,
/// composites are decomposed, the graph is canonicalised, memory-bound
/// subgraphs become sopt.fusion regions, which are grouped around their
/// reduce backbones, given thread mappings and a memory plan; sparse
/// products and f32 matrix products get tile schedules, and elementwise
/// regions that consume an SpMM or a one-slice GEMM become its epilogue.
void buildSparseOptPipeline(OpPassManager &pm,
                            const SparseOptPipelineOptions &options);

/// Registers `sopt-pipeline` with the pass registry.
void registerSparseOptPipelines();

} // namespace mlir::sopt

#endif // SPARSE_OPT_PIPELINES_H
