//===- AttentionSchedule.cpp - sopt.attention on the fused kernel ---------===//

#include "sparse-opt/Dialect/SOpt/AttentionSchedule.h"

#include "sparse-opt/Support/Extents.h"

#include <limits>

namespace mlir::sopt {

/// CUDA's limit on a grid's y and z dimensions.
static constexpr int64_t kMaxGridYZ = 65535;

AttentionGrid attentionGrid(AttentionOp op) {
  ArrayRef<int64_t> leading = op.getQuery().getType().getShape().drop_back(2);
  if (leading.empty())
    return {};
  return {product(leading.drop_back()), leading.back()};
}

std::string attentionKernelRefusal(AttentionOp op) {
  auto q = op.getQuery().getType(), k = op.getKey().getType(), v = op.getValue().getType();
  Type element = q.getElementType();
  if (!element.isF16() && !element.isBF16())
    return "its element type is not f16 or bf16";
  if (op.getMask())
    return "it has a mask operand";
  if (!q.hasStaticShape() || !k.hasStaticShape() || !v.hasStaticShape())
    return "its shapes are not static";
  int64_t rank = q.getRank();
  int64_t d = q.getDimSize(rank - 1), dv = v.getDimSize(rank - 1);
  if (d != dv)
    return "its value head dimension differs from the query's";
  if (!::sopt::isAttentionHeadDim(d))
    return "its head dimension is not 64, 80, 96, 128 or 256";
  constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
  if (q.getDimSize(rank - 2) > kInt32Max || k.getDimSize(rank - 2) > kInt32Max)
    return "a sequence length exceeds 2^31 - 1";
  AttentionGrid grid = attentionGrid(op);
  if (grid.batch > kMaxGridYZ || grid.heads > kMaxGridYZ)
    return "its batch or head dimension exceeds 65535";
  return "";
}

::sopt::AttentionTile toRuntimeTile(AttentionScheduleAttr schedule) {
  return {schedule.getBlockM(), schedule.getBlockN(), schedule.getWarps()};
}

AttentionScheduleAttr getAttentionScheduleAttr(MLIRContext *context,
                                               const ::sopt::AttentionTile &tile) {
  return AttentionScheduleAttr::get(context, tile.blockM, tile.blockN, tile.warps);
}

} // namespace mlir::sopt
