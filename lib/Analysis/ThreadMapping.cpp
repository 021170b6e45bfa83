//===- ThreadMapping.cpp - a group's mapping onto threads -----------------===//

#include "sparse-opt/Analysis/ThreadMapping.h"

#include "mlir/IR/AffineExpr.h"
#include "sparse-opt/Dialect/SOpt/FusionAnnotations.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::sopt;

namespace {

int64_t product(ArrayRef<int64_t> values) {
  int64_t result = 1;
  for (int64_t v : values)
    result *= v;
  return result;
}

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// The widest vector (4, 2 or 1 elements) that divides `extent`.
int64_t vectorWidthFor(int64_t extent) {
  return extent % 4 == 0 ? 4 : extent % 2 == 0 ? 2 : 1;
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
  int64_t vec = vectorWidthFor(group.domain.empty() ? 1 : group.domain.back());
  int64_t blocks = ceilDiv(n, kThreadsPerBlock * vec);
  // Grid-stride beyond a few waves: more blocks add only scheduling cost.
  int64_t cap = 4 * target.blocksPerWave(kThreadsPerBlock, 0);
  return MappingAttr::get(ctx, MappingKind::Elementwise, n, 1, kThreadsPerBlock,
                          1, kThreadsPerBlock, 1, vec,
                          std::clamp<int64_t>(blocks, 1, cap));
}

/// Reduction over the leading dims: each thread owns `vec` adjacent columns
/// (the contiguous, parallel extent); `slices` threads of a block walk the
/// reduced rows in turn and combine in shared memory; when the columns alone
/// give too few blocks, the reduced extent is also split across blocks.
MappingAttr columnMapping(int64_t parallel, int64_t reduced,
                          const GpuTarget &target, MLIRContext *ctx) {
  int64_t vec = vectorWidthFor(parallel);
  int64_t columnThreads = std::min<int64_t>(
      target.warpSize, llvm::PowerOf2Ceil(ceilDiv(parallel, vec)));
  int64_t slices = kThreadsPerBlock / columnThreads;
  int64_t columnBlocks = ceilDiv(parallel, columnThreads * vec);
  int64_t wave = target.blocksPerWave(kThreadsPerBlock, 0);
  int64_t split = 1;
  if (columnBlocks < target.smCount)
    split = std::clamp<int64_t>(
        std::min(wave / columnBlocks, ceilDiv(reduced, 4 * slices)), 1,
        wave);
  return MappingAttr::get(ctx, MappingKind::Columns, parallel, reduced,
                          kThreadsPerBlock, slices, columnThreads, split, vec,
                          columnBlocks * split);
}

MappingAttr rowMapping(int64_t rows, int64_t cols, const GpuTarget &target,
                       MLIRContext *ctx) {
  int64_t vec = vectorWidthFor(cols);
  // The fewest threads per row that keep the row in registers; short rows
  // get a fraction of a warp, long ones a whole block.
  int64_t perRow = 1;
  while (perRow < target.maxThreadsPerBlock &&
         ceilDiv(cols, perRow) > target.registerElementsPerThread)
    perRow *= 2;
  while (perRow > 1 && (perRow / 2) * vec >= cols)
    perRow /= 2; // no thread without work
  MappingKind kind = perRow < target.warpSize    ? MappingKind::SubwarpRows
                     : perRow == target.warpSize ? MappingKind::WarpRows
                                                 : MappingKind::BlockRows;
  int64_t threads = std::max(perRow, kThreadsPerBlock);
  int64_t rowsPerBlock = threads / perRow;
  int64_t blocks = ceilDiv(rows, rowsPerBlock);
  int64_t blocksPerRow = 1;
  // Too few rows to fill the SMs: split each long row across blocks, as far
  // as one wave allows (the partial results meet at a grid-wide barrier).
  int64_t wave = target.blocksPerWave(threads, 0);
  if (kind == MappingKind::BlockRows && blocks * 2 <= target.smCount) {
    blocksPerRow = std::min(ceilDiv(target.smCount, blocks),
                            ceilDiv(cols, perRow * vec));
    blocksPerRow = std::min(blocksPerRow, wave / blocks);
    if (blocksPerRow > 1)
      kind = MappingKind::SplitRow;
    else
      blocksPerRow = 1;
  }
  return MappingAttr::get(ctx, kind, rows, cols, threads, perRow, rowsPerBlock,
                          blocksPerRow, vec, blocks * blocksPerRow);
}

} // namespace

MappingAttr sopt::chooseMapping(const FusionGroup &group,
                                const GpuTarget &target, MLIRContext *ctx) {
  if (!group.hasBackbone())
    return elementwiseMapping(group, target, ctx);
  int64_t rank = group.domain.size();
  int64_t reduced = 1, parallel = 1;
  for (int64_t d = 0; d < rank; ++d)
    (llvm::is_contained(group.reducedDims, d) ? reduced : parallel) *=
        group.domain[d];
  if (isLeading(group.reducedDims) && !isTrailing(group.reducedDims, rank))
    return columnMapping(parallel, reduced, target, ctx);
  // Trailing reduced dims give contiguous rows; other layouts are walked as
  // rows too, through the index maps.
  return rowMapping(parallel, reduced, target, ctx);
}

//===----------------------------------------------------------------------===//
// Index-map propagation
//===----------------------------------------------------------------------===//

namespace {

SmallVector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

/// Indices of a value of shape `to` that holds, in row-major order, the
/// elements addressed by `indices` in shape `from` (a reshape).
SmallVector<AffineExpr> reshapeIndices(ArrayRef<AffineExpr> indices,
                                       ArrayRef<int64_t> from,
                                       ArrayRef<int64_t> to, MLIRContext *ctx) {
  AffineExpr linear = getAffineConstantExpr(0, ctx);
  for (auto [index, stride] : llvm::zip(indices, rowMajorStrides(from)))
    linear = linear + index * stride;
  SmallVector<AffineExpr> result;
  for (auto [size, stride] : llvm::zip(to, rowMajorStrides(to)))
    result.push_back(linear.floorDiv(stride) % size);
  return result;
}

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
        assign(op, reduceResult(reduce, identity.getResults()));
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
    maps[op] = AffineMap::get(rank, 0, simplified, ctx);
    return true;
  }
  bool assign(Operation *op, AffineMap map) {
    return assign(op, map.getResults());
  }

  SmallVector<AffineExpr> reduceResult(ReduceOp reduce,
                                       ArrayRef<AffineExpr> input) {
    SmallVector<AffineExpr> result;
    for (auto [d, e] : llvm::enumerate(input)) {
      if (!llvm::is_contained(reduce.getDims(), static_cast<int64_t>(d)))
        result.push_back(e);
      else if (reduce.getKeepDims())
        result.push_back(getAffineConstantExpr(0, ctx));
    }
    return result;
  }

  /// From a mapped producer to an unmapped consumer.
  bool propagateForward(Operation *op) {
    for (Value operand : op->getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if (!producer || !maps.count(producer))
        continue;
      ArrayRef<AffineExpr> in = maps[producer].getResults();
      if (op->hasTrait<OpTrait::Elementwise>())
        return assign(op, in);
      if (auto transpose = dyn_cast<TransposeOp>(op)) {
        SmallVector<AffineExpr> out;
        for (int64_t p : transpose.getPermutation())
          out.push_back(in[p]);
        return assign(op, out);
      }
      if (auto reshape = dyn_cast<ReshapeOp>(op))
        return assign(op, reshapeIndices(in, shapeOf(operand),
                                         shapeOf(reshape.getResult()), ctx));
      if (auto reduce = dyn_cast<ReduceOp>(op))
        return assign(op, reduceResult(reduce, in));
    }
    if (isa<BroadcastOp>(op) && shapeOf(op->getResult(0)) == ArrayRef(group.domain))
      return assign(op, AffineMap::getMultiDimIdentityMap(rank, ctx));
    return false;
  }

  /// From a mapped consumer to its unmapped producers in the group.
  bool propagateBackward(Operation *op) {
    bool changed = false;
    ArrayRef<AffineExpr> out = maps[op].getResults();
    for (Value operand : op->getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if (!producer || !members.contains(producer) || maps.count(producer))
        continue;
      if (auto broadcast = dyn_cast<BroadcastOp>(op)) {
        changed |= assign(producer, broadcastOperand(broadcast, out));
      } else if (auto transpose = dyn_cast<TransposeOp>(op)) {
        SmallVector<AffineExpr> in(out.size());
        for (auto [i, p] : llvm::enumerate(transpose.getPermutation()))
          in[p] = out[i];
        changed |= assign(producer, in);
      } else if (isa<ReshapeOp>(op)) {
        changed |= assign(producer, reshapeIndices(out, shapeOf(op->getResult(0)),
                                                   shapeOf(operand), ctx));
      } else if (op->hasTrait<OpTrait::Elementwise>()) {
        changed |= assign(producer, out);
      }
    }
    return changed;
  }

  SmallVector<AffineExpr> broadcastOperand(BroadcastOp broadcast,
                                           ArrayRef<AffineExpr> out) {
    ArrayRef<int64_t> in = shapeOf(broadcast.getInput());
    SmallVector<AffineExpr> result;
    for (auto [i, d] : llvm::enumerate(broadcast.getDims()))
      result.push_back(in[i] == 1 ? getAffineConstantExpr(0, ctx) : out[d]);
    return result;
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
