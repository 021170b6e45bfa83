//===- FusionAnnotations.h - attribute names of the fusion passes -*- C++ -*-===//
//
// The fusion passes record their decisions as attributes on the ops inside a
// sopt.fusion region, so that each step is visible in the IR, lit-testable,
// and can be set by hand.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_DIALECT_SOPT_FUSIONANNOTATIONS_H
#define SPARSE_OPT_DIALECT_SOPT_FUSIONANNOTATIONS_H

#include "llvm/ADT/StringRef.h"

namespace mlir::sopt::attr {
// sopt-group-backbones
inline constexpr llvm::StringLiteral kGroup = "sopt.group";         // i64
inline constexpr llvm::StringLiteral kBackbone = "sopt.backbone";   // unit
inline constexpr llvm::StringLiteral kSubBackbone = "sopt.sub_backbone";
// sopt-propagate-mapping
inline constexpr llvm::StringLiteral kMapping = "sopt.mapping";     // #sopt.mapping
inline constexpr llvm::StringLiteral kIndexMap = "sopt.index_map";  // affine_map
// sopt-plan-reuse
inline constexpr llvm::StringLiteral kResultMemory = "sopt.result_memory";
inline constexpr llvm::StringLiteral kCache = "sopt.cache";         // #sopt.memory
inline constexpr llvm::StringLiteral kArgCache = "sopt.arg_cache";  // [#sopt.memory | unit]
inline constexpr llvm::StringLiteral kSharedSlot = "sopt.smem";     // [offset, bytes]
// Per region argument: its shared cache slot [offset, bytes], or unit.
inline constexpr llvm::StringLiteral kArgSharedSlot = "sopt.arg_smem";
inline constexpr llvm::StringLiteral kSharedBytes = "sopt.smem_bytes";
inline constexpr llvm::StringLiteral kGridBarriers = "sopt.grid_barriers";
/// Blocks per SM that must be resident for the grid-wide barriers (i64).
inline constexpr llvm::StringLiteral kResidentBlocks = "sopt.resident_blocks";
// sopt-fuse-sparse-epilogues: on a sopt.fusion, the input (i64) that is the
// result of the sparse product this region runs inside as its epilogue.
inline constexpr llvm::StringLiteral kSparseEpilogue = "sopt.sparse_epilogue";
// sopt-fuse-sparse-epilogues: on the sopt.mul of an SDDMM epilogue that was a
// scale of the product's dense operand ("lhs" or "rhs") before.
inline constexpr llvm::StringLiteral kSddmmPrologue = "sopt.sddmm_prologue";
} // namespace mlir::sopt::attr

#endif // SPARSE_OPT_DIALECT_SOPT_FUSIONANNOTATIONS_H
