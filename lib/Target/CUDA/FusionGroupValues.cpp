//===- FusionGroupValues.cpp - a fusion group's loads, arithmetic, stores -===//
//
// The values of one group: each written once where its indices are known,
// read from the reuse plan's caches in later phases, stored where the region
// yields it or a later group of the kernel reads it.
//
//===----------------------------------------------------------------------===//

#include "CudaSyntax.h"
#include "FusionGroupWriter.h"

#include "sparse-opt/Analysis/IndexMaps.h"
#include "sparse-opt/Analysis/ThreadMapping.h"
#include "sparse-opt/Dialect/SOpt/FusionAnnotations.h"

using namespace mlir;
using namespace mlir::sopt;
using namespace mlir::sopt::cuda;

LogicalResult GroupWriter::checkSupported() {
  // The kernel walks exactly the mapping's rows x cols: they must be the
  // group's parallel and reduced extents.
  auto [parallel, reduced] = mappedExtents(group);
  if (mapping.getRows() != parallel || mapping.getCols() != reduced)
    return group.ops.front()->emitOpError()
           << "has a thread mapping over " << mapping.getRows() << " x " << mapping.getCols()
           << " but its group iterates over " << parallel << " x " << reduced
           << "; run sopt-propagate-mapping";
  // Vector accesses stay within a row of the innermost dimension.
  if (!group.domain.empty() && group.domain.back() % mapping.getVectorWidth() != 0)
    return group.ops.front()->emitOpError()
           << "has a thread mapping with vector_width = " << mapping.getVectorWidth()
           << ", which does not divide the innermost extent (" << group.domain.back()
           << "); run sopt-propagate-mapping";
  for (Value v : fusion.getInputs())
    if (tensorType(v).getElementType().isF64())
      return fusion.emitOpError("has an f64 tensor; the CUDA emitter computes "
                                "in f32 (f64 is for reference computations)");
  for (Type t : fusion.getResultTypes())
    if (cast<RankedTensorType>(t).getElementType().isF64())
      return fusion.emitOpError("has an f64 result; the CUDA emitter computes "
                                "in f32 (f64 is for reference computations)");
  switch (mapping.getKind()) {
  case MappingKind::Elementwise:
  case MappingKind::SubwarpRows:
  case MappingKind::WarpRows:
  case MappingKind::BlockRows:
  case MappingKind::SplitRow:
  case MappingKind::Columns:
    break;
  default:
    return backbone.emitOpError()
           << "has the mapping " << stringifyMappingKind(mapping.getKind())
           << ", which the CUDA emitter does not lower yet";
  }
  if (!isElementwise()) {
    int64_t k = group.reducedDims.size();
    for (int64_t i = 0; i < k; ++i)
      if (group.reducedDims[i] != (isColumns() ? i : rank - k + i))
        return backbone.emitOpError(
            "reduces dimensions that are neither all trailing nor all leading; "
            "the CUDA emitter lowers row and column reductions only");
    // Slots lie within the shared memory the kernel is launched with.
    auto sharedBytes = fusion->getAttrOfType<IntegerAttr>(attr::kSharedBytes);
    for (Operation *op : group.ops)
      if (auto slot = op->getAttrOfType<DenseI64ArrayAttr>(attr::kSharedSlot);
          slot && (!sharedBytes || slot[0] < 0 || slot[1] < 0 ||
                   slot[0] > sharedBytes.getInt() - slot[1]))
        return op->emitOpError() << "has a shared-memory slot [" << slot[0] << ", " << slot[1]
                                 << "] beyond the kernel's sopt.smem_bytes ("
                                 << (sharedBytes ? sharedBytes.getInt() : 0)
                                 << "); run sopt-plan-reuse";
    // The backbone and every sub-backbone reduce across the block.
    if (mapping.getThreadsPerRow() > 32 || isColumns())
      for (Operation *op : group.ops)
        if (isa<ReduceOp>(op) && !op->hasAttr(attr::kSharedSlot))
          return op->emitOpError("needs a shared-memory slot for its block reduction; run "
                                 "sopt-plan-reuse first");
  }
  for (Operation *op : group.ops)
    if (!op->hasTrait<OpTrait::Elementwise>() &&
        !isa<BroadcastOp, ReduceOp, ReshapeOp, TransposeOp>(op))
      return op->emitOpError("is not supported inside a fused CUDA kernel");
  return success();
}

void GroupWriter::computePhases() {
  // Values of other groups are finished before this group starts: inputs.
  for (Operation *op : group.ops) {
    int64_t p = 0;
    for (Value operand : op->getOperands())
      if (isMember(operand))
        p = std::max(p, phaseOf.lookup(operand));
    for (Value result : op->getResults())
      phaseOf[result] = isa<ReduceOp>(op) ? p + 1 : p;
  }
  for (auto [v, p] : phaseOf)
    phases = std::max(phases, p + 1);
  // Reductions end phases; what each phase feeds and keeps, in group order.
  reducesFedBy.resize(phases);
  cachedIn.resize(phases);
  for (Operation *op : group.ops) {
    if (auto reduce = dyn_cast<ReduceOp>(op)) {
      reducesFedBy[phaseOf.lookup(reduce.getInput())].push_back(reduce);
      continue;
    }
    if (op->hasAttr(attr::kCache))
      for (Value v : op->getResults())
        cachedIn[phaseOf.lookup(v)].push_back(v);
  }
}

bool GroupWriter::isContiguous(AffineMap map, ArrayRef<int64_t> shape) const {
  int64_t vector = mapping.getVectorWidth();
  if (vector == 1 || isEpilogue() || map.getNumResults() == 0 || shape.back() != group.domain.back())
    return false;
  // The innermost index is the innermost iteration index, and nothing else
  // depends on it: the chunk's `vector` elements sit side by side.
  AffineExpr last = map.getResults().back();
  auto dim = dyn_cast<AffineDimExpr>(last);
  if (!dim || dim.getPosition() != rank - 1)
    return false;
  for (AffineExpr e : map.getResults().drop_back())
    if (e.isFunctionOfDim(rank - 1))
      return false;
  return true;
}

Scope &GroupWriter::scopeFor(AffineMap map) {
  // In an elementwise group the row scope holds what no element index
  // changes (a scalar input, a value another group exchanged), computed
  // once before the element loop.
  // An epilogue is called per element: everything is element scope.
  if (isEpilogue())
    return inElement ? element : row;
  if (isElementwise())
    return inElement && !map.isConstant() ? element : row;
  return inElement && variesAlongRow(map) ? element : row;
}

std::string GroupWriter::offsetOf(AffineMap map, ArrayRef<int64_t> shape,
                                  bool inChunk, IndexUses &uses) {
  // A tensor of an elementwise group's own shape read in place: the flat
  // index itself, with no division into dims and back.
  if (isElementwise() && !isEpilogue() && map.isIdentity() &&
      shape == ArrayRef(group.domain)) {
    if (inChunk)
      return "e0";
    uses.flat = anyUses.flat = true;
    return "e";
  }
  AffineExpr offset = linearOffset(map, shape);
  for (int64_t d = 0; d < rank; ++d)
    if (offset.isFunctionOfDim(d)) {
      uses.dims.set(d);
      anyUses.dims.set(d);
    }
  return affineToC(offset, inChunk ? chunkDimNames : dimNames);
}

std::string GroupWriter::load(BlockArgument arg, AffineMap map) {
  Scope &scope = scopeFor(map);
  auto type = tensorType(arg);
  std::string pointer = "in" + std::to_string(arg.getArgNumber());
  bool isFloat = isa<FloatType>(type.getElementType());
  if (&scope == &element && isFloat && isContiguous(map, type.getShape())) {
    std::string buffer = fresh("ld");
    chunk.loads.line("float " + buffer + "[kVector];");
    chunk.loads.line("sopt::loadVector<kVector>(" + pointer + " + " +
                     offsetOf(map, type.getShape(), /*inChunk=*/true, chunk.uses) +
                     ", " + buffer + ");");
    return buffer + "[j]";
  }
  return scalarLoad(scope,
                    pointer + "[" +
                        offsetOf(map, type.getShape(), /*inChunk=*/false, scope.uses) +
                        "]",
                    type.getElementType());
}

std::string GroupWriter::loadExchanged(Value v, StringRef buffer, AffineMap map) {
  auto type = tensorType(v);
  Scope &scope = scopeFor(map);
  // Written by other blocks before the barrier: read through L2, never
  // through the non-coherent read-only path (Convert.cuh says why not __ldcg).
  return scalarLoad(scope,
                    "sopt::loadFromGrid(" + buffer.str() + " + " +
                        offsetOf(map, type.getShape(), /*inChunk=*/false, scope.uses) +
                        ")",
                    type.getElementType());
}

std::string GroupWriter::scalarLoad(Scope &scope, std::string access, Type elementType) {
  std::string var = fresh("v");
  if (isa<FloatType>(elementType))
    access = "sopt::toFloat(" + access + ")";
  std::string ctype = computeType(elementType);
  // Row-scope loads run for every thread of the row loop, also past the
  // last row: keep them in bounds.
  if (&scope == &row && !isElementwise())
    access = "rowValid ? " + access + " : " + ctype + "(0)";
  scope.code.line("const " + ctype + " " + var + " = " + access + ";");
  return var;
}

std::string GroupWriter::value(Value v, AffineMap map) {
  Scope &scope = scopeFor(map);
  auto key = std::make_pair(v, map);
  if (auto it = row.computed.find(key); it != row.computed.end())
    return it->second;
  if (auto it = scope.computed.find(key); it != scope.computed.end())
    return it->second;
  // A kept value read back: the read may name the row position.
  auto readCached = [&](const Cached &kept) {
    scope.uses.col |= kept.readsCol;
    return kept.read;
  };

  std::string result;
  Operation *def = v.getDefiningOp();
  if (auto arg = dyn_cast<BlockArgument>(v);
      arg && accumulatorArg && arg.getArgNumber() == *accumulatorArg) {
    assert(map.isIdentity() && "sopt-fuse-sparse-epilogues reads the product in place");
    return "acc";
  }
  if (def && !isa<ConstantOp>(def) && !members.contains(def)) {
    // Another group's value: it crossed to this group through global memory.
    assert(exchange && exchange->count(v) && "sopt-plan-reuse records crossings");
    result = loadExchanged(v, exchange->lookup(v), map);
  } else if (auto arg = dyn_cast<BlockArgument>(v);
      arg && !(cached.count(v) && inElement && currentPhase > 0 &&
               map.isIdentity())) {
    result = load(arg, map);
  } else if (auto constant = dyn_cast_if_present<ConstantOp>(def)) {
    auto splat = cast<DenseElementsAttr>(constant.getValue()).getSplatValue<Attribute>();
    if (auto f = dyn_cast<FloatAttr>(splat))
      return floatLiteral(f.getValueAsDouble());
    if (auto i = dyn_cast<IntegerAttr>(splat))
      return constant.getType().getElementType().isInteger(1)
                 ? (i.getValue().isZero() ? "false" : "true")
                 : std::to_string(i.getValue().getSExtValue()) + "LL";
    llvm_unreachable("splat constants are float or integer");
  } else if (isa_and_present<ReduceOp>(def)) {
    return accumulator.lookup(v); // finished by an earlier phase
  } else if (auto it = cached.find(v);
             it != cached.end() && isa<BlockArgument>(v) && inElement &&
             currentPhase > 0 && map.isIdentity()) {
    return readCached(it->second);
  } else if (auto it = cached.find(v);
             it != cached.end() && currentPhase > phaseOf.lookup(v) &&
             inElement &&
             def->getAttrOfType<AffineMapAttr>(attr::kIndexMap).getValue() == map) {
    return readCached(it->second);
  } else if (def->hasTrait<OpTrait::Elementwise>()) {
    SmallVector<std::string> operands;
    for (Value operand : def->getOperands())
      operands.push_back(value(operand, map));
    std::string var = fresh("v");
    scope.code.line("const " + computeType(tensorType(v).getElementType()) +
                    " " + var + " = " + elementwiseExpression(def, operands) + ";");
    result = var;
  } else {
    // Broadcast, transpose, reshape: the same elements, other indices.
    std::optional<AffineMap> operandMap = operandIndices(def, 0, map);
    assert(operandMap && "layout ops have index rules");
    return value(def->getOperand(0),
                 simplifyWithExtents(*operandMap, group.domain));
  }
  scope.computed[key] = result;
  return result;
}

void GroupWriter::storeOutputs(int64_t phase, bool rowScalars) {
  // The region's results, and what later groups of the kernel read.
  SmallVector<std::pair<Value, std::string>> destinations;
  for (auto [i, v] : llvm::enumerate(fusion.getYield().getValues()))
    destinations.push_back({v, "out" + std::to_string(i)});
  if (exchange)
    for (auto [v, buffer] : *exchange)
      destinations.push_back({v, buffer});
  for (auto [v, out] : destinations) {
    Operation *def = v.getDefiningOp();
    // Each group stores its own values (splat constants have no group).
    if (!def || (!members.contains(def) && !isa<ConstantOp>(def)) ||
        phaseOf.lookup(v) != phase)
      continue;
    AffineMap map = def->getAttrOfType<AffineMapAttr>(attr::kIndexMap).getValue();
    if (!isElementwise() && variesAlongRow(map) == rowScalars)
      continue;
    auto type = tensorType(v);
    std::string storage = *storageType(type.getElementType());
    std::string x = value(v, map);
    if (rowScalars) {
      row.code.line(std::string("if (rowValid && lane == 0") +
                    (isSplit() ? " && segment == 0" : "") + ")");
      row.code.indent().line(
          out + "[" + offsetOf(map, type.getShape(), /*inChunk=*/false, row.uses) +
          "] = sopt::fromFloat<" + storage + ">(" + x + ");");
      row.code.unindent();
      continue;
    }
    if (isa<FloatType>(type.getElementType()) && isContiguous(map, type.getShape())) {
      std::string buffer = fresh("st");
      chunk.loads.line("float " + buffer + "[kVector];");
      element.code.line(buffer + "[j] = " + x + ";");
      chunk.stores.line("sopt::storeVector<kVector>(" + out + " + " +
                        offsetOf(map, type.getShape(), /*inChunk=*/true, chunk.uses) +
                        ", " + buffer + ");");
      continue;
    }
    std::string converted = isa<FloatType>(type.getElementType())
                                ? "sopt::fromFloat<" + storage + ">(" + x + ")"
                                : x;
    element.code.line(out + "[" +
                      offsetOf(map, type.getShape(), /*inChunk=*/false, element.uses) +
                      "] = " + converted + ";");
  }
}

void GroupWriter::cache(Value v, MemoryLevel level,
                        std::optional<int64_t> offset, AffineMap map) {
  std::string x = value(v, map);
  std::string name = fresh("cache");
  if (level == MemoryLevel::Register && !isColumns()) {
    row.code.line("float " + name + "[kItems * kVector];");
    element.code.line(name + "[it * kVector + j] = " + x + ";");
    cached[v] = {name + "[it * kVector + j]", /*readsCol=*/false};
    return;
  }
  if (level != MemoryLevel::Shared || !offset)
    return; // re-read (recomputed) where needed
  // One row segment per row of the block, in the storage type; each element
  // is written and read back by the same thread, so no barrier is needed.
  std::string storage = *storageType(tensorType(v).getElementType());
  int64_t rowElements = (mapping.getCols() + mapping.getBlocksPerRow() - 1) /
                        mapping.getBlocksPerRow();
  row.code.line(storage + " *" + name + " = reinterpret_cast<" + storage +
                " *>(smem + " + std::to_string(*offset) + ");");
  std::string slot = name + "[rowInBlock * " + std::to_string(rowElements) +
                     " + (col - kSegmentStart)]";
  element.code.line(slot + " = sopt::fromFloat<" + storage + ">(" + x + ");");
  element.uses.col = true;
  cached[v] = {"sopt::toFloat(" + slot + ")", /*readsCol=*/true};
}
