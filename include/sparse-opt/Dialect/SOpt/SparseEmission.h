//===- SparseEmission.h - what a sparse product's launch reads -*- C++ -*-===//
//
// sopt-prepare-sparse-emission decides how each scheduled sparse product is
// launched and records it on the product: its #sopt.sparse_launch (the
// transposes, workspaces and amended schedule) and, for a pattern known at
// compile time, the sopt.pattern_tables op read from the pattern file. The
// CUDA emitter prints what these say and never opens the file.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_DIALECT_SOPT_SPARSEEMISSION_H
#define SPARSE_OPT_DIALECT_SOPT_SPARSEEMISSION_H

#include "sparse-opt/Dialect/SOpt/SOptOps.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <vector>

namespace mlir::sopt {

namespace attr {
/// On a scheduled sopt.spmm or sopt.sddmm, or a sopt.sparse_attention: the
/// sopt.pattern_tables op (a flat symbol reference) prepared for it.
inline constexpr llvm::StringLiteral kPatternTables = "sopt.pattern_tables";
/// On a scheduled sopt.spmm or sopt.sddmm: its #sopt.sparse_launch.
inline constexpr llvm::StringLiteral kSparseLaunch = "sopt.launch";
} // namespace attr

/// The launch decisions of `product`, or null when none were made.
SparseLaunchAttr getSparseLaunch(Operation *product);

/// The tables `product` names, or null when it names none.
PatternTablesOp getPatternTables(Operation *product);

/// A table's values: a 1-D i32 `dense<...>` or `dense_resource<...>` (the
/// verifier checks which tables an op holds).
std::vector<int32_t> getTableValues(ElementsAttr table);

/// A table of `values`: inline (`dense<...>`) up to `inlineLimit` values,
/// else a `dense_resource` blob named `blobName` (the text of a large table
/// would dwarf the IR around it).
ElementsAttr getTableAttr(MLIRContext *context, llvm::StringRef blobName,
                          llvm::ArrayRef<int32_t> values, int64_t inlineLimit);

} // namespace mlir::sopt

#endif // SPARSE_OPT_DIALECT_SOPT_SPARSEEMISSION_H
