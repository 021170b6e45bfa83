//===- ScheduleSparse.cpp - tile schedules of SpMM and SDDMM --------------===//
//
// Attaches a #sopt.spmm_schedule / #sopt.sddmm_schedule to each sparse
// product that takes one and has none, chosen from the product's shape and,
// for a function argument with a sopt.sparsity_pattern file, the pattern's
// row statistics.
//
//===----------------------------------------------------------------------===//

#include "sparse-opt/Analysis/SparseScheduling.h"
#include "sparse-opt/Dialect/SOpt/SOptOps.h"
#include "sparse-opt/Dialect/SOpt/SparseFormat.h"
#include "sparse-opt/Dialect/SOpt/SparseScheduleAttrs.h"
#include "sparse-opt/Transforms/Passes.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/Path.h"

#define DEBUG_TYPE "sopt-schedule-sparse"

namespace mlir::sopt {
#define GEN_PASS_DEF_SCHEDULESPARSE
#include "sparse-opt/Transforms/Passes.h.inc"
} // namespace mlir::sopt

using namespace mlir;
using namespace mlir::sopt;

namespace {

/// A pattern file as read once: its statistics, or why it could not be read.
struct PatternFile {
  bool ok = false;
  ::sopt::SparsityStats stats;
  std::string error;
};

struct ScheduleSparsePass
    : mlir::sopt::impl::ScheduleSparseBase<ScheduleSparsePass> {
  using ScheduleSparseBase::ScheduleSparseBase;

  void runOnOperation() override {
    patterns.clear();
    argumentStats.clear();
    bool failedAny = false;
    getOperation()->walk([&](Operation *op) {
      if (auto spmv = dyn_cast<SpmvOp>(op))
        return markPreparedSpmv(spmv);
      if (!isa<SpmmOp, SddmmOp>(op) || hasSchedule(op) || (isa<SpmmOp>(op) && !spmm))
        return;
      Value sparse = getScheduledSparseOperand(op);
      if (!sparse)
        return;
      std::optional<::sopt::SparsityStats> stats =
          getStats(sparse, schedulesTranspose(op));
      if (!stats) {
        failedAny = true;
        return;
      }
      Attribute schedule = chooseSparseSchedule(op, *stats);
      std::string reason = checkChosen(op, schedule);
      if (!reason.empty()) {
        op->emitOpError() << "has no valid schedule: the heuristics chose "
                          << schedule << ", but " << reason;
        failedAny = true;
        return;
      }
      LLVM_DEBUG(llvm::dbgs() << "scheduled " << op->getName() << ": "
                              << schedule << "\n");
      if (auto spmm = dyn_cast<SpmmOp>(op))
        spmm.setScheduleAttr(cast<SpmmScheduleAttr>(schedule));
      else
        cast<SddmmOp>(op).setScheduleAttr(cast<SddmmScheduleAttr>(schedule));
    });
    if (failedAny)
      signalPassFailure();
  }

  /// A CSR sopt.spmv (f32, f64) whose matrix is a function argument with a
  /// pattern file: the pattern is the same at every call, so the emitter
  /// may keep a plan made at the first call. Not under spmm=false (the
  /// library route).
  void markPreparedSpmv(SpmvOp spmv) {
    auto type = cast<RankedTensorType>(spmv.getMatrix().getType());
    auto arg = dyn_cast<BlockArgument>(spmv.getMatrix());
    if (!spmm || getSparseFormat(type) != SparseFormat::CSR || !arg ||
        !arg.getOwner()->isEntryBlock() || !(type.getElementType().isF32() ||
                                             type.getElementType().isF64()))
      return;
    auto function = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
    // Only where the prepared kernels were measured faster than cuSPARSE
    // (docs/benchmarks/spmv.md): matrices of a few thousand rows, where a
    // call is mostly launch cost. Larger ones stay on cuSPARSE until a kernel
    // of ours beats it there.
    constexpr int64_t kPreparedSpmvMaxRows = 4096;
    if (function && function.getArgAttr(arg.getArgNumber(), attr::kSparsityPattern) &&
        type.getDimSize(0) <= kPreparedSpmvMaxRows)
      spmv->setAttr(attr::kPreparedSpmv, UnitAttr::get(spmv.getContext()));
  }

  static bool hasSchedule(Operation *op) {
    if (auto spmm = dyn_cast<SpmmOp>(op))
      return static_cast<bool>(spmm.getScheduleAttr());
    return static_cast<bool>(cast<SddmmOp>(op).getScheduleAttr());
  }

  /// What the verifier would say of the chosen schedule ("" when valid): the
  /// heuristics may face a product no schedule of the kernel can run (an
  /// SDDMM whose inner dimension exceeds 32 lanes' registers).
  static std::string checkChosen(Operation *op, Attribute schedule) {
    if (auto spmm = dyn_cast<SpmmOp>(op))
      return ::sopt::checkSpmmSchedule(
          toRuntimeSchedule(cast<SpmmScheduleAttr>(schedule)),
          spmm.getScheduleColumns(),
          getScheduleElementBytes(spmm.getType().getElementType()));
    auto sddmm = cast<SddmmOp>(op);
    auto lhs = cast<RankedTensorType>(sddmm.getLhs().getType());
    return ::sopt::checkSddmmSchedule(
        toRuntimeSchedule(cast<SddmmScheduleAttr>(schedule)),
        lhs.getDimSize(1), sddmm.getTransposeRhs(),
        getScheduleElementBytes(lhs.getElementType()));
  }

  /// What is known of `sparse` (of its transpose when `transposed`): a
  /// pattern file's statistics when it is a function argument with
  /// sopt.sparsity_pattern, else its shape. nullopt when the pattern is
  /// unusable (reported once per argument). A pattern file holds the arrays
  /// the caller passes: a CSR matrix's, or for a CSC matrix those of its
  /// transpose in CSR.
  std::optional<::sopt::SparsityStats> getStats(Value sparse, bool transposed) {
    auto type = cast<RankedTensorType>(sparse.getType());
    bool csc = getSparseFormat(type) == SparseFormat::CSC;
    auto arg = dyn_cast<BlockArgument>(sparse);
    if (!arg || !arg.getOwner()->isEntryBlock())
      return getShapeStats(type, transposed);
    auto function = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
    if (!function)
      return getShapeStats(type, transposed);
    Attribute patternAttr =
        function.getArgAttr(arg.getArgNumber(), attr::kSparsityPattern);
    if (!patternAttr)
      return getShapeStats(type, transposed);
    auto key = std::make_pair(sparse, unsigned(transposed));
    auto known = argumentStats.find(key);
    if (known != argumentStats.end())
      return known->second;
    // An argument that failed once is reported once.
    auto other = std::make_pair(sparse, unsigned(!transposed));
    if (argumentStats.count(other) && !argumentStats.lookup(other))
      return std::nullopt;
    std::optional<::sopt::SparsityStats> stats = readArgumentPattern(
        function, arg, type, patternAttr, /*fileIsTranspose=*/csc,
        /*transposeFile=*/transposed != csc);
    argumentStats[key] = stats;
    return stats;
  }

  /// The statistics of the pattern file of `arg`, of the file's transpose
  /// when `transposeFile`. `fileIsTranspose`: the file holds `arg`'s
  /// transpose (a CSC argument).
  std::optional<::sopt::SparsityStats>
  readArgumentPattern(FunctionOpInterface function, BlockArgument arg,
                      RankedTensorType type, Attribute patternAttr,
                      bool fileIsTranspose, bool transposeFile) {
    const bool transposed = transposeFile;
    auto path = dyn_cast<StringAttr>(patternAttr);
    if (!path) {
      emitError(arg.getLoc())
          << "'" << attr::kSparsityPattern
          << "' must be a string naming a .mtx or .smtx file, got "
          << patternAttr;
      return std::nullopt;
    }
    std::string resolved = resolvePatternPath(path.getValue(), function.getLoc());
    auto [it, inserted] =
        patterns.try_emplace(transposed ? resolved + " (transposed)" : resolved);
    PatternFile &file = it->second;
    if (inserted) {
      LLVM_DEBUG(llvm::dbgs() << "reading sparsity pattern " << resolved
                              << (transposed ? ", transposed" : "") << "\n");
      file.ok = succeeded(
          readPatternStats(&getContext(), resolved, file.stats, file.error,
                           transposed));
    }
    if (!file.ok) {
      InFlightDiagnostic diag = emitError(arg.getLoc())
                                << "cannot read the sparsity pattern of argument #"
                                << arg.getArgNumber() << ": " << file.error;
      // A relative path found nowhere: say where it was looked for.
      std::string dir = getSourceDirectory(function.getLoc());
      if (resolved == path.getValue() &&
          !llvm::sys::path::is_absolute(resolved) && !dir.empty())
        diag.attachNote(function.getLoc())
            << "a relative pattern path is looked up in '" << dir
            << "', then in the current directory";
      return std::nullopt;
    }
    // The file's own rows and columns (the statistics' are swapped when
    // transposed).
    int64_t rows = transposed ? file.stats.cols : file.stats.rows;
    int64_t cols = transposed ? file.stats.rows : file.stats.cols;
    int64_t expectedRows = type.getDimSize(fileIsTranspose ? 1 : 0);
    int64_t expectedCols = type.getDimSize(fileIsTranspose ? 0 : 1);
    if (rows != expectedRows || cols != expectedCols) {
      InFlightDiagnostic diag =
          emitError(arg.getLoc())
          << "the sparsity pattern of argument #" << arg.getArgNumber()
          << " (" << resolved << ") is " << rows << "x" << cols
          << ", but the argument is " << type.getDimSize(0) << "x"
          << type.getDimSize(1);
      if (fileIsTranspose)
        diag << " in CSC (its arrays, and the file, are those of its "
             << expectedRows << "x" << expectedCols << " transpose in CSR)";
      return std::nullopt;
    }
    return file.stats;
  }

  /// Pattern files by resolved path: each is read once per run.
  llvm::StringMap<PatternFile> patterns;
  /// Function arguments whose pattern was looked at, as is or transposed
  /// (nullopt: reported).
  DenseMap<std::pair<Value, unsigned>, std::optional<::sopt::SparsityStats>>
      argumentStats;
};

} // namespace
