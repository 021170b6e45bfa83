//===- StoredEntriesFunctor.h - a region over stored entries as a functor -*- C++ -*-===//
//
// A sopt.fusion whose results are CSR (ops on the stored entries of CSR
// matrices, sopt-fuse-sparse-epilogues) becomes a device functor evaluated
// once per stored entry: inside the SDDMM kernel as its epilogue, or by
// sopt::launchStoredEntries (Runtime/Kernels/StoredEntries.cuh) on its own.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_LIB_TARGET_CUDA_STOREDENTRIESFUNCTOR_H
#define SPARSE_OPT_LIB_TARGET_CUDA_STOREDENTRIESFUNCTOR_H

#include "sparse-opt/Dialect/SOpt/SOptOps.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace mlir::sopt::cuda {

/// Writes `fusion`, a region over stored entries, as the struct `name`: a
/// member `in<i>` per input (the values of a CSR input, read at the entry;
/// a dense [m, n] input, read at the entry's row and column; other dense
/// inputs, read through the region's broadcasts) except `productInput`.
/// With `productInput` (the SDDMM whose epilogue it is) the call is
/// `(row, column, entry, product, pattern)` and that input is `product *
/// pattern`; otherwise `(row, column, entry)`. Returns the summary line;
/// fails, located, on what it cannot spell.
FailureOr<std::string> emitStoredEntriesFunctor(FusionOp fusion,
                                                std::optional<unsigned> productInput,
                                                llvm::StringRef name, llvm::raw_ostream &os);

/// The input whose pattern the region's entries follow: its first CSR input
/// (none only in a malformed region, which emitStoredEntriesFunctor refuses).
std::optional<unsigned> patternInput(FusionOp fusion);

} // namespace mlir::sopt::cuda

#endif // SPARSE_OPT_LIB_TARGET_CUDA_STOREDENTRIESFUNCTOR_H
