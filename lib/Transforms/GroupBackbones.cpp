//===- GroupBackbones.cpp - group fusion ops around reduce backbones ------===//

#include "sparse-opt/Analysis/BackboneGrouping.h"
#include "sparse-opt/Transforms/FusionUtils.h"
#include "sparse-opt/Transforms/Passes.h"

#define DEBUG_TYPE "sopt-group-backbones"

namespace mlir::sopt {
#define GEN_PASS_DEF_GROUPBACKBONES
#include "sparse-opt/Transforms/Passes.h.inc"
} // namespace mlir::sopt

using namespace mlir;
using namespace mlir::sopt;

namespace {
struct GroupBackbonesPass : sopt::impl::GroupBackbonesBase<GroupBackbonesPass> {
  void runOnOperation() override {
    forEachFusion(getOperation(), [](FusionOp fusion) {
      BackboneGrouping(fusion).mark();
    });
  }
};
} // namespace
