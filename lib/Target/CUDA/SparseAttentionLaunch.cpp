//===- SparseAttentionLaunch.cpp - host code for sopt.sparse_attention ----===//

#include "SparseAttentionLaunch.h"
#include "CudaSyntax.h"

#include "sparse-opt/Dialect/SOpt/SparseEmission.h"

#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::sopt;
using namespace mlir::sopt::cuda;

namespace {

/// The row plan sopt-prepare-sparse-emission made for `op` from its
/// pattern file: the rows split across a block and the others' order
/// (both empty when nothing is known or no row is long).
struct RowPlan {
  PatternTablesOp tables;
  std::vector<int32_t> split, unsplit;
  int64_t splitLength = 0;

  explicit RowPlan(SparseAttentionOp op) : tables(getPatternTables(op)) {
    if (!tables || !tables.getSplitRows())
      return;
    split = getTableValues(*tables.getSplitRows());
    if (tables.getUnsplitRows())
      unsplit = getTableValues(*tables.getUnsplitRows());
    splitLength = int64_t(*tables.getSplitLength());
  }
  bool empty() const { return split.empty() && unsplit.empty(); }
};

} // namespace

std::string mlir::sopt::cuda::describeSparseAttention(SparseAttentionOp op) {
  RankedTensorType q = op.getQuery().getType(), v = op.getValue().getType();
  int64_t heads = 1;
  for (int64_t d : q.getShape().drop_back(2))
    heads *= d;
  RowPlan plan(op);
  std::string rows = "rows in order, none split";
  if (plan.tables)
    rows = llvm::formatv("{0} long rows split (over {1} entries)", plan.split.size(),
                         plan.splitLength)
               .str();
  return llvm::formatv("sopt.sparse_attention, fused SDDMM + softmax over stored entries + "
                       "SpMM; heads {0}, head dims {1} / {2}; {3}",
                       heads, q.getDimSize(q.getRank() - 1), v.getDimSize(v.getRank() - 1),
                       rows)
      .str();
}

FailureOr<SparseLaunchText>
mlir::sopt::cuda::emitSparseAttentionLaunch(SparseAttentionOp op, const CsrExpressions &pattern,
                                            StringRef query, StringRef key, StringRef value,
                                            StringRef out, StringRef tablePrefix) {
  RankedTensorType q = op.getQuery().getType(), v = op.getValue().getType();
  RankedTensorType s = op.getPattern().getType();
  auto encoding = sparse_tensor::getSparseTensorEncoding(s);
  if (encoding.getPosWidth() != 32 || encoding.getCrdWidth() != 32)
    return op.emitOpError("runs on the fused kernel only with 32-bit positions and "
                          "coordinates (posWidth = 32, crdWidth = 32)");
  Type element = q.getElementType();
  if (!element.isF32() && !element.isF16() && !element.isBF16())
    return op.emitOpError("runs on the fused kernel only in f32, f16 or bf16");
  int64_t heads = 1;
  for (int64_t d : q.getShape().drop_back(2))
    heads *= d;
  SparseLaunchText text;
  // Without a plan (no pattern known, or no long row) every row takes a
  // lane group, in order: the empty plan.
  std::string rows = "sopt::SparseAttentionRows{}";
  RowPlan plan(op);
  if (!plan.empty()) {
    const std::string file = plan.tables.getPattern().str();
    std::string split = "nullptr", unsplit = "nullptr";
    if (!plan.split.empty())
      split = emitPatternTable(
          (tablePrefix + "_split_rows").str(),
          llvm::formatv("// Rows of {0} over {1} entries, longest first: a block per head each.",
                        file, plan.splitLength)
              .str(),
          "split rows were", plan.split, int64_t(plan.tables.getNnz()), pattern, text);
    if (!plan.unsplit.empty())
      unsplit = emitPatternTable(
          (tablePrefix + "_unsplit_rows").str(),
          "// The other rows of " + file + ", in the order the lane groups take them.",
          "unsplit rows were", plan.unsplit, int64_t(plan.tables.getNnz()), pattern, text);
    rows = llvm::formatv("sopt::SparseAttentionRows{{{0}, {1}, {2}, {3}}", split,
                         plan.split.size(), unsplit, plan.unsplit.size())
               .str();
  }
  // The kernel's lanes hold at most 256 elements of a row element by
  // element; beyond that the dispatch refuses the problem at run time.
  text.body += llvm::formatv(
                   "    {{\n"
                   "      // {0}\n"
                   "      sopt::SparseAttentionProblem<{1}> p;\n"
                   "      p.rows = {2}; p.cols = {3}; p.nnz = {4}; p.heads = {5};\n"
                   "      p.queryDim = {6}; p.valueDim = {7};\n"
                   "      p.positions = {8}; p.coordinates = {9}; p.patternValues = {10};\n"
                   "      p.q = {11}; p.k = {12}; p.v = {13}; p.out = {14};\n"
                   "      p.scale = {15};\n"
                   "      SOPT_TRY(sopt::runSparseAttention(p, {16}, stream));\n"
                   "    }\n",
                   describeSparseAttention(op), *storageType(element), s.getDimSize(0),
                   s.getDimSize(1), pattern.nnz, heads, q.getDimSize(q.getRank() - 1),
                   v.getDimSize(v.getRank() - 1), pattern.positions, pattern.coordinates,
                   pattern.values, query, key, value, out,
                   floatLiteral(op.getScale().convertToDouble()), rows)
                   .str();
  return text;
}
