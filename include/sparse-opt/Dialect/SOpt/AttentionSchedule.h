//===- AttentionSchedule.h - sopt.attention on the fused kernel -*- C++ -*-===//
//
// Which sopt.attention ops the project's fused attention kernel runs, how
// their leading dimensions map onto its grid, and #sopt.attention_schedule
// <-> the runtime's sopt::AttentionTile (Runtime/Schedule/AttentionSchedule.h),
// shared by the op verifier, sopt-schedule-attention and the CUDA emitter.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_DIALECT_SOPT_ATTENTIONSCHEDULE_H
#define SPARSE_OPT_DIALECT_SOPT_ATTENTIONSCHEDULE_H

#include "sparse-opt/Dialect/SOpt/SOptOps.h"
#include "sparse-opt/Runtime/Schedule/AttentionSchedule.h"

#include <string>

namespace mlir::sopt {

/// The kernel's grid over `op`'s leading dimensions [b…, h]: the last one
/// is the heads (grid y), the product of the others the batch (grid z); a
/// rank-2 op has one of each.
struct AttentionGrid {
  int64_t batch = 1, heads = 1;
};
AttentionGrid attentionGrid(AttentionOp op);

/// Why the fused kernel cannot run `op`, or "" when it can: f16 or bf16, no
/// mask operand, static shapes, query and value head dimensions equal and
/// one of the kernel's, sequence lengths below 2^31, batch and heads of at
/// most 65535 each.
std::string attentionKernelRefusal(AttentionOp op);

::sopt::AttentionTile toRuntimeTile(AttentionScheduleAttr schedule);
AttentionScheduleAttr getAttentionScheduleAttr(MLIRContext *context,
                                               const ::sopt::AttentionTile &tile);

} // namespace mlir::sopt

#endif // SPARSE_OPT_DIALECT_SOPT_ATTENTIONSCHEDULE_H
