//===- Pipelines.cpp - the sopt-pipeline ----------------------------------===//

#include "sparse-opt/Pipelines.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "sparse-opt/Conversion/Passes.h"
#include "sparse-opt/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::sopt;

void sopt::buildSparseOptPipeline(OpPassManager &pm,
                                  const SparseOptPipelineOptions &options) {
  pm.addPass(createConvertTosaToSOpt());
  // Before the decomposition, which keeps the attention ops scheduled here.
  if (options.attentionKernel)
    pm.addPass(createScheduleAttention());
  // Before the composites decompose: the softmax of a sparse attention
  // chain is one of them.
  pm.addPass(createFuseSparseAttention());
  DecomposeCompositesOptions decompose;
  decompose.keepAttention = options.keepAttention;
  pm.addPass(createDecomposeComposites(decompose));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createFormFusionRegions());
  // The grouping is computed once and carried as marks the later passes and
  // the emitter read.
  pm.addPass(createGroupBackbones());
  PropagateThreadMappingOptions mapping;
  mapping.smCount = options.smCount;
  mapping.sharedMemoryPerBlock = options.sharedMemoryPerBlock;
  mapping.registerElementsPerThread = options.registerElementsPerThread;
  pm.addPass(createPropagateThreadMapping(mapping));
  PlanReuseOptions reuse;
  reuse.smCount = options.smCount;
  reuse.sharedMemoryPerBlock = options.sharedMemoryPerBlock;
  reuse.registerElementsPerThread = options.registerElementsPerThread;
  pm.addPass(createPlanReuse(reuse));
  // Tile schedules of the SpMM and SDDMM kernels (outside the fusion
  // regions; their row statistics come from sopt.sparsity_pattern files).
  ScheduleSparseOptions schedule;
  schedule.spmm = !options.cusparse;
  pm.addPass(createScheduleSparse(schedule));
  // f32 matrix products on the project's GEMM kernel when asked for (it is
  // not yet as fast as cuBLAS); before the epilogue fusion, which needs the
  // schedule. A schedule written in the IR is emitted either way.
  if (options.gemmKernel) {
    ScheduleGemmOptions gemm;
    gemm.smCount = options.smCount;
    pm.addPass(createScheduleGemm(gemm));
  }
  pm.addPass(createFuseSparseEpilogues());
  // Last: the tables the sparse launches read, from each pattern file once.
  pm.addPass(createPrepareSparseEmission());
}

void sopt::registerSparseOptPipelines() {
  PassPipelineRegistration<SparseOptPipelineOptions>(
      "sopt-pipeline",
      "Compile a sopt or TOSA graph to annotated fusion regions, ready for "
      "CUDA emission",
      buildSparseOptPipeline);
}
