//===- FusionKernel.h - one sopt.fusion region as a CUDA kernel -*- C++ -*-===//

#ifndef SPARSE_OPT_LIB_TARGET_CUDA_FUSIONKERNEL_H
#define SPARSE_OPT_LIB_TARGET_CUDA_FUSIONKERNEL_H

#include "sparse-opt/Dialect/SOpt/SOptOps.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace mlir::sopt::cuda {

/// How the host launches a kernel, and what it does.
struct KernelLaunch {
  std::string name;
  int64_t grid = 1, block = 1, sharedBytes = 0;
  /// Blocks meet at grid-wide barriers: launched cooperatively, with a
  /// global scratch buffer of `scratchFloats` floats as its last argument.
  bool cooperative = false;
  int64_t scratchFloats = 0;
  /// Not a kernel: the epilogue functor `name` of the sparse product that
  /// produces input `accumulatorInput`; it runs inside that product's launch.
  bool sparseEpilogue = false;
  unsigned accumulatorInput = 0;
  /// A functor over the stored entries of a CSR pattern (StoredEntriesFunctor.h):
  /// an SDDMM's epilogue, or run by sopt::launchStoredEntries.
  bool storedEntries = false;
  std::string summary;
};

/// Writes `fusion` (annotated by the fusion passes) as the __global__
/// function `name`: parameters are the region's inputs (const) then its
/// results.
FailureOr<KernelLaunch> emitFusionKernel(FusionOp fusion, llvm::StringRef name,
                                         llvm::raw_ostream &os);

/// Writes `fusion`, one elementwise group over the [m, n] result of the
/// sparse product that produces its input `accumulatorInput`, as the functor
/// struct `name` that the product's kernel calls per output element:
/// members `in<i>` for the other inputs, `operator()(row, col, acc)`.
/// Returns the kernel summary line.
FailureOr<std::string> emitSparseEpilogue(FusionOp fusion, unsigned accumulatorInput,
                                          llvm::StringRef name, llvm::raw_ostream &os);

} // namespace mlir::sopt::cuda

#endif // SPARSE_OPT_LIB_TARGET_CUDA_FUSIONKERNEL_H
