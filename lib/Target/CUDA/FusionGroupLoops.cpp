//===- FusionGroupLoops.cpp - the loops around a fusion group's values ----===//
//
// An elementwise group is one grid-stride loop over chunks of `kVector`
// elements. A group with reductions walks rows (or, for a column mapping,
// slices of columns): each row runs the group's phases in turn, each phase
// one loop over the row's chunks that feeds the reductions it completes,
// keeps what later phases read again, and ends with the reductions'
// combine across the row's threads (and, for a row split across blocks,
// across blocks through global memory).
//
//===----------------------------------------------------------------------===//

#include "FusionGroupWriter.h"

#include "sparse-opt/Analysis/IndexMaps.h"
#include "sparse-opt/Dialect/SOpt/FusionAnnotations.h"
#include "sparse-opt/Support/Extents.h"

#include "llvm/ADT/Sequence.h"

using namespace mlir;
using namespace mlir::sopt;
using namespace mlir::sopt::cuda;

void GroupWriter::delinearize(CodeBlock &code, StringRef linear,
                              ArrayRef<int64_t> extents, ArrayRef<int64_t> dims,
                              ArrayRef<std::string> names,
                              const llvm::SmallBitVector &used) const {
  SmallVector<int64_t> strides = rowMajorStrides(extents);
  for (auto [i, dim] : llvm::enumerate(dims)) {
    if (!used.test(dim))
      continue;
    std::string expr = linear.str();
    if (strides[i] != 1)
      expr = "(" + expr + " / " + std::to_string(strides[i]) + ")";
    if (i != 0)
      expr = "(" + expr + " % " + std::to_string(extents[i]) + ")";
    code.line("const int64_t " + names[i] + " = " + expr + ";");
  }
}

void GroupWriter::writeElementwise(CodeBlock &body) {
  for (int64_t d = 0; d < rank; ++d) {
    dimNames.push_back("d" + std::to_string(d));
    chunkDimNames.push_back("d" + std::to_string(d) + "c");
  }
  auto allDims = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  inElement = true;
  storeOutputs(/*phase=*/0, /*rowScalars=*/false);
  body.line("constexpr int64_t kElements = " + std::to_string(product(group.domain)) + ";");
  body.line("constexpr int kVector = " + std::to_string(mapping.getVectorWidth()) + ";");
  // What no element index changes, once before the loop.
  body.append(row.code);
  body.line("for (int64_t e0 = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) * kVector;");
  body.line("     e0 < kElements; e0 += int64_t(gridDim.x) * blockDim.x * kVector) {");
  body.indent();
  delinearize(body, "e0", group.domain, allDims, chunkDimNames, chunk.uses.dims);
  body.append(chunk.loads);
  body.directive("#pragma unroll");
  body.line("for (int j = 0; j < kVector; ++j) {");
  body.indent();
  if (element.uses.flat || element.uses.dims.any()) {
    body.line("const int64_t e = e0 + j;");
    delinearize(body, "e", group.domain, allDims, dimNames, element.uses.dims);
  }
  body.append(element.code);
  body.unindent().line("}");
  body.append(chunk.stores);
  body.unindent().line("}");
}

CodeBlock GroupWriter::elementLoop(int64_t phase) {
  currentPhase = phase;
  element = Scope();
  element.uses = IndexUses(rank);
  chunk = ChunkCode();
  chunk.uses = IndexUses(rank);
  inElement = true;
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, fusion.getContext());
  // Reductions fed by this phase.
  CodeBlock finish;
  for (ReduceOp reduce : reducesFedBy[phase]) {
    static const char *ops[] = {"sopt::SumOp", "sopt::MaxOp", "sopt::MinOp", ""};
    std::string opName = ops[static_cast<int>(reduce.getKind())];
    std::string acc = fresh("acc");
    accumulator[reduce.getResult()] = acc;
    row.code.line("float " + acc + " = " + opName + "::identity();");
    std::string x = value(reduce.getInput(), identity);
    element.code.line(acc + " = " + opName + "::combine(" + acc + ", " + x + ");");
    auto sharedScratch = [&] {
      int64_t offset = reduce->getAttrOfType<DenseI64ArrayAttr>(attr::kSharedSlot)[0];
      return "reinterpret_cast<float *>(smem + " + std::to_string(offset) + ")";
    };
    if (isColumns())
      finish.line(acc + " = sopt::sliceAllReduce<" + opName +
                  ", kRowsPerBlock, kThreadsPerRow>(" + acc + ", " + sharedScratch() + ");");
    else if (mapping.getThreadsPerRow() <= 32)
      finish.line(acc + " = sopt::subwarpAllReduce<" + opName + ", kThreadsPerRow>(" +
                  acc + ");");
    else
      finish.line(acc + " = sopt::blockRowAllReduce<" + opName + ", kThreadsPerRow>(" +
                  acc + ", " + sharedScratch() + ");");
    if (isSplit()) {
      // Each block holds its segment's partial: publish it, wait for every
      // block, then combine the row's partials in a fixed order.
      std::string partials = "(scratch + (" + std::to_string(reductions) +
                             " * kRows + row) * kBlocksPerRow)";
      finish.line("if (rowValid && lane == 0)");
      finish.indent().line(partials + "[segment] = " + acc + ";").unindent();
      finish.line("cooperative_groups::this_grid().sync();");
      finish.line(acc + " = " + opName + "::identity();");
      finish.line("if (rowValid)");
      finish.indent().line("for (int s = 0; s < kBlocksPerRow; ++s)");
      finish.indent().line(acc + " = " + opName + "::combine(" + acc + ", " + partials +
                           "[s]);");
      finish.unindent().unindent();
    }
    ++reductions;
  }
  // Row values the reuse plan keeps for later phases, written as this phase
  // computes them.
  for (Value v : cachedIn[phase]) {
    Operation *op = v.getDefiningOp();
    auto slot = op->getAttrOfType<DenseI64ArrayAttr>(attr::kSharedSlot);
    cache(v, op->getAttrOfType<MemoryLevelAttr>(attr::kCache).getValue(),
          slot ? std::optional(slot[0]) : std::nullopt,
          op->getAttrOfType<AffineMapAttr>(attr::kIndexMap).getValue());
  }
  // Region arguments the plan keeps: loaded once, in the first phase.
  auto argCache = fusion->getAttrOfType<ArrayAttr>(attr::kArgCache);
  auto argSlots = fusion->getAttrOfType<ArrayAttr>(attr::kArgSharedSlot);
  if (phase == 0 && argCache)
    for (auto [i, level] : llvm::enumerate(argCache)) {
      auto memory = dyn_cast<MemoryLevelAttr>(level);
      if (!memory)
        continue;
      std::optional<int64_t> offset;
      if (argSlots)
        if (auto slot = dyn_cast<DenseI64ArrayAttr>(argSlots[i]))
          offset = slot[0];
      cache(fusion.getBodyBlock().getArgument(i), memory.getValue(), offset,
            identity);
    }
  storeOutputs(phase, /*rowScalars=*/false);
  inElement = false;
  if (element.code.empty() && chunk.stores.empty())
    return finish;

  SmallVector<int64_t> reducedExtents;
  SmallVector<std::string> reducedNames, reducedChunkNames;
  bool readsReducedDim = false, chunkReadsReducedDim = false;
  for (int64_t d : group.reducedDims) {
    reducedExtents.push_back(group.domain[d]);
    reducedNames.push_back(dimNames[d]);
    reducedChunkNames.push_back(chunkDimNames[d]);
    readsReducedDim |= element.uses.dims.test(d);
    chunkReadsReducedDim |= chunk.uses.dims.test(d);
  }
  bool usesCol = readsReducedDim || element.uses.col;
  CodeBlock loop;
  if (isColumns()) {
    loop.line("for (int64_t col0 = kSegmentStart + lane; col0 < kSegmentEnd;");
    loop.line("     col0 += kThreadsPerRow) {");
    loop.indent().line("if (!rowValid)");
    loop.indent().line("continue;").unindent();
  } else {
    loop.directive("#pragma unroll");
    loop.line("for (int it = 0; it < kItems; ++it) {");
    loop.indent();
    if (!hasWholePasses() || usesCol || chunkReadsReducedDim)
      loop.line("const int64_t col0 = kSegmentStart + (int64_t(it) * kThreadsPerRow + "
                "lane) * kVector;");
    if (!hasWholePasses())
      loop.line("if (!rowValid || col0 >= kCols)").indent().line("continue;").unindent();
  }
  delinearize(loop, "col0", reducedExtents, group.reducedDims, reducedChunkNames,
              chunk.uses.dims);
  loop.append(chunk.loads);
  loop.directive("#pragma unroll");
  loop.line("for (int j = 0; j < kVector; ++j) {");
  loop.indent();
  if (usesCol) {
    loop.line("const int64_t col = col0 + j;");
    delinearize(loop, "col", reducedExtents, group.reducedDims, reducedNames,
                element.uses.dims);
  }
  loop.append(element.code);
  loop.unindent().line("}");
  loop.append(chunk.stores);
  loop.unindent().line("}");
  // One test for the whole row instead of one per chunk: the unrolled
  // chunks form one straight block, so their loads can all be in flight
  // before the arithmetic that waits for them.
  if (!isColumns() && hasWholePasses()) {
    CodeBlock guarded;
    guarded.line("if (rowValid) {").indent().append(loop).unindent().line("}");
    loop = std::move(guarded);
  }
  return std::move(loop.append(finish));
}

void GroupWriter::writeRows(CodeBlock &body) {
  SmallVector<int64_t> parallelExtents, parallelDims;
  SmallVector<std::string> parallelNames;
  for (int64_t d = 0; d < rank; ++d) {
    dimNames.push_back("d" + std::to_string(d));
    // Parallel dims are fixed for the whole row: the chunk uses them as is.
    chunkDimNames.push_back(isReducedDim(d) ? "d" + std::to_string(d) + "c"
                                            : "d" + std::to_string(d));
    if (!isReducedDim(d)) {
      parallelExtents.push_back(group.domain[d]);
      parallelDims.push_back(d);
      parallelNames.push_back(dimNames.back());
    }
  }
  int64_t vector = mapping.getVectorWidth();
  int64_t pass = mapping.getThreadsPerRow() * vector; // one pass of a row's threads
  // A split row gives each block a segment of whole passes.
  int64_t segment = (mapping.getCols() + mapping.getBlocksPerRow() - 1) /
                    mapping.getBlocksPerRow();
  segment = (segment + pass - 1) / pass * pass;
  items = segment / pass;

  // Each phase: the row statements it needs first, its element loop, then
  // the stores of the row scalars it finished.
  CodeBlock phasesCode;
  for (int64_t p = 0; p < phases; ++p) {
    CodeBlock loop = elementLoop(p);
    CodeBlock rowStatements = std::exchange(row.code, CodeBlock());
    storeOutputs(p + 1, /*rowScalars=*/true);
    CodeBlock rowStores = std::exchange(row.code, CodeBlock());
    phasesCode.line("// phase " + std::to_string(p));
    phasesCode.append(rowStatements).append(loop).append(rowStores);
  }
  // Row scalars computed from inputs alone (phase 0) are stored too.
  storeOutputs(0, /*rowScalars=*/true);
  CodeBlock earlyStores = std::exchange(row.code, CodeBlock());

  auto planned = fusion->getAttrOfType<IntegerAttr>(attr::kSharedBytes);
  bool needsShared = planned && planned.getInt() > 0;
  auto constant = [&](StringRef type, StringRef name, int64_t value) {
    body.line(("constexpr " + type + " " + name + " = " + Twine(value) + ";").str());
  };
  constant("int64_t", "kRows", mapping.getRows());
  constant("int64_t", "kCols", mapping.getCols());
  constant("int", "kThreadsPerRow", mapping.getThreadsPerRow());
  constant("int", "kRowsPerBlock", mapping.getRowsPerBlock());
  constant("int", "kVector", vector);
  if (!isColumns())
    body.line("constexpr int kItems = " + std::to_string(items) +
              "; // chunks per thread and row");
  if (hasWholePasses())
    body.line("static_assert(kItems * kThreadsPerRow * kVector == kCols, \"no partial "
              "chunks\");");
  if (isColumns()) {
    // Each block walks one segment of the reduced extent.
    std::string segmentRows = std::to_string(
        (mapping.getCols() + mapping.getBlocksPerRow() - 1) / mapping.getBlocksPerRow());
    body.line("constexpr int kBlocksPerRow = " + std::to_string(mapping.getBlocksPerRow()) +
              "; // segments of the reduced extent, one per block");
    body.line("const int segment = blockIdx.x % kBlocksPerRow;");
    body.line("const int64_t kSegmentStart = int64_t(segment) * " + segmentRows + ";");
    body.line("const int64_t kSegmentEnd = kSegmentStart + " + segmentRows +
              " < kCols ? kSegmentStart + " + segmentRows + " : kCols;");
  } else if (isSplit()) {
    body.line("constexpr int kBlocksPerRow = " + std::to_string(mapping.getBlocksPerRow()) +
              "; // a row's segments, one per block");
    body.line("const int segment = blockIdx.x % kBlocksPerRow;");
    body.line("const int64_t kSegmentStart = int64_t(segment) * " +
              std::to_string(segment) + ";");
  } else {
    body.line("constexpr int64_t kSegmentStart = 0;");
  }
  if (needsShared)
    body.line("extern __shared__ __align__(16) unsigned char smem[];");
  if (isColumns()) {
    body.line("// Adjacent threads own adjacent columns: loads coalesce.");
    body.line("const int lane = threadIdx.x / kRowsPerBlock; // position along the "
              "reduced extent");
    body.line("const int rowInBlock = threadIdx.x % kRowsPerBlock;");
  } else {
    body.line("const int lane = threadIdx.x % kThreadsPerRow;");
    body.line("const int rowInBlock = threadIdx.x / kThreadsPerRow;");
  }
  body.line("// Whole blocks iterate together, so every thread reaches each");
  body.line("// reduction; threads past the last row only contribute identities.");
  if (isSplit()) {
    body.line("// Every block is resident (cooperative launch) and makes one pass;");
    body.line("// blocks past the last row only meet the grid-wide barriers.");
    body.line("{");
    body.indent();
    body.line("const int64_t rowBase = int64_t(blockIdx.x / kBlocksPerRow) * "
              "kRowsPerBlock;");
  } else {
    body.line("for (int64_t rowBase = int64_t(blockIdx.x) * kRowsPerBlock; rowBase < "
              "kRows;");
    body.line("     rowBase += int64_t(gridDim.x) * kRowsPerBlock) {");
    body.indent();
  }
  body.line("const int64_t row = rowBase + rowInBlock;");
  body.line("const bool rowValid = row < kRows;");
  delinearize(body, "row", parallelExtents, parallelDims, parallelNames, anyUses.dims);
  body.append(earlyStores).append(phasesCode);
  body.unindent().line("}");
}
