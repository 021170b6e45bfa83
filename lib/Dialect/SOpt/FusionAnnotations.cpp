//===- FusionAnnotations.cpp - the dialect checks the fusion passes' marks ===//
//
// The fusion passes record their decisions as `sopt.*` attributes that later
// passes and the emitter read back instead of recomputing them, so each is
// checked where it is attached: the right kind of value on the right op.
// Whether the marks agree with each other (one backbone per group, ...) is
// checked by the reader (BackboneGrouping::fromMarks).
//
//===----------------------------------------------------------------------===//

#include "sparse-opt/Dialect/SOpt/FusionAnnotations.h"
#include "sparse-opt/Dialect/SOpt/SOptDialect.h"
#include "sparse-opt/Dialect/SOpt/SOptOps.h"
#include "AttributeVerifiers.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::sopt;

namespace {

LogicalResult verifyNonNegativeInteger(Operation *op, NamedAttribute named) {
  auto value = dyn_cast<IntegerAttr>(named.getValue());
  // Read back as int64_t: wider values would not fit.
  if (!value || value.getValue().isNegative() || value.getValue().getActiveBits() > 63)
    return op->emitOpError() << "expects '" << named.getName().getValue()
                             << "' to be a non-negative integer";
  return success();
}

/// Marks on the ops inside a region: the op must be in a sopt.fusion.
LogicalResult verifyInsideFusion(Operation *op, NamedAttribute named) {
  if (!isa_and_present<FusionOp>(op->getParentOp()))
    return op->emitOpError() << "has '" << named.getName().getValue()
                             << "', which only ops of a sopt.fusion carry";
  return success();
}

/// Marks on the region itself.
LogicalResult verifyOnFusion(Operation *op, NamedAttribute named) {
  if (!isa<FusionOp>(op))
    return op->emitOpError() << "has '" << named.getName().getValue()
                             << "', which only a sopt.fusion carries";
  return success();
}

/// A per-input list on a sopt.fusion: one entry per input, each `unit` or
/// of the kind `isEntry` accepts.
LogicalResult verifyPerInput(Operation *op, NamedAttribute named,
                             function_ref<bool(Attribute)> isEntry) {
  if (failed(verifyOnFusion(op, named)))
    return failure();
  auto list = dyn_cast<ArrayAttr>(named.getValue());
  if (!list || list.size() != cast<FusionOp>(op).getInputs().size() ||
      !llvm::all_of(list, [&](Attribute a) {
        return isa<UnitAttr>(a) || isEntry(a);
      }))
    return op->emitOpError() << "expects '" << named.getName().getValue()
                             << "' to hold one entry per input";
  return success();
}

bool isSharedSlot(Attribute a) {
  auto slot = dyn_cast<DenseI64ArrayAttr>(a);
  return slot && slot.size() == 2 && slot[0] >= 0 && slot[1] > 0;
}

} // namespace

// The emitter divides by and multiplies these: each is checked against what a
// CUDA launch can take, so that no attribute reaching it (written by hand, or
// edited --emit=mlir output) makes it divide by zero or overflow.
LogicalResult MappingAttr::verify(function_ref<InFlightDiagnostic()> emitError, MappingKind,
                                  int64_t rows, int64_t cols, int64_t threadsPerBlock,
                                  int64_t threadsPerRow, int64_t rowsPerBlock,
                                  int64_t blocksPerRow, int64_t vectorWidth, int64_t grid) {
  constexpr int64_t kMaxThreads = 1024, kMaxGrid = (int64_t(1) << 31) - 1;
  if (rows < 0 || cols < 0)
    return emitError() << "#sopt.mapping has rows = " << rows << " and cols = " << cols
                       << "; both must be non-negative";
  if (threadsPerBlock < 1 || threadsPerBlock > kMaxThreads)
    return emitError() << "#sopt.mapping has threads_per_block = " << threadsPerBlock
                       << "; CUDA launches 1 to " << kMaxThreads;
  // Each bounded before the product, which would overflow otherwise.
  if (threadsPerRow < 1 || rowsPerBlock < 1 || threadsPerRow > kMaxThreads ||
      rowsPerBlock > kMaxThreads || threadsPerRow * rowsPerBlock != threadsPerBlock)
    return emitError() << "#sopt.mapping has threads_per_row = " << threadsPerRow
                       << " and rows_per_block = " << rowsPerBlock
                       << "; both must be positive, their product threads_per_block ("
                       << threadsPerBlock << ")";
  if (blocksPerRow < 1 || blocksPerRow > kMaxGrid)
    return emitError() << "#sopt.mapping has blocks_per_row = " << blocksPerRow
                       << "; it must be 1 to " << kMaxGrid;
  if (vectorWidth != 1 && vectorWidth != 2 && vectorWidth != 4 && vectorWidth != 8)
    return emitError() << "#sopt.mapping has vector_width = " << vectorWidth
                       << "; accesses move 1, 2, 4 or 8 elements";
  if (grid < 1 || grid > kMaxGrid)
    return emitError() << "#sopt.mapping has grid = " << grid << "; CUDA launches 1 to "
                       << kMaxGrid << " blocks";
  return success();
}

LogicalResult sopt::verifyFusionAnnotation(Operation *op, NamedAttribute named) {
  StringRef name = named.getName().getValue();
  Attribute value = named.getValue();
  if (name == attr::kGroup)
    return failure(failed(verifyInsideFusion(op, named)) ||
                   failed(verifyNonNegativeInteger(op, named)));
  if (name == attr::kBackbone || name == attr::kSubBackbone) {
    if (!isa<UnitAttr>(value) || !isa<ReduceOp>(op) ||
        !op->hasAttr(attr::kGroup))
      return op->emitOpError() << "has '" << name
                               << "', which marks a grouped sopt.reduce";
    if (op->hasAttr(attr::kBackbone) && op->hasAttr(attr::kSubBackbone))
      return op->emitOpError("is marked both backbone and sub-backbone");
    return success();
  }
  if (name == attr::kIndexMap) {
    auto map = dyn_cast<AffineMapAttr>(value);
    auto type = op->getNumResults() == 1
                    ? dyn_cast<RankedTensorType>(op->getResult(0).getType())
                    : RankedTensorType();
    if (failed(verifyInsideFusion(op, named)))
      return failure();
    if (!map || !type || map.getValue().getNumResults() != type.getRank() ||
        map.getValue().getNumSymbols() != 0)
      return op->emitOpError("expects 'sopt.index_map' to map the group's "
                             "iteration space to the result's indices");
    return success();
  }
  if (name == attr::kMapping) {
    if (!isa<MappingAttr>(value))
      return op->emitOpError("expects 'sopt.mapping' to be a #sopt.mapping");
    return verifyInsideFusion(op, named);
  }
  if (name == attr::kCache || name == attr::kResultMemory) {
    if (!isa<MemoryLevelAttr>(value))
      return op->emitOpError() << "expects '" << name << "' to be a #sopt.memory";
    return verifyInsideFusion(op, named);
  }
  if (name == attr::kSharedSlot) {
    if (!isSharedSlot(value))
      return op->emitOpError("expects 'sopt.smem' to be [offset, bytes]");
    return verifyInsideFusion(op, named);
  }
  if (name == attr::kArgCache)
    return verifyPerInput(op, named, [](Attribute a) { return isa<MemoryLevelAttr>(a); });
  if (name == attr::kArgSharedSlot)
    return verifyPerInput(op, named, isSharedSlot);
  if (name == attr::kSharedBytes || name == attr::kGridBarriers ||
      name == attr::kResidentBlocks || name == attr::kSparseEpilogue) {
    if (failed(verifyOnFusion(op, named)) || failed(verifyNonNegativeInteger(op, named)))
      return failure();
    // The input that receives the sparse or GEMM product's accumulator.
    if (name == attr::kSparseEpilogue &&
        cast<IntegerAttr>(value).getInt() >= int64_t(cast<FusionOp>(op).getInputs().size()))
      return op->emitOpError() << "has 'sopt.sparse_epilogue' = " << cast<IntegerAttr>(value).getInt()
                               << ", but only " << cast<FusionOp>(op).getInputs().size()
                               << " inputs";
    return success();
  }
  return success();
}
