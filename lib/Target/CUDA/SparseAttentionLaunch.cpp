//===- SparseAttentionLaunch.cpp - host code for sopt.sparse_attention ----===//

#include "SparseAttentionLaunch.h"
#include "CudaSyntax.h"

#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::sopt;
using namespace mlir::sopt::cuda;

std::string mlir::sopt::cuda::describeSparseAttention(SparseAttentionOp op) {
  RankedTensorType q = op.getQuery().getType(), v = op.getValue().getType();
  int64_t heads = 1;
  for (int64_t d : q.getShape().drop_back(2))
    heads *= d;
  return llvm::formatv("sopt.sparse_attention, fused SDDMM + softmax over stored entries + "
                       "SpMM; heads {0}, head dims {1} / {2}; rows in order, none split",
                       heads, q.getDimSize(q.getRank() - 1), v.getDimSize(v.getRank() - 1))
      .str();
}

FailureOr<std::string>
mlir::sopt::cuda::emitSparseAttentionLaunch(SparseAttentionOp op, const CsrExpressions &pattern,
                                            StringRef query, StringRef key, StringRef value,
                                            StringRef out) {
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
  // The kernel's lanes hold at most 256 elements of a row element by
  // element; beyond that the dispatch refuses the problem at run time.
  return llvm::formatv(
             "    {{\n"
             "      // {0}\n"
             "      sopt::SparseAttentionProblem<{1}> p;\n"
             "      p.rows = {2}; p.cols = {3}; p.nnz = {4}; p.heads = {5};\n"
             "      p.queryDim = {6}; p.valueDim = {7};\n"
             "      p.positions = {8}; p.coordinates = {9}; p.patternValues = {10};\n"
             "      p.q = {11}; p.k = {12}; p.v = {13}; p.out = {14};\n"
             "      p.scale = {15};\n"
             "      SOPT_TRY(sopt::runSparseAttention(p, sopt::SparseAttentionRows{{}, stream));\n"
             "    }\n",
             describeSparseAttention(op), *storageType(element), s.getDimSize(0),
             s.getDimSize(1), pattern.nnz, heads, q.getDimSize(q.getRank() - 1),
             v.getDimSize(v.getRank() - 1), pattern.positions, pattern.coordinates,
             pattern.values, query, key, value, out,
             floatLiteral(op.getScale().convertToDouble()))
      .str();
}
