//===- FormFusionRegions.cpp - memory-bound subgraphs to sopt.fusion ------===//

#include "sparse-opt/Analysis/FusionClustering.h"
#include "sparse-opt/Analysis/OpClassification.h"
#include "sparse-opt/Dialect/SOpt/SOptOps.h"
#include "sparse-opt/Transforms/FusionUtils.h"
#include "sparse-opt/Transforms/Passes.h"
#include "sparse-opt/Transforms/TopologicalOrder.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

#define DEBUG_TYPE "sopt-form-fusion-regions"

namespace mlir::sopt {
#define GEN_PASS_DEF_FORMFUSIONREGIONS
#include "sparse-opt/Transforms/Passes.h.inc"
} // namespace mlir::sopt

using namespace mlir;
using namespace mlir::sopt;

namespace {

struct FormFusionRegionsPass
    : sopt::impl::FormFusionRegionsBase<FormFusionRegionsPass> {
  void runOnOperation() override {
    SmallVector<Block *> blocks;
    getOperation()->walk([&](FunctionOpInterface fn) {
      if (!fn.isExternal())
        for (Block &block : fn.getFunctionBody())
          blocks.push_back(&block);
    });
    for (Block *block : blocks) {
      SmallVector<SmallVector<Operation *>> clusters(
          FusionClustering(*block).getClusters());
      for (ArrayRef<Operation *> cluster : clusters) {
        // A reshape moves no data: alone it stays a view, not a kernel.
        if (llvm::all_of(cluster, [](Operation *op) { return isa<ReshapeOp>(op); }))
          continue;
        outlineIntoFusion(cluster);
      }
      if (!sortTopologicallyInLinearTime(*block))
        return signalPassFailure(); // clustering guarantees this never happens
      for (Operation &op : llvm::make_early_inc_range(*block))
        if (isSplatConstant(&op) && op.use_empty())
          op.erase();
    }
  }
};

} // namespace
