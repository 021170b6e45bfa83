//===- FusionDot.cpp - fusion groups as a Graphviz graph ------------------===//

#include "sparse-opt/Target/FusionDot.h"

#include "sparse-opt/Dialect/SOpt/FusionAnnotations.h"
#include "sparse-opt/Dialect/SOpt/SOptOps.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::sopt;

namespace {

// A qualitative palette that stays readable with black labels.
constexpr const char *kPalette[] = {"#8dd3c7", "#ffffb3", "#bebada", "#fb8072",
                                    "#80b1d3", "#fdb462", "#b3de69", "#fccde5",
                                    "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f"};

std::string shapeText(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    llvm::interleave(tensor.getShape(), os, "x");
    os << "x" << tensor.getElementType();
  }
  return text;
}

class DotWriter {
public:
  explicit DotWriter(llvm::raw_ostream &os) : os(os) {}

  void writeFunction(FunctionOpInterface fn) {
    os << llvm::formatv("  subgraph cluster_{0} {{\n    label=\"{1}\";\n", fnIndex++,
                        fn.getName());
    for (BlockArgument arg : fn.getArguments())
      os << llvm::formatv("    {0} [label=\"arg{1}\\n{2}\", shape=plaintext];\n",
                          node(arg), arg.getArgNumber(), shapeText(arg.getType()));
    for (Operation &op : fn.getFunctionBody().front()) {
      if (auto fusion = dyn_cast<FusionOp>(op))
        writeFusion(fusion);
      else if (!isa<ConstantOp>(op) && op.getNumResults() > 0)
        os << llvm::formatv(
            "    {0} [label=\"{1}\\n{2}\", shape=box, style=filled, "
            "fillcolor=\"#bdbdbd\"];\n",
            node(op.getResult(0)), op.getName().getStringRef(),
            shapeText(op.getResult(0).getType()));
    }
    os << "  }\n";
    for (Operation &op : fn.getFunctionBody().front())
      writeEdges(&op);
  }

private:
  /// Region results and arguments stand for what feeds or leaves them.
  Value source(Value v) {
    if (auto result = dyn_cast<OpResult>(v))
      if (auto fusion = dyn_cast<FusionOp>(result.getOwner()))
        return source(fusion.getYield().getValues()[result.getResultNumber()]);
    if (auto arg = dyn_cast<BlockArgument>(v))
      if (auto fusion = dyn_cast<FusionOp>(arg.getOwner()->getParentOp()))
        return source(fusion.getInputs()[arg.getArgNumber()]);
    return v;
  }

  std::string node(Value v) {
    auto [it, inserted] = ids.try_emplace(v, ids.size());
    return "n" + std::to_string(it->second);
  }

  void writeFusion(FusionOp fusion) {
    os << llvm::formatv("    subgraph cluster_kernel{0} {{\n      label=\"kernel "
                        "{0}\";\n      style=rounded;\n",
                        kernelIndex);
    for (Operation &op : fusion.getBodyBlock().without_terminator()) {
      if (isa<ConstantOp>(op))
        continue;
      int64_t group = 0;
      if (auto attr = op.getAttrOfType<IntegerAttr>(attr::kGroup))
        group = attr.getInt();
      const char *color =
          kPalette[(kernelIndex * 3 + group) % std::size(kPalette)];
      StringRef shape = op.hasAttr(attr::kBackbone)      ? "doubleoctagon"
                        : op.hasAttr(attr::kSubBackbone) ? "octagon"
                                                         : "ellipse";
      std::string label = op.getName().stripDialect().str();
      if (auto reduce = dyn_cast<ReduceOp>(op))
        label += " " + stringifyReduceKind(reduce.getKind()).str();
      os << llvm::formatv("      {0} [label=\"{1}\\n{2}\\ngroup {3}\", shape={4}, "
                          "style=filled, fillcolor=\"{5}\"];\n",
                          node(op.getResult(0)), label,
                          shapeText(op.getResult(0).getType()), group, shape,
                          color);
    }
    os << "    }\n";
    ++kernelIndex;
  }

  void writeEdges(Operation *op) {
    if (auto fusion = dyn_cast<FusionOp>(op)) {
      for (Operation &inner : fusion.getBodyBlock().without_terminator())
        writeEdges(&inner);
      return;
    }
    if (isa<ConstantOp>(op) || op->getNumResults() == 0)
      return;
    for (Value operand : op->getOperands()) {
      Value from = source(operand);
      if (from.getDefiningOp<ConstantOp>())
        continue;
      os << "  " << node(from) << " -> " << node(op->getResult(0)) << ";\n";
    }
  }

  llvm::raw_ostream &os;
  DenseMap<Value, unsigned> ids;
  unsigned fnIndex = 0, kernelIndex = 0;
};

} // namespace

void sopt::writeFusionDot(ModuleOp module, llvm::raw_ostream &os) {
  os << "// sparse-opt fusion groups: render with `dot -Tsvg`.\n"
     << "digraph fusion {\n  rankdir=TB;\n  node [fontname=\"Helvetica\"];\n";
  DotWriter writer(os);
  module.walk([&](FunctionOpInterface fn) {
    if (!fn.isExternal())
      writer.writeFunction(fn);
  });
  os << "}\n";
}
