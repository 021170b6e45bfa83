//===- ScheduleGemm.cpp - f32 matrix products onto the project's GEMM ----===//
//
// Attaches a #sopt.gemm_schedule to each f32 sopt.matmul that the
// register-tiled GEMM kernel can run and that has none, chosen by the
// runtime's rule from the shape of one matrix, the batch (whose matrices
// share one grid) and the GPU's multiprocessor count. The rest stay unscheduled: the CUDA emitter hands
// them to cuBLAS.
//
//===----------------------------------------------------------------------===//

#include "sparse-opt/Dialect/SOpt/GemmScheduleAttr.h"
#include "sparse-opt/Dialect/SOpt/SOptOps.h"
#include "sparse-opt/Transforms/Passes.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "sopt-schedule-gemm"

namespace mlir::sopt {
#define GEN_PASS_DEF_SCHEDULEGEMM
#include "sparse-opt/Transforms/Passes.h.inc"
} // namespace mlir::sopt

using namespace mlir;
using namespace mlir::sopt;

namespace {

struct ScheduleGemmPass : mlir::sopt::impl::ScheduleGemmBase<ScheduleGemmPass> {
  using ScheduleGemmBase::ScheduleGemmBase;

  void runOnOperation() override {
    getOperation()->walk([&](MatmulOp op) {
      if (op.getScheduleAttr() || !op.getType().getElementType().isF32())
        return;
      auto result = op.getType();
      int64_t rank = result.getRank();
      int64_t m = result.getDimSize(rank - 2), n = result.getDimSize(rank - 1);
      int64_t k = op.getLhs().getType().getDimSize(rank - (op.getTransposeLhs() ? 2 : 1));
      // Nothing to multiply: the emitter writes zeros or nothing.
      if (result.getNumElements() == 0 || k == 0)
        return;
      int64_t batch = result.getNumElements() / (m * n); // m, n > 0 here
      ::sopt::GemmSchedule choice = ::sopt::chooseGemmSchedule(m, n, k, int(smCount), batch);
      if (const char *problem = ::sopt::gemmScheduleProblem(choice, m, n, k, batch)) {
        LLVM_DEBUG(llvm::dbgs() << "left to cuBLAS (" << problem << "): " << op << "\n");
        return;
      }
      op.setScheduleAttr(fromRuntimeSchedule(op.getContext(), choice));
      LLVM_DEBUG(llvm::dbgs() << "scheduled: " << op << "\n");
    });
  }
};

} // namespace
