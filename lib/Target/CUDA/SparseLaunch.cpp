//===- SparseLaunch.cpp - host code launching our SpMM/SDDMM kernels -------===//

#include "SparseLaunch.h"
#include "CudaSyntax.h"

#include "sparse-opt/Dialect/SOpt/SparseEmission.h"
#include "sparse-opt/Dialect/SOpt/SparseFormat.h"
#include "sparse-opt/Dialect/SOpt/SparseScheduleAttrs.h"

#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::sopt;
using namespace mlir::sopt::cuda;

namespace {

const char *rowOrderProse(::sopt::RowOrder order) {
  return order == ::sopt::RowOrder::ByLength ? "longest rows first" : "rows in order";
}

/// How an SpMM's grid is laid out, for the comment above its launch: the row
/// order, and the row splits and tile order where they are not the default.
std::string spmmGridText(const ::sopt::SpmmSchedule &s) {
  std::string text = rowOrderProse(s.rowOrder);
  if (s.rowSplits > 1)
    text += ", each row's nonzeros split over " + std::to_string(s.rowSplits) + " groups";
  if (s.tileOrder == ::sopt::TileOrder::ByColumn)
    text += ", tiles by column slice";
  if (s.rowSegment > 0)
    text += ", rows longer than " + std::to_string(s.rowSegment) + " nonzeros cut into "
            "segments of that many, added by a second kernel";
  return text;
}

const char *tileOrderEnumerator(::sopt::TileOrder order) {
  return order == ::sopt::TileOrder::ByColumn ? "sopt::TileOrder::ByColumn"
                                              : "sopt::TileOrder::ByRow";
}

/// The launch sopt-prepare-sparse-emission decided for `op` (its
/// #sopt.sparse_launch), or a located error when it has none.
FailureOr<SparseLaunchAttr> getLaunch(Operation *op) {
  if (SparseLaunchAttr launch = getSparseLaunch(op))
    return launch;
  return op->emitOpError("has a schedule but no '")
         << attr::kSparseLaunch
         << "' (#sopt.sparse_launch): run sopt-prepare-sparse-emission before the CUDA emitter";
}

/// Our kernels index CSR arrays with 32-bit integers.
LogicalResult checkIndexWidths(Operation *op, Value sparse) {
  auto enc = sparse_tensor::getSparseTensorEncoding(sparse.getType());
  if (enc && enc.getPosWidth() == 32 && enc.getCrdWidth() == 32)
    return success();
  auto spmm = dyn_cast<SpmmOp>(op);
  if (spmm && spmm.isDenseTimesSparse())
    return op->emitOpError("has a schedule, but the project's sparse kernels take CSR "
                           "or CSC with 32-bit positions and coordinates (posWidth = "
                           "32, crdWidth = 32), and dense x sparse products have no "
                           "other lowering");
  return op->emitOpError("has a schedule, but the project's sparse kernels take CSR "
                         "with 32-bit positions and coordinates (posWidth = 32, "
                         "crdWidth = 32); drop the schedule to use cuSPARSE");
}

/// The tables sopt-prepare-sparse-emission prepared for a product from its
/// pattern file (sopt.pattern_tables), or none (`known()` false).
struct KnownPattern {
  // An op handle is a value, but its accessors are not const.
  mutable PatternTablesOp tables;
  std::string path;
  bool transposed = false;
  int64_t rows = 0, cols = 0, nnz = 0;

  explicit KnownPattern(Operation *product) : tables(getPatternTables(product)) {
    if (!tables)
      return;
    path = tables.getPattern().str();
    transposed = tables.getTransposed();
    rows = tables.getRows();
    cols = tables.getCols();
    nnz = tables.getNnz();
  }
  bool known() const { return static_cast<bool>(tables); }
};

/// Whether the tables of a dense × CSR product hold its pattern's transpose.
bool hasPreparedTranspose(SpmmOp op) {
  KnownPattern known(op);
  return known.known() && known.tables.getTransposePositions().has_value();
}

} // namespace

std::string cuda::emitPatternTable(StringRef name, StringRef comment, StringRef what,
                                   ArrayRef<int32_t> values, int64_t nnz,
                                   const CsrExpressions &csr, SparseLaunchText &text) {
  std::string table;
  llvm::raw_string_ostream os(table);
  os << comment << "\nstatic const int32_t " << name << "_host[] = {";
  for (auto [i, v] : llvm::enumerate(values))
    os << (i % 16 == 0 ? "\n    " : " ") << v << ",";
  if (values.empty())
    os << "0";
  os << "\n};\nstatic sopt::DeviceTable " << name << "_device;\n\n";
  text.statics += table;
  text.body += llvm::formatv(
      "    // The {3} prepared for a pattern of {1} nonzeros.\n"
      "    if ({2} != {1})\n"
      "      return cudaErrorInvalidValue;\n"
      "    const int32_t *{0} = nullptr;\n"
      "    SOPT_TRY({0}_device.copy({0}_host, sizeof({0}_host) / sizeof(int32_t), &{0}));\n",
      name, nnz, csr.nnz, what);
  return name.str();
}

namespace {

/// The row order of the schedule as `statics` + the expression of the device
/// pointer (nullptr for rows in order), and a guard that the caller passes
/// the pattern the order was prepared for (`pattern`: prepared from a
/// pattern file's transpose for dense × sparse).
LogicalResult emitRowOrder(Operation *op, const KnownPattern &pattern, ::sopt::RowOrder order,
                           StringRef name, const CsrExpressions &csr, SparseLaunchText &text,
                           std::string &pointer) {
  pointer = "nullptr";
  if (order == ::sopt::RowOrder::Natural)
    return success();
  if (!pattern.known() || !pattern.tables.getRowOrder())
    return op->emitOpError("visits rows longest first (row_order = by_length) but names no "
                           "prepared row order: run sopt-prepare-sparse-emission, with a "
                           "sopt.sparsity_pattern file on the sparse function argument");
  pointer = emitPatternTable(
      name,
      "// Rows of " + pattern.path + (pattern.transposed ? " transposed" : "") +
          ", longest first.",
      "order was", getTableValues(*pattern.tables.getRowOrder()), pattern.nnz, csr, text);
  return success();
}

/// The long rows' segments of a row-tile schedule with `row_segment`
/// (prepared with sopt_csr_row_segments over the row order, as `statics`)
/// and a temporary for their partial sums, as the
/// expression of the sopt::RowSegments argument, its partial sums in a
/// temporary of `workspace` floats; empty when no row is that long (the
/// tables hold none).
LogicalResult emitRowSegments(Operation *op, const KnownPattern &pattern, int segment,
                              int64_t workspace,
                              StringRef name, const CsrExpressions &csr, SparseLaunchText &text,
                              std::string &argument) {
  argument.clear();
  if (segment <= 0)
    return success();
  if (!pattern.known())
    return op->emitOpError("cuts long rows into segments (row_segment) but names no prepared "
                           "tables: run sopt-prepare-sparse-emission, with a "
                           "sopt.sparsity_pattern file on the sparse function argument");
  std::optional<ElementsAttr> segments = pattern.tables.getRowSegments();
  if (!segments)
    return success();
  std::vector<int32_t> table = getTableValues(*segments);
  const int64_t longRows = *pattern.tables.getLongRows();
  // The table: the segments' rows and first entries (count + count + 1),
  // then each long row's first segment.
  const int64_t count = (int64_t(table.size()) - longRows - 1) / 2;
  std::string device = emitPatternTable(
      name,
      llvm::formatv("// The {0} rows of {1}{2} longer than {3} nonzeros, in {4} segments of at "
                    "most {3}\n// (sopt_csr_row_segments: segments' rows, their first "
                    "entries, each row's first segment).",
                    longRows, pattern.path, pattern.transposed ? " transposed" : "", segment,
                    count)
          .str(),
      "segments were", table, pattern.nnz, csr, text);
  const std::string partials = name.str() + "_partials";
  text.temporaries.push_back({partials, "float", std::to_string(workspace)});
  argument = llvm::formatv("sopt::RowSegments{{{0}, {1}, {2}, {3}, {4}}", device, count,
                           longRows, segment, partials);
  return success();
}

/// Where the rows of an SDDMM pattern known at compile time reach each
/// block of `block` columns (prepared with sopt_csr_column_windows), as
/// `statics` + the expression of the device pointer, uploaded on first use
/// like the row order; nullptr (the blocks search their rows) without them.
std::string emitColumnWindows(const KnownPattern &pattern, int block, StringRef name,
                              const CsrExpressions &csr, SparseLaunchText &text) {
  if (!pattern.known() || !pattern.tables.getColumnWindows())
    return "nullptr";
  return emitPatternTable(name,
                          "// Where the rows of " + pattern.path + " reach each block of " +
                              std::to_string(block) + " columns\n// (sopt_csr_column_windows).",
                          "windows were", getTableValues(*pattern.tables.getColumnWindows()),
                          pattern.nnz, csr, text);
}

/// The blocks of `block` x `block` holding entries of an SDDMM pattern known
/// at compile time (prepared with sopt_csr_occupied_blocks), as `statics` +
/// the expression of the sopt::OccupiedBlocks argument that launches only
/// them, and their rows' column windows (sopt_csr_block_windows) as
/// `statics` + the device pointer's expression in `windows`; both empty
/// when the tables hold none (the pattern is not known or fills enough
/// blocks: a banded pattern, such as a sliding-window attention mask,
/// leaves most of them empty).
std::string emitOccupiedBlocks(const KnownPattern &pattern, int block, StringRef name,
                               const CsrExpressions &csr, SparseLaunchText &text,
                               std::string &windows) {
  windows.clear();
  if (!pattern.known() || !pattern.tables.getOccupiedBlocks())
    return "";
  std::vector<int32_t> blocks = getTableValues(*pattern.tables.getOccupiedBlocks());
  const int64_t count = int64_t(blocks.size());
  const int64_t columnBlocks = (pattern.cols + block - 1) / block;
  const int64_t all = (pattern.rows + block - 1) / block * columnBlocks;
  std::string table = emitPatternTable(
      name,
      llvm::formatv("// The {0} of {1} blocks of {2}x{2} that hold entries of {3}\n// "
                    "(sopt_csr_occupied_blocks: row block * {4} + column block).",
                    count, all, block, pattern.path, columnBlocks)
          .str(),
      "occupied blocks were", blocks, pattern.nnz, csr, text);
  windows = emitPatternTable(
      (name + "_windows").str(),
      llvm::formatv("// Where the rows of each of those blocks reach its columns\n// "
                    "(sopt_csr_block_windows: first entry and end, {0} rows a block).",
                    block)
          .str(),
      "windows were", getTableValues(*pattern.tables.getOccupiedWindows()), pattern.nnz, csr,
      text);
  return llvm::formatv("sopt::OccupiedBlocks{{{0}, {1}}", table, count).str();
}

/// The row of every entry of an SDDMM pattern known at compile time, as the
/// expression of a device pointer: the pattern's row positions (prepared)
/// are a static table, expanded into each entry's row on the host and
/// copied to each device on its first call there
/// (sopt::DeviceTable::entryRows), after a guard that the caller passes a
/// pattern of the compiled nnz; nullptr (the tiles search the positions)
/// without them. The positions rather than the rows themselves: a table of
/// nnz integers would dwarf the rest of the source.
std::string emitEntryRows(const KnownPattern &pattern, StringRef name,
                          const CsrExpressions &csr, SparseLaunchText &text) {
  if (!pattern.known() || !pattern.tables.getPositions())
    return "nullptr";
  std::string table;
  llvm::raw_string_ostream os(table);
  os << "// Where each row of " << pattern.path << " starts among its entries.\n"
     << "static const int32_t " << name << "_positions_host[] = {";
  for (auto [i, v] : llvm::enumerate(getTableValues(*pattern.tables.getPositions())))
    os << (i % 16 == 0 ? "\n    " : " ") << v << ",";
  os << "\n};\nstatic sopt::DeviceTable " << name << "_device;\n\n";
  text.statics += table;
  text.body += llvm::formatv(
      "    // The row of each entry of {3}, expanded from its positions.\n"
      "    if ({2} != {1})\n"
      "      return cudaErrorInvalidValue;\n"
      "    const int32_t *{0} = nullptr;\n"
      "    SOPT_TRY({0}_device.entryRows({0}_positions_host, {4}, &{0}));\n",
      name, pattern.nnz, csr.nnz, pattern.path, pattern.rows);
  return name.str();
}

/// The column-panel order (sopt::columnPanelOrder) of an SDDMM pattern
/// known at compile time, as the expression of a device pointer: made on
/// the first call on each device (sopt::DeviceTable::panelOrder) from the
/// compile-time positions (`positionsTable`, emitted by emitEntryRows) and
/// the caller's columns, which the generated code does not hold.
std::string emitPanelOrder(const KnownPattern &pattern, int64_t panel, StringRef name,
                           StringRef positionsTable, const CsrExpressions &csr,
                           SparseLaunchText &text) {
  text.statics += llvm::formatv("static sopt::DeviceTable {0}_device;\n\n", name).str();
  text.body += llvm::formatv(
      "    // {3}'s entries by panels of {2} columns, read once from the caller's columns.\n"
      "    const int32_t *{0} = nullptr;\n"
      "    SOPT_TRY({0}_device.panelOrder({1}_positions_host, {4}, {5}, {2}, {6}, &{0}));\n",
      name, positionsTable, panel, pattern.path, pattern.rows, pattern.cols, csr.coordinates);
  return name.str();
}

/// The launcher's trailing arguments: the epilogue (`epilogueArg`, ", f{...}"
/// or empty for the default), then a prepared table's pointer if there is
/// one; the default epilogue is then named, since the table follows it.
std::string epilogueAndTable(StringRef epilogueArg, StringRef table) {
  if (table == "nullptr")
    return epilogueArg.str();
  return (epilogueArg.empty() ? std::string(", sopt::ScaleByPattern{}") : epilogueArg.str()) +
         ", " + table.str();
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
  Value sparse = op.getSparseOperand();
  if (failed(checkIndexWidths(op, sparse)))
    return failure();
  ::sopt::SpmmSchedule s = toRuntimeSchedule(attr);
  // Dense × sparse, X[m, k] · S[k, n], runs as C = Sᵀ · Xᵀ with C stored
  // transposed: the kernel's A is Sᵀ (n x k), its B is Xᵀ (k x m).
  const bool transposed = op.isDenseTimesSparse();
  auto sparseType = cast<RankedTensorType>(sparse.getType());
  int64_t rows = sparseType.getDimSize(transposed ? 1 : 0);
  int64_t inner = sparseType.getDimSize(transposed ? 0 : 1);
  int64_t n = op.getScheduleColumns();
  std::string element = *storageType(sparseType.getElementType());

  SparseLaunchText text;
  std::string order;
  // What sopt-prepare-sparse-emission decided, and the tables it prepared
  // from the pattern file.
  FailureOr<SparseLaunchAttr> decided = getLaunch(op);
  if (failed(decided))
    return failure();
  KnownPattern known(op);
  if (failed(emitRowOrder(op, known, s.rowOrder, tablePrefix.str() + "_row_order", a, text,
                          order)))
    return failure();
  const bool storeTransposed = decided->getStoresTransposed();
  std::string out = c.str();
  // Dense × sparse: Cᵀ stored row-major, then transposed into Y.
  const bool resultWorkspace = transposed && !storeTransposed;
  if (resultWorkspace) {
    out = tablePrefix.str() + "_ct";
    text.temporaries.push_back({out, element, std::to_string(decided->getResultWorkspace())});
  }
  std::string matrix = llvm::formatv("sopt::CsrMatrix<{0}>{{{1}, {2}, {3}, {4}, {5}, {6}}",
                                     element, rows, inner, a.nnz, a.positions,
                                     a.coordinates, a.values);
  // An epilogue of Y gets Y's indices, C's swapped.
  std::string epilogueArgs;
  if (!epilogue.empty())
    epilogueArgs = transposed ? ", sopt::swapIndices(" + epilogue.str() + ")"
                              : ", " + epilogue.str();
  // The comment above the launch: the product, then how the kernel divides
  // it (and for dense x sparse, where Y's transpose happens).
  std::string comment =
      transposed ? llvm::formatv("    // sopt.spmm {0}x{1} x {1}x{2} ({3}) as (Sᵀ · Xᵀ)ᵀ{4}: ", n,
                                 inner, rows,
                                 stringifySparseFormat(*getSparseFormat(sparseType)), summary)
                       .str()
                 : llvm::formatv("    // sopt.spmm {0}x{1} (CSR) x {1}x{2}{3}: ", rows, inner, n,
                                 summary)
                       .str();
  const std::string storeText =
      !transposed        ? ""
      : storeTransposed ? ", the result stored transposed"
                        : ", then Cᵀ transposed";
  const char *transposeArg = storeTransposed ? ", /*TransposeC=*/true" : "";
  std::string launch;
  switch (s.tiling) {
  case ::sopt::SpmmTiling::DenseBlocks: {
    // f32 keeps its accuracy in three TF32 products; 16-bit needs one.
    const char *products = element == "float" ? "3 TF32 products per product"
                                              : "f32 accumulation";
    comment += transposed
                   ? llvm::formatv("dense {0}x{1} blocks of Y on tensor cores ({2}), stored "
                                   "transposed",
                                   s.tileColumns, s.blockRows, products)
                         .str()
                   : llvm::formatv("dense {0}x{1} blocks of C on tensor cores ({2}), A "
                                   "densified a chunk of 64 columns at a time over its rows' "
                                   "window of k",
                                   s.blockRows, s.tileColumns, products)
                         .str();
    launch = llvm::formatv("sopt::launchSpmmBlocks<{0}, {1}, {2}{3}>({4}, {5}, {6}, {7}, "
                           "stream{8})",
                           element, s.blockRows, s.tileColumns, transposeArg, matrix, b, n, out,
                           epilogueArgs);
    break;
  }
  case ::sopt::SpmmTiling::StagedSlices:
    comment += llvm::formatv("each block stages a {0}x{1} slice of {2} in shared memory, rows "
                             "{3} threads each, {4} per block, {5}{6}",
                             inner, s.tileColumns, transposed ? "Xᵀ" : "B", s.threadsPerTile,
                             s.tilesPerBlock, rowOrderProse(s.rowOrder), storeText);
    launch = llvm::formatv("sopt::launchSpmmSlices<{0}, {1}, {2}{3}>({4}, {5}, {6}, {7}, {8}, "
                           "{9}, stream{10})",
                           element, s.tileColumns, s.vectorWidth, transposeArg, matrix, b, n, out,
                           order, s.threadsPerBlock(), epilogueArgs);
    break;
  case ::sopt::SpmmTiling::RowTiles: {
    std::string segments;
    if (failed(emitRowSegments(op, known, s.rowSegment, decided->getSegmentWorkspace(),
                               tablePrefix.str() + "_row_segments", a, text, segments)))
      return failure();
    // The segments follow the epilogue argument: the default one if none.
    if (!segments.empty())
      epilogueArgs = (epilogueArgs.empty() ? std::string(", sopt::StoreProduct{}")
                                           : epilogueArgs) +
                     ", " + segments;
    comment += llvm::formatv("tiles of {0} columns{1}, {2} threads each, vectors of {3}, {4} "
                             "tiles per block, {5}{6}",
                             s.tileColumns, transposed ? " of Xᵀ" : "", s.threadsPerTile,
                             s.vectorWidth, s.tilesPerBlock, spmmGridText(s), storeText);
    launch = llvm::formatv("sopt::launchSpmm<{0}, {1}, {2}, {3}{4}>({5}, {6}, {7}, {8}, {9}, "
                           "{10}, {11}, {12}, stream{13})",
                           element, s.threadsPerTile, s.columnsPerThread(), s.vectorWidth,
                           transposeArg, matrix, b, n, out, order, s.tilesPerBlock, s.rowSplits,
                           tileOrderEnumerator(s.tileOrder), epilogueArgs);
    break;
  }
  }
  text.body += comment + "\n    SOPT_TRY((" + launch + "));\n";
  if (resultWorkspace)
    text.body += llvm::formatv("    SOPT_TRY(sopt::launchTranspose({0}, {1}, {2}, {3}, stream));\n",
                               out, rows, n, c);
  return text;
}

FailureOr<SparseLaunchText>
mlir::sopt::cuda::emitCsrTranspose(SpmmOp op, const CsrExpressions &s, StringRef prefix,
                                   CsrExpressions &transposed) {
  Value sparse = op.getSparseOperand();
  if (failed(checkIndexWidths(op, sparse)))
    return failure();
  auto type = cast<RankedTensorType>(sparse.getType());
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  std::string element = *storageType(type.getElementType());
  SparseLaunchText text;
  transposed = {prefix.str() + "_positions", prefix.str() + "_coordinates",
                prefix.str() + "_values", s.nnz};
  // Sᵀ's values: nnz elements, allocated by the caller.
  text.temporaries.push_back({transposed.values, element, s.nnz});

  FailureOr<SparseLaunchAttr> launch = getLaunch(op);
  if (failed(launch))
    return failure();
  KnownPattern known(op);
  if (launch->getTransposesSparse()) {
    // Unknown until run time: cuSPARSE transposes S on every call.
    text.temporaries.push_back({transposed.positions, "int32_t", std::to_string(cols + 1)});
    text.temporaries.push_back({transposed.coordinates, "int32_t", s.nnz});
    std::string dataType = element == "float"    ? "CUDA_R_32F"
                           : element == "__half" ? "CUDA_R_16F"
                                                 : "CUDA_R_16BF";
    text.body += llvm::formatv(
        "    {{\n"
        "      // Sᵀ in CSR (S {0}x{1} in CSC) by cuSPARSE, every call: S's pattern is "
        "not known at compile time\n"
        "      size_t bytes = 0;\n"
        "      SOPT_TRY_CUSPARSE(cusparseCsr2cscEx2_bufferSize(sopt::cusparseFor(stream), "
        "{0}, {1}, int({2}), {3}, {4}, {5}, {6}, {7}, {8}, {9}, CUSPARSE_ACTION_NUMERIC, "
        "CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, &bytes));\n"
        "      sopt::StreamBuffer buffer(bytes, stream);\n"
        "      SOPT_TRY(buffer.status);\n"
        "      SOPT_TRY_CUSPARSE(cusparseCsr2cscEx2(sopt::cusparseFor(stream), {0}, {1}, "
        "int({2}), {3}, {4}, {5}, {6}, {7}, {8}, {9}, CUSPARSE_ACTION_NUMERIC, "
        "CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, buffer.data));\n"
        "    }\n",
        rows, cols, s.nnz, s.values, s.positions, s.coordinates, transposed.values,
        transposed.positions, transposed.coordinates, dataType);
    return text;
  }

  // Known at compile time: Sᵀ's positions and coordinates, and where each
  // of its values sits among S's, are tables here; each call only permutes
  // the values.
  if (!hasPreparedTranspose(op))
    return op.emitOpError("transposes its CSR operand with tables prepared at compile time, "
                          "but names none: run sopt-prepare-sparse-emission");
  const int64_t nnz = known.nnz;
  std::string table;
  llvm::raw_string_ostream os(table);
  auto writeArray = [&](StringRef what, ElementsAttr values) {
    os << "static const int32_t " << prefix << "_" << what << "_host[] = {";
    std::vector<int32_t> data = getTableValues(values);
    for (auto [i, v] : llvm::enumerate(data))
      os << (i % 16 == 0 ? "\n    " : " ") << v << ",";
    if (data.empty())
      os << "0";
    os << "\n};\n";
  };
  os << "// " << known.path << " transposed (Sᵀ in CSR, " << known.rows << "x" << known.cols
     << "): positions, coordinates, and the entry of S each entry of Sᵀ comes from.\n";
  writeArray("positions", *known.tables.getTransposePositions());
  writeArray("coordinates", *known.tables.getTransposeCoordinates());
  writeArray("permutation", *known.tables.getTransposePermutation());
  for (StringRef what : {"positions", "coordinates", "permutation"})
    os << "static sopt::DeviceTable " << prefix << "_" << what << "_device;\n";
  os << "\n";
  text.statics += table;
  // Each copied to a device on its first call there.
  text.body += llvm::formatv(
      "    // The tables were prepared for a pattern of {1} nonzeros.\n"
      "    if ({2} != {1})\n"
      "      return cudaErrorInvalidValue;\n"
      "    const int32_t *{0}_positions = nullptr, *{0}_coordinates = nullptr, "
      "*{0}_permutation = nullptr;\n"
      "    SOPT_TRY({0}_positions_device.copy({0}_positions_host, "
      "sizeof({0}_positions_host) / sizeof(int32_t), &{0}_positions));\n"
      "    SOPT_TRY({0}_coordinates_device.copy({0}_coordinates_host, "
      "sizeof({0}_coordinates_host) / sizeof(int32_t), &{0}_coordinates));\n"
      "    SOPT_TRY({0}_permutation_device.copy({0}_permutation_host, "
      "sizeof({0}_permutation_host) / sizeof(int32_t), &{0}_permutation));\n"
      "    // Sᵀ's values: S's, permuted by the compile-time transpose of its pattern.\n"
      "    SOPT_TRY(sopt::launchPermuteValues({3}, {0}_permutation, {2}, {4}, stream));\n",
      prefix, nnz, s.nnz, s.values, transposed.values);
  return text;
}

bool mlir::sopt::cuda::transposesAtRunTime(SpmmOp op) {
  SparseLaunchAttr launch = getSparseLaunch(op);
  return op.getScheduleAttr() && launch && launch.getTransposesSparse();
}

std::string mlir::sopt::cuda::describeSpmm(SpmmOp op) {
  if (!op.isDenseTimesSparse())
    return "";
  auto type = cast<RankedTensorType>(op.getRhs().getType());
  std::string how = getSparseFormat(type) == SparseFormat::CSC
                        ? "S is CSC: its arrays are Sᵀ in CSR, used as they are"
                    : transposesAtRunTime(op)
                        ? "Sᵀ in CSR by cuSPARSE csr2csc on every call (pattern unknown)"
                        : "Sᵀ's pattern transposed at compile time, S's values permuted on "
                          "every call";
  SparseLaunchAttr launch = getSparseLaunch(op);
  bool storeTransposed = launch && launch.getStoresTransposed();
  return "dense x sparse as (Sᵀ · Xᵀ)ᵀ: " + how + "; Xᵀ by a tiled transpose; " +
         (storeTransposed ? "the kernel stores Y transposed"
                          : "Cᵀ stored row-major, then a tiled transpose to Y");
}

FailureOr<SparseLaunchText>
mlir::sopt::cuda::emitSddmmLaunch(SddmmOp op, const CsrExpressions &pattern, StringRef lhs,
                                  StringRef rhs, StringRef out, StringRef epilogue,
                                  StringRef summary, StringRef tablePrefix) {
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
  std::string epilogueArg = epilogue.empty() ? "" : ", " + epilogue.str();
  // What sopt-prepare-sparse-emission decided, and the tables it prepared
  // from the pattern file, if any.
  FailureOr<SparseLaunchAttr> launch = getLaunch(op);
  if (failed(launch))
    return failure();
  KnownPattern known(op);
  if (!op.getTransposeRhs() && !launch->getTransposesRhs()) {
    std::string order;
    if (failed(emitRowOrder(op, known, s.rowOrder, tablePrefix.str() + "_row_order", pattern,
                            text, order)))
      return failure();
    text.body += llvm::formatv(
        "    // sopt.sddmm (A · B) ⊙ S{5}, S {0}x{1}, k = {2}: one lane per nonzero, "
        "columns of B gathered, {3} warps per block, {4}\n",
        type.getDimSize(0), type.getDimSize(1), k, s.tilesPerBlock,
        rowOrderProse(s.rowOrder), summary);
    text.body += llvm::formatv(
        "    SOPT_TRY((sopt::launchSddmmGather<{0}>({1}, {2}, {3}, {4}, {5}, {6}, {7}, "
        "stream{8})));\n",
        element, matrix, lhs, rhs, k, out, order, s.tilesPerBlock, epilogueArg);
    return text;
  }
  std::string rhsRows = rhs.str(); // B[n, k]
  if (launch->getTransposesRhs()) {
    // (A · B) ⊙ S: B[k, n] copied into Bᵀ, then the transposed form's kernels.
    rhsRows = tablePrefix.str() + "_rhs_t";
    text.temporaries.push_back(
        {rhsRows, element, std::to_string(launch->getRhsWorkspace())});
    text.body += llvm::formatv("    // sopt.sddmm (A · B) ⊙ S: B ({0}x{1}) transposed into {2} "
                               "first\n",
                               k, type.getDimSize(1), rhsRows);
    text.body += llvm::formatv("    SOPT_TRY(sopt::launchTranspose({0}, {1}, {2}, {3}, stream));\n",
                               rhs, k, type.getDimSize(1), rhsRows);
  }
  if (s.tiling == ::sopt::SddmmTiling::DenseBlocks) {
    // The occupied blocks with their own windows where some blocks are
    // empty, else every row's windows for every block.
    std::string windows;
    std::string occupied = emitOccupiedBlocks(
        known, s.blockSize, tablePrefix.str() + "_occupied_blocks", pattern, text, windows);
    if (occupied.empty())
      windows = emitColumnWindows(known, s.blockSize, tablePrefix.str() + "_column_windows",
                                  pattern, text);
    const bool prepared = windows != "nullptr";
    text.body += llvm::formatv(
        "    // sopt.sddmm (A · Bᵀ) ⊙ S{3}, S {0}x{1}, k = {2}: dense {4}x{4} blocks on tensor "
        "cores{6}, sampled at S's entries ({5})\n",
        type.getDimSize(0), type.getDimSize(1), k, summary, s.blockSize,
        !occupied.empty() ? "rows' column windows prepared at compile time, only the blocks "
                            "holding entries launched"
        : prepared ? "rows' column windows prepared at compile time, blocks without entries "
                     "skipped"
                   : "rows' column windows searched, blocks of empty rows skipped",
        s.kSplits > 1 ? llvm::formatv(", k split among clusters of {0} blocks", s.kSplits).str()
                      : std::string());
    std::string tail = epilogueAndTable(epilogueArg, windows);
    // f32 64 x 64 blocks with prepared windows split B once per call into a
    // temporary and take the TMA-fed kernel.
    const int64_t workspace = launch->getPlanesWorkspace();
    if (workspace > 0) {
      std::string name = tablePrefix.str() + "_b_planes";
      text.temporaries.push_back({name, element, std::to_string(workspace)});
      tail += ", " + name;
      text.body += "    // B split into its TF32 parts and remainders first (" + name + ")\n";
    } else if (!occupied.empty()) {
      tail += ", nullptr";
    }
    if (!occupied.empty())
      tail += ", " + occupied;
    text.body += llvm::formatv(
        "    SOPT_TRY((sopt::launchSddmmBlocks<{0}, {7}{8}>({1}, {2}, {3}, {4}, {5}, "
        "stream{6})));\n",
        element, matrix, lhs, rhsRows, k, out, tail, s.blockSize,
        s.kSplits > 1 ? ", " + std::to_string(s.kSplits) : std::string());
    return text;
  }
  std::string entryRows =
      emitEntryRows(known, tablePrefix.str() + "_entry_rows", pattern, text);
  const bool prepared = entryRows != "nullptr";
  int64_t lanesTimesVector = int64_t(s.threadsPerNonzero) * s.vectorWidth;
  // At least one vector per lane: with k = 0 the kernel then sums nothing.
  int64_t vectorsPerLane = std::max<int64_t>(1, (k + lanesTimesVector - 1) / lanesTimesVector);
  // Column panels only with prepared positions; the warps as amended then.
  const bool panels = launch->getColumnPanels();
  const int warps = launch->getWarpsPerBlock();
  text.body += llvm::formatv(
      "    // sopt.sddmm (A · Bᵀ) ⊙ S{7}, S {0}x{1}, k = {2}: tiles of {3} consecutive "
      "nonzeros, {4} per nonzero, vectors of {5}, {6} warps per block, {8}\n",
      type.getDimSize(0), type.getDimSize(1), k, s.tileNonzeros,
      s.threadsPerNonzero == 1 ? std::string("1 lane")
                               : std::to_string(s.threadsPerNonzero) + " lanes",
      s.vectorWidth, warps, summary,
      prepared ? "entries' rows from the compile-time pattern" : "entries' rows searched");
  std::string tail = epilogueAndTable(epilogueArg, entryRows);
  if (panels) {
    std::string order = emitPanelOrder(known, s.columnPanel, tablePrefix.str() + "_panel_order",
                                       entryRows, pattern, text);
    text.body += llvm::formatv(
        "    // ... taken by panels of {0} columns, one block of {1} warps per SM\n",
        s.columnPanel, s.tilesPerBlock);
    text.body += llvm::formatv(
        "    SOPT_TRY((sopt::launchSddmmPanels<{0}, {1}, {2}, {3}>({4}, {5}, {6}, {7}, {8}, "
        "{9}, stream{10}, {11})));\n",
        element, s.threadsPerNonzero, s.vectorWidth, vectorsPerLane, matrix, lhs, rhsRows, k,
        out, s.tilesPerBlock, tail, order);
    return text;
  }
  text.body += llvm::formatv(
      "    SOPT_TRY((sopt::launchSddmm<{0}, {1}, {2}, {3}, {4}>({5}, {6}, {7}, {8}, {9}, "
      "{10}, stream{11})));\n",
      element, s.threadsPerNonzero, s.vectorWidth, vectorsPerLane, s.tileNonzeros, matrix,
      lhs, rhsRows, k, out, warps, tail);
  return text;
}

FailureOr<SparseLaunchText>
mlir::sopt::cuda::emitStoredEntriesLaunch(FusionOp fusion, const CsrExpressions &pattern,
                                          StringRef out, StringRef functor,
                                          StringRef summary) {
  auto type = cast<RankedTensorType>(fusion.getResult(0).getType());
  auto enc = sparse_tensor::getSparseTensorEncoding(type);
  if (enc.getPosWidth() != 32 || enc.getCrdWidth() != 32)
    return fusion.emitOpError("computes on the stored entries of a CSR matrix with 64-bit "
                              "indices; the project's kernels take 32-bit positions and "
                              "coordinates (posWidth = 32, crdWidth = 32)");
  SparseLaunchText text;
  text.body += "    // " + summary.str() + "\n";
  text.body += llvm::formatv(
      "    SOPT_TRY(sopt::launchStoredEntries({0}, {1}, {2}, stream));\n",
      csrMatrix(*storageType(type.getElementType()), type, pattern), out, functor);
  return text;
}
