//===- FuseSparseEpilogues.cpp - elementwise regions into SpMM kernels ----===//
//
// A scheduled SpMM writes each output element once, from registers. An
// elementwise fusion region that reads that output only at the element it
// writes (bias, activation, scaling, residual add) can run right there: the
// product is never stored, and one launch disappears. The region stays in
// the IR, marked; the CUDA emitter turns it into the SpMM kernel's epilogue.
//
//===----------------------------------------------------------------------===//

#include "sparse-opt/Analysis/BackboneGrouping.h"
#include "sparse-opt/Analysis/IndexMaps.h"
#include "sparse-opt/Dialect/SOpt/FusionAnnotations.h"
#include "sparse-opt/Dialect/SOpt/SOptOps.h"
#include "sparse-opt/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "sopt-fuse-sparse-epilogues"

namespace mlir::sopt {
#define GEN_PASS_DEF_FUSESPARSEEPILOGUES
#include "sparse-opt/Transforms/Passes.h.inc"
} // namespace mlir::sopt

using namespace mlir;
using namespace mlir::sopt;

namespace {

/// Whether every use of `arg` inside the region reads it at the element
/// being computed (the identity index map).
bool readInPlace(BlockArgument arg) {
  for (OpOperand &use : arg.getUses()) {
    Operation *user = use.getOwner();
    auto map = user->getAttrOfType<AffineMapAttr>(attr::kIndexMap);
    if (!map)
      return false; // the terminator: the product itself is a result
    std::optional<AffineMap> operandMap =
        operandIndices(user, use.getOperandNumber(), map.getValue());
    if (!operandMap || !operandMap->isIdentity())
      return false;
  }
  return true;
}

/// The input of `fusion` whose SpMM can take the region as its epilogue.
std::optional<unsigned> epilogueInput(FusionOp fusion) {
  if (fusion->getNumResults() != 1)
    return std::nullopt;
  BackboneGrouping grouping(fusion);
  if (grouping.getGroups().size() != 1 || grouping.getGroups().front().hasBackbone())
    return std::nullopt;
  for (auto [i, input] : llvm::enumerate(fusion.getInputs())) {
    auto spmm = input.getDefiningOp<SpmmOp>();
    if (!spmm || !spmm.getScheduleAttr() || !input.hasOneUse() ||
        spmm->getBlock() != fusion->getBlock() ||
        spmm.getType() != fusion->getResult(0).getType() ||
        !llvm::equal(grouping.getGroups().front().domain, spmm.getType().getShape()))
      continue;
    if (readInPlace(fusion.getBodyBlock().getArgument(i)))
      return i;
  }
  return std::nullopt;
}

struct FuseSparseEpiloguesPass
    : public sopt::impl::FuseSparseEpiloguesBase<FuseSparseEpiloguesPass> {
  void runOnOperation() override {
    Builder b(&getContext());
    getOperation()->walk([&](FusionOp fusion) {
      if (fusion->hasAttr(attr::kSparseEpilogue))
        return;
      std::optional<unsigned> input = epilogueInput(fusion);
      if (!input)
        return;
      // The launch happens at the product: it moves next to the region, so
      // that every other input of the region is ready by then.
      Operation *spmm = fusion.getInputs()[*input].getDefiningOp();
      spmm->moveBefore(fusion);
      fusion->setAttr(attr::kSparseEpilogue, b.getI64IntegerAttr(*input));
      LLVM_DEBUG(llvm::dbgs() << "epilogue: " << fusion->getLoc() << "\n");
    });
  }
};

} // namespace
