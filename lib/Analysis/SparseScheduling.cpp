//===- SparseScheduling.cpp - choosing SpMM and SDDMM schedules -----------===//

#include "sparse-opt/Analysis/SparseScheduling.h"

#include "sparse-opt/Dialect/SOpt/SOptOps.h"
#include "sparse-opt/Dialect/SOpt/SparseFormat.h"
#include "sparse-opt/Dialect/SOpt/SparseScheduleAttrs.h"
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
    auto lhs = cast<RankedTensorType>(spmm.getLhs().getType());
    if (getSparseFormat(lhs) == SparseFormat::CSR)
      return spmm.getLhs();
    return nullptr;
  }
  if (auto sddmm = dyn_cast<SddmmOp>(op))
    return sddmm.getPattern();
  return nullptr;
}

::sopt::SparsityStats getShapeStats(RankedTensorType type) {
  ::sopt::SparsityStats stats;
  stats.rows = type.getDimSize(0);
  stats.cols = type.getDimSize(1);
  return stats; // nnz and row lengths stay unknown (-1)
}

LogicalResult readPatternStats(llvm::StringRef path,
                               ::sopt::SparsityStats &stats,
                               std::string &error) {
  std::string pathString = path.str();
  char message[1024] = {0};
  sopt_csr csr{};
  if (sopt_csr_read(pathString.c_str(), &csr, message, sizeof(message)) != 0) {
    error = message;
    return failure();
  }
  stats = ::sopt::sparsityStats(csr.positions, csr.rows, csr.cols);
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
        auto rhs = cast<RankedTensorType>(spmm.getRhs().getType());
        ::sopt::SpmmSchedule s = ::sopt::chooseSpmmSchedule(
            stats, rhs.getDimSize(1),
            getScheduleElementBytes(rhs.getElementType()));
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
