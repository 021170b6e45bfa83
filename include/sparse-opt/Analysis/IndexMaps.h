//===- IndexMaps.h - how indices flow through layout ops --------*- C++ -*-===//
//
// An op of a fusion group is evaluated at indices that are affine functions
// of the group's iteration indices. These rules carry such a function from
// an op's result to an operand (and back): elementwise ops keep it,
// broadcasts drop or zero dimensions, transposes permute, reshapes
// re-linearise in row-major order, reductions drop or zero reduced dims.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_ANALYSIS_INDEXMAPS_H
#define SPARSE_OPT_ANALYSIS_INDEXMAPS_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Operation.h"
#include <optional>

namespace mlir::sopt {

/// The indices of operand `operand` of `op` read when `op`'s result is
/// evaluated at `result`; nullopt when the rule is unknown (e.g. a reduce,
/// whose result does not determine the input indices).
std::optional<AffineMap> operandIndices(Operation *op, unsigned operand,
                                        AffineMap result);

/// The indices of `op`'s result computed from operand `operand` evaluated at
/// `operandMap`; nullopt when the operand does not determine them (a
/// broadcast adds dimensions).
std::optional<AffineMap> resultIndices(Operation *op, unsigned operand,
                                       AffineMap operandMap);

/// Row-major element strides of `shape`.
SmallVector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape);

/// The linear element offset, in a row-major tensor of `shape`, of the
/// element at `indices`.
AffineExpr linearOffset(AffineMap indices, ArrayRef<int64_t> shape);

/// `map` simplified with the knowledge that dim i ranges over
/// [0, extents[i]): `(d0 * 768 + d1 * 64 + d2) floordiv 768` becomes `d0` when
/// d1 < 12 and d2 < 64, and `mod 768` of it `d1 * 64 + d2`. Reshapes produce
/// such expressions; without this they would cost divisions per element.
AffineMap simplifyWithExtents(AffineMap map, ArrayRef<int64_t> extents);

} // namespace mlir::sopt

#endif // SPARSE_OPT_ANALYSIS_INDEXMAPS_H
