//===- EmitCuda.h - sopt module to CUDA C++ ---------------------*- C++ -*-===//
//
// Turns a module that went through the fusion pipeline into one CUDA source
// file: a __global__ kernel per sopt.fusion region, and per func.func a host
// function with a C ABI that allocates intermediates and launches the
// kernels (and cuBLAS for matmuls) in order on a stream.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_TARGET_CUDA_EMITCUDA_H
#define SPARSE_OPT_TARGET_CUDA_EMITCUDA_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace mlir::sopt {

struct CudaEmitResult {
  /// One line per kernel: ops fused, mapping, shared memory, where the
  /// intermediates live.
  std::vector<std::string> kernelSummaries;
};

/// Writes the CUDA source of `module` to `source`, and the C declarations of
/// its host functions to `header` when given (`headerName` is what the
/// source includes). With `kernelSources`, the __global__ kernels are spread
/// over those sources instead (by size, each a translation unit of its own,
/// so that nvcc can compile them in parallel) and `source` declares them;
/// the sparse products' functors stay in `source`, where the host code
/// instantiates the products. Emits a diagnostic at the offending op and
/// fails on anything the emitter cannot lower.
FailureOr<CudaEmitResult>
emitCuda(ModuleOp module, llvm::raw_ostream &source,
         llvm::raw_ostream *header = nullptr, llvm::StringRef headerName = "",
         llvm::ArrayRef<llvm::raw_ostream *> kernelSources = {});

} // namespace mlir::sopt

#endif // SPARSE_OPT_TARGET_CUDA_EMITCUDA_H
