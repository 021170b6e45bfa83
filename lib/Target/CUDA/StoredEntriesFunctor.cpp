//===- StoredEntriesFunctor.cpp - a region over stored entries as a functor ===//

#include "StoredEntriesFunctor.h"
#include "CudaSyntax.h"

#include "sparse-opt/Dialect/SOpt/FusionAnnotations.h"

#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::sopt;
using namespace mlir::sopt::cuda;

namespace {

bool isSparse(Value v) { return sparse_tensor::getSparseTensorEncoding(v.getType()) != nullptr; }

class FunctorWriter {
public:
  FunctorWriter(FusionOp fusion, std::optional<unsigned> productInput)
      : fusion(fusion), productInput(productInput),
        shape(cast<RankedTensorType>(fusion.getResult(0).getType()).getShape()) {}

  /// The body's statements and the expression of the region's result.
  FailureOr<std::string> write();
  std::string body;

private:
  /// `in<i>[offset]` widened to f32 (booleans stay bool).
  std::string load(BlockArgument arg, const std::string &offset) {
    Type element = cast<RankedTensorType>(arg.getType()).getElementType();
    std::string access = "in" + std::to_string(arg.getArgNumber()) + "[" + offset + "]";
    return element.isInteger(1) ? access : "sopt::toFloat(" + access + ")";
  }
  /// The offset in a tensor of `operandShape` broadcast to [m, n] along
  /// `dims` of the entry at (row, column).
  std::string broadcastOffset(ArrayRef<int64_t> operandShape, ArrayRef<int64_t> dims);
  FailureOr<std::string> operand(Value v);
  std::string fresh() { return "v" + std::to_string(counter++); }

  FusionOp fusion;
  std::optional<unsigned> productInput;
  ArrayRef<int64_t> shape;
  DenseMap<Value, std::string> names;
  unsigned counter = 0;
};

std::string FunctorWriter::broadcastOffset(ArrayRef<int64_t> operandShape,
                                           ArrayRef<int64_t> dims) {
  // Row-major; a dimension of size 1 adds nothing.
  std::string offset;
  for (auto [d, size] : llvm::enumerate(operandShape)) {
    if (size == 1)
      continue;
    std::string index = dims[d] == 0 ? "row" : "column";
    offset = offset.empty() ? index : "(" + offset + ") * " + std::to_string(size) + " + " + index;
  }
  return offset.empty() ? "0" : offset;
}

FailureOr<std::string> FunctorWriter::operand(Value v) {
  if (auto it = names.find(v); it != names.end())
    return it->second;
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg)
    return fusion.emitOpError("reads a value computed outside its ops on stored entries");
  std::string expr;
  if (productInput && arg.getArgNumber() == *productInput)
    expr = "product * pattern"; // what the SDDMM computes at the entry
  else if (isSparse(arg))
    expr = load(arg, "entry");
  else if (cast<RankedTensorType>(arg.getType()).getShape() == shape)
    expr = load(arg, "row * " + std::to_string(shape[1]) + " + column");
  else
    return fusion.emitOpError() << "reads input #" << arg.getArgNumber()
                                << " of a shape other than the entries' matrix "
                                   "outside a broadcast";
  std::string name = fresh();
  body += "    const " + std::string(cast<RankedTensorType>(arg.getType())
                                          .getElementType()
                                          .isInteger(1)
                                      ? "bool"
                                      : "float") +
          " " + name + " = " + expr + ";\n";
  names[v] = name;
  return name;
}

FailureOr<std::string> FunctorWriter::write() {
  for (Operation &op : fusion.getBodyBlock().without_terminator()) {
    std::string expr;
    if (auto constant = dyn_cast<ConstantOp>(op)) {
      auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
      auto value = dense && dense.isSplat() ? dyn_cast<FloatAttr>(dense.getSplatValue<Attribute>())
                                            : FloatAttr();
      if (!value)
        return op.emitOpError("is not a float splat; a region over stored entries "
                              "takes other constants as inputs");
      names[constant.getResult()] = floatLiteral(value.getValueAsDouble());
      continue;
    }
    if (auto broadcast = dyn_cast<BroadcastOp>(op)) {
      Value input = broadcast.getInput();
      if (auto splat = input.getDefiningOp<ConstantOp>(); splat && names.count(input)) {
        names[broadcast.getResult()] = names[input];
        continue;
      }
      auto arg = dyn_cast<BlockArgument>(input);
      if (!arg)
        return op.emitOpError("broadcasts a value computed in the region; a region "
                              "over stored entries broadcasts its inputs only");
      expr = load(arg, broadcastOffset(broadcast.getInput().getType().getShape(),
                                       broadcast.getDims()));
    } else if (op.hasTrait<StoredEntriesElementwise>()) {
      SmallVector<std::string> operands;
      for (Value v : op.getOperands()) {
        FailureOr<std::string> name = operand(v);
        if (failed(name))
          return failure();
        operands.push_back(*name);
      }
      expr = elementwiseExpression(&op, operands);
    } else {
      return op.emitOpError("cannot run on stored entries: elementwise ops, "
                            "broadcasts and splat constants can");
    }
    Type element = cast<RankedTensorType>(op.getResult(0).getType()).getElementType();
    std::string name = fresh();
    body += "    const " + computeType(element) + " " + name + " = " + expr + ";\n";
    names[op.getResult(0)] = name;
  }
  return operand(fusion.getYield().getValues().front());
}

} // namespace

std::optional<unsigned> sopt::cuda::patternInput(FusionOp fusion) {
  for (auto [i, input] : llvm::enumerate(fusion.getInputs()))
    if (isSparse(input))
      return i;
  return std::nullopt;
}

FailureOr<std::string> sopt::cuda::emitStoredEntriesFunctor(FusionOp fusion,
                                                            std::optional<unsigned> productInput,
                                                            StringRef name,
                                                            llvm::raw_ostream &os) {
  std::optional<unsigned> pattern = patternInput(fusion);
  if (fusion->getNumResults() != 1 || !pattern ||
      fusion.getResult(0).getType() != fusion.getInputs()[*pattern].getType())
    return fusion.emitOpError("is over stored entries but does not have one result of "
                              "its CSR inputs' type");
  auto type = cast<RankedTensorType>(fusion.getResult(0).getType());
  if (type.getElementType().isF64())
    return fusion.emitOpError("has an f64 result; the CUDA emitter computes in f32 "
                              "(f64 is for reference computations)");
  FunctorWriter writer(fusion, productInput);
  FailureOr<std::string> result = writer.write();
  if (failed(result))
    return failure();

  std::string summary;
  llvm::raw_string_ostream s(summary);
  unsigned ops = 0;
  std::string names;
  for (Operation &op : fusion.getBodyBlock().without_terminator()) {
    if (isa<ConstantOp, BroadcastOp>(op))
      continue;
    ++ops;
    names += " " + op.getName().stripDialect().str();
    if (auto from = op.getAttrOfType<StringAttr>(attr::kSddmmPrologue))
      names += " (scale of " + from.str() + ", moved from the prologue)";
  }
  if (productInput)
    s << name << ": epilogue of " << ops << " op(s) on stored entries fused into the SDDMM:";
  else
    s << name << ": kernel over the stored entries, " << ops << " op(s):";
  s << names;

  os << "// " << summary << "\nstruct " << name << " {\n";
  for (auto [i, input] : llvm::enumerate(fusion.getInputs())) {
    if (productInput && i == *productInput)
      continue;
    Type element = cast<RankedTensorType>(input.getType()).getElementType();
    os << "  const " << *storageType(element) << " *__restrict__ in" << i << ";\n";
  }
  os << "  __device__ __forceinline__ float operator()(int64_t row, int64_t column, "
        "int64_t entry"
     << (productInput ? ", float product, float pattern" : "") << ") const {\n"
     << writer.body << "    return " << *result << ";\n  }\n};\n\n";
  return summary;
}
