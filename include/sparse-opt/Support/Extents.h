//===- Extents.h - arithmetic on tensor extents -----------------*- C++ -*-===//

#ifndef SPARSE_OPT_SUPPORT_EXTENTS_H
#define SPARSE_OPT_SUPPORT_EXTENTS_H

#include "llvm/ADT/ArrayRef.h"
#include <cstdint>

namespace mlir::sopt {

/// The number of elements of a shape (1 for rank 0).
inline int64_t product(llvm::ArrayRef<int64_t> extents) {
  int64_t result = 1;
  for (int64_t e : extents)
    result *= e;
  return result;
}

/// ceil(a / b) for non-negative a and positive b.
inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

} // namespace mlir::sopt

#endif // SPARSE_OPT_SUPPORT_EXTENTS_H
