//===- FusionKernel.cpp - one sopt.fusion region as a CUDA kernel ---------===//
//
// A fusion group is evaluated element by element at indices that are affine
// functions of its iteration space (sopt.index_map). Values are produced on
// demand: asking for a value at some indices emits the loads and arithmetic
// it needs once, in the innermost scope where those indices are known (a row
// scalar in the row scope, an element value in the element loop), and reuses
// it after. Reductions split a row's work into phases; values needed after a
// reduction come from the register caches the reuse plan chose, or are
// recomputed.
//
// A region of several groups (a reduction whose result feeds a reduction of
// another shape, planned to fit in one wave) becomes one kernel that runs
// the groups in turn, at one block size: values crossing groups go through
// global buffers, and a grid-wide barrier separates a group from the ones
// it reads.
//
//===----------------------------------------------------------------------===//

#include "FusionKernel.h"
#include "CudaSyntax.h"

#include "sparse-opt/Analysis/BackboneGrouping.h"
#include "sparse-opt/Support/Extents.h"
#include "sparse-opt/Analysis/IndexMaps.h"
#include "sparse-opt/Analysis/ThreadMapping.h"
#include "sparse-opt/Dialect/SOpt/FusionAnnotations.h"

#include "mlir/IR/AsmState.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::sopt;
using namespace mlir::sopt::cuda;

namespace {

RankedTensorType tensorType(Value v) { return cast<RankedTensorType>(v.getType()); }

/// Statements of one scope, and the values already computed in it.
struct Scope {
  std::string body;
  DenseMap<std::pair<Value, AffineMap>, std::string> computed;
};

/// Values a group passes to later groups of its kernel, by the global buffer
/// (a pointer variable of the value's storage type) that carries them.
using Exchange = llvm::MapVector<Value, std::string>;

/// One group's code, to be placed in a kernel.
struct GroupCode {
  std::string body;    // statements at function scope
  std::string summary; // what the group does, without the kernel's name
  KernelLaunch launch; // grid, block, shared bytes, scratch of this group
};

void writeSignature(llvm::raw_ostream &os, FusionOp fusion, StringRef name,
                    int64_t threads, int64_t residentBlocks,
                    StringRef scratch, bool dependentLaunch) {
  os << "extern \"C\" __global__ void __launch_bounds__(" << threads;
  if (residentBlocks > 1)
    os << ", " << residentBlocks; // all resident for the grid-wide barriers
  os << ")\n" << name << "(";
  SmallVector<std::string> params;
  for (auto [i, input] : llvm::enumerate(fusion.getInputs()))
    params.push_back("const " + *storageType(tensorType(input).getElementType()) +
                     " *__restrict__ in" + std::to_string(i));
  for (auto [i, type] : llvm::enumerate(fusion.getResultTypes()))
    params.push_back(*storageType(cast<RankedTensorType>(type).getElementType()) +
                     " *__restrict__ out" + std::to_string(i));
  if (!scratch.empty())
    params.push_back(("float *__restrict__ " + scratch).str());
  llvm::interleave(params, os, ",\n    ");
  os << ") {\n";
  // Launched as a dependent launch (Launch.cuh), the kernel may start
  // before the one ahead of it in the stream has finished: it waits for
  // it before touching memory. (Cooperative launches are plain ones.)
  if (dependentLaunch)
    os << "  sopt::awaitPrecedingKernels();\n";
}

class KernelWriter {
public:
  KernelWriter(FusionOp fusion, const FusionGroup &group, MappingAttr mapping,
               StringRef name, const Exchange *exchange = nullptr)
      : fusion(fusion), group(group), backbone(group.backbone),
        mapping(mapping), name(name.str()), rank(group.domain.size()),
        members(group.ops.begin(), group.ops.end()), exchange(exchange) {}

  FailureOr<KernelLaunch> write(llvm::raw_ostream &os);
  /// The group's statements and summary, for a kernel of several groups.
  FailureOr<GroupCode> writeGroup();
  /// Writes the group as the epilogue functor of the sparse product that
  /// produces input `accumulatorInput` (see emitSparseEpilogue).
  FailureOr<std::string> writeEpilogue(unsigned accumulatorInput, llvm::raw_ostream &os);

private:
  // --- what the IR says -------------------------------------------------
  LogicalResult checkSupported();
  void computePhases();
  bool isReducedDim(int64_t d) const {
    return llvm::is_contained(group.reducedDims, d);
  }
  /// Whether a value evaluated at `map` changes along the reduced dims.
  bool variesAlongRow(AffineMap map) const {
    for (int64_t d : group.reducedDims)
      if (map.isFunctionOfDim(d))
        return true;
    return false;
  }
  /// Whether the `vector` elements of a chunk, at `map` in a tensor of
  /// `shape`, are consecutive and aligned in memory.
  bool isContiguous(AffineMap map, ArrayRef<int64_t> shape) const;
  /// An epilogue evaluates one element per call: no vector loads.
  bool isEpilogue() const { return accumulatorArg.has_value(); }

  // --- emission ---------------------------------------------------------
  std::string value(Value v, AffineMap map);
  std::string load(BlockArgument arg, AffineMap map);
  /// Reads a value another group of the kernel left in its global buffer.
  std::string loadExchanged(Value v, StringRef buffer, AffineMap map);
  /// `const T vK = access;` in `scope`, widened to f32 and kept in bounds.
  std::string scalarLoad(Scope &scope, std::string access, Type elementType);
  bool isMember(Value v) const {
    Operation *def = v.getDefiningOp();
    return def && members.contains(def);
  }
  std::string compute(Operation *op, ArrayRef<std::string> operands);
  std::string fresh(StringRef prefix) { return (prefix + Twine(counter++)).str(); }
  std::string offsetOf(AffineMap map, ArrayRef<int64_t> shape,
                       ArrayRef<std::string> dims) const {
    // A tensor of an elementwise group's own shape read in place: the flat
    // index itself, with no division into dims and back.
    if (isElementwise() && !isEpilogue() && map.isIdentity() &&
        shape == ArrayRef(group.domain))
      return llvm::equal(dims, chunkDimNames) ? "e0" : "e";
    return affineToC(linearOffset(map, shape), dims);
  }
  Scope &scopeFor(AffineMap map) {
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
  bool isElementwise() const { return !group.hasBackbone(); }
  bool isSplit() const { return mapping.getBlocksPerRow() > 1; }
  /// Whether a row is exactly `kItems` passes of its threads: no chunk of
  /// any pass runs past the row's end.
  bool hasWholePasses() const {
    return !isSplit() &&
           items * mapping.getThreadsPerRow() * mapping.getVectorWidth() ==
               mapping.getCols();
  }
  /// Columns: the reduced dims lead and threads own parallel positions; the
  /// code is the row code with the roles of the two index sets swapped.
  bool isColumns() const { return mapping.getKind() == MappingKind::Columns; }
  /// Statements of the row scope sit in the row loop, element statements in
  /// the innermost (vector) loop.
  std::string indent(const Scope &scope) const {
    return &scope == &row ? "    " : "        ";
  }

  void writeElementwise(llvm::raw_ostream &os);
  void writeRows(llvm::raw_ostream &os);
  /// The element loop of one phase: reductions, caches and stores of the
  /// values that phase completes.
  std::string elementLoop(int64_t phase);
  void storeOutputs(int64_t phase, bool rowScalars);
  /// Keeps `v` (evaluated at `map`) for later phases: in a register array,
  /// or in the shared slot at `offset`. Global means re-read: nothing to do.
  void cache(Value v, MemoryLevel level, std::optional<int64_t> offset,
             AffineMap map);

  FusionOp fusion;
  const FusionGroup &group;
  ReduceOp backbone;
  MappingAttr mapping;
  std::string name;
  int64_t rank;
  llvm::SmallPtrSet<Operation *, 16> members;
  const Exchange *exchange;

  DenseMap<Value, int64_t> phaseOf;
  int64_t phases = 1;
  DenseMap<Value, std::string> accumulator; // reduce result -> variable
  /// Row values kept for later phases -> the expression that reads them back.
  DenseMap<Value, std::string> cached;
  int64_t reductions = 0;                    // in emission order
  int64_t items = 1;                        // chunks per thread and row
  int64_t currentPhase = 0;

  Scope row, element;
  bool inElement = false;
  std::string chunkStart, chunkEnd; // vector loads before, stores after
  SmallVector<std::string> dimNames, chunkDimNames;
  unsigned counter = 0;
  /// In an epilogue: the input that is the product's accumulator ("acc").
  std::optional<unsigned> accumulatorArg;
};

LogicalResult KernelWriter::checkSupported() {
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
    if ((mapping.getThreadsPerRow() > 32 || isColumns()) &&
        !backbone->hasAttr(attr::kSharedSlot))
      return backbone.emitOpError(
          "needs a shared-memory slot for its block reduction; run "
          "sopt-plan-reuse first");
  }
  for (Operation *op : group.ops)
    if (!op->hasTrait<OpTrait::Elementwise>() &&
        !isa<BroadcastOp, ReduceOp, ReshapeOp, TransposeOp>(op))
      return op->emitOpError("is not supported inside a fused CUDA kernel");
  return success();
}

void KernelWriter::computePhases() {
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
}

bool KernelWriter::isContiguous(AffineMap map, ArrayRef<int64_t> shape) const {
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

std::string KernelWriter::load(BlockArgument arg, AffineMap map) {
  Scope &scope = scopeFor(map);
  auto type = tensorType(arg);
  std::string pointer = "in" + std::to_string(arg.getArgNumber());
  bool isFloat = isa<FloatType>(type.getElementType());
  if (&scope == &element && isFloat && isContiguous(map, type.getShape())) {
    std::string buffer = fresh("ld");
    chunkStart += llvm::formatv(
        "      float {0}[kVector];\n      sopt::loadVector<kVector>({1} + {2}, {0});\n",
        buffer, pointer, offsetOf(map, type.getShape(), chunkDimNames));
    return buffer + "[j]";
  }
  return scalarLoad(scope, pointer + "[" + offsetOf(map, type.getShape(), dimNames) + "]",
                    type.getElementType());
}

std::string KernelWriter::loadExchanged(Value v, StringRef buffer, AffineMap map) {
  auto type = tensorType(v);
  // Written by other blocks before the barrier: read through L2, never
  // through the non-coherent read-only path (Convert.cuh says why not __ldcg).
  return scalarLoad(scopeFor(map),
                    "sopt::loadFromGrid(" + buffer.str() + " + " +
                        offsetOf(map, type.getShape(), dimNames) + ")",
                    type.getElementType());
}

std::string KernelWriter::scalarLoad(Scope &scope, std::string access, Type elementType) {
  std::string var = fresh("v");
  if (isa<FloatType>(elementType))
    access = "sopt::toFloat(" + access + ")";
  std::string ctype = computeType(elementType);
  // Row-scope loads run for every thread of the row loop, also past the
  // last row: keep them in bounds.
  if (&scope == &row && !isElementwise())
    access = "rowValid ? " + access + " : " + ctype + "(0)";
  scope.body += indent(scope) + "const " + ctype + " " + var + " = " + access + ";\n";
  return var;
}

std::string KernelWriter::value(Value v, AffineMap map) {
  Scope &scope = scopeFor(map);
  auto key = std::make_pair(v, map);
  if (auto it = row.computed.find(key); it != row.computed.end())
    return it->second;
  if (auto it = scope.computed.find(key); it != scope.computed.end())
    return it->second;

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
    return it->second;
  } else if (auto it = cached.find(v);
             it != cached.end() && currentPhase > phaseOf.lookup(v) &&
             inElement &&
             def->getAttrOfType<AffineMapAttr>(attr::kIndexMap).getValue() == map) {
    return it->second;
  } else if (def->hasTrait<OpTrait::Elementwise>()) {
    SmallVector<std::string> operands;
    for (Value operand : def->getOperands())
      operands.push_back(value(operand, map));
    std::string var = fresh("v");
    scope.body += indent(scope) + "const " +
                  computeType(tensorType(v).getElementType()) + " " + var +
                  " = " + compute(def, operands) + ";\n";
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

std::string KernelWriter::compute(Operation *op, ArrayRef<std::string> x) {
  return elementwiseExpression(op, x);
}

void KernelWriter::storeOutputs(int64_t phase, bool rowScalars) {
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
      row.body += std::string("    if (rowValid && lane == 0") +
                  (isSplit() ? " && segment == 0" : "") + ")\n      " + out + "[" +
                  offsetOf(map, type.getShape(), dimNames) +
                  "] = sopt::fromFloat<" + storage + ">(" + x + ");\n";
      continue;
    }
    if (isa<FloatType>(type.getElementType()) && isContiguous(map, type.getShape())) {
      std::string buffer = fresh("st");
      chunkStart += "      float " + buffer + "[kVector];\n";
      element.body += "        " + buffer + "[j] = " + x + ";\n";
      chunkEnd += llvm::formatv("      sopt::storeVector<kVector>({0} + {1}, {2});\n",
                                out, offsetOf(map, type.getShape(), chunkDimNames),
                                buffer);
      continue;
    }
    std::string converted = isa<FloatType>(type.getElementType())
                                ? "sopt::fromFloat<" + storage + ">(" + x + ")"
                                : x;
    element.body += "        " + out + "[" + offsetOf(map, type.getShape(), dimNames) +
                    "] = " + converted + ";\n";
  }
}

void KernelWriter::cache(Value v, MemoryLevel level,
                         std::optional<int64_t> offset, AffineMap map) {
  std::string x = value(v, map);
  std::string name = fresh("cache");
  if (level == MemoryLevel::Register && !isColumns()) {
    row.body += "    float " + name + "[kItems * kVector];\n";
    element.body += "        " + name + "[it * kVector + j] = " + x + ";\n";
    cached[v] = name + "[it * kVector + j]";
    return;
  }
  if (level != MemoryLevel::Shared || !offset)
    return; // re-read (recomputed) where needed
  // One row segment per row of the block, in the storage type; each element
  // is written and read back by the same thread, so no barrier is needed.
  std::string storage = *storageType(tensorType(v).getElementType());
  int64_t rowElements = (mapping.getCols() + mapping.getBlocksPerRow() - 1) /
                        mapping.getBlocksPerRow();
  row.body += "    " + storage + " *" + name + " = reinterpret_cast<" + storage +
              " *>(smem + " + std::to_string(*offset) + ");\n";
  std::string slot = name + "[rowInBlock * " + std::to_string(rowElements) +
                     " + (col - kSegmentStart)]";
  element.body += "        " + slot + " = sopt::fromFloat<" + storage + ">(" + x + ");\n";
  cached[v] = "sopt::toFloat(" + slot + ")";
}

/// `text` moved `shift` columns right, or left when negative (over leading
/// spaces only); preprocessor lines stay in the first column.
std::string shifted(StringRef text, int shift) {
  std::string out;
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  for (auto [i, line] : llvm::enumerate(lines)) {
    if (!line.empty() && !line.starts_with("#")) {
      if (shift >= 0)
        out.append(shift, ' ');
      else
        line = line.drop_front(std::min<size_t>(-shift, line.find_first_not_of(' ')));
    }
    out += line;
    if (i + 1 < lines.size())
      out += "\n";
  }
  return out;
}

/// Whether `name` occurs in `text` as a whole identifier.
bool mentions(StringRef text, StringRef name) {
  auto isIdent = [](char c) { return llvm::isAlnum(c) || c == '_'; };
  for (size_t pos = text.find(name); pos != StringRef::npos;
       pos = text.find(name, pos + 1)) {
    bool startOk = pos == 0 || !isIdent(text[pos - 1]);
    size_t end = pos + name.size();
    if (startOk && (end == text.size() || !isIdent(text[end])))
      return true;
  }
  return false;
}

/// `names[i] = (linear / stride_i) % extent_i` for the dims of `extents`
/// that `uses` mentions.
std::string delinearize(StringRef linear, ArrayRef<int64_t> extents,
                        ArrayRef<std::string> names, StringRef indent,
                        StringRef uses) {
  std::string text;
  SmallVector<int64_t> strides = rowMajorStrides(extents);
  for (auto [i, nameAndExtent] : llvm::enumerate(llvm::zip(names, extents))) {
    auto [dimName, extent] = nameAndExtent;
    if (!mentions(uses, dimName))
      continue;
    std::string expr = linear.str();
    if (strides[i] != 1)
      expr = "(" + expr + " / " + std::to_string(strides[i]) + ")";
    if (i != 0)
      expr = "(" + expr + " % " + std::to_string(extent) + ")";
    text += (indent + "const int64_t " + dimName + " = " + expr + ";\n").str();
  }
  return text;
}

void KernelWriter::writeElementwise(llvm::raw_ostream &os) {
  for (int64_t d = 0; d < rank; ++d) {
    dimNames.push_back("d" + std::to_string(d));
    chunkDimNames.push_back("d" + std::to_string(d) + "c");
  }
  inElement = true;
  storeOutputs(/*phase=*/0, /*rowScalars=*/false);
  // Scopes are written for the row kinds' deeper loops: two columns less
  // here (loop-invariant statements sit at function scope).
  std::string invariant = shifted(row.body, -2);
  os << "  constexpr int64_t kElements = " << product(group.domain) << ";\n"
     << "  constexpr int kVector = " << mapping.getVectorWidth() << ";\n"
     << invariant
     << "  for (int64_t e0 = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) * kVector;\n"
     << "       e0 < kElements; e0 += int64_t(gridDim.x) * blockDim.x * kVector) {\n"
     << delinearize("e0", group.domain, chunkDimNames, "    ", chunkStart + chunkEnd)
     << shifted(chunkStart, -2)
     << "#pragma unroll\n"
     << "    for (int j = 0; j < kVector; ++j) {\n";
  std::string dims = delinearize("e", group.domain, dimNames, "      ", element.body);
  if (!dims.empty() || mentions(element.body, "e"))
    os << "      const int64_t e = e0 + j;\n" << dims;
  os << shifted(element.body, -2)
     << "    }\n"
     << shifted(chunkEnd, -2) << "  }\n";
}

std::string KernelWriter::elementLoop(int64_t phase) {
  currentPhase = phase;
  element = Scope();
  chunkStart.clear();
  chunkEnd.clear();
  inElement = true;
  // Reductions fed by this phase.
  std::string finish;
  for (Operation *op : group.ops) {
    auto reduce = dyn_cast<ReduceOp>(op);
    if (!reduce || phaseOf.lookup(reduce.getInput()) != phase)
      continue;
    static const char *ops[] = {"sopt::SumOp", "sopt::MaxOp", "sopt::MinOp", ""};
    std::string opName = ops[static_cast<int>(reduce.getKind())];
    std::string acc = fresh("acc");
    accumulator[reduce.getResult()] = acc;
    row.body += "    float " + acc + " = " + opName + "::identity();\n";
    std::string x =
        value(reduce.getInput(), AffineMap::getMultiDimIdentityMap(rank, fusion.getContext()));
    element.body += "        " + acc + " = " + opName + "::combine(" + acc + ", " + x + ");\n";
    if (isColumns()) {
      int64_t offset = reduce->getAttrOfType<DenseI64ArrayAttr>(attr::kSharedSlot)[0];
      finish += llvm::formatv(
          "    {0} = sopt::sliceAllReduce<{1}, kRowsPerBlock, kThreadsPerRow>({0}, "
          "reinterpret_cast<float *>(smem + {2}));\n",
          acc, opName, offset);
    } else if (mapping.getThreadsPerRow() <= 32) {
      finish += llvm::formatv("    {0} = sopt::subwarpAllReduce<{1}, kThreadsPerRow>({0});\n",
                              acc, opName);
    } else {
      int64_t offset = reduce->getAttrOfType<DenseI64ArrayAttr>(attr::kSharedSlot)[0];
      finish += llvm::formatv(
          "    {0} = sopt::blockRowAllReduce<{1}, kThreadsPerRow>({0}, "
          "reinterpret_cast<float *>(smem + {2}));\n",
          acc, opName, offset);
    }
    if (isSplit()) {
      // Each block holds its segment's partial: publish it, wait for every
      // block, then combine the row's partials in a fixed order.
      std::string partials = "(scratch + (" + std::to_string(reductions) +
                             " * kRows + row) * kBlocksPerRow)";
      finish += llvm::formatv(
          "    if (rowValid && lane == 0)\n"
          "      {0}[segment] = {1};\n"
          "    cooperative_groups::this_grid().sync();\n"
          "    {1} = {2}::identity();\n"
          "    if (rowValid)\n"
          "      for (int s = 0; s < kBlocksPerRow; ++s)\n"
          "        {1} = {2}::combine({1}, {0}[s]);\n",
          partials, acc, opName);
    }
    ++reductions;
  }
  // Row values the reuse plan keeps for later phases, written as this phase
  // computes them.
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, fusion.getContext());
  for (Operation *op : group.ops) {
    for (Value v : op->getResults()) {
      auto level = op->getAttrOfType<MemoryLevelAttr>(attr::kCache);
      if (phaseOf.lookup(v) != phase || !level || isa<ReduceOp>(op))
        continue;
      auto slot = op->getAttrOfType<DenseI64ArrayAttr>(attr::kSharedSlot);
      cache(v, level.getValue(), slot ? std::optional(slot[0]) : std::nullopt,
            op->getAttrOfType<AffineMapAttr>(attr::kIndexMap).getValue());
    }
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
  if (element.body.empty() && chunkEnd.empty())
    return finish;
  SmallVector<int64_t> reducedExtents;
  for (int64_t d : group.reducedDims)
    reducedExtents.push_back(group.domain[d]);
  SmallVector<std::string> reducedNames, reducedChunkNames;
  for (int64_t d : group.reducedDims) {
    reducedNames.push_back(dimNames[d]);
    reducedChunkNames.push_back(chunkDimNames[d]);
  }
  std::string chunkDims = delinearize("col0", reducedExtents, reducedChunkNames,
                                      "      ", chunkStart + chunkEnd);
  std::string colDims = delinearize("col", reducedExtents, reducedNames,
                                    "        ", element.body);
  bool usesCol = !colDims.empty() || mentions(element.body, "col");
  std::string loop;
  if (isColumns())
    loop += "    for (int64_t col0 = kSegmentStart + lane; col0 < kSegmentEnd;\n"
            "         col0 += kThreadsPerRow) {\n"
            "      if (!rowValid)\n"
            "        continue;\n";
  else
    loop += "#pragma unroll\n"
            "    for (int it = 0; it < kItems; ++it) {\n";
  if (!isColumns() && (!hasWholePasses() || usesCol || !chunkDims.empty()))
    loop += "      const int64_t col0 = kSegmentStart + (int64_t(it) * kThreadsPerRow + lane) * kVector;\n";
  if (!isColumns() && !hasWholePasses())
    loop += "      if (!rowValid || col0 >= kCols)\n"
            "        continue;\n";
  loop += chunkDims + chunkStart;
  loop += "#pragma unroll\n"
          "      for (int j = 0; j < kVector; ++j) {\n";
  if (usesCol)
    loop += "        const int64_t col = col0 + j;\n" + colDims;
  loop += element.body;
  loop += "      }\n" + chunkEnd + "    }\n";
  // One test for the whole row instead of one per chunk: the unrolled
  // chunks form one straight block, so their loads can all be in flight
  // before the arithmetic that waits for them.
  if (!isColumns() && hasWholePasses())
    loop = "    if (rowValid) {\n" + shifted(loop, 2) + "    }\n";
  return loop + finish;
}

void KernelWriter::writeRows(llvm::raw_ostream &os) {
  SmallVector<int64_t> parallelExtents;
  SmallVector<std::string> parallelNames;
  for (int64_t d = 0; d < rank; ++d) {
    dimNames.push_back("d" + std::to_string(d));
    // Parallel dims are fixed for the whole row: the chunk uses them as is.
    chunkDimNames.push_back(isReducedDim(d) ? "d" + std::to_string(d) + "c"
                                            : "d" + std::to_string(d));
    if (!isReducedDim(d)) {
      parallelExtents.push_back(group.domain[d]);
      parallelNames.push_back(dimNames.back());
    }
  }
  int64_t vector = mapping.getVectorWidth();
  int64_t chunk = mapping.getThreadsPerRow() * vector; // one pass of a row's threads
  // A split row gives each block a segment of whole passes.
  int64_t segment = (mapping.getCols() + mapping.getBlocksPerRow() - 1) /
                    mapping.getBlocksPerRow();
  segment = (segment + chunk - 1) / chunk * chunk;
  items = segment / chunk;

  std::string phasesText;
  for (int64_t p = 0; p < phases; ++p) {
    std::string before = row.body;
    row.body.clear();
    std::string loop = elementLoop(p);
    std::string rowStatements = row.body;
    row.body.clear();
    storeOutputs(p + 1, /*rowScalars=*/true); // row scalars finished by phase p
    std::string rowStores = row.body;
    row.body = before;
    phasesText += "    // phase " + std::to_string(p) + "\n" + rowStatements +
                  loop + rowStores;
  }
  // Row scalars computed from inputs alone (phase 0) are stored too.
  std::string before = row.body;
  row.body.clear();
  storeOutputs(0, /*rowScalars=*/true);
  std::string earlyStores = row.body;
  row.body = before;

  auto planned = fusion->getAttrOfType<IntegerAttr>(attr::kSharedBytes);
  bool needsShared = planned && planned.getInt() > 0;
  os << "  constexpr int64_t kRows = " << mapping.getRows() << ";\n"
     << "  constexpr int64_t kCols = " << mapping.getCols() << ";\n"
     << "  constexpr int kThreadsPerRow = " << mapping.getThreadsPerRow() << ";\n"
     << "  constexpr int kRowsPerBlock = " << mapping.getRowsPerBlock() << ";\n"
     << "  constexpr int kVector = " << vector << ";\n"
     ;
  if (!isColumns())
    os << "  constexpr int kItems = " << items << "; // chunks per thread and row\n";
  if (hasWholePasses())
    os << "  static_assert(kItems * kThreadsPerRow * kVector == kCols, \"no partial chunks\");\n";
  if (isColumns()) {
    // Each block walks one segment of the reduced extent.
    int64_t segmentRows = (mapping.getCols() + mapping.getBlocksPerRow() - 1) /
                          mapping.getBlocksPerRow();
    os << "  constexpr int kBlocksPerRow = " << mapping.getBlocksPerRow()
       << "; // segments of the reduced extent, one per block\n"
       << "  const int segment = blockIdx.x % kBlocksPerRow;\n"
       << "  const int64_t kSegmentStart = int64_t(segment) * " << segmentRows << ";\n"
       << "  const int64_t kSegmentEnd = kSegmentStart + " << segmentRows
       << " < kCols ? kSegmentStart + " << segmentRows << " : kCols;\n";
  } else if (isSplit()) {
    os << "  constexpr int kBlocksPerRow = " << mapping.getBlocksPerRow()
       << "; // a row's segments, one per block\n"
       << "  const int segment = blockIdx.x % kBlocksPerRow;\n"
       << "  const int64_t kSegmentStart = int64_t(segment) * " << segment << ";\n";
  } else {
    os << "  constexpr int64_t kSegmentStart = 0;\n";
  }
  if (needsShared)
    os << "  extern __shared__ __align__(16) unsigned char smem[];\n";
  if (isColumns())
    os << "  // Adjacent threads own adjacent columns: loads coalesce.\n"
       << "  const int lane = threadIdx.x / kRowsPerBlock; // position along the reduced extent\n"
       << "  const int rowInBlock = threadIdx.x % kRowsPerBlock;\n";
  else
    os << "  const int lane = threadIdx.x % kThreadsPerRow;\n"
       << "  const int rowInBlock = threadIdx.x / kThreadsPerRow;\n";
  os
     << "  // Whole blocks iterate together, so every thread reaches each\n"
     << "  // reduction; threads past the last row only contribute identities.\n"
     << (isSplit()
             ? "  // Every block is resident (cooperative launch) and makes one pass;\n"
               "  // blocks past the last row only meet the grid-wide barriers.\n"
               "  {\n"
               "    const int64_t rowBase = int64_t(blockIdx.x / kBlocksPerRow) * kRowsPerBlock;\n"
             : "  for (int64_t rowBase = int64_t(blockIdx.x) * kRowsPerBlock; rowBase < kRows;\n"
               "       rowBase += int64_t(gridDim.x) * kRowsPerBlock) {\n")
     << "    const int64_t row = rowBase + rowInBlock;\n"
     << "    const bool rowValid = row < kRows;\n"
     << delinearize("row", parallelExtents, parallelNames, "    ",
                    earlyStores + phasesText)
     << earlyStores
     << phasesText << "  }\n";
}

FailureOr<KernelLaunch> KernelWriter::write(llvm::raw_ostream &os) {
  FailureOr<GroupCode> code = writeGroup();
  if (failed(code))
    return failure();
  code->launch.summary = name + ": " + code->summary;
  os << "// " << code->launch.summary << "\n";
  writeSignature(os, fusion, name, mapping.getThreadsPerBlock(),
                 /*residentBlocks=*/0, isSplit() ? "scratch" : "",
                 /*dependentLaunch=*/!code->launch.cooperative);
  os << code->body << "}\n\n";
  return code->launch;
}

FailureOr<GroupCode> KernelWriter::writeGroup() {
  if (failed(checkSupported()))
    return failure();
  computePhases();
  KernelLaunch launch;
  launch.name = name;
  launch.grid = mapping.getGrid();
  launch.block = mapping.getThreadsPerBlock();
  if (auto bytes = fusion->getAttrOfType<IntegerAttr>(attr::kSharedBytes);
      bytes && !isElementwise())
    launch.sharedBytes = bytes.getInt();
  if (!isElementwise() && isSplit()) {
    launch.cooperative = true;
    launch.scratchFloats = mapping.getRows() * mapping.getBlocksPerRow() *
                           (1 + static_cast<int64_t>(group.subBackbones.size()));
  }

  std::string body;
  llvm::raw_string_ostream bodyOs(body);
  if (isElementwise())
    writeElementwise(bodyOs);
  else
    writeRows(bodyOs);

  // The summary: what was fused, how it maps, where values live.
  std::string summary;
  llvm::raw_string_ostream s(summary);
  s << group.ops.size() << " ops";
  if (group.hasBackbone())
    s << " (" << 1 + group.subBackbones.size() << " reductions)";
  s << " | " << stringifyMappingKind(mapping.getKind()) << " " << mapping.getRows()
    << "x" << mapping.getCols() << ", " << mapping.getThreadsPerBlock()
    << " threads";
  if (group.hasBackbone())
    s << " (" << mapping.getThreadsPerRow() << "/row)";
  s << ", vector " << mapping.getVectorWidth() << ", grid " << mapping.getGrid()
    << " | smem " << launch.sharedBytes << " B";
  if (group.hasBackbone())
    s << " | reductions in "
      << (isSplit() ? "global memory (grid-wide barrier)"
          : isColumns() ? "shared memory (column slices)"
          : mapping.getThreadsPerRow() <= 32 ? "registers (warp shuffles)"
                                              : "shared memory");
  s << " | " << cached.size() << " row value(s) kept across reductions";
  return GroupCode{body, summary, launch};
}

FailureOr<std::string> KernelWriter::writeEpilogue(unsigned accumulatorInput,
                                                  llvm::raw_ostream &os) {
  if (failed(checkSupported()))
    return failure();
  accumulatorArg = accumulatorInput;
  for (int64_t d = 0; d < rank; ++d)
    dimNames.push_back("d" + std::to_string(d));
  inElement = true;
  Value yielded = fusion.getYield().getValues().front();
  AffineMap map = yielded.getDefiningOp()->getAttrOfType<AffineMapAttr>(attr::kIndexMap).getValue();
  std::string result = value(yielded, map);

  std::string summary;
  llvm::raw_string_ostream s(summary);
  s << name << ": epilogue of " << group.ops.size() << " op(s) fused into the sparse product:";
  for (Operation *op : group.ops)
    s << " " << op->getName().stripDialect();

  os << "// " << summary << "\nstruct " << name << " {\n";
  for (auto [i, input] : llvm::enumerate(fusion.getInputs()))
    if (i != accumulatorInput)
      os << "  const " << *storageType(tensorType(input).getElementType())
         << " *__restrict__ in" << i << ";\n";
  os << "  __device__ __forceinline__ float operator()(int64_t d0, int64_t d1, float acc) const {\n"
     << element.body << "    return " << result << ";\n  }\n};\n\n";
  return summary;
}

/// A region of several groups as one kernel: the groups in turn, each in its
/// own scope at the kernel's block size, a grid-wide barrier before a group
/// that reads what an earlier one wrote.
FailureOr<KernelLaunch> writeGroupsKernel(FusionOp fusion,
                                          const BackboneGrouping &grouping,
                                          StringRef name, llvm::raw_ostream &os) {
  // Group ids follow dependence (BackboneGrouping), so the groups run in id
  // order; only groups that read from each other have no such order.
  SmallVector<MappingAttr> mappings;
  for (const FusionGroup &group : grouping.getGroups()) {
    MappingAttr mapping = getRecordedMapping(group);
    if (!mapping)
      return fusion.emitOpError("has no thread mapping; run "
                                "sopt-propagate-mapping and sopt-plan-reuse first");
    if (!mappings.empty() &&
        mapping.getThreadsPerBlock() != mappings.front().getThreadsPerBlock())
      return fusion.emitOpError("holds groups of different block sizes; run "
                                "sopt-plan-reuse, which gives a kernel's groups one");
    for (Operation *op : group.ops) {
      if (!op->hasAttr(attr::kIndexMap))
        return op->emitOpError("has no sopt.index_map; run sopt-propagate-mapping");
      for (Value operand : op->getOperands())
        if (Operation *def = operand.getDefiningOp())
          if (const FusionGroup *from = grouping.getGroup(def); from && from->id > group.id)
            return fusion.emitOpError("holds groups that read from each other; the "
                                      "CUDA emitter needs an order between them");
    }
    mappings.push_back(mapping);
  }

  // Each value crossing groups gets a buffer in the kernel's scratch, in its
  // storage type, 16-byte aligned.
  Exchange exchange;
  DenseMap<Value, unsigned> producer;
  std::string buffers;
  int64_t scratchFloats = 0;
  for (const FusionGroup &group : grouping.getGroups())
    for (Operation *op : group.ops)
      for (Value operand : op->getOperands()) {
        Operation *def = operand.getDefiningOp();
        const FusionGroup *from = def ? grouping.getGroup(def) : nullptr;
        if (!from || from == &group || exchange.count(operand))
          continue;
        auto type = tensorType(operand);
        std::string storage = *storageType(type.getElementType());
        int64_t bytes = product(type.getShape()) *
                        ceilDiv(type.getElementTypeBitWidth(), 8);
        std::string buffer = "x" + std::to_string(exchange.size());
        buffers += llvm::formatv("  {0} *{1} = reinterpret_cast<{0} *>(kernelScratch + {2});\n",
                                 storage, buffer, scratchFloats);
        scratchFloats += ceilDiv(ceilDiv(bytes, 4), 4) * 4;
        exchange[operand] = buffer;
        producer[operand] = from->id;
      }

  int64_t exchangedBytes = 4 * scratchFloats;
  std::string body, summaries;
  int64_t grid = 0, barriers = 0, sharedBytes = 0;
  bool split = false;
  llvm::SmallDenseSet<unsigned> sinceBarrier; // groups not yet behind a barrier
  for (const FusionGroup &group : grouping.getGroups()) {
    MappingAttr mapping = mappings[group.id];
    bool waits = llvm::any_of(group.ops, [&](Operation *op) {
      return llvm::any_of(op->getOperands(), [&](Value v) {
        auto it = producer.find(v);
        return it != producer.end() && sinceBarrier.contains(it->second);
      });
    });
    if (waits) {
      body += "  // the groups above wrote what the next one reads\n"
              "  cooperative_groups::this_grid().sync();\n";
      ++barriers;
      sinceBarrier.clear();
    }
    sinceBarrier.insert(group.id);
    std::string groupName = (name + "_group" + Twine(group.id)).str();
    FailureOr<GroupCode> code =
        KernelWriter(fusion, group, mapping, groupName, &exchange).writeGroup();
    if (failed(code))
      return failure();
    body += "  { // group " + std::to_string(group.id) + ": " + code->summary + "\n";
    if (code->launch.cooperative) {
      // A split reduction's partials, after the exchanged values.
      body += "    float *__restrict__ scratch = kernelScratch + " +
              std::to_string(scratchFloats) + ";\n";
      scratchFloats += code->launch.scratchFloats;
      split = true;
    }
    body += shifted(code->body, 2) + "  }\n";
    summaries += " [group " + std::to_string(group.id) + ": " + code->summary + "]";
    grid = std::max(grid, code->launch.grid);
    sharedBytes = std::max(sharedBytes, code->launch.sharedBytes);
  }

  KernelLaunch launch;
  launch.name = name.str();
  launch.grid = grid;
  launch.block = mappings.front().getThreadsPerBlock();
  launch.sharedBytes = sharedBytes;
  launch.cooperative = barriers > 0 || split;
  launch.scratchFloats = scratchFloats;
  launch.summary = llvm::formatv("{0}: {1} groups, {2} grid-wide barrier(s), "
                                 "{3} threads, grid {4}, smem {5} B, {6} B "
                                 "exchanged through global memory |{7}",
                                 name, grouping.getGroups().size(), barriers,
                                 launch.block, grid, sharedBytes,
                                 exchangedBytes, summaries)
                       .str();
  int64_t resident = 0;
  if (auto attr = fusion->getAttrOfType<IntegerAttr>(attr::kResidentBlocks))
    resident = attr.getInt();
  os << "// " << launch.summary << "\n";
  writeSignature(os, fusion, name, launch.block, resident,
                 launch.cooperative ? "kernelScratch" : "", !launch.cooperative);
  os << buffers << body << "}\n\n";
  return launch;
}

} // namespace

FailureOr<std::string> sopt::cuda::emitSparseEpilogue(FusionOp fusion,
                                                      unsigned accumulatorInput,
                                                      StringRef name,
                                                      llvm::raw_ostream &os) {
  BackboneGrouping grouping(fusion);
  if (grouping.getGroups().size() != 1 || grouping.getGroups().front().hasBackbone())
    return fusion.emitOpError("is marked as a sparse product's epilogue but is not "
                              "one elementwise group");
  const FusionGroup &group = grouping.getGroups().front();
  MappingAttr mapping = getRecordedMapping(group);
  if (!mapping || group.domain.size() != 2)
    return fusion.emitOpError("is marked as a sparse product's epilogue but has no "
                              "2-D elementwise mapping");
  return KernelWriter(fusion, group, mapping, name).writeEpilogue(accumulatorInput, os);
}

FailureOr<KernelLaunch> sopt::cuda::emitFusionKernel(FusionOp fusion,
                                                     StringRef name,
                                                     llvm::raw_ostream &os) {
  BackboneGrouping grouping(fusion);
  if (grouping.getGroups().empty())
    return fusion.emitOpError("computes nothing the CUDA emitter can place in a kernel");
  if (grouping.getGroups().size() > 1)
    return writeGroupsKernel(fusion, grouping, name, os);
  const FusionGroup &group = grouping.getGroups().front();
  MappingAttr mapping = getRecordedMapping(group);
  if (!mapping)
    return fusion.emitOpError("has no thread mapping; run "
                              "sopt-propagate-mapping and sopt-plan-reuse first");
  for (Operation *op : group.ops)
    if (!op->hasAttr(attr::kIndexMap))
      return op->emitOpError("has no sopt.index_map; run sopt-propagate-mapping");
  return KernelWriter(fusion, group, mapping, name).write(os);
}
