//===- HostFunction.h - a func.func as a C-ABI host launcher ----*- C++ -*-===//

#ifndef SPARSE_OPT_LIB_TARGET_CUDA_HOSTFUNCTION_H
#define SPARSE_OPT_LIB_TARGET_CUDA_HOSTFUNCTION_H

#include "FusionKernel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::sopt::cuda {

/// Writes `fn` as `extern "C" cudaError_t fn(const T *arg0, ..., T *result0,
/// ..., cudaStream_t stream)`: intermediates are allocated on the stream,
/// kernels and cuBLAS calls run in order, results land in the caller's
/// buffers. The declaration also goes to `header` when given.
LogicalResult emitHostFunction(func::FuncOp fn,
                               const DenseMap<Operation *, KernelLaunch> &kernels,
                               llvm::raw_ostream &os, llvm::raw_ostream *header);

} // namespace mlir::sopt::cuda

#endif // SPARSE_OPT_LIB_TARGET_CUDA_HOSTFUNCTION_H
