//===- ScheduleAttention.cpp - tile schedules of fused attention ----------===//
//
// Attaches a #sopt.attention_schedule to each sopt.attention that the fused
// attention kernel can run and that has none, so that the decomposition
// keeps it and the emitter launches the kernel.
//
//===----------------------------------------------------------------------===//

#include "sparse-opt/Dialect/SOpt/AttentionSchedule.h"
#include "sparse-opt/Dialect/SOpt/SOptOps.h"
#include "sparse-opt/Transforms/Passes.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "sopt-schedule-attention"

namespace mlir::sopt {
#define GEN_PASS_DEF_SCHEDULEATTENTION
#include "sparse-opt/Transforms/Passes.h.inc"
} // namespace mlir::sopt

using namespace mlir;
using namespace mlir::sopt;

namespace {

struct ScheduleAttentionPass
    : mlir::sopt::impl::ScheduleAttentionBase<ScheduleAttentionPass> {
  using ScheduleAttentionBase::ScheduleAttentionBase;

  void runOnOperation() override {
    getOperation()->walk([&](AttentionOp op) {
      if (op.getScheduleAttr())
        return;
      if (std::string why = attentionKernelRefusal(op); !why.empty()) {
        LLVM_DEBUG(llvm::dbgs() << "left to the decomposition (" << why << "): " << op << "\n");
        return;
      }
      int64_t headDim = op.getQuery().getType().getShape().back();
      ::sopt::AttentionTile tile = ::sopt::chooseAttentionTile(headDim);
      op.setScheduleAttr(getAttentionScheduleAttr(op.getContext(), tile));
      LLVM_DEBUG(llvm::dbgs() << "scheduled: " << op << "\n");
    });
  }
};

} // namespace
