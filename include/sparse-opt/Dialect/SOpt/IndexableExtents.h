//===- IndexableExtents.h - sizes the generated code can index --*- C++ -*-===//
//
// Every tensor an sopt op touches, and every tensor a host function passes
// (EmitCuda), is checked here against what the compiler's arithmetic and the
// generated code index: element counts are 64-bit products that must not
// wrap, and byte sizes stay far inside int64_t.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_DIALECT_SOPT_INDEXABLEEXTENTS_H
#define SPARSE_OPT_DIALECT_SOPT_INDEXABLEEXTENTS_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Types.h"

#include <cstdint>
#include <optional>

namespace mlir::sopt {

/// The most bytes a dense tensor may hold: 2^48 (256 TiB), beyond any GPU's
/// memory, so that no tensor a GPU can hold is refused while byte offsets
/// and products of two extents stay far from overflowing int64_t.
constexpr int64_t kMaxTensorBytes = int64_t(1) << 48;

/// The elements of `shape` (1 for rank 0), or nullopt when a dimension is
/// dynamic or the product exceeds int64_t.
std::optional<int64_t> checkedElementCount(ArrayRef<int64_t> shape);

/// Checks a statically shaped ranked tensor type: a dense one holds at most
/// kMaxTensorBytes, a sparse one has a dense size representable in
/// int64_t. Other types pass. `what` names the value in the message.
LogicalResult verifyIndexableType(Type type, const Twine &what,
                                  function_ref<InFlightDiagnostic()> emitError);

/// verifyIndexableType on every operand and result of `op`.
LogicalResult verifyIndexableExtents(Operation *op);

/// Trait of every sopt op: its tensors pass verifyIndexableType.
template <typename ConcreteType>
class IndexableExtents : public OpTrait::TraitBase<ConcreteType, IndexableExtents> {
public:
  static LogicalResult verifyTrait(Operation *op) { return verifyIndexableExtents(op); }
};

} // namespace mlir::sopt

#endif // SPARSE_OPT_DIALECT_SOPT_INDEXABLEEXTENTS_H
