//===- GemmScheduleAttr.h - #sopt.gemm_schedule <-> runtime -----*- C++ -*-===//
//
// #sopt.gemm_schedule holds the fields of the runtime's sopt::GemmSchedule
// (Runtime/Schedule/GemmSchedule.h): the verifier, sopt-schedule-gemm and
// the CUDA emitter all go through the runtime's rule and checks.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_DIALECT_SOPT_GEMMSCHEDULEATTR_H
#define SPARSE_OPT_DIALECT_SOPT_GEMMSCHEDULEATTR_H

#include "sparse-opt/Dialect/SOpt/SOptDialect.h"
#include "sparse-opt/Runtime/Schedule/GemmSchedule.h"

namespace mlir::sopt {

::sopt::GemmSchedule toRuntimeSchedule(GemmScheduleAttr attr);
GemmScheduleAttr fromRuntimeSchedule(MLIRContext *context, const ::sopt::GemmSchedule &s);

} // namespace mlir::sopt

#endif // SPARSE_OPT_DIALECT_SOPT_GEMMSCHEDULEATTR_H
