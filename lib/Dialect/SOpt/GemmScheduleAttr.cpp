//===- GemmScheduleAttr.cpp - #sopt.gemm_schedule ----------------------===//

#include "sparse-opt/Dialect/SOpt/GemmScheduleAttr.h"

using namespace mlir;
using namespace mlir::sopt;

::sopt::GemmSchedule mlir::sopt::toRuntimeSchedule(GemmScheduleAttr attr) {
  return {attr.getBlockM(), attr.getBlockN(), attr.getKStep(), attr.getKSplits()};
}

GemmScheduleAttr mlir::sopt::fromRuntimeSchedule(MLIRContext *context,
                                           const ::sopt::GemmSchedule &s) {
  return GemmScheduleAttr::get(context, s.blockM, s.blockN, s.kStep, s.kSplits);
}

LogicalResult GemmScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError, int blockM,
                                       int blockN, int kStep, int kSplits) {
  const ::sopt::GemmSchedule s{blockM, blockN, kStep, kSplits};
  if (!::sopt::isGemmTile(s))
    return emitError() << "the GEMM kernel has no " << blockM << " x " << blockN
                       << " tile with k_step " << kStep
                       << " (it compiles 128 x 128 with k_step 8 or 16, and 64 x 128, "
                          "64 x 64, 32 x 128 with k_step 8)";
  if (kSplits < 1 || kSplits > ::sopt::kMaxGemmGridYZ)
    return emitError() << "k_splits must be 1 to " << ::sopt::kMaxGemmGridYZ << ", got "
                       << kSplits;
  return success();
}
