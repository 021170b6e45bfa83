//===- SparseAttentionLaunch.h - host code for sopt.sparse_attention -*- C++ -*-===//
//
// A sopt.sparse_attention becomes one launch of the runtime's fused kernel
// (include/sparse-opt/Runtime/Kernels/SparseAttentionDispatch.cuh): scores,
// the softmax over each row's stored entries and the product with V in one
// kernel, the pattern's values scaling the scores. The rows split across a
// block come from the plan sopt-prepare-sparse-emission made from a pattern
// known at compile time (its sopt.pattern_tables), printed as static tables
// uploaded once per device; without one every row runs in order.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_LIB_TARGET_CUDA_SPARSEATTENTIONLAUNCH_H
#define SPARSE_OPT_LIB_TARGET_CUDA_SPARSEATTENTIONLAUNCH_H

#include "SparseLaunch.h"

#include "mlir/Support/LogicalResult.h"

#include <string>

namespace mlir::sopt::cuda {

/// The host code that runs `op` on the CSR `pattern` and the device
/// pointers `query`, `key`, `value`, `out`: its row plan's tables (named
/// after `tablePrefix`) and their nnz guard, then the launch; an error on
/// `op` when the kernel cannot take it (positions or coordinates of 64
/// bits, an element type other than f32, f16 or bf16).
FailureOr<SparseLaunchText>
emitSparseAttentionLaunch(SparseAttentionOp op, const CsrExpressions &pattern,
                          llvm::StringRef query, llvm::StringRef key, llvm::StringRef value,
                          llvm::StringRef out, llvm::StringRef tablePrefix);

/// The line the kernel summary shows for `op` (and the comment above its
/// launch): how many long rows its plan splits.
std::string describeSparseAttention(SparseAttentionOp op);

} // namespace mlir::sopt::cuda

#endif // SPARSE_OPT_LIB_TARGET_CUDA_SPARSEATTENTIONLAUNCH_H
