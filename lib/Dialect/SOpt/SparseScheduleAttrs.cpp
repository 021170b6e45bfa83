//===- SparseScheduleAttrs.cpp - schedule attributes <-> runtime ----------===//

#include "sparse-opt/Dialect/SOpt/SparseScheduleAttrs.h"

#include "mlir/IR/BuiltinTypes.h"

// The runtime's namespace `::sopt` would make `sopt::` ambiguous after
// `using namespace mlir`: define inside the dialect's namespace instead.
namespace mlir::sopt {

::sopt::RowOrder toRuntimeRowOrder(RowOrder order) {
  switch (order) {
  case RowOrder::Natural:
    return ::sopt::RowOrder::Natural;
  case RowOrder::ByLength:
    return ::sopt::RowOrder::ByLength;
  }
  llvm_unreachable("unknown row order");
}

RowOrder fromRuntimeRowOrder(::sopt::RowOrder order) {
  switch (order) {
  case ::sopt::RowOrder::Natural:
    return RowOrder::Natural;
  case ::sopt::RowOrder::ByLength:
    return RowOrder::ByLength;
  }
  llvm_unreachable("unknown row order");
}

static ::sopt::TileOrder toRuntimeTileOrder(TileOrder order) {
  switch (order) {
  case TileOrder::ByRow:
    return ::sopt::TileOrder::ByRow;
  case TileOrder::ByColumn:
    return ::sopt::TileOrder::ByColumn;
  }
  llvm_unreachable("unknown tile order");
}

static TileOrder fromRuntimeTileOrder(::sopt::TileOrder order) {
  switch (order) {
  case ::sopt::TileOrder::ByRow:
    return TileOrder::ByRow;
  case ::sopt::TileOrder::ByColumn:
    return TileOrder::ByColumn;
  }
  llvm_unreachable("unknown tile order");
}

// The attribute's tilings are the runtime's, value for value.
static_assert(int(SpmmTiling::RowTiles) == int(::sopt::SpmmTiling::RowTiles) &&
              int(SpmmTiling::DenseBlocks) == int(::sopt::SpmmTiling::DenseBlocks) &&
              int(SpmmTiling::StagedSlices) == int(::sopt::SpmmTiling::StagedSlices));

::sopt::SpmmSchedule toRuntimeSchedule(SpmmScheduleAttr attr) {
  ::sopt::SpmmSchedule s;
  s.tileColumns = attr.getTileColumns();
  s.threadsPerTile = attr.getThreadsPerTile();
  s.tilesPerBlock = attr.getTilesPerBlock();
  s.vectorWidth = attr.getVectorWidth();
  s.rowOrder = toRuntimeRowOrder(attr.getRowOrder());
  s.rowSplits = attr.getRowSplits();
  s.tileOrder = toRuntimeTileOrder(attr.getTileOrder());
  s.tiling = static_cast<::sopt::SpmmTiling>(attr.getTiling());
  s.blockRows = attr.getBlockRows();
  s.rowSegment = attr.getRowSegment();
  return s;
}

::sopt::SddmmSchedule toRuntimeSchedule(SddmmScheduleAttr attr) {
  ::sopt::SddmmSchedule s;
  s.tiling = attr.getTiling() == SddmmTiling::DenseBlocks ? ::sopt::SddmmTiling::DenseBlocks
                                                           : ::sopt::SddmmTiling::Nonzeros;
  s.tileNonzeros = attr.getTileNonzeros();
  s.threadsPerNonzero = attr.getThreadsPerNonzero();
  s.tilesPerBlock = attr.getTilesPerBlock();
  s.vectorWidth = attr.getVectorWidth();
  s.rowOrder = toRuntimeRowOrder(attr.getRowOrder());
  s.blockSize = attr.getBlockSize();
  s.kSplits = attr.getKSplits();
  s.columnPanel = attr.getColumnPanel();
  s.transposeRhsFirst = attr.getTransposeRhsFirst();
  return s;
}

SpmmScheduleAttr getSpmmScheduleAttr(MLIRContext *context,
                                           const ::sopt::SpmmSchedule &s) {
  return SpmmScheduleAttr::get(context, s.tileColumns, s.threadsPerTile,
                               s.tilesPerBlock, s.vectorWidth,
                               fromRuntimeRowOrder(s.rowOrder), s.rowSplits,
                               fromRuntimeTileOrder(s.tileOrder),
                               static_cast<SpmmTiling>(s.tiling),
                               s.blockRows, s.rowSegment);
}

SddmmScheduleAttr getSddmmScheduleAttr(MLIRContext *context,
                                             const ::sopt::SddmmSchedule &s) {
  SddmmTiling tiling = s.tiling == ::sopt::SddmmTiling::DenseBlocks ? SddmmTiling::DenseBlocks
                                                                     : SddmmTiling::Nonzeros;
  return SddmmScheduleAttr::get(context, tiling, s.tileNonzeros, s.threadsPerNonzero,
                                s.tilesPerBlock, s.vectorWidth,
                                fromRuntimeRowOrder(s.rowOrder), s.blockSize, s.kSplits,
                                s.columnPanel, s.transposeRhsFirst);
}

int getScheduleElementBytes(Type elementType) {
  if (elementType.isF16() || elementType.isBF16())
    return 2;
  if (elementType.isF32())
    return 4;
  if (elementType.isF64())
    return 8;
  return 0;
}

} // namespace mlir::sopt
