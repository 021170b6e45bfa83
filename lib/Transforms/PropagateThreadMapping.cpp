//===- PropagateThreadMapping.cpp - choose and propagate thread mappings --===//

#include "sparse-opt/Analysis/ThreadMapping.h"
#include "sparse-opt/Dialect/SOpt/FusionAnnotations.h"
#include "sparse-opt/Transforms/FusionUtils.h"
#include "sparse-opt/Transforms/Passes.h"

#define DEBUG_TYPE "sopt-propagate-mapping"

namespace mlir::sopt {
#define GEN_PASS_DEF_PROPAGATETHREADMAPPING
#include "sparse-opt/Transforms/Passes.h.inc"
} // namespace mlir::sopt

using namespace mlir;
using namespace mlir::sopt;

namespace {
struct PropagateThreadMappingPass
    : sopt::impl::PropagateThreadMappingBase<PropagateThreadMappingPass> {
  using PropagateThreadMappingBase::PropagateThreadMappingBase;

  void runOnOperation() override {
    GpuTarget target;
    target.smCount = smCount;
    target.sharedMemoryPerBlock = sharedMemoryPerBlock;
    target.registerElementsPerThread = registerElementsPerThread;
    if (std::string bad = target.checkOptionRanges(); !bad.empty()) {
      getOperation()->emitError() << "sopt-propagate-mapping: " << bad;
      return signalPassFailure();
    }
    bool failed = false;
    forEachFusion(getOperation(), [&](FusionOp fusion) {
      FailureOr<BackboneGrouping> grouping = BackboneGrouping::fromMarks(fusion);
      if (llvm::failed(grouping) || llvm::failed(mapGroups(*grouping, target)))
        failed = true;
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
