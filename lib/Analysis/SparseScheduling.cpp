//===- SparseScheduling.cpp - choosing SpMM and SDDMM schedules -----------===//

#include "sparse-opt/Analysis/SparseScheduling.h"

#include "sparse-opt/Dialect/SOpt/SOptOps.h"
#include "sparse-opt/Dialect/SOpt/SparseFormat.h"
#include "sparse-opt/Dialect/SOpt/SparseScheduleAttrs.h"
#include "sparse-opt/Runtime/Pattern/CsrTranspose.h"
#include "sparse-opt/Runtime/Pattern/SparseIO.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <mutex>

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

namespace {

/// The pattern files one context has read, by path, with the size and
/// modification time they had then.
struct PatternFileCache {
  struct Entry {
    uint64_t size = 0;
    llvm::sys::TimePoint<> modified;
    std::shared_ptr<const PatternFile> pattern;
  };
  std::mutex lock;
  llvm::StringMap<Entry> files;
};

PatternFileCache &getPatternFileCache(MLIRContext *context) {
  auto *dialect = context->getOrLoadDialect<SOptDialect>();
  std::shared_ptr<void> &slot = dialect->getPatternFileCache();
  if (!slot)
    slot = std::make_shared<PatternFileCache>();
  return *static_cast<PatternFileCache *>(slot.get());
}

} // namespace

std::shared_ptr<const PatternFile> loadPatternFile(MLIRContext *context,
                                                   llvm::StringRef path,
                                                   std::string &error) {
  PatternFileCache &cache = getPatternFileCache(context);
  std::lock_guard<std::mutex> guard(cache.lock);
  llvm::sys::fs::file_status status;
  const bool known = !llvm::sys::fs::status(path, status);
  auto it = cache.files.find(path);
  if (known && it != cache.files.end() && it->second.size == status.getSize() &&
      it->second.modified == status.getLastModificationTime())
    return it->second.pattern;
  auto pattern = std::make_shared<PatternFile>();
  if (failed(readPatternFile(path, pattern->csr, error)))
    return nullptr;
  if (known)
    cache.files[path] = {status.getSize(), status.getLastModificationTime(), pattern};
  return pattern;
}

LogicalResult readPatternStats(MLIRContext *context, llvm::StringRef path,
                               ::sopt::SparsityStats &stats,
                               std::string &error, bool transposed) {
  std::shared_ptr<const PatternFile> file = loadPatternFile(context, path, error);
  if (!file)
    return failure();
  if (!transposed) {
    const sopt_csr &csr = file->csr;
    stats = ::sopt::sparsityStats(csr.positions, csr.coordinates, csr.rows, csr.cols);
    return success();
  }
  PatternFile t;
  if (sopt_csr_transpose(&file->csr, &t.csr, nullptr) != 0) {
    error = path.str() + ":0: out of memory transposing the pattern";
    return failure();
  }
  stats = ::sopt::sparsityStats(t.csr.positions, t.csr.coordinates, t.csr.rows, t.csr.cols);
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
