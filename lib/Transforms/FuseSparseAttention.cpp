//===- FuseSparseAttention.cpp - SDDMM, softmax, SpMM into one op ---------===//
//
// Attention over a CSR pattern, written as its steps, computes the scores
// of every stored entry (SDDMM), writes them, reads them back for the
// softmax over each row's entries, writes the probabilities, and reads
// them again for the product with V (SpMM). sopt.sparse_attention is the
// same computation in one kernel that keeps scores and probabilities in
// registers. This pass finds the chain, from its SpMM backwards, and
// replaces it.
//
//===----------------------------------------------------------------------===//

#include "sparse-opt/Dialect/SOpt/SOptOps.h"
#include "sparse-opt/Transforms/Passes.h"

#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "sopt-fuse-sparse-attention"

namespace mlir::sopt {
#define GEN_PASS_DEF_FUSESPARSEATTENTION
#include "sparse-opt/Transforms/Passes.h.inc"
} // namespace mlir::sopt

using namespace mlir;
using namespace mlir::sopt;

namespace {

/// The value of a splat floating-point constant, if `v` is one.
std::optional<double> splatValue(Value v) {
  auto constant = v.getDefiningOp<ConstantOp>();
  if (!constant)
    return std::nullopt;
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  if (!dense || !dense.isSplat())
    return std::nullopt;
  auto value = dyn_cast<FloatAttr>(dense.getSplatValue<Attribute>());
  if (!value)
    return std::nullopt;
  return value.getValueAsDouble();
}

/// The SDDMM behind the softmax's input and the scale between them: the
/// input itself (scale 1), or the input times a splat constant, on either
/// side. Every intermediate has one reader.
std::optional<std::pair<SddmmOp, double>> scaledScores(Value scores) {
  double scale = 1.0;
  if (auto mul = scores.getDefiningOp<MulOp>()) {
    if (!mul->hasOneUse())
      return std::nullopt;
    std::optional<double> rhs = splatValue(mul.getRhs());
    std::optional<double> lhs = rhs ? std::nullopt : splatValue(mul.getLhs());
    if (!rhs && !lhs)
      return std::nullopt;
    scale = rhs ? *rhs : *lhs;
    scores = rhs ? mul.getLhs() : mul.getRhs();
  }
  auto sddmm = scores.getDefiningOp<SddmmOp>();
  if (!sddmm || !sddmm->hasOneUse() || !sddmm.getTransposeRhs())
    return std::nullopt;
  return std::make_pair(sddmm, scale);
}

/// spmm(softmax(sddmm(q, k, pattern) [* c]), v) -> sparse_attention.
struct FoldSparseAttention : OpRewritePattern<SpmmOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SpmmOp spmm, PatternRewriter &rewriter) const override {
    if (spmm.isDenseTimesSparse())
      return rewriter.notifyMatchFailure(spmm, "the probabilities are not the left operand");
    auto softmax = spmm.getLhs().getDefiningOp<SoftmaxOp>();
    if (!softmax || !softmax->hasOneUse() ||
        !sparse_tensor::getSparseTensorEncoding(softmax.getType()))
      return rewriter.notifyMatchFailure(spmm, "no softmax over stored entries before it");
    std::optional<std::pair<SddmmOp, double>> scores = scaledScores(softmax.getInput());
    if (!scores)
      return rewriter.notifyMatchFailure(spmm, "the softmax's input is no scaled SDDMM");
    auto [sddmm, scale] = *scores;
    LLVM_DEBUG(llvm::dbgs() << "sparse attention at " << spmm.getLoc() << "\n");
    Operation *scaleOp = softmax.getInput().getDefiningOp<MulOp>();
    rewriter.replaceOpWithNewOp<SparseAttentionOp>(
        spmm, spmm.getType(), sddmm.getLhs(), sddmm.getRhs(), spmm.getRhs(),
        sddmm.getPattern(), rewriter.getF64FloatAttr(scale));
    rewriter.eraseOp(softmax);
    if (scaleOp)
      rewriter.eraseOp(scaleOp);
    rewriter.eraseOp(sddmm);
    return success();
  }
};

struct FuseSparseAttentionPass
    : public sopt::impl::FuseSparseAttentionBase<FuseSparseAttentionPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldSparseAttention>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    // Nothing else computes a softmax over stored entries.
    WalkResult leftover = getOperation()->walk([](SoftmaxOp softmax) {
      if (!sparse_tensor::getSparseTensorEncoding(softmax.getType()))
        return WalkResult::advance();
      softmax.emitError("softmax over stored entries is compiled only as sparse attention: "
                        "sopt.sddmm (transpose_rhs), optionally times a splat constant, "
                        "then this softmax, then sopt.spmm with it as the left operand, "
                        "each the only reader of the one before");
      return WalkResult::interrupt();
    });
    if (leftover.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
