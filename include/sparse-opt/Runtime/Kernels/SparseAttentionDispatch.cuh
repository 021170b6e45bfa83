//===- SparseAttentionDispatch.cuh - the lane layout for a problem -*- CUDA -*-===//
//
// The fused sparse attention kernel (SparseAttention.cuh) is instantiated
// per lane layout: how many lanes share a row, how many elements one access
// moves, how many accesses cover the query and value dimensions. This picks
// the layout from the head dimensions and the operands' alignment, checks a
// problem, and launches the matching instance:
// - 16-byte accesses when both head dimensions are multiples of the vector
//   and every operand is 16-byte aligned; the fewest lanes (4 to 32, a power
//   of two) that cover the longer dimension in one access each, two
//   accesses per lane past 32 lanes (up to 256 f32 or 512 16-bit elements);
//   narrower accesses (down to 4 bytes) where that leaves fewer lanes per
//   row than `minLanes` asks for;
// - otherwise one element per access, 32 lanes, up to 8 accesses each (head
//   dimensions up to 256).
// Fewer lanes per row put more rows in a warp: short rows then share the
// warp's loads instead of leaving lanes idle.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_SPARSEATTENTIONDISPATCH_CUH
#define SPARSE_OPT_RUNTIME_SPARSEATTENTIONDISPATCH_CUH

#include "sparse-opt/Runtime/Kernels/SparseAttention.cuh"

#include <cstdint>
#include <string>

namespace sopt {

struct SparseAttentionLayout {
  int group = 0, width = 0, querySlots = 0, valueSlots = 0;
};

namespace detail {
inline int64_t powerOfTwoAtLeast(int64_t x) {
  int64_t p = 1;
  while (p < x)
    p *= 2;
  return p;
}
inline bool aligned16(const void *pointer) {
  return reinterpret_cast<uintptr_t>(pointer) % 16 == 0;
}
} // namespace detail

/// Lanes per row the layout aims at, at least: fewer lanes per row (more
/// rows per warp) suit short rows, more lanes long ones.
constexpr int kSparseAttentionMinLanes = 4;

/// The layout for these head dimensions (group 0 when none fits), with at
/// least `minLanes` lanes per row where narrower accesses allow it.
template <typename T>
SparseAttentionLayout sparseAttentionLayout(const SparseAttentionProblem<T> &p,
                                            int minLanes = kSparseAttentionMinLanes) {
  constexpr int kVector = 16 / sizeof(T);
  const int64_t longer = std::max(p.queryDim, p.valueDim);
  const bool vectors = p.queryDim % kVector == 0 && p.valueDim % kVector == 0 &&
                       detail::aligned16(p.q) && detail::aligned16(p.k) &&
                       detail::aligned16(p.v) && detail::aligned16(p.out);
  SparseAttentionLayout layout;
  if (vectors) {
    layout.width = kVector;
    // Accesses of at least 4 bytes (the narrowest dispatched).
    while (layout.width * int(sizeof(T)) > 4 &&
           (longer + layout.width - 1) / layout.width < minLanes)
      layout.width /= 2;
    const int64_t lanes = (longer + layout.width - 1) / layout.width;
    layout.group = int(std::min<int64_t>(32, std::max<int64_t>(4, detail::powerOfTwoAtLeast(lanes))));
  } else {
    layout.width = 1;
    layout.group = 32;
  }
  const int64_t span = int64_t(layout.group) * layout.width;
  layout.querySlots = int((p.queryDim + span - 1) / span);
  layout.valueSlots = int((p.valueDim + span - 1) / span);
  const int limit = vectors ? 2 : 8;
  if (layout.querySlots > limit || layout.valueSlots > limit)
    return {};
  if (!vectors) // one instance per power of two, both dimensions alike
    layout.querySlots = layout.valueSlots =
        int(detail::powerOfTwoAtLeast(std::max(layout.querySlots, layout.valueSlots)));
  return layout;
}

/// What is wrong with the problem, or "" (sizes, head dimensions, pointers).
template <typename T> std::string checkSparseAttention(const SparseAttentionProblem<T> &p) {
  if (p.rows < 0 || p.cols < 0 || p.nnz < 0 || p.heads < 0)
    return "sparse attention: negative size";
  if (p.rows > INT32_MAX || p.cols > INT32_MAX || p.nnz > INT32_MAX)
    return "sparse attention: the pattern needs 32-bit rows, columns and positions";
  if (p.queryDim < 1 || p.valueDim < 1)
    return "sparse attention: head dimensions must be at least 1";
  if (p.biasHeadStride < 0)
    return "sparse attention: negative bias head stride";
  if (p.rows > 0 && p.heads > 0) {
    if (!p.positions || !p.q || !p.out || (p.nnz > 0 && (!p.coordinates || !p.k || !p.v)))
      return "sparse attention: missing operand";
    if (sparseAttentionLayout(p).group == 0)
      return "sparse attention: head dimension " +
             std::to_string(std::max(p.queryDim, p.valueDim)) + " beyond the kernel's lanes";
  }
  return "";
}

/// A line saying how the kernel runs this problem (the kernel summary).
template <typename T>
std::string describeSparseAttention(const SparseAttentionProblem<T> &p,
                                    const SparseAttentionRows &plan,
                                    int minLanes = kSparseAttentionMinLanes) {
  const SparseAttentionLayout l = sparseAttentionLayout(p, minLanes);
  return std::to_string(l.group) + " lanes per row, " + std::to_string(l.width * sizeof(T)) +
         "-byte accesses x" + std::to_string(l.querySlots) + "/" + std::to_string(l.valueSlots) +
         ", " + std::to_string(plan.longCount) + " long rows split across blocks, " +
         (plan.shortRows ? "short rows in the plan's order" : "rows in order");
}

namespace detail {
template <typename T, int Group, int Width>
cudaError_t sparseAttentionWithGroup(const SparseAttentionLayout &l,
                                     const SparseAttentionProblem<T> &p,
                                     const SparseAttentionRows &plan, cudaStream_t stream) {
  if constexpr (Width > 1) {
    if (l.querySlots == 1 && l.valueSlots == 1)
      return launchSparseAttention<T, Group, Width, 1, 1>(p, plan, stream);
    if constexpr (Group == 32) {
      if (l.querySlots == 1)
        return launchSparseAttention<T, Group, Width, 1, 2>(p, plan, stream);
      if (l.valueSlots == 1)
        return launchSparseAttention<T, Group, Width, 2, 1>(p, plan, stream);
      return launchSparseAttention<T, Group, Width, 2, 2>(p, plan, stream);
    }
  } else {
    switch (l.querySlots) {
    case 1: return launchSparseAttention<T, 32, 1, 1, 1>(p, plan, stream);
    case 2: return launchSparseAttention<T, 32, 1, 2, 2>(p, plan, stream);
    case 4: return launchSparseAttention<T, 32, 1, 4, 4>(p, plan, stream);
    case 8: return launchSparseAttention<T, 32, 1, 8, 8>(p, plan, stream);
    }
  }
  return cudaErrorInvalidValue;
}
template <typename T, int Width>
cudaError_t sparseAttentionWithWidth(const SparseAttentionLayout &l,
                                     const SparseAttentionProblem<T> &p,
                                     const SparseAttentionRows &plan, cudaStream_t stream) {
  switch (l.group) {
  case 4: return sparseAttentionWithGroup<T, 4, Width>(l, p, plan, stream);
  case 8: return sparseAttentionWithGroup<T, 8, Width>(l, p, plan, stream);
  case 16: return sparseAttentionWithGroup<T, 16, Width>(l, p, plan, stream);
  case 32: return sparseAttentionWithGroup<T, 32, Width>(l, p, plan, stream);
  }
  return cudaErrorInvalidValue;
}
} // namespace detail

/// Runs the fused kernel on `p` with the rows of `plan` (rows in order and
/// none split when plan is empty) and the layout for `minLanes`
/// (sparseAttentionLayout); cudaErrorInvalidValue when
/// checkSparseAttention finds fault with the problem or a short row index
/// list is missing.
template <typename T>
cudaError_t runSparseAttention(const SparseAttentionProblem<T> &p, SparseAttentionRows plan,
                               cudaStream_t stream, int minLanes = kSparseAttentionMinLanes) {
  if (!checkSparseAttention(p).empty())
    return cudaErrorInvalidValue;
  if (plan.longCount == 0 && plan.shortCount == 0)
    plan.shortCount = p.rows;
  if (plan.longCount < 0 || plan.shortCount < 0 || plan.longCount + plan.shortCount != p.rows ||
      (plan.longCount > 0 && (!plan.longRows || (plan.shortCount > 0 && !plan.shortRows))))
    return cudaErrorInvalidValue;
  const SparseAttentionLayout l = sparseAttentionLayout(p, minLanes);
  if (l.group == 0)
    return p.rows == 0 || p.heads == 0 ? cudaSuccess : cudaErrorInvalidValue;
  constexpr int kVector = 16 / sizeof(T);
  if (l.width == 1)
    return detail::sparseAttentionWithGroup<T, 32, 1>(l, p, plan, stream);
  if (l.width == kVector)
    return detail::sparseAttentionWithWidth<T, kVector>(l, p, plan, stream);
  if (l.width == kVector / 2)
    return detail::sparseAttentionWithWidth<T, kVector / 2>(l, p, plan, stream);
  if constexpr (kVector / 4 > 1)
    if (l.width == kVector / 4)
      return detail::sparseAttentionWithWidth<T, kVector / 4>(l, p, plan, stream);
  return cudaErrorInvalidValue;
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_SPARSEATTENTIONDISPATCH_CUH
