//===- SparseScheduling.cpp - choosing SpMM and SDDMM schedules -----------===//

#include "sparse-opt/Analysis/SparseScheduling.h"

#include "sparse-opt/Dialect/SOpt/SOptOps.h"
#include "sparse-opt/Dialect/SOpt/SparseFormat.h"
#include "sparse-opt/Dialect/SOpt/SparseScheduleAttrs.h"
#include "sparse-opt/Runtime/CsrTranspose.h"
#include "sparse-opt/Runtime/SparseIO.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

// Defined inside the dialect's namespace: `sopt::` would be ambiguous between
// `mlir::sopt` and the runtime's `::sopt` after `using namespace mlir`.
namespace mlir::sopt {

Value getScheduledSparseOperand(Operation *op) {
  if (auto spmm = dyn_cast<SpmmOp>(op)) {
    Value sparse = spmm.getSparseOperand();
    std::optional<SparseFormat> format =
        getSparseFormat(cast<RankedTensorType>(sparse.getType()));
    // Dense × sparse runs as Sᵀ · Xᵀ: Sᵀ is CSR when S is CSC, or after a
    // transpose when S is CSR.
    if (format == SparseFormat::CSR ||
        (format == SparseFormat::CSC && spmm.isDenseTimesSparse()))
      return sparse;
    return nullptr;
  }
  if (auto sddmm = dyn_cast<SddmmOp>(op))
    return sddmm.getPattern();
  return nullptr;
}

bool schedulesTranspose(Operation *op) {
  auto spmm = dyn_cast<SpmmOp>(op);
  return spmm && spmm.isDenseTimesSparse();
}

::sopt::SparsityStats getShapeStats(RankedTensorType type, bool transposed) {
  ::sopt::SparsityStats stats;
  stats.rows = type.getDimSize(transposed ? 1 : 0);
  stats.cols = type.getDimSize(transposed ? 0 : 1);
  return stats; // nnz and row lengths stay unknown (-1)
}

LogicalResult readPatternFile(llvm::StringRef path, sopt_csr &csr,
                              std::string &error) {
  std::string pathString = path.str();
  llvm::sys::fs::file_status status;
  if (std::error_code code = llvm::sys::fs::status(pathString, status)) {
    error = pathString + ":0: cannot open the file: " + code.message();
    return failure();
  }
  if (status.type() != llvm::sys::fs::file_type::regular_file) {
    error = pathString + ":0: not a regular file (a pattern is a .mtx or .smtx "
                         "file, not a device, FIFO or directory)";
    return failure();
  }
  if (status.getSize() > kMaxPatternFileBytes) {
    error = pathString + ":0: " + std::to_string(status.getSize()) +
            " bytes, over the " + std::to_string(kMaxPatternFileBytes) +
            "-byte bound on a pattern file";
    return failure();
  }
  char message[1024] = {0};
  if (sopt_csr_read(pathString.c_str(), &csr, message, sizeof(message)) != 0) {
    error = message;
    return failure();
  }
  return success();
}

LogicalResult readPatternStats(llvm::StringRef path,
                               ::sopt::SparsityStats &stats,
                               std::string &error, bool transposed) {
  std::string pathString = path.str();
  sopt_csr csr{};
  if (failed(readPatternFile(path, csr, error)))
    return failure();
  if (transposed) {
    sopt_csr t{};
    int status = sopt_csr_transpose(&csr, &t, nullptr);
    sopt_csr_free(&csr);
    if (status != 0) {
      error = pathString + ":0: out of memory transposing the pattern";
      return failure();
    }
    csr = t;
  }
  stats = ::sopt::sparsityStats(csr.positions, csr.coordinates, csr.rows, csr.cols);
  sopt_csr_free(&csr);
  return success();
}

std::string getSourceDirectory(Location loc) {
  if (auto file = loc->findInstanceOf<FileLineColRange>())
    return llvm::sys::path::parent_path(file.getFilename().getValue()).str();
  return "";
}

std::string resolvePatternPath(llvm::StringRef path, Location loc) {
  if (llvm::sys::path::is_absolute(path))
    return path.str();
  std::string dir = getSourceDirectory(loc);
  if (!dir.empty()) {
    llvm::SmallString<256> candidate(dir);
    llvm::sys::path::append(candidate, path);
    if (llvm::sys::fs::exists(candidate))
      return std::string(candidate);
  }
  return path.str();
}

Attribute chooseSparseSchedule(Operation *op,
                               const ::sopt::SparsityStats &stats) {
  MLIRContext *context = op->getContext();
  return llvm::TypeSwitch<Operation *, Attribute>(op)
      .Case([&](SpmmOp spmm) -> Attribute {
        ::sopt::SpmmSchedule s = ::sopt::chooseSpmmSchedule(
            stats, spmm.getScheduleColumns(),
            getScheduleElementBytes(spmm.getType().getElementType()));
        return getSpmmScheduleAttr(context, s);
      })
      .Case([&](SddmmOp sddmm) -> Attribute {
        auto lhs = cast<RankedTensorType>(sddmm.getLhs().getType());
        ::sopt::SddmmSchedule s = ::sopt::chooseSddmmSchedule(
            stats, lhs.getDimSize(1), sddmm.getTransposeRhs(),
            getScheduleElementBytes(lhs.getElementType()));
        return getSddmmScheduleAttr(context, s);
      })
      .Default([](Operation *) { return Attribute(); });
}

} // namespace mlir::sopt
