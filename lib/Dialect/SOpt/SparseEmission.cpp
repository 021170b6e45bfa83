//===- SparseEmission.cpp - sopt.pattern_tables, #sopt.sparse_launch -----===//

#include "sparse-opt/Dialect/SOpt/SparseEmission.h"

#include "AttributeVerifiers.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::sopt;

PatternTablesOp mlir::sopt::getPatternTables(Operation *product) {
  auto ref = product->getAttrOfType<FlatSymbolRefAttr>(attr::kPatternTables);
  if (!ref)
    return nullptr;
  return dyn_cast_or_null<PatternTablesOp>(
      SymbolTable::lookupNearestSymbolFrom(product, ref));
}

SparseLaunchAttr mlir::sopt::getSparseLaunch(Operation *product) {
  return product->getAttrOfType<SparseLaunchAttr>(attr::kSparseLaunch);
}

std::vector<int32_t> mlir::sopt::getTableValues(ElementsAttr table) {
  if (auto resource = dyn_cast<DenseI32ResourceElementsAttr>(table)) {
    std::optional<ArrayRef<int32_t>> values = resource.tryGetAsArrayRef();
    return values ? std::vector<int32_t>(values->begin(), values->end())
                  : std::vector<int32_t>();
  }
  auto dense = cast<DenseIntElementsAttr>(table);
  std::vector<int32_t> values;
  values.reserve(dense.getNumElements());
  for (const APInt &v : dense.getValues<APInt>())
    values.push_back(int32_t(v.getSExtValue()));
  return values;
}

ElementsAttr mlir::sopt::getTableAttr(MLIRContext *context, StringRef blobName,
                                      ArrayRef<int32_t> values, int64_t inlineLimit) {
  auto type = RankedTensorType::get({int64_t(values.size())},
                                    IntegerType::get(context, 32));
  if (int64_t(values.size()) <= inlineLimit)
    return DenseIntElementsAttr::get(type, values);
  return cast<ElementsAttr>(Attribute(DenseI32ResourceElementsAttr::get(
      type, blobName, HeapAsmResourceBlob::allocateAndCopyInferAlign(values))));
}

namespace {

/// A 1-D i32 table of `expected` values (any length when negative), whose
/// blob, for a dense_resource, is present.
LogicalResult verifyTable(PatternTablesOp op, StringRef name,
                          std::optional<ElementsAttr> table, int64_t expected) {
  if (!table)
    return success();
  auto type = dyn_cast<RankedTensorType>(table->getType());
  if (!type || type.getRank() != 1 || !type.getElementType().isSignlessInteger(32))
    return op.emitOpError("'") << name << "' must be a 1-D tensor of i32, got "
                               << table->getType();
  if (!isa<DenseIntElementsAttr, DenseI32ResourceElementsAttr>(*table))
    return op.emitOpError("'") << name << "' must be dense<...> or dense_resource<...>";
  if (auto resource = dyn_cast<DenseI32ResourceElementsAttr>(*table);
      resource && !resource.tryGetAsArrayRef())
    return op.emitOpError("'") << name << "' names a resource blob that is missing";
  if (expected >= 0 && type.getDimSize(0) != expected)
    return op.emitOpError("'") << name << "' holds " << type.getDimSize(0)
                               << " values, but the pattern needs " << expected;
  return success();
}

/// A sparse attention's row plan: `split_rows` with `split_length`, and
/// `unsplit_rows` only beside them; every row in at most one table, and in
/// one when the other rows are listed (the kernel takes each listed row
/// once).
LogicalResult verifyRowPlan(PatternTablesOp op) {
  if (op.getSplitRows().has_value() != op.getSplitLength().has_value())
    return op.emitOpError("needs 'split_length' with 'split_rows' and only then");
  if (op.getUnsplitRows() && !op.getSplitRows())
    return op.emitOpError("needs 'split_rows' with 'unsplit_rows'");
  if (!op.getSplitRows())
    return success();
  if (failed(verifyTable(op, "split_rows", op.getSplitRows(), -1)) ||
      failed(verifyTable(op, "unsplit_rows", op.getUnsplitRows(), -1)))
    return failure();
  const int64_t rows = op.getRows();
  std::vector<int32_t> split = getTableValues(*op.getSplitRows());
  std::vector<int32_t> unsplit;
  if (op.getUnsplitRows())
    unsplit = getTableValues(*op.getUnsplitRows());
  else if (!split.empty())
    return op.emitOpError("splits rows but lists no 'unsplit_rows' for the others");
  if (op.getUnsplitRows() && int64_t(split.size() + unsplit.size()) != rows)
    return op.emitOpError("plans ") << split.size() << " split and " << unsplit.size()
                                    << " unsplit rows, but the pattern has " << rows;
  std::vector<bool> seen(size_t(rows), false);
  for (int32_t row : llvm::concat<int32_t>(split, unsplit)) {
    if (row < 0 || row >= rows)
      return op.emitOpError("plans row ") << row << ", outside the pattern's " << rows;
    if (seen[size_t(row)])
      return op.emitOpError("plans row ") << row << " twice";
    seen[size_t(row)] = true;
  }
  return success();
}

} // namespace

LogicalResult PatternTablesOp::verify() {
  if (getRows() < 0 || getCols() < 0 || getNnz() < 0)
    return emitOpError("has a negative rows, cols or nnz");
  if (getRows() > INT32_MAX || getCols() > INT32_MAX || getNnz() > INT32_MAX)
    return emitOpError("describes a pattern past 32-bit indices, which the "
                       "project's sparse kernels take");
  const int64_t rows = getRows(), nnz = getNnz();
  if (failed(verifyTable(*this, "row_order", getRowOrder(), rows)) ||
      failed(verifyTable(*this, "row_segments", getRowSegments(), -1)) ||
      failed(verifyTable(*this, "column_windows", getColumnWindows(), -1)) ||
      failed(verifyTable(*this, "occupied_blocks", getOccupiedBlocks(), -1)) ||
      failed(verifyTable(*this, "occupied_windows", getOccupiedWindows(), -1)) ||
      failed(verifyTable(*this, "positions", getPositions(), rows + 1)) ||
      failed(verifyTable(*this, "transpose_positions", getTransposePositions(), rows + 1)) ||
      failed(verifyTable(*this, "transpose_coordinates", getTransposeCoordinates(), nnz)) ||
      failed(verifyTable(*this, "transpose_permutation", getTransposePermutation(), nnz)))
    return failure();
  if (getRowSegments().has_value() != getLongRows().has_value())
    return emitOpError("needs 'long_rows' with 'row_segments' and only then");
  if (getOccupiedWindows().has_value() != getOccupiedBlocks().has_value())
    return emitOpError("needs 'occupied_windows' with 'occupied_blocks' and only then");
  bool transpose = getTransposePositions().has_value();
  if (getTransposeCoordinates().has_value() != transpose ||
      getTransposePermutation().has_value() != transpose)
    return emitOpError("needs all three transpose tables or none");
  return verifyRowPlan(*this);
}

LogicalResult SparseLaunchAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                       bool storesTransposed, int64_t resultWorkspace,
                                       bool transposesSparse, int64_t segmentWorkspace,
                                       bool transposesRhs, int64_t rhsWorkspace,
                                       int64_t planesWorkspace,
                                       int warpsPerBlock, bool columnPanels) {
  if (resultWorkspace < 0 || segmentWorkspace < 0 || rhsWorkspace < 0 || planesWorkspace < 0)
    return emitError() << "a workspace of a negative number of elements";
  if (rhsWorkspace > 0 && !transposesRhs)
    return emitError() << "rhs_workspace is for transposes_rhs";
  if (storesTransposed && resultWorkspace > 0)
    return emitError() << "stores_transposed needs no result_workspace";
  // A block of 32 warps is the most CUDA runs.
  if (warpsPerBlock < 0 || warpsPerBlock > 32)
    return emitError() << "warps_per_block must be 0 to 32, got " << warpsPerBlock;
  if (columnPanels && warpsPerBlock == 0)
    return emitError() << "column_panels is for an SDDMM tiles launch (warps_per_block > 0)";
  return success();
}

LogicalResult sopt::verifySparseEmissionAttribute(Operation *op, NamedAttribute attribute) {
  StringAttr name = attribute.getName();
  if (name != attr::kPatternTables && name != attr::kSparseLaunch)
    return success();
  const bool attention = isa<SparseAttentionOp>(op);
  if (!isa<SpmmOp, SddmmOp>(op) && !(attention && name == attr::kPatternTables))
    return op->emitOpError("'") << name.getValue() << "' is for a sopt.spmm or sopt.sddmm"
                                << (name == attr::kPatternTables ? " or sopt.sparse_attention"
                                                                 : "");
  if (name == attr::kSparseLaunch) {
    if (!isa<SparseLaunchAttr>(attribute.getValue()))
      return op->emitOpError("'") << name.getValue() << "' must be a #sopt.sparse_launch";
    return success();
  }
  auto ref = dyn_cast<FlatSymbolRefAttr>(attribute.getValue());
  if (!ref)
    return op->emitOpError("'") << name.getValue() << "' must name a sopt.pattern_tables op (@name)";
  auto tables =
      dyn_cast_or_null<PatternTablesOp>(SymbolTable::lookupNearestSymbolFrom(op, ref));
  if (!tables)
    return op->emitOpError("'") << name.getValue() << "' names " << ref
                                << ", which is not a sopt.pattern_tables op";
  if (!attention)
    return success();
  // The launch reads the row plan, made for a pattern of this many rows.
  auto pattern = cast<RankedTensorType>(cast<SparseAttentionOp>(op).getPattern().getType());
  if (!tables.getSplitRows())
    return op->emitOpError("'") << name.getValue() << "' names " << ref
                                << ", which holds no row plan ('split_rows')";
  if (int64_t(tables.getRows()) != pattern.getDimSize(0))
    return op->emitOpError("'") << name.getValue() << "' names " << ref << ", planned for "
                                << tables.getRows() << " rows, but the pattern has "
                                << pattern.getDimSize(0);
  return success();
}
