//===- ThreadMapping.cpp - a group's mapping onto threads -----------------===//

#include "sparse-opt/Analysis/ThreadMapping.h"
#include "sparse-opt/Support/Extents.h"

#include "mlir/IR/AffineExpr.h"
#include "sparse-opt/Analysis/IndexMaps.h"
#include "sparse-opt/Analysis/OpClassification.h"
#include "sparse-opt/Dialect/SOpt/FusionAnnotations.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::sopt;

namespace {

/// Elements of the widest tensor element type of the group that fit one
/// 16-byte access: 4 for f32, 8 for bf16/f16.
int64_t maxVectorElements(const FusionGroup &group) {
  int64_t widest = 1;
  for (Operation *op : group.ops)
    for (Type t : llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
      widest = std::max<int64_t>(
          widest, cast<RankedTensorType>(t).getElementTypeBitWidth() / 8);
  return std::max<int64_t>(1, 16 / widest);
}

/// The widest vector, up to `limit` elements, that divides `extent`.
int64_t vectorWidthFor(int64_t extent, int64_t limit) {
  int64_t width = limit;
  while (width > 1 && extent % width != 0)
    width /= 2;
  return width;
}

bool isTrailing(ArrayRef<int64_t> dims, int64_t rank) {
  for (auto [i, d] : llvm::enumerate(dims))
    if (d != rank - static_cast<int64_t>(dims.size()) + static_cast<int64_t>(i))
      return false;
  return true;
}

bool isLeading(ArrayRef<int64_t> dims) {
  for (auto [i, d] : llvm::enumerate(dims))
    if (d != static_cast<int64_t>(i))
      return false;
  return true;
}

constexpr int64_t kThreadsPerBlock = 256; // 8 warps: enough to hide latency

MappingAttr elementwiseMapping(const FusionGroup &group, const GpuTarget &target,
                               MLIRContext *ctx) {
  int64_t n = product(group.domain);
  int64_t vec = vectorWidthFor(group.domain.empty() ? 1 : group.domain.back(),
                               maxVectorElements(group));
  int64_t blocks = ceilDiv(n, kThreadsPerBlock * vec);
  // Grid-stride beyond a few waves: more blocks add only scheduling cost.
  int64_t cap = 4 * target.blocksPerWave(kThreadsPerBlock, 0);
  return MappingAttr::get(ctx, MappingKind::Elementwise, n, 1, kThreadsPerBlock,
                          1, kThreadsPerBlock, 1, vec,
                          std::clamp<int64_t>(blocks, 1, cap));
}

/// Reduction over the leading dims: each thread owns one column of the
/// contiguous parallel extent (a warp reads 32 adjacent columns: coalesced
/// without vectors); `slices` threads of a block walk the reduced rows in
/// turn and combine in shared memory. When the columns alone give too few
/// blocks, the reduced extent is also split across blocks, at most one per
/// SM so that all of them are resident for the grid-wide combine.
MappingAttr columnMapping(int64_t parallel, int64_t reduced,
                          const GpuTarget &target, MLIRContext *ctx) {
  // An empty parallel extent still gets one block (it finds no column):
  // the arithmetic below divides by the thread and block counts.
  int64_t columnThreads = std::min<int64_t>(
      target.warpSize, llvm::PowerOf2Ceil(std::max<int64_t>(parallel, 1)));
  int64_t slices = kThreadsPerBlock / columnThreads;
  int64_t columnBlocks = std::max<int64_t>(1, ceilDiv(parallel, columnThreads));
  int64_t split = 1;
  if (columnBlocks * 2 <= target.smCount)
    split = std::max<int64_t>(
        1, std::min(target.smCount / columnBlocks, ceilDiv(reduced, 4 * slices)));
  return MappingAttr::get(ctx, MappingKind::Columns, parallel, reduced,
                          kThreadsPerBlock, slices, columnThreads, split,
                          /*vector_width=*/1, columnBlocks * split);
}

/// Estimated instructions per element of the group's row-wide work (its
/// ops that produce a value per element of the iteration space).
int64_t instructionsPerElement(const FusionGroup &group) {
  int64_t elements = product(group.domain), total = 0;
  for (Operation *op : group.ops)
    if (product(cast<RankedTensorType>(op->getResult(0).getType()).getShape()) ==
        elements)
      total += estimatedInstructionsPerElement(op);
  return total;
}

/// Per-element arithmetic from which a row group counts as heavy: an `erff`
/// with its neighbours (LayerNorm over GELU, ~36) is, softmax (~6) is not.
constexpr int64_t kHeavyInstructionsPerElement = 24;

MappingAttr rowMapping(int64_t rows, int64_t cols, const FusionGroup &group,
                       const GpuTarget &target, MLIRContext *ctx) {
  int64_t maxVector = maxVectorElements(group);
  int64_t vec = vectorWidthFor(cols, maxVector);
  // A thread keeps a fixed number of bytes of each row value (4 vectors of
  // 16 bytes): more loads in flight per thread, while enough warps stay
  // resident. Long dependent chains per element (erff's polynomial) want
  // more warps instead: half the bytes (the sweeps behind both budgets:
  // benchmarks/results/sweeps/README.md).
  int64_t elementBytes = 16 / maxVector;
  int64_t budget = target.rowBytesPerThread / elementBytes;
  if (instructionsPerElement(group) >= kHeavyInstructionsPerElement)
    budget /= 2;
  budget = std::max(vec, std::min(budget, target.registerElementsPerThread));
  // The fewest threads per row that keep the row in registers; short rows
  // get a fraction of a warp, long ones a whole block.
  int64_t perRow = 1;
  while (perRow < target.maxThreadsPerBlock && ceilDiv(cols, perRow) > budget)
    perRow *= 2;
  // Few rows: when they would fill less than a quarter of the GPU's thread
  // slots (16 warps per SM, about what hiding memory latency takes), twice
  // the threads per row, each with half the elements (still a vector).
  if (perRow < target.maxThreadsPerBlock && 2 * perRow * vec <= cols &&
      rows * perRow * 4 < target.smCount * target.maxThreadsPerSM)
    perRow *= 2;
  while (perRow > 1 && (perRow / 2) * vec >= cols)
    perRow /= 2; // no thread without work
  // A last pass that only some threads fill wastes the rest: prefer half as
  // many threads when that divides the row evenly and this does not.
  auto idle = [&](int64_t threads) {
    return ceilDiv(cols, threads * vec) * threads * vec - cols;
  };
  if (perRow > 1 && idle(perRow) > 0 && idle(perRow / 2) == 0 &&
      ceilDiv(cols, perRow / 2) <= 2 * budget)
    perRow /= 2;
  MappingKind kind = perRow < target.warpSize    ? MappingKind::SubwarpRows
                     : perRow == target.warpSize ? MappingKind::WarpRows
                                                 : MappingKind::BlockRows;
  int64_t threads = std::max(perRow, kThreadsPerBlock);
  // Few rows: smaller blocks spread them over more SMs (down to two warps),
  // aiming at four blocks per SM.
  while (threads > std::max<int64_t>(perRow, 2 * target.warpSize) &&
         ceilDiv(rows, threads / perRow) < 4 * target.smCount)
    threads /= 2;
  int64_t rowsPerBlock = threads / perRow;
  // No rows (an empty result) still get one block, which finds no row.
  int64_t blocks = std::max<int64_t>(1, ceilDiv(rows, rowsPerBlock));
  int64_t blocksPerRow = 1;
  // Too few rows to fill the SMs, each longer than a whole block keeps in
  // registers: split each row across blocks. The partial results meet at a
  // grid-wide barrier, so every block must be resident: at most one block
  // per SM, which any block of at most 1024 threads (at most 64 registers
  // each under its launch bounds) achieves. Shorter rows are not worth the
  // barrier.
  if (kind == MappingKind::BlockRows && blocks * 2 <= target.smCount &&
      ceilDiv(cols, perRow) > budget) {
    blocksPerRow = std::min(target.smCount / blocks, ceilDiv(cols, perRow * vec));
    if (blocksPerRow > 1)
      kind = MappingKind::SplitRow;
    else
      blocksPerRow = 1;
  }
  return MappingAttr::get(ctx, kind, rows, cols, threads, perRow, rowsPerBlock,
                          blocksPerRow, vec, blocks * blocksPerRow);
}

} // namespace

std::pair<int64_t, int64_t> sopt::mappedExtents(const FusionGroup &group) {
  int64_t reduced = 1, parallel = 1;
  for (auto [d, extent] : llvm::enumerate(group.domain))
    (llvm::is_contained(group.reducedDims, int64_t(d)) ? reduced : parallel) *= extent;
  return {parallel, reduced};
}

MappingAttr sopt::chooseMapping(const FusionGroup &group,
                                const GpuTarget &target, MLIRContext *ctx) {
  if (!group.hasBackbone())
    return elementwiseMapping(group, target, ctx);
  int64_t rank = group.domain.size();
  auto [parallel, reduced] = mappedExtents(group);
  if (isLeading(group.reducedDims) && !isTrailing(group.reducedDims, rank))
    return columnMapping(parallel, reduced, target, ctx);
  // Trailing reduced dims give contiguous rows; other layouts are walked as
  // rows too, through the index maps.
  return rowMapping(parallel, reduced, group, target, ctx);
}

//===----------------------------------------------------------------------===//
// Index-map propagation
//===----------------------------------------------------------------------===//

namespace {

ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

class IndexMapPropagation {
public:
  IndexMapPropagation(const FusionGroup &group)
      : group(group), ctx(group.ops.front()->getContext()),
        rank(group.domain.size()) {
    for (Operation *op : group.ops)
      members.insert(op);
  }

  FailureOr<DenseMap<Operation *, AffineMap>> run() {
    AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
    for (Operation *op : group.ops) {
      if (auto reduce = dyn_cast<ReduceOp>(op)) {
        if (Operation *input = reduce.getInput().getDefiningOp();
            input && members.contains(input))
          assign(input, identity);
        assign(op, *resultIndices(op, 0, identity));
      } else if (!group.hasBackbone() &&
                 shapeOf(op->getResult(0)) == ArrayRef(group.domain)) {
        assign(op, identity);
      }
    }
    bool changed = true;
    while (changed) {
      changed = false;
      for (Operation *op : group.ops) {
        if (maps.count(op))
          changed |= propagateBackward(op);
        else
          changed |= propagateForward(op);
      }
    }
    for (Operation *op : group.ops)
      if (!maps.count(op))
        return op->emitOpError("cannot express its indices in the iteration "
                               "space of its fusion group"),
               failure();
    return maps;
  }

private:
  bool assign(Operation *op, ArrayRef<AffineExpr> exprs) {
    if (maps.count(op))
      return false;
    SmallVector<AffineExpr> simplified;
    for (AffineExpr e : exprs)
      simplified.push_back(simplifyAffineExpr(e, rank, 0));
    maps[op] = simplifyWithExtents(AffineMap::get(rank, 0, simplified, ctx),
                                   group.domain);
    return true;
  }
  bool assign(Operation *op, AffineMap map) {
    return assign(op, map.getResults());
  }

  /// From a mapped producer to an unmapped consumer.
  bool propagateForward(Operation *op) {
    for (OpOperand &use : op->getOpOperands()) {
      Operation *producer = use.get().getDefiningOp();
      if (!producer || !maps.count(producer))
        continue;
      if (std::optional<AffineMap> map =
              resultIndices(op, use.getOperandNumber(), maps[producer]))
        return assign(op, *map);
    }
    if (isa<BroadcastOp>(op) && shapeOf(op->getResult(0)) == ArrayRef(group.domain))
      return assign(op, AffineMap::getMultiDimIdentityMap(rank, ctx));
    return false;
  }

  /// From a mapped consumer to its unmapped producers in the group.
  bool propagateBackward(Operation *op) {
    bool changed = false;
    for (OpOperand &use : op->getOpOperands()) {
      Operation *producer = use.get().getDefiningOp();
      if (!producer || !members.contains(producer) || maps.count(producer))
        continue;
      if (std::optional<AffineMap> map =
              operandIndices(op, use.getOperandNumber(), maps[op]))
        changed |= assign(producer, *map);
    }
    return changed;
  }

  const FusionGroup &group;
  MLIRContext *ctx;
  int64_t rank;
  llvm::SmallPtrSet<Operation *, 16> members;
  DenseMap<Operation *, AffineMap> maps;
};

} // namespace

FailureOr<DenseMap<Operation *, AffineMap>>
sopt::propagateIndexMaps(const FusionGroup &group) {
  return IndexMapPropagation(group).run();
}

MappingAttr sopt::getRecordedMapping(const FusionGroup &group) {
  for (Operation *op : group.ops)
    if (auto mapping = op->getAttrOfType<MappingAttr>(attr::kMapping))
      return mapping;
  return {};
}

void sopt::recordMapping(const FusionGroup &group, MappingAttr mapping) {
  Operation *holder = nullptr;
  for (Operation *op : group.ops)
    if (op->hasAttr(attr::kMapping))
      holder = op;
  if (!holder)
    holder = group.hasBackbone() ? ReduceOp(group.backbone).getOperation()
                                 : group.ops.back();
  holder->setAttr(attr::kMapping, mapping);
}

MappingAttr sopt::withThreadsPerBlock(MappingAttr m, int64_t threads) {
  if (m.getThreadsPerBlock() == threads)
    return m;
  // Elementwise: a flat grid-stride loop over `rows` elements; columns:
  // `rows_per_block` adjacent columns, `threads_per_row` slices. In both the
  // grid stays, the block's other extent grows.
  if (m.getKind() == MappingKind::Elementwise)
    return MappingAttr::get(m.getContext(), m.getKind(), m.getRows(), m.getCols(),
                            threads, 1, threads, 1, m.getVectorWidth(), m.getGrid());
  if (m.getKind() == MappingKind::Columns)
    return MappingAttr::get(m.getContext(), m.getKind(), m.getRows(), m.getCols(),
                            threads, threads / m.getRowsPerBlock(),
                            m.getRowsPerBlock(), m.getBlocksPerRow(),
                            m.getVectorWidth(), m.getGrid());
  assert(threads % m.getThreadsPerRow() == 0 && "blocks hold whole rows");
  int64_t rowsPerBlock = threads / m.getThreadsPerRow();
  return MappingAttr::get(m.getContext(), m.getKind(), m.getRows(), m.getCols(),
                          threads, m.getThreadsPerRow(), rowsPerBlock,
                          m.getBlocksPerRow(), m.getVectorWidth(),
                          std::max<int64_t>(1, ceilDiv(m.getRows(), rowsPerBlock)) *
                              m.getBlocksPerRow());
}
