//===- GemmLaunch.h - host code launching the project's GEMM -*- C++ -*-===//
//
// An f32 sopt.matmul with a #sopt.gemm_schedule becomes one call of the
// register-tiled GEMM (include/sparse-opt/Runtime/Kernels/GemmSimt.cuh)
// under that schedule: a batched product one call per matrix, a product
// with a fused epilogue the call that stores through the epilogue functor.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_LIB_TARGET_CUDA_GEMMLAUNCH_H
#define SPARSE_OPT_LIB_TARGET_CUDA_GEMMLAUNCH_H

#include "sparse-opt/Dialect/SOpt/SOptOps.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::sopt::cuda {

/// The fused epilogue of a GEMM: the C++ expression constructing its functor,
/// its name for the launch comment, and where it writes (`out`, row-major,
/// of `element`).
struct GemmEpilogue {
  std::string functor, name, out;
};

/// The statements that compute `op` (scheduled, f32, non-empty, K >= 1) from
/// the row-major operands `a`, `b` into `c`, or through `epilogue` into
/// its output when given (then `c` is unused).
std::string emitGemmLaunch(MatmulOp op, llvm::StringRef a, llvm::StringRef b,
                           llvm::StringRef c, const GemmEpilogue *epilogue);

/// What the kernel summary says of `op`'s launch.
std::string describeGemm(MatmulOp op);

} // namespace mlir::sopt::cuda

#endif // SPARSE_OPT_LIB_TARGET_CUDA_GEMMLAUNCH_H
