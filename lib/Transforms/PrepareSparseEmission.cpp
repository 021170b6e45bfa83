//===- PrepareSparseEmission.cpp - sparse launches decided in IR ----------===//
//
// Decides how each scheduled sparse product is launched and records it in
// the IR: its transposes, workspaces and amended schedule as a
// #sopt.sparse_launch, and the tables its launch reads (row orders, row
// segments, column windows, occupied blocks, rows' positions, a transpose),
// prepared from its sopt.sparsity_pattern file, in a sopt.pattern_tables op;
// likewise a sparse attention's row plan (the rows split across a block).
// The CUDA emitter then only prints them.
//
//===----------------------------------------------------------------------===//

#include "sparse-opt/Analysis/SparseScheduling.h"
#include "sparse-opt/Dialect/SOpt/SparseEmission.h"
#include "sparse-opt/Dialect/SOpt/SOptOps.h"
#include "sparse-opt/Dialect/SOpt/SparseFormat.h"
#include "sparse-opt/Dialect/SOpt/SparseScheduleAttrs.h"
#include "sparse-opt/Runtime/Pattern/CsrTranspose.h"
#include "sparse-opt/Runtime/Kernels/SparseAttentionPlan.h"
#include "sparse-opt/Runtime/Pattern/RowOrder.h"
#include "sparse-opt/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Debug.h"

#include <memory>

#define DEBUG_TYPE "sopt-prepare-sparse-emission"

namespace mlir::sopt {
#define GEN_PASS_DEF_PREPARESPARSEEMISSION
#include "sparse-opt/Transforms/Passes.h.inc"
} // namespace mlir::sopt

using namespace mlir;
using namespace mlir::sopt;

namespace {

/// A pattern as the kernel sees it: the file as read (once per compile,
/// loadPatternFile), or its transpose.
struct Pattern {
  std::shared_ptr<const PatternFile> matrix;
  /// For a transposed pattern: the file's entry each entry comes from.
  std::vector<int32_t> permutation;
  const sopt_csr &csr() const { return matrix->csr; }
  ArrayRef<int32_t> positions() const {
    return {csr().positions, size_t(csr().rows + 1)};
  }
  ArrayRef<int32_t> coordinates() const { return {csr().coordinates, size_t(csr().nnz)}; }
};

/// The file of a sparse function argument's sopt.sparsity_pattern, resolved;
/// empty when `sparse` has none.
std::string patternFile(Value sparse) {
  auto arg = dyn_cast<BlockArgument>(sparse);
  if (!arg)
    return "";
  auto fn = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  if (!fn)
    return "";
  auto path = fn.getArgAttrOfType<StringAttr>(arg.getArgNumber(), attr::kSparsityPattern);
  return path ? resolvePatternPath(path.getValue(), fn.getLoc()) : "";
}

/// Our kernels index CSR arrays with 32-bit integers (the emitter reports
/// any other width).
bool hasIndexWidths32(Value sparse) {
  auto enc = sparse_tensor::getSparseTensorEncoding(sparse.getType());
  return enc && enc.getPosWidth() == 32 && enc.getCrdWidth() == 32;
}

struct PrepareSparseEmissionPass
    : mlir::sopt::impl::PrepareSparseEmissionBase<PrepareSparseEmissionPass> {
  using PrepareSparseEmissionBase::PrepareSparseEmissionBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    files.clear();
    bool failedAny = false;
    for (auto fn : llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
      unsigned index = 0;
      fn.walk([&](Operation *op) {
        if (!isa<SpmmOp, SddmmOp, SparseAttentionOp>(op))
          return;
        std::string name = (fn.getName() + "_" + op->getName().stripDialect() +
                            std::to_string(index++))
                               .str();
        if (failed(prepare(op, fn, name, symbols)))
          failedAny = true;
      });
    }
    files.clear();
    if (failedAny)
      signalPassFailure();
  }

  /// Decides the launch of `op` and prepares its tables (named `name` in
  /// the module) if it reads any.
  LogicalResult prepare(Operation *op, func::FuncOp fn, StringRef name,
                        SymbolTable &symbols) {
    Builder b(op->getContext());
    OperationState state(op->getLoc(), PatternTablesOp::getOperationName());
    tablesName = name.str();
    addedTable = false;
    if (auto attention = dyn_cast<SparseAttentionOp>(op)) {
      if (op->hasAttr(attr::kPatternTables) || !hasIndexWidths32(attention.getPattern()))
        return success();
      if (failed(attentionPlan(attention, patternFile(attention.getPattern()), b, state)))
        return failure();
      return addTables(op, fn, name, symbols, b, state);
    }
    if (op->hasAttr(attr::kSparseLaunch))
      return success();
    Value sparse = getScheduledSparseOperand(op);
    if (!sparse || !hasIndexWidths32(sparse))
      return success();
    const std::string path = patternFile(sparse);
    FailureOr<SparseLaunchAttr> launch = failure();
    if (auto spmm = dyn_cast<SpmmOp>(op)) {
      if (!spmm.getScheduleAttr())
        return success();
      launch = spmmLaunch(spmm, path, b, state);
    } else {
      auto sddmm = cast<SddmmOp>(op);
      if (!sddmm.getScheduleAttr())
        return success();
      launch = sddmmLaunch(sddmm, path, b, state);
    }
    if (failed(launch))
      return failure();
    op->setAttr(attr::kSparseLaunch, *launch);
    return addTables(op, fn, name, symbols, b, state);
  }

  /// The tables op of `state` (named `name`, before `fn`), named by `op`;
  /// nothing when no table was added.
  LogicalResult addTables(Operation *op, func::FuncOp fn, StringRef name,
                          SymbolTable &symbols, Builder &b, OperationState &state) {
    if (!addedTable)
      return success();
    state.addAttribute(SymbolTable::getSymbolAttrName(), b.getStringAttr(name));
    OpBuilder builder(fn);
    auto tables = cast<PatternTablesOp>(builder.create(state));
    symbols.insert(tables, Block::iterator(fn));
    LLVM_DEBUG(llvm::dbgs() << "prepared " << tables.getSymName() << " for "
                            << op->getName() << "\n");
    op->setAttr(attr::kPatternTables, FlatSymbolRefAttr::get(tables.getSymNameAttr()));
    return success();
  }

  /// The pattern of `path` (its transpose, with the permutation, when
  /// `transposed`), read once per compile and transposed once per run; null
  /// after reporting at `op`.
  const Pattern *read(Operation *op, Value sparse, const std::string &path,
                      bool transposed) {
    std::string key = transposed ? path + " (transposed)" : path;
    if (auto it = files.find(key); it != files.end())
      return it->second.get();
    auto pattern = std::make_shared<Pattern>();
    if (transposed) {
      const Pattern *file = read(op, sparse, path, false);
      if (!file)
        return nullptr;
      auto t = std::make_shared<PatternFile>();
      pattern->permutation.resize(std::max<int64_t>(file->csr().nnz, 1));
      if (sopt_csr_transpose(&file->csr(), &t->csr, pattern->permutation.data()) != 0) {
        op->emitOpError("cannot transpose its sparsity pattern ") << path;
        return nullptr;
      }
      pattern->permutation.resize(size_t(file->csr().nnz));
      pattern->matrix = std::move(t);
    } else {
      LLVM_DEBUG(llvm::dbgs() << "loading sparsity pattern " << path << "\n");
      std::string error;
      pattern->matrix = loadPatternFile(op->getContext(), path, error);
      if (!pattern->matrix) {
        op->emitOpError("cannot read its sparsity pattern: ") << error;
        return nullptr;
      }
      // The file holds the arrays the caller passes: a CSR operand's, or a
      // CSC operand's transpose in CSR.
      auto type = cast<RankedTensorType>(sparse.getType());
      bool csc = getSparseFormat(type) == SparseFormat::CSC;
      int64_t rows = type.getDimSize(csc ? 1 : 0), cols = type.getDimSize(csc ? 0 : 1);
      if (pattern->csr().rows != rows || pattern->csr().cols != cols) {
        op->emitOpError("has a sparsity pattern (")
            << path << ") of " << pattern->csr().rows << "x" << pattern->csr().cols
            << ", but its sparse operand's arrays are " << rows << "x" << cols;
        return nullptr;
      }
    }
    return (files[key] = std::move(pattern)).get();
  }

  /// The header of a tables op: the pattern `m` of `path` as the kernel
  /// sees it.
  void addHeader(const Pattern &m, const std::string &path, bool transposed, Builder &b,
                 OperationState &state) {
    state.addAttribute("pattern", b.getStringAttr(path));
    if (transposed)
      state.addAttribute("transposed", b.getUnitAttr());
    state.addAttribute("rows", b.getI64IntegerAttr(m.csr().rows));
    state.addAttribute("cols", b.getI64IntegerAttr(m.csr().cols));
    state.addAttribute("nnz", b.getI64IntegerAttr(m.csr().nnz));
  }

  void addTable(OperationState &state, StringRef table, ArrayRef<int32_t> values,
                Builder &b) {
    std::string blob = (tablesName + "_" + table).str();
    state.addAttribute(table, getTableAttr(b.getContext(), blob, values, inlineTableLimit));
    addedTable = true;
  }

  /// The launch of `op`, and its tables in `state`.
  FailureOr<SparseLaunchAttr> spmmLaunch(SpmmOp op, const std::string &path, Builder &b,
                                         OperationState &state) {
    ::sopt::SpmmSchedule s = toRuntimeSchedule(op.getScheduleAttr());
    Value sparse = op.getSparseOperand();
    auto sparseType = cast<RankedTensorType>(sparse.getType());
    const int64_t n = op.getScheduleColumns();
    // Dense × sparse runs as Sᵀ · Xᵀ, C = Yᵀ: the kernel stores Y itself
    // through the dense blocks' shared memory (coalesced either way) or when
    // it writes one element per access anyway; with wider vectors a
    // row-major Cᵀ and a tiled transpose are faster (docs/benchmarks/sparse.md, "Dense × sparse").
    const bool denseTimesSparse = op.isDenseTimesSparse();
    const bool stores = denseTimesSparse && (s.tiling == ::sopt::SpmmTiling::DenseBlocks ||
                                             s.vectorWidth == 1);
    const int64_t resultWorkspace =
        denseTimesSparse && !stores ? sparseType.getDimSize(1) * n : 0;
    // A CSR operand's file is transposed (a CSC operand's arrays are
    // already Sᵀ's).
    const bool transposed =
        denseTimesSparse && getSparseFormat(sparseType) == SparseFormat::CSR;
    int64_t segmentWorkspace = 0;
    auto launch = [&] {
      return SparseLaunchAttr::get(op.getContext(), stores, resultWorkspace,
                                   transposed && path.empty(), segmentWorkspace, false, 0, 0,
                                   0, false);
    };
    const bool byLength = s.rowOrder == ::sopt::RowOrder::ByLength;
    const bool segments = s.tiling == ::sopt::SpmmTiling::RowTiles && s.rowSegment > 0;
    // (Row segments need by_length: the verifier says so.)
    if (path.empty()) {
      if (byLength)
        return op.emitOpError("visits rows longest first (row_order = by_length), which "
                              "needs the pattern at compile time: give the sparse "
                              "function argument a sopt.sparsity_pattern file");
      return launch();
    }
    const Pattern *m = read(op, sparse, path, transposed);
    if (!m)
      return failure();
    addHeader(*m, path, transposed, b, state);
    std::vector<int32_t> order;
    if (byLength || segments) {
      order.resize(size_t(m->csr().rows));
      sopt_csr_row_order(m->csr().positions, m->csr().rows, order.data());
    }
    if (byLength)
      addTable(state, "row_order", order, b);
    if (segments) {
      int64_t longRows = 0;
      const int64_t count = sopt_csr_row_segments(m->csr().positions, order.data(), m->csr().rows,
                                                  s.rowSegment, &longRows, nullptr);
      if (count > 0) {
        std::vector<int32_t> table(2 * count + longRows + 1);
        sopt_csr_row_segments(m->csr().positions, order.data(), m->csr().rows, s.rowSegment,
                              &longRows, table.data());
        addTable(state, "row_segments", table, b);
        state.addAttribute("long_rows", b.getI64IntegerAttr(longRows));
        segmentWorkspace = count * n;
      }
    }
    if (transposed) {
      addTable(state, "transpose_positions", m->positions(), b);
      addTable(state, "transpose_coordinates", m->coordinates(), b);
      addTable(state, "transpose_permutation", m->permutation, b);
    }
    return launch();
  }

  /// The row plan of a sparse attention over the pattern of `path` (none
  /// without one: the launch then runs every row in order), by the
  /// runtime's own rule.
  LogicalResult attentionPlan(SparseAttentionOp op, const std::string &path, Builder &b,
                              OperationState &state) {
    if (path.empty())
      return success();
    const Pattern *m = read(op, op.getPattern(), path, /*transposed=*/false);
    if (!m)
      return failure();
    addHeader(*m, path, false, b, state);
    const ::sopt::SparseAttentionRowLists plan =
        ::sopt::planSparseAttentionRows(m->csr().positions, m->csr().rows);
    state.addAttribute("split_length", b.getI64IntegerAttr(plan.splitLength));
    // Empty when no row is long: the IR still says the plan was made.
    addTable(state, "split_rows", plan.longRows, b);
    if (!plan.shortRows.empty())
      addTable(state, "unsplit_rows", plan.shortRows, b);
    return success();
  }

  /// The launch of `op`, and its tables in `state`.
  FailureOr<SparseLaunchAttr> sddmmLaunch(SddmmOp op, const std::string &path, Builder &b,
                                          OperationState &state) {
    ::sopt::SddmmSchedule s = toRuntimeSchedule(op.getScheduleAttr());
    auto type = cast<RankedTensorType>(op.getPattern().getType());
    const int64_t n = type.getDimSize(1);
    const int64_t k = cast<RankedTensorType>(op.getLhs().getType()).getDimSize(1);
    const bool gathers = !op.getTransposeRhs() && !s.transposeRhsFirst;
    const bool byLength = s.rowOrder == ::sopt::RowOrder::ByLength;
    // (A · B) ⊙ S with transpose_rhs_first: B[k, n] into a Bᵀ of n k
    // elements, then the schedule as for (A · Bᵀ) ⊙ S.
    const bool transposesRhs = !op.getTransposeRhs() && s.transposeRhsFirst;
    const int64_t rhsWorkspace = transposesRhs ? n * k : 0;
    s.transposeRhsFirst = false;
    auto launch = [&](bool prepared) {
      if (gathers)
        return SparseLaunchAttr::get(op.getContext(), false, 0, false, 0, false, 0, 0, 0, false);
      if (s.tiling == ::sopt::SddmmTiling::DenseBlocks) {
        // f32 64 x 64 blocks with prepared windows split B once per call
        // into TF32 planes and take the TMA-fed kernel.
        const int64_t planes =
            prepared ? ::sopt::sddmmWorkspaceElements(
                           s, n, k, type.getElementType().getIntOrFloatBitWidth() / 8)
                     : 0;
        return SparseLaunchAttr::get(op.getContext(), false, 0, false, 0, transposesRhs,
                                     rhsWorkspace, std::max<int64_t>(planes, 0), 0, false);
      }
      // Without prepared positions a column panel has no order to take: S's
      // order, in blocks of a plain launch's size (as runSddmm does).
      const bool panels = s.columnPanel > 0 && prepared;
      const int warps = s.columnPanel > 0 && !prepared
                            ? std::min(s.tilesPerBlock, ::sopt::kMaxSparseThreadsPerBlock / 32)
                            : s.tilesPerBlock;
      return SparseLaunchAttr::get(op.getContext(), false, 0, false, 0, transposesRhs,
                                   rhsWorkspace, 0, warps, panels);
    };
    if (path.empty()) {
      if (gathers && byLength)
        return op.emitOpError("visits rows longest first (row_order = by_length), which "
                              "needs the pattern at compile time: give the sparse "
                              "function argument a sopt.sparsity_pattern file");
      return launch(false);
    }
    const Pattern *m = read(op, op.getPattern(), path, /*transposed=*/false);
    if (!m)
      return failure();
    addHeader(*m, path, false, b, state);
    const sopt_csr &c = m->csr();
    if (gathers) {
      if (byLength) {
        std::vector<int32_t> order(size_t(c.rows));
        sopt_csr_row_order(c.positions, c.rows, order.data());
        addTable(state, "row_order", order, b);
      }
      return launch(true);
    }
    if (s.tiling != ::sopt::SddmmTiling::DenseBlocks) {
      addTable(state, "positions", m->positions(), b);
      return launch(true);
    }
    // Only the blocks holding entries where enough of them are empty (a
    // banded pattern), else every row's window for every block.
    const int block = s.blockSize;
    const int64_t count = sopt_csr_occupied_blocks(c.positions, c.coordinates, c.rows, c.cols,
                                                   block, nullptr);
    if (c.nnz > 0 && ::sopt::launchesOccupiedBlocks(count, c.rows, c.cols, block)) {
      std::vector<int32_t> blocks(count);
      sopt_csr_occupied_blocks(c.positions, c.coordinates, c.rows, c.cols, block,
                               blocks.data());
      std::vector<int32_t> windows(2 * count * block);
      sopt_csr_block_windows(c.positions, c.coordinates, c.rows, c.cols, block, blocks.data(),
                             count, windows.data());
      addTable(state, "occupied_blocks", blocks, b);
      addTable(state, "occupied_windows", windows, b);
      return launch(true);
    }
    std::vector<int32_t> windows(sopt_csr_column_windows_size(c.rows, c.cols, block));
    sopt_csr_column_windows(c.positions, c.coordinates, c.rows, c.cols, block, windows.data());
    addTable(state, "column_windows", windows, b);
    return launch(true);
  }

  /// The name of the tables being built, which their blobs' names begin
  /// with, and whether they hold any.
  std::string tablesName;
  bool addedTable = false;
  /// Patterns by resolved path (" (transposed)" appended for a transpose).
  llvm::StringMap<std::shared_ptr<Pattern>> files;
};

} // namespace
