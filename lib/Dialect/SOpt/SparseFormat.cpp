//===- SparseFormat.cpp - classify sparse encodings -----------------------===//

#include "sparse-opt/Dialect/SOpt/SparseFormat.h"

#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensorType.h"

using namespace mlir;
using namespace mlir::sparse_tensor;

namespace {
bool isPlainDense(LevelType lt) { return isDenseLT(lt); }
bool isPlainCompressed(LevelType lt) {
  return isCompressedLT(lt) && isOrderedLT(lt) && isUniqueLT(lt);
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
      isBlockSparsity(enc.getDimToLvl()))
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
