//===- SparseScheduling.h - choosing SpMM and SDDMM schedules ---*- C++ -*-===//
//
// What sopt-schedule-sparse decides, usable without the pass: which operand
// of a sparse product a schedule is chosen for, what is known of it (its
// shape, or the row statistics of a pattern file), and the schedule the
// runtime's heuristics (sopt::chooseSpmmSchedule / chooseSddmmSchedule)
// give, as an attribute.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_ANALYSIS_SPARSESCHEDULING_H
#define SPARSE_OPT_ANALYSIS_SPARSESCHEDULING_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "sparse-opt/Runtime/Pattern/SparseIO.h"
#include "sparse-opt/Runtime/Schedule/SparseSchedule.h"

#include <cstdint>
#include <memory>

#include <string>

namespace mlir::sopt {

/// The sparse operand a schedule of `op` is chosen for: the CSR lhs of an
/// sopt.spmm (sparse × dense), its CSR or CSC rhs (dense × sparse), the
/// pattern of an sopt.sddmm. Null when `op` takes no schedule (another op,
/// or an spmm whose sparse operand is a CSC lhs or BSR).
Value getScheduledSparseOperand(Operation *op);

/// Whether the schedule of `op` is for the transpose of its scheduled
/// sparse operand: a dense × sparse spmm runs as Sᵀ · Xᵀ, whose rows are
/// S's columns.
bool schedulesTranspose(Operation *op);

/// What a sparse operand's type alone tells: rows and columns (swapped when
/// `transposed`); nnz and row lengths unknown (nnz = -1).
::sopt::SparsityStats getShapeStats(RankedTensorType type,
                                    bool transposed = false);

/// The largest pattern file read, in bytes: the reader holds the whole
/// pattern in memory, and 4 GiB of text is some hundreds of millions of
/// entries, far past any pattern compiled into tables.
inline constexpr uint64_t kMaxPatternFileBytes = uint64_t(4) << 30;

/// Reads the pattern file `path` (.mtx or .smtx, sopt_csr_read) into `csr`,
/// which the caller frees (sopt_csr_free). Only a regular file of at most
/// kMaxPatternFileBytes is read: a device node or a FIFO named as a pattern
/// would otherwise be read until the compiler is killed. On failure sets
/// `error` to the reader's "<path>:<line>: <message>" (line 0 for the file
/// as a whole).
LogicalResult readPatternFile(llvm::StringRef path, sopt_csr &csr,
                              std::string &error);

/// A pattern as read, or transposed: its CSR arrays, freed with this.
struct PatternFile {
  sopt_csr csr{};
  PatternFile() = default;
  PatternFile(const PatternFile &) = delete;
  PatternFile &operator=(const PatternFile &) = delete;
  ~PatternFile() { sopt_csr_free(&csr); }
};

/// The pattern in `path` (readPatternFile), read once per compile: kept
/// with `context` (in the sopt dialect) for every pass after the first that
/// asks, and read again only when the file's size or modification time
/// changed. Null on failure, with `error` set as readPatternFile sets it.
std::shared_ptr<const PatternFile> loadPatternFile(MLIRContext *context,
                                                   llvm::StringRef path,
                                                   std::string &error);

/// The row statistics of the CSR pattern in `path` (loadPatternFile), with
/// its rows and columns; of its transpose (the column statistics, rows and
/// columns swapped) when `transposed`. On failure, sets `error` to the
/// reader's "<path>:<line>: <message>".
LogicalResult readPatternStats(MLIRContext *context, llvm::StringRef path,
                               ::sopt::SparsityStats &stats,
                               std::string &error, bool transposed = false);

/// The directory of the file `loc` names (the first file location in it),
/// or "" when it names none or a file without a directory.
std::string getSourceDirectory(Location loc);

/// The file a sopt.sparsity_pattern path names: an absolute path as it is;
/// a relative one against the directory of the file `loc` names (the
/// function's MLIR file) when it exists there, else against the current
/// directory (also when `loc` names no file).
std::string resolvePatternPath(llvm::StringRef path, Location loc);

/// The schedule (#sopt.spmm_schedule or #sopt.sddmm_schedule) the runtime's
/// heuristics choose for `op` given what is known of its scheduled sparse
/// operand. `op` must have one (getScheduledSparseOperand).
Attribute chooseSparseSchedule(Operation *op,
                               const ::sopt::SparsityStats &stats);

} // namespace mlir::sopt

#endif // SPARSE_OPT_ANALYSIS_SPARSESCHEDULING_H
