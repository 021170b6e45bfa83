//===- SparseFormat.h - which storage a sparse encoding denotes -*- C++ -*-===//
//
// Our kernels serve a few named storage formats. This maps an upstream
// #sparse_tensor.encoding onto one of them, so verifiers and schedules can
// ask "is this CSR?" without re-deriving it from level types each time.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_DIALECT_SOPT_SPARSEFORMAT_H
#define SPARSE_OPT_DIALECT_SOPT_SPARSEFORMAT_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace mlir::sopt {

enum class SparseFormat { CSR, CSC, BSR };

/// The storage format of a 2-D sparse tensor type, or nullopt when it has no
/// encoding or an encoding outside CSR (dense, compressed), CSC (the same on
/// the transposed map) and BSR (dense, compressed, dense, dense blocks).
std::optional<SparseFormat> getSparseFormat(RankedTensorType type);

/// Whether positions and coordinates are 32- or 64-bit (0 means `index`,
/// i.e. 64-bit), the widths our runtime stores.
bool hasSupportedIndexWidths(RankedTensorType type);

llvm::StringRef stringifySparseFormat(SparseFormat format);

} // namespace mlir::sopt

#endif // SPARSE_OPT_DIALECT_SOPT_SPARSEFORMAT_H
