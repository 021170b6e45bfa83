//===- AttentionLaunch.cpp - host code launching fused attention ----------===//

#include "AttentionLaunch.h"
#include "CudaSyntax.h"

#include "sparse-opt/Dialect/SOpt/AttentionSchedule.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::sopt;

namespace {

struct AttentionShape {
  int64_t queryLength, keyLength, headDim;
  AttentionGrid grid;
};

AttentionShape shapeOf(AttentionOp op) {
  auto q = op.getQuery().getType();
  int64_t rank = q.getRank();
  return {q.getDimSize(rank - 2), op.getKey().getType().getDimSize(rank - 2),
          q.getDimSize(rank - 1), attentionGrid(op)};
}

} // namespace

std::string cuda::describeAttentionLaunch(AttentionOp op) {
  AttentionShape s = shapeOf(op);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "sopt.attention on the fused attention kernel, " << op.getScheduleAttr() << ", head dim "
     << s.headDim << ", " << s.grid.batch << " x " << s.grid.heads << " heads of " << s.queryLength
     << " queries x " << s.keyLength << " keys" << (op.getCausal() ? ", causal" : "");
  return text;
}

FailureOr<std::string> cuda::emitAttentionLaunch(AttentionOp op, llvm::StringRef query,
                                                 llvm::StringRef key, llvm::StringRef value,
                                                 llvm::StringRef output) {
  AttentionScheduleAttr schedule = op.getScheduleAttr();
  if (!schedule)
    return op.emitOpError("reaches the CUDA emitter without a schedule; run "
                          "sopt-schedule-attention, or sopt-decompose-composites "
                          "without keep-attention");
  if (std::string why = attentionKernelRefusal(op); !why.empty())
    return op.emitOpError() << "cannot run on the fused attention kernel: " << why;
  AttentionShape s = shapeOf(op);
  std::string element = *storageType(op.getQuery().getType().getElementType());
  double scale = op.getScaleAttr() ? op.getScaleAttr().getValueAsDouble()
                                   : 1.0 / std::sqrt(double(s.headDim));
  return llvm::formatv(
             "    {\n"
             "      // {0}\n"
             "      sopt::attention::Arguments<{1}> a;\n"
             "      a.query = {2};\n"
             "      a.key = {3};\n"
             "      a.value = {4};\n"
             "      a.output = {5};\n"
             "      a.queryStrides = a.outputStrides = "
             "sopt::attention::headMajorStrides({7}, {8}, {10});\n"
             "      a.keyStrides = a.valueStrides = "
             "sopt::attention::headMajorStrides({7}, {9}, {10});\n"
             "      a.batch = {6};\n"
             "      a.queryHeads = a.keyHeads = {7};\n"
             "      a.queryLength = {8};\n"
             "      a.keyLength = {9};\n"
             "      a.scale = {11};\n"
             "      a.causal = {12};\n"
             "      if (sopt::attention::rejectArguments(a, {10})) // operands not 16-byte aligned\n"
             "        return cudaErrorInvalidValue;\n"
             "      SOPT_TRY((sopt::attention::launchAttentionTile<{1}, {10}, {13}, {14}, {15}>("
             "a, stream)));\n"
             "    }\n",
             describeAttentionLaunch(op), element, query, key, value, output, s.grid.batch,
             s.grid.heads, s.queryLength, s.keyLength, s.headDim, floatLiteral(scale),
             op.getCausal() ? "true" : "false", schedule.getBlockM(), schedule.getBlockN(),
             schedule.getWarps())
      .str();
}
