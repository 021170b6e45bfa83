//===- FusionGroupWriter.h - one fusion group as CUDA statements -*- C++ -*-===//
//
// A fusion group is evaluated element by element at indices that are affine
// functions of its iteration space (sopt.index_map). Values are produced on
// demand: asking for a value at some indices writes the loads and arithmetic
// it needs once, in the innermost scope where those indices are known (a row
// scalar in the row scope, an element value in the element loop), and reuses
// it after. Reductions split a row's work into phases; values needed after a
// reduction come from the caches the reuse plan chose, or are recomputed.
//
// Which index variables a scope reads is recorded when its offsets are
// formed from the index maps, so the loops define exactly those.
//
// FusionGroupValues.cpp writes the values (loads, arithmetic, stores,
// caches), FusionGroupLoops.cpp the loops around them (elements, rows,
// reduction phases), FusionKernel.cpp the kernels that hold groups.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_LIB_TARGET_CUDA_FUSIONGROUPWRITER_H
#define SPARSE_OPT_LIB_TARGET_CUDA_FUSIONGROUPWRITER_H

#include "CodeBlock.h"
#include "FusionKernel.h"

#include "sparse-opt/Analysis/BackboneGrouping.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::sopt::cuda {

inline RankedTensorType tensorType(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// Values a group passes to later groups of its kernel, by the global buffer
/// (a pointer variable of the value's storage type) that carries them.
using Exchange = llvm::MapVector<Value, std::string>;

/// One group's code, to be placed in a kernel.
struct GroupCode {
  CodeBlock body;      // statements at function scope
  std::string summary; // what the group does, without the kernel's name
  KernelLaunch launch; // grid, block, shared bytes, scratch of this group
};

/// The index variables statements read.
struct IndexUses {
  llvm::SmallBitVector dims; // by iteration dim
  bool flat = false;         // `e`, the flat element index (elementwise)
  bool col = false;          // `col`, the position along the row

  explicit IndexUses(unsigned rank = 0) : dims(rank) {}
};

/// Statements of one scope, the values already computed in it, and the
/// indices they read.
struct Scope {
  CodeBlock code;
  DenseMap<std::pair<Value, AffineMap>, std::string> computed;
  IndexUses uses;
};

/// The vector loads before a chunk's element loop and the vector stores
/// after it, over the chunk's first element (index names `d<i>c`, `e0`).
struct ChunkCode {
  CodeBlock loads, stores;
  IndexUses uses;
};

/// Writes one group of a sopt.fusion, annotated by the fusion passes.
class GroupWriter {
public:
  GroupWriter(FusionOp fusion, const FusionGroup &group, MappingAttr mapping,
              StringRef name, const Exchange *exchange = nullptr)
      : fusion(fusion), group(group), backbone(group.backbone),
        mapping(mapping), name(name.str()), rank(group.domain.size()),
        members(group.ops.begin(), group.ops.end()), exchange(exchange),
        anyUses(rank) {
    row.uses = element.uses = chunk.uses = IndexUses(rank);
  }

  /// The group as the whole __global__ function `name`.
  FailureOr<KernelLaunch> write(raw_indented_ostream &os);
  /// The group's statements and summary, for a kernel of several groups.
  FailureOr<GroupCode> writeGroup();
  /// The group as the epilogue functor of the sparse product that produces
  /// input `accumulatorInput` (see emitSparseEpilogue).
  FailureOr<std::string> writeEpilogue(unsigned accumulatorInput,
                                       raw_indented_ostream &os);

private:
  // --- what the IR says (FusionGroupValues.cpp) ---------------------------
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
  bool isMember(Value v) const {
    Operation *def = v.getDefiningOp();
    return def && members.contains(def);
  }

  // --- values (FusionGroupValues.cpp) -------------------------------------
  Scope &scopeFor(AffineMap map);
  std::string value(Value v, AffineMap map);
  std::string load(BlockArgument arg, AffineMap map);
  /// Reads a value another group of the kernel left in its global buffer.
  std::string loadExchanged(Value v, StringRef buffer, AffineMap map);
  /// `const T vK = access;` in `scope`, widened to f32 and kept in bounds.
  std::string scalarLoad(Scope &scope, std::string access, Type elementType);
  /// The flat offset of `map` into a tensor of `shape`, over the element's
  /// indices, or the chunk's first element's when `chunk` is set; records
  /// the indices it reads in `uses`.
  std::string offsetOf(AffineMap map, ArrayRef<int64_t> shape, bool chunk,
                       IndexUses &uses);
  void storeOutputs(int64_t phase, bool rowScalars);
  /// Keeps `v` (evaluated at `map`) for later phases: in a register array,
  /// or in the shared slot at `offset`. Global means re-read: nothing to do.
  void cache(Value v, MemoryLevel level, std::optional<int64_t> offset,
             AffineMap map);
  std::string fresh(StringRef prefix) {
    return (prefix + Twine(counter++)).str();
  }

  // --- loops (FusionGroupLoops.cpp) ---------------------------------------
  void writeElementwise(CodeBlock &body);
  void writeRows(CodeBlock &body);
  /// The element loop of one phase: reductions, caches and stores of the
  /// values that phase completes, then the reductions' combine.
  CodeBlock elementLoop(int64_t phase);
  /// Defines `names[i]` for the used dims of `extents` from `linear`.
  void delinearize(CodeBlock &code, StringRef linear,
                   ArrayRef<int64_t> extents, ArrayRef<int64_t> dims,
                   ArrayRef<std::string> names,
                   const llvm::SmallBitVector &used) const;

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
  /// By phase: the reduces whose input that phase completes, and the values
  /// it computes that the reuse plan keeps for later phases, in group order.
  SmallVector<SmallVector<ReduceOp>> reducesFedBy;
  SmallVector<SmallVector<Value>> cachedIn;
  DenseMap<Value, std::string> accumulator; // reduce result -> variable
  /// A row value kept for later phases: the expression that reads it back.
  struct Cached {
    std::string read;
    bool readsCol = false;
  };
  DenseMap<Value, Cached> cached;
  int64_t reductions = 0;  // in emission order
  int64_t items = 1;       // chunks per thread and row
  int64_t currentPhase = 0;

  Scope row, element;
  ChunkCode chunk;
  /// Every index any statement of the group reads.
  IndexUses anyUses;
  bool inElement = false;
  SmallVector<std::string> dimNames, chunkDimNames;
  unsigned counter = 0;
  /// In an epilogue: the input that is the product's accumulator ("acc").
  std::optional<unsigned> accumulatorArg;
};

} // namespace mlir::sopt::cuda

#endif // SPARSE_OPT_LIB_TARGET_CUDA_FUSIONGROUPWRITER_H
