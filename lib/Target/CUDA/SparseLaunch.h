//===- SparseLaunch.h - host code launching our SpMM/SDDMM kernels -*- C++ -*-===//
//
// A scheduled sopt.spmm or sopt.sddmm becomes one launch of the project's
// kernel templates (include/sparse-opt/Runtime/Kernels/Spmm.cuh, Sddmm.cuh), the
// schedule's fields as template arguments. Everything else the launch does
// was decided by sopt-prepare-sparse-emission and is read from the IR: its
// #sopt.sparse_launch (transposes, workspaces, amended warps) and the tables
// of its sopt.pattern_tables (row order, segments, windows, occupied blocks,
// positions, a transpose), printed as static arrays uploaded once. Nothing
// here opens a pattern file or chooses.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_LIB_TARGET_CUDA_SPARSELAUNCH_H
#define SPARSE_OPT_LIB_TARGET_CUDA_SPARSELAUNCH_H

#include "sparse-opt/Dialect/SOpt/SOptOps.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::sopt::cuda {

/// A CSR matrix in generated host code: the C expressions of its arrays and
/// of its nnz.
struct CsrExpressions {
  std::string positions, coordinates, values, nnz;
};

/// A device buffer the host function allocates before `body` runs and
/// frees after the last launch: `count` (a C expression) elements of
/// `element`, named `name`.
struct Temporary {
  std::string name, element, count;
};

/// What launching a sparse product needs besides its operands.
struct SparseLaunchText {
  /// File-scope definitions (the row order table), possibly empty.
  std::string statics;
  /// Buffers `body` writes.
  llvm::SmallVector<Temporary> temporaries;
  /// Statements in the host function's body.
  std::string body;
};

/// A table prepared from a pattern at compile time: `values` as a static
/// array (`comment` above it), copied to each device on its first call there
/// (a sopt::DeviceTable of the generated file's own), and a guard that the
/// caller passes a pattern of the table's `nnz` (`what` names the table in
/// that guard's comment). Returns the device pointer's name.
std::string emitPatternTable(llvm::StringRef name, llvm::StringRef comment,
                             llvm::StringRef what, llvm::ArrayRef<int32_t> values,
                             int64_t nnz, const CsrExpressions &csr, SparseLaunchText &text);

/// The launch of `op`'s scheduled SpMM, C = epilogue(A · B). `epilogue` is a
/// C++ expression constructing the epilogue functor, or empty for none;
/// `summary` describes the epilogue for the comment above the launch.
/// `tablePrefix` begins the names of the tables and temporaries the launch
/// needs (row order, transposed result). Fails, located at `op`, when the
/// schedule cannot be emitted (64-bit indices, no sopt.launch, by_length
/// without a prepared row order).
///
/// For dense × sparse, X[m, k] · S[k, n], `a` is Sᵀ in CSR (n x k), `b` is
/// Xᵀ (k x m, row-major) and `c` receives Y[m, n]: the kernel computes
/// Sᵀ · Xᵀ and stores it transposed; the epilogue sees Y's indices.
FailureOr<SparseLaunchText> emitSpmmLaunch(SpmmOp op, const CsrExpressions &a,
                                           llvm::StringRef b, llvm::StringRef c,
                                           llvm::StringRef epilogue,
                                           llvm::StringRef summary,
                                           llvm::StringRef tablePrefix);

/// Sᵀ in CSR for a dense × sparse `op` whose sparse operand S is CSR with
/// the arrays `s`: by cuSPARSE csr2csc on each call when its launch says
/// `transposes_sparse`, else from its prepared transpose tables (each call
/// permutes S's values, and refuses another nnz). `transposed` gets the
/// expressions of Sᵀ's arrays, named after `prefix`.
FailureOr<SparseLaunchText> emitCsrTranspose(SpmmOp op, const CsrExpressions &s,
                                             llvm::StringRef prefix,
                                             CsrExpressions &transposed);

/// Whether the scheduled dense × sparse `op` transposes its CSR operand with
/// cuSPARSE on every call (its launch's `transposes_sparse`).
bool transposesAtRunTime(SpmmOp op);

/// For the kernel summary: how a dense × sparse `op` runs on the CSR kernel
/// ("" for sparse × dense).
std::string describeSpmm(SpmmOp op);

/// The launch of `op`'s scheduled SDDMM; D's nnz values go to `out`.
/// `epilogue` constructs the functor applied to each entry (empty: the
/// kernels' default, the product times the pattern's value); `summary`
/// names it in the comment above the launch; `tablePrefix` begins the names
/// of its tables (row order, the dense blocks' column windows, as prepared)
/// and temporaries.
FailureOr<SparseLaunchText> emitSddmmLaunch(SddmmOp op, const CsrExpressions &pattern,
                                            llvm::StringRef lhs, llvm::StringRef rhs,
                                            llvm::StringRef out, llvm::StringRef epilogue,
                                            llvm::StringRef summary,
                                            llvm::StringRef tablePrefix);

/// The launch of a region over stored entries that no SDDMM took as its
/// epilogue: `functor` (constructed) at every entry of `pattern`, the
/// region's result values written to `out`. Fails, located at `fusion`, for
/// 64-bit indices.
FailureOr<SparseLaunchText> emitStoredEntriesLaunch(FusionOp fusion,
                                                    const CsrExpressions &pattern,
                                                    llvm::StringRef out,
                                                    llvm::StringRef functor,
                                                    llvm::StringRef summary);

} // namespace mlir::sopt::cuda

#endif // SPARSE_OPT_LIB_TARGET_CUDA_SPARSELAUNCH_H
