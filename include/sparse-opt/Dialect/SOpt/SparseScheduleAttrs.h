//===- SparseScheduleAttrs.h - schedule attributes <-> runtime -*- C++ -*-===//
//
// #sopt.spmm_schedule and #sopt.sddmm_schedule hold the fields of the host
// runtime's sopt::SpmmSchedule and sopt::SddmmSchedule (SparseSchedule.h).
// These helpers convert between the two, so the verifiers, the
// sopt-schedule-sparse pass and the CUDA emitter all go through the
// runtime's choose/check functions.
//
// The runtime lives in the global namespace `::sopt`, the dialect in
// `mlir::sopt`: runtime names are always spelled `::sopt::`.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_DIALECT_SOPT_SPARSESCHEDULEATTRS_H
#define SPARSE_OPT_DIALECT_SOPT_SPARSESCHEDULEATTRS_H

#include "mlir/IR/Types.h"
#include "sparse-opt/Dialect/SOpt/SOptDialect.h"
#include "sparse-opt/Runtime/Schedule/SparseSchedule.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::sopt {

namespace attr {
/// On a function argument: the .mtx or .smtx file holding the argument's
/// sparsity pattern, known ahead of time (a pruned weight). A relative path
/// is resolved against the directory of the MLIR file the function comes
/// from (its location), else the current directory. sopt-schedule-sparse
/// chooses the schedules of the argument's products from its row lengths.
inline constexpr llvm::StringLiteral kSparsityPattern = "sopt.sparsity_pattern";
/// On a sopt.spmv (unit): the CUDA emitter runs it through the prepared
/// SpMV (Runtime/Host/SpmvPrepared.cuh: the HBP or row-vector kernel, its
/// plan made at the first call) instead of cuSPARSE. Set by
/// sopt-schedule-sparse for a CSR matrix argument with a pattern file.
inline constexpr llvm::StringLiteral kPreparedSpmv = "sopt.prepared_spmv";
} // namespace attr

/// The runtime's row order for the attribute's, and back.
::sopt::RowOrder toRuntimeRowOrder(RowOrder order);
RowOrder fromRuntimeRowOrder(::sopt::RowOrder order);

/// The runtime schedule an attribute describes (field by field).
::sopt::SpmmSchedule toRuntimeSchedule(SpmmScheduleAttr attr);
::sopt::SddmmSchedule toRuntimeSchedule(SddmmScheduleAttr attr);

/// The attribute describing a runtime schedule.
SpmmScheduleAttr getSpmmScheduleAttr(MLIRContext *context,
                                     const ::sopt::SpmmSchedule &schedule);
SddmmScheduleAttr getSddmmScheduleAttr(MLIRContext *context,
                                       const ::sopt::SddmmSchedule &schedule);

/// Bytes per stored element, as the schedule functions take them: 2 for f16
/// and bf16, 4 for f32, 8 for f64; 0 for any other type.
int getScheduleElementBytes(Type elementType);

} // namespace mlir::sopt

#endif // SPARSE_OPT_DIALECT_SOPT_SPARSESCHEDULEATTRS_H
