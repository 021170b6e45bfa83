//===- IndexableExtents.cpp - sizes the generated code can index ----------===//

#include "sparse-opt/Dialect/SOpt/IndexableExtents.h"

#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

std::optional<int64_t> mlir::sopt::checkedElementCount(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t extent : shape)
    if (ShapedType::isDynamic(extent) || extent < 0 ||
        llvm::MulOverflow(count, extent, count))
      return std::nullopt;
  return count;
}

LogicalResult
mlir::sopt::verifyIndexableType(Type type, const Twine &what,
                                function_ref<InFlightDiagnostic()> emitError) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return success();
  std::optional<int64_t> count = checkedElementCount(tensor.getShape());
  if (!count)
    return emitError() << what << " of type " << type
                       << " has more elements than a 64-bit count holds";
  // Strides are products of trailing extents, in an empty tensor too (a
  // batch of 0 of 2^63 x 2^47 matrices): the non-zero extents are what the
  // index arithmetic multiplies.
  SmallVector<int64_t> spanned;
  for (int64_t extent : tensor.getShape())
    spanned.push_back(std::max<int64_t>(extent, 1));
  std::optional<int64_t> span = checkedElementCount(spanned);
  if (!span)
    return emitError() << what << " of type " << type
                       << " is empty, but its other extents multiply past a 64-bit count";
  if (sparse_tensor::getSparseTensorEncoding(tensor))
    return success(); // only its stored entries are ever allocated
  Type element = tensor.getElementType();
  int64_t elementBytes =
      element.isIntOrFloat() ? std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8) : 8;
  int64_t bytes;
  if (llvm::MulOverflow(*span, elementBytes, bytes) || bytes > kMaxTensorBytes)
    return emitError() << what << " of type " << type
                       << (*count == 0 ? " is empty, but its other extents span"
                                       : " holds")
                       << " more than 2^48 bytes, beyond what the generated code indexes";
  return success();
}

LogicalResult mlir::sopt::verifyIndexableExtents(Operation *op) {
  auto emitError = [op] { return op->emitOpError(); };
  for (auto [i, type] : llvm::enumerate(op->getOperandTypes()))
    if (failed(verifyIndexableType(type, "operand #" + Twine(i), emitError)))
      return failure();
  for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
    if (failed(verifyIndexableType(type, "result #" + Twine(i), emitError)))
      return failure();
  return success();
}
