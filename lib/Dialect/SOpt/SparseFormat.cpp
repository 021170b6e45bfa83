//===- SparseFormat.cpp - classify sparse encodings -----------------------===//

#include "sparse-opt/Dialect/SOpt/SparseFormat.h"

#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensorType.h"
#include "mlir/IR/AffineExpr.h"

using namespace mlir;
using namespace mlir::sparse_tensor;

namespace {
bool isPlainDense(LevelType lt) { return isDenseLT(lt); }
bool isPlainCompressed(LevelType lt) {
  return isCompressedLT(lt) && isOrderedLT(lt) && isUniqueLT(lt);
}

/// `d<dim> <kind> <block>` with a constant block size.
bool isBlockExpr(AffineExpr expr, AffineExprKind kind, unsigned dim) {
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin || bin.getKind() != kind || !isa<AffineConstantExpr>(bin.getRHS()))
    return false;
  auto d = dyn_cast<AffineDimExpr>(bin.getLHS());
  return d && d.getPosition() == dim;
}

/// Row-major blocks in row-major block order:
/// (i, j) -> (i floordiv a, j floordiv b, i mod a, j mod b).
bool isRowMajorBlockMap(AffineMap map) {
  if (map.getNumResults() != 4 || !isBlockSparsity(map))
    return false;
  ArrayRef<AffineExpr> r = map.getResults();
  return isBlockExpr(r[0], AffineExprKind::FloorDiv, 0) &&
         isBlockExpr(r[1], AffineExprKind::FloorDiv, 1) &&
         isBlockExpr(r[2], AffineExprKind::Mod, 0) &&
         isBlockExpr(r[3], AffineExprKind::Mod, 1);
}
} // namespace

std::optional<sopt::SparseFormat>
sopt::getSparseFormat(RankedTensorType type) {
  SparseTensorEncodingAttr enc = getSparseTensorEncoding(type);
  if (!enc || type.getRank() != 2)
    return std::nullopt;
  ArrayRef<LevelType> lvls = enc.getLvlTypes();
  if (lvls.size() == 2 && isPlainDense(lvls[0]) && isPlainCompressed(lvls[1])) {
    if (enc.isIdentity())
      return SparseFormat::CSR;
    if (enc.isPermutation())
      return SparseFormat::CSC; // the only non-identity 2-D permutation
    return std::nullopt;
  }
  if (lvls.size() == 4 && isPlainDense(lvls[0]) && isPlainCompressed(lvls[1]) &&
      isPlainDense(lvls[2]) && isPlainDense(lvls[3]) &&
      isRowMajorBlockMap(enc.getDimToLvl()))
    return SparseFormat::BSR;
  return std::nullopt;
}

bool sopt::hasSupportedIndexWidths(RankedTensorType type) {
  SparseTensorEncodingAttr enc = getSparseTensorEncoding(type);
  auto supported = [](unsigned width) {
    return width == 0 || width == 32 || width == 64;
  };
  return enc && supported(enc.getPosWidth()) && supported(enc.getCrdWidth());
}

StringRef sopt::stringifySparseFormat(SparseFormat format) {
  switch (format) {
  case SparseFormat::CSR:
    return "CSR";
  case SparseFormat::CSC:
    return "CSC";
  case SparseFormat::BSR:
    return "BSR";
  }
  llvm_unreachable("unknown sparse format");
}
