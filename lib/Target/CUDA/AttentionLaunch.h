//===- AttentionLaunch.h - host code launching fused attention --*- C++ -*-===//
//
// A sopt.attention with a #sopt.attention_schedule becomes one launch of the
// project's fused attention kernel
// (include/sparse-opt/Runtime/Kernels/Attention.cuh), the schedule's tile
// and the head dimension as template arguments. Its leading dimensions
// [b…, h] are the kernel's batch and heads (AttentionGrid), its operands
// dense row-major [b…, s, d], the causal diagonal at the top left (the op's
// meaning), the scale the op's or 1/√d.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_LIB_TARGET_CUDA_ATTENTIONLAUNCH_H
#define SPARSE_OPT_LIB_TARGET_CUDA_ATTENTIONLAUNCH_H

#include "sparse-opt/Dialect/SOpt/SOptOps.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::sopt::cuda {

/// The host statements launching the kernel for the scheduled `op` on the
/// device pointers `query`, `key`, `value` (C expressions) into `output`.
/// A call whose operands are not 16-byte aligned returns
/// cudaErrorInvalidValue from the host function instead of launching.
/// Fails, located at `op`, when the kernel cannot run it (no schedule, or
/// attentionKernelRefusal).
FailureOr<std::string> emitAttentionLaunch(AttentionOp op, llvm::StringRef query,
                                           llvm::StringRef key, llvm::StringRef value,
                                           llvm::StringRef output);

/// For the kernel summary: the launch's kernel, tile and masks.
std::string describeAttentionLaunch(AttentionOp op);

} // namespace mlir::sopt::cuda

#endif // SPARSE_OPT_LIB_TARGET_CUDA_ATTENTIONLAUNCH_H
