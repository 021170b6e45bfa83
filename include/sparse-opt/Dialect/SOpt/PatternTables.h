//===- PatternTables.h - tables prepared from known patterns ----*- C++ -*-===//
//
// A scheduled sparse product whose pattern is known at compile time names
// its sopt.pattern_tables op (the tables sopt-prepare-sparse-emission read
// from the pattern file) with the attribute below; the CUDA emitter prints
// those tables and never opens the file.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_DIALECT_SOPT_PATTERNTABLES_H
#define SPARSE_OPT_DIALECT_SOPT_PATTERNTABLES_H

#include "sparse-opt/Dialect/SOpt/SOptOps.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <vector>

namespace mlir::sopt {

namespace attr {
/// On a scheduled sopt.spmm or sopt.sddmm: the sopt.pattern_tables op
/// (a flat symbol reference) prepared for it.
inline constexpr llvm::StringLiteral kPatternTables = "sopt.pattern_tables";
} // namespace attr

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

#endif // SPARSE_OPT_DIALECT_SOPT_PATTERNTABLES_H
