//===- SparseLaunch.cpp - host code launching our SpMM/SDDMM kernels -------===//

#include "SparseLaunch.h"
#include "CudaSyntax.h"

#include "sparse-opt/Analysis/SparseScheduling.h"
#include "sparse-opt/Dialect/SOpt/SparseScheduleAttrs.h"
#include "sparse-opt/Runtime/RowOrder.h"
#include "sparse-opt/Runtime/SparseIO.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::sopt;
using namespace mlir::sopt::cuda;

namespace {

const char *rowOrderName(::sopt::RowOrder order) {
  return order == ::sopt::RowOrder::ByLength ? "longest rows first" : "rows in order";
}

/// Our kernels index CSR arrays with 32-bit integers.
LogicalResult checkIndexWidths(Operation *op, Value sparse) {
  auto enc = sparse_tensor::getSparseTensorEncoding(sparse.getType());
  if (enc && enc.getPosWidth() == 32 && enc.getCrdWidth() == 32)
    return success();
  return op->emitOpError("has a schedule, but the project's sparse kernels take CSR "
                         "with 32-bit positions and coordinates (posWidth = 32, "
                         "crdWidth = 32); drop the schedule to use cuSPARSE");
}

/// The file holding the pattern of `sparse`, when it is a function argument
/// with sopt.sparsity_pattern; empty otherwise.
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

/// The row order of the schedule as `statics` + the expression of the device
/// pointer (nullptr for rows in order), and a guard that the caller passes
/// the pattern the order was prepared for.
LogicalResult emitRowOrder(Operation *op, Value sparse, ::sopt::RowOrder order,
                           StringRef name, const CsrExpressions &csr,
                           SparseLaunchText &text, std::string &pointer) {
  pointer = "nullptr";
  if (order == ::sopt::RowOrder::Natural)
    return success();
  std::string path = patternFile(sparse);
  if (path.empty())
    return op->emitOpError("visits rows longest first (row_order = by_length), which "
                           "needs the pattern at compile time: give the sparse "
                           "function argument a sopt.sparsity_pattern file");
  sopt_csr m{};
  char error[1024] = {0};
  if (sopt_csr_read(path.c_str(), &m, error, sizeof error) != 0)
    return op->emitOpError("cannot read its sparsity pattern: ") << error;
  std::vector<int32_t> rows(m.rows);
  sopt_csr_row_order(m.positions, m.rows, rows.data());
  const int64_t nnz = m.nnz;
  sopt_csr_free(&m);

  std::string table;
  llvm::raw_string_ostream os(table);
  os << "// Rows of " << path << ", longest first.\nstatic const int32_t " << name
     << "_host[] = {";
  for (auto [i, r] : llvm::enumerate(rows))
    os << (i % 16 == 0 ? "\n    " : " ") << r << ",";
  if (rows.empty())
    os << "0";
  os << "\n};\n\n";
  text.statics += table;
  // Uploaded on first use; a function-local static initialises once even
  // when several threads call.
  text.body += llvm::formatv(
      "    static const int32_t *{0} = [] {{\n"
      "      int32_t *device = nullptr;\n"
      "      if (cudaMalloc(&device, sizeof({0}_host)) != cudaSuccess ||\n"
      "          cudaMemcpy(device, {0}_host, sizeof({0}_host), cudaMemcpyHostToDevice) != cudaSuccess)\n"
      "        return (int32_t *)nullptr;\n"
      "      return device;\n"
      "    }();\n"
      "    if (!{0})\n"
      "      return cudaErrorMemoryAllocation;\n"
      "    // The order was prepared for a pattern of {1} nonzeros.\n"
      "    if ({2} != {1})\n"
      "      return cudaErrorInvalidValue;\n",
      name, nnz, csr.nnz);
  pointer = name.str();
  return success();
}

std::string csrMatrix(StringRef element, RankedTensorType type, const CsrExpressions &a) {
  return llvm::formatv("sopt::CsrMatrix<{0}>{{{1}, {2}, {3}, {4}, {5}, {6}}", element,
                       type.getDimSize(0), type.getDimSize(1), a.nnz, a.positions,
                       a.coordinates, a.values);
}

} // namespace

FailureOr<SparseLaunchText>
mlir::sopt::cuda::emitSpmmLaunch(SpmmOp op, const CsrExpressions &a, StringRef b, StringRef c,
                           StringRef epilogue, StringRef summary, StringRef tablePrefix) {
  auto attr = op.getScheduleAttr();
  assert(attr && "only scheduled products get our kernel");
  if (failed(checkIndexWidths(op, op.getLhs())))
    return failure();
  ::sopt::SpmmSchedule s = toRuntimeSchedule(attr);
  auto matrix = cast<RankedTensorType>(op.getLhs().getType());
  int64_t n = op.getType().getDimSize(1);
  std::string element = *storageType(matrix.getElementType());

  SparseLaunchText text;
  std::string order;
  if (failed(emitRowOrder(op, op.getLhs(), s.rowOrder, tablePrefix, a, text, order)))
    return failure();
  text.body += llvm::formatv(
      "    // sopt.spmm {0}x{1} (CSR) x {1}x{2}{3}: tiles of {4} columns, {5} threads "
      "each, vectors of {6}, {7} tiles per block, {8}\n",
      matrix.getDimSize(0), matrix.getDimSize(1), n, summary, s.tileColumns,
      s.threadsPerTile, s.vectorWidth, s.tilesPerBlock, rowOrderName(s.rowOrder));
  text.body += llvm::formatv(
      "    SOPT_TRY((sopt::launchSpmm<{0}, {1}, {2}, {3}>({4}, {5}, {6}, {7}, {8}, {9}, "
      "stream{10})));\n",
      element, s.threadsPerTile, s.columnsPerThread(), s.vectorWidth,
      csrMatrix(element, matrix, a), b, n, c, order, s.tilesPerBlock,
      epilogue.empty() ? std::string() : ", " + epilogue.str());
  return text;
}

FailureOr<SparseLaunchText>
mlir::sopt::cuda::emitSddmmLaunch(SddmmOp op, const CsrExpressions &pattern, StringRef lhs,
                            StringRef rhs, StringRef out, StringRef tablePrefix) {
  auto attr = op.getScheduleAttr();
  if (!attr)
    return op.emitOpError("has no schedule; run sopt-schedule-sparse (the CUDA "
                          "emitter lowers SDDMM to the project's kernels only)");
  if (failed(checkIndexWidths(op, op.getPattern())))
    return failure();
  ::sopt::SddmmSchedule s = toRuntimeSchedule(attr);
  auto type = cast<RankedTensorType>(op.getPattern().getType());
  int64_t k = cast<RankedTensorType>(op.getLhs().getType()).getDimSize(1);
  std::string element = *storageType(type.getElementType());

  SparseLaunchText text;
  std::string matrix = csrMatrix(element, type, pattern);
  if (!op.getTransposeRhs()) {
    std::string order;
    if (failed(emitRowOrder(op, op.getPattern(), s.rowOrder, tablePrefix, pattern, text,
                            order)))
      return failure();
    text.body += llvm::formatv(
        "    // sopt.sddmm (A · B) ⊙ S, S {0}x{1}, k = {2}: one lane per nonzero, "
        "columns of B gathered, {3} warps per block, {4}\n",
        type.getDimSize(0), type.getDimSize(1), k, s.tilesPerBlock,
        rowOrderName(s.rowOrder));
    text.body += llvm::formatv(
        "    SOPT_TRY((sopt::launchSddmmGather<{0}>({1}, {2}, {3}, {4}, {5}, {6}, {7}, "
        "stream)));\n",
        element, matrix, lhs, rhs, k, out, order, s.tilesPerBlock);
    return text;
  }
  if (s.tiling == ::sopt::SddmmTiling::DenseBlocks) {
    text.body += llvm::formatv(
        "    // sopt.sddmm (A · Bᵀ) ⊙ S, S {0}x{1}, k = {2}: dense 64x64 blocks on tensor "
        "cores, sampled at S's entries (blocks without entries skipped)\n",
        type.getDimSize(0), type.getDimSize(1), k);
    text.body += llvm::formatv(
        "    SOPT_TRY((sopt::launchSddmmBlocks<{0}>({1}, {2}, {3}, {4}, {5}, stream)));\n",
        element, matrix, lhs, rhs, k, out);
    return text;
  }
  int64_t lanesTimesVector = int64_t(s.threadsPerNonzero) * s.vectorWidth;
  int64_t vectorsPerLane = (k + lanesTimesVector - 1) / lanesTimesVector;
  text.body += llvm::formatv(
      "    // sopt.sddmm (A · Bᵀ) ⊙ S, S {0}x{1}, k = {2}: tiles of {3} consecutive "
      "nonzeros, {4} lanes per nonzero, vectors of {5}, {6} warps per block\n",
      type.getDimSize(0), type.getDimSize(1), k, s.tileNonzeros, s.threadsPerNonzero,
      s.vectorWidth, s.tilesPerBlock);
  text.body += llvm::formatv(
      "    SOPT_TRY((sopt::launchSddmm<{0}, {1}, {2}, {3}, {4}>({5}, {6}, {7}, {8}, {9}, "
      "{10}, stream)));\n",
      element, s.threadsPerNonzero, s.vectorWidth, vectorsPerLane, s.tileNonzeros, matrix,
      lhs, rhs, k, out, s.tilesPerBlock);
  return text;
}
