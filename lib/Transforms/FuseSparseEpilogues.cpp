//===- FuseSparseEpilogues.cpp - elementwise regions into sparse kernels --===//
//
// A scheduled SpMM writes each output element once, from registers. An
// elementwise fusion region that reads that output only at the element it
// writes (bias, activation, scaling, residual add) can run right there: the
// product is never stored, and one launch disappears. The region stays in
// the IR, marked; the CUDA emitter turns it into the SpMM kernel's epilogue.
//
// An SDDMM writes each stored entry once. Elementwise ops on its entries
// (scale, exp, a sampled mask or bias) become a region over stored entries
// that the SDDMM kernel runs per entry; a scale of a dense operand by one
// scalar (a prologue) moves into that epilogue as a factor on the product.
// Ops on stored entries that fuse with no SDDMM get regions of their own,
// which the emitter runs as a kernel over the entries.
//
//===----------------------------------------------------------------------===//

#include "sparse-opt/Analysis/BackboneGrouping.h"
#include "sparse-opt/Analysis/IndexMaps.h"
#include "sparse-opt/Analysis/OpClassification.h"
#include "sparse-opt/Dialect/SOpt/FusionAnnotations.h"
#include "sparse-opt/Dialect/SOpt/SOptOps.h"
#include "sparse-opt/Transforms/FusionUtils.h"
#include "sparse-opt/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "sopt-fuse-sparse-epilogues"

namespace mlir::sopt {
#define GEN_PASS_DEF_FUSESPARSEEPILOGUES
#include "sparse-opt/Transforms/Passes.h.inc"
} // namespace mlir::sopt

using namespace mlir;
using namespace mlir::sopt;

namespace {

//===----------------------------------------------------------------------===//
// SpMM
//===----------------------------------------------------------------------===//

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

/// A matrix product on the project's GEMM kernel that stores each element
/// once: one K slice (split K adds partial sums atomically), no batch, and
/// K > 0 (an empty sum is a fill, which runs no kernel).
bool gemmTakesEpilogue(MatmulOp matmul) {
  GemmScheduleAttr schedule = matmul.getScheduleAttr();
  return schedule && schedule.getKSplits() == 1 && matmul.getType().getRank() == 2 &&
         matmul.getLhs().getType().getNumElements() > 0 &&
         matmul.getRhs().getType().getNumElements() > 0;
}

/// The input of `fusion` whose SpMM or GEMM can take the region as its epilogue.
std::optional<unsigned> epilogueInput(FusionOp fusion) {
  if (fusion->getNumResults() != 1)
    return std::nullopt;
  FailureOr<BackboneGrouping> grouping =
      BackboneGrouping::fromMarks(fusion, /*diagnose=*/false);
  if (failed(grouping) || grouping->getGroups().size() != 1 ||
      grouping->getGroups().front().hasBackbone())
    return std::nullopt;
  auto result = cast<RankedTensorType>(fusion->getResult(0).getType());
  for (auto [i, input] : llvm::enumerate(fusion.getInputs())) {
    Operation *product = input.getDefiningOp();
    auto spmm = dyn_cast_or_null<SpmmOp>(product);
    // A GEMM's epilogue converts to the result's element type as it stores.
    bool takesEpilogue = (spmm && spmm.getScheduleAttr() && spmm.getType() == result) ||
                         (isa_and_nonnull<MatmulOp>(product) &&
                          gemmTakesEpilogue(cast<MatmulOp>(product)) &&
                          cast<MatmulOp>(product).getType().getShape() == result.getShape());
    if (!takesEpilogue || !input.hasOneUse() || product->getBlock() != fusion->getBlock() ||
        !llvm::equal(grouping->getGroups().front().domain, result.getShape()))
      continue;
    if (readInPlace(fusion.getBodyBlock().getArgument(i)))
      return i;
  }
  return std::nullopt;
}

void fuseSpmmEpilogues(Operation *root) {
  Builder b(root->getContext());
  root->walk([&](FusionOp fusion) {
    if (fusion->hasAttr(attr::kSparseEpilogue) || fusion.isOverStoredEntries())
      return;
    std::optional<unsigned> input = epilogueInput(fusion);
    if (!input)
      return;
    // The launch happens at the product: it moves next to the region, so
    // that every other input of the region is ready by then.
    Operation *spmm = fusion.getInputs()[*input].getDefiningOp();
    spmm->moveBefore(fusion);
    fusion->setAttr(attr::kSparseEpilogue, b.getI64IntegerAttr(*input));
    LLVM_DEBUG(llvm::dbgs() << "SpMM epilogue: " << fusion->getLoc() << "\n");
  });
}

//===----------------------------------------------------------------------===//
// SDDMM scale prologues
//===----------------------------------------------------------------------===//

/// `x * s` where `s` is one value for every element: either a splat
/// constant (`splat`) or a broadcast of a one-element tensor (`scalar`).
struct OperandScale {
  Operation *scaleOp; // the sopt.mul, or the sopt.fusion holding only it
  Value unscaled;
  FloatAttr splat;
  Value scalar;
};

/// The one value of every element of `v`, seen from where `v` is used;
/// `outside` maps a value of the region being looked into to the value
/// outside it (null when there is none).
bool matchUniform(Value v, function_ref<Value(Value)> outside, OperandScale &scale) {
  Operation *def = v.getDefiningOp();
  if (def && isSplatConstant(def)) {
    auto dense = cast<DenseElementsAttr>(cast<ConstantOp>(def).getValue());
    scale.splat = dyn_cast<FloatAttr>(dense.getSplatValue<Attribute>());
    return static_cast<bool>(scale.splat);
  }
  auto broadcast = dyn_cast_or_null<BroadcastOp>(def);
  if (!broadcast)
    return false;
  auto input = broadcast.getInput().getType();
  // A one-element input of rank <= 2 broadcasts to the [m, n] result too.
  if (input.getNumElements() != 1 || input.getRank() > 2)
    return false;
  scale.scalar = outside(broadcast.getInput());
  return static_cast<bool>(scale.scalar);
}

/// `operand` is `x * s` with a uniform `s` (a bare sopt.mul, or a fusion
/// region that holds only that mul) read by nothing but the SDDMM.
std::optional<OperandScale> matchOperandScale(Value operand) {
  if (!operand.hasOneUse())
    return std::nullopt;
  Operation *def = operand.getDefiningOp();
  MulOp mul;
  std::function<Value(Value)> outside = [](Value v) { return v; };
  if (auto fusion = dyn_cast_or_null<FusionOp>(def)) {
    if (fusion->getNumResults() != 1 || fusion->hasAttr(attr::kSparseEpilogue))
      return std::nullopt;
    for (Operation &op : fusion.getBodyBlock().without_terminator())
      if (!isa<MulOp, BroadcastOp, ConstantOp>(op))
        return std::nullopt;
    mul = fusion.getYield().getValues().front().getDefiningOp<MulOp>();
    if (!mul || !llvm::hasSingleElement(mul->getUsers()))
      return std::nullopt;
    outside = [fusion](Value v) mutable -> Value {
      auto arg = dyn_cast<BlockArgument>(v);
      return arg && arg.getOwner() == &fusion.getBodyBlock()
                 ? fusion.getInputs()[arg.getArgNumber()]
                 : Value();
    };
  } else {
    mul = dyn_cast_or_null<MulOp>(def);
  }
  if (!mul)
    return std::nullopt;
  for (auto [x, s] : {std::pair(mul.getLhs(), mul.getRhs()),
                      std::pair(mul.getRhs(), mul.getLhs())}) {
    OperandScale scale{def, outside(x), {}, {}};
    if (scale.unscaled && matchUniform(s, outside, scale))
      return scale;
  }
  return std::nullopt;
}

/// Rewrites `sddmm(x * s, ...)` as `sddmm(x, ...) * s` (the same for rhs):
/// a sopt.mul on the result's stored entries, tagged with the operand it
/// came from, which the epilogue then takes in. Exact up to rounding: the
/// product is scaled after the dot product instead of each element of x
/// before it (bit-identical for a power of two without overflow).
void moveScalesIntoEpilogue(SddmmOp sddmm) {
  for (auto [index, name] : {std::pair(0u, "lhs"), std::pair(1u, "rhs")}) {
    Value operand = sddmm->getOperand(index);
    std::optional<OperandScale> scale = matchOperandScale(operand);
    if (!scale)
      continue;
    auto type = sddmm.getType();
    auto denseType = RankedTensorType::get(type.getShape(), type.getElementType());
    OpBuilder b(sddmm->getContext());
    b.setInsertionPointAfter(sddmm);
    Location loc = scale->scaleOp->getLoc();
    Value factor;
    if (scale->splat) {
      factor = ConstantOp::create(b, loc, DenseElementsAttr::get(denseType, scale->splat.getValue()));
    } else {
      int64_t rank = cast<RankedTensorType>(scale->scalar.getType()).getRank();
      SmallVector<int64_t> dims = llvm::to_vector(llvm::seq<int64_t>(2 - rank, 2));
      factor = BroadcastOp::create(b, loc, denseType, scale->scalar, dims);
    }
    auto mul = MulOp::create(b, loc, type, sddmm.getResult(), factor);
    mul->setAttr(attr::kSddmmPrologue, b.getStringAttr(name));
    sddmm.getResult().replaceAllUsesExcept(mul.getResult(), mul);
    sddmm->setOperand(index, scale->unscaled);
    SmallVector<Operation *> feeding;
    for (Value v : scale->scaleOp->getOperands())
      if (Operation *def = v.getDefiningOp(); isa_and_nonnull<BroadcastOp, ConstantOp>(def))
        feeding.push_back(def);
    scale->scaleOp->erase();
    for (Operation *def : feeding)
      if (def->use_empty())
        def->erase();
    LLVM_DEBUG(llvm::dbgs() << "SDDMM prologue (" << name << "): " << loc << "\n");
  }
}

//===----------------------------------------------------------------------===//
// Regions over stored entries
//===----------------------------------------------------------------------===//

/// The ops on stored entries that follow `v` one after another: each is the
/// only reader of the one before (so nothing else needs it stored).
SmallVector<Operation *> chainAfter(Value v) {
  SmallVector<Operation *> chain;
  Block *block = v.getParentBlock();
  while (!v.use_empty()) {
    Operation *user = *v.user_begin();
    if (!llvm::all_of(v.getUsers(), [&](Operation *u) { return u == user; }) ||
        !isStoredEntriesOp(user) || user->getBlock() != block)
      break;
    chain.push_back(user);
    v = user->getResult(0);
  }
  return chain;
}

/// Puts `chain` in a sopt.fusion over stored entries. Each broadcast the
/// chain reads is cloned in (it is read at the entries, never stored), as
/// are splat constants.
FusionOp outlineStoredEntries(ArrayRef<Operation *> chain) {
  SmallVector<Operation *> ops;
  SmallVector<Operation *> maybeDead;
  for (Operation *op : chain) {
    for (OpOperand &operand : op->getOpOperands()) {
      auto broadcast = operand.get().getDefiningOp<BroadcastOp>();
      if (!broadcast || broadcast->getBlock() != op->getBlock())
        continue;
      OpBuilder b(op);
      Operation *clone = b.clone(*broadcast);
      operand.set(clone->getResult(0));
      ops.push_back(clone);
      maybeDead.push_back(broadcast);
    }
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp(); def && isSplatConstant(def))
        maybeDead.push_back(def);
    ops.push_back(op);
  }
  FusionOp fusion = outlineIntoFusion(ops);
  for (Operation *op : maybeDead)
    if (op->use_empty())
      op->erase();
  return fusion;
}

void fuseSddmmEpilogues(Operation *root) {
  Builder b(root->getContext());
  SmallVector<SddmmOp> sddmms;
  root->walk([&](SddmmOp sddmm) { sddmms.push_back(sddmm); });
  for (SddmmOp sddmm : sddmms) {
    moveScalesIntoEpilogue(sddmm);
    SmallVector<Operation *> chain = chainAfter(sddmm.getResult());
    if (chain.empty())
      continue;
    FusionOp fusion = outlineStoredEntries(chain);
    if (!fusion)
      continue;
    unsigned input = llvm::find(fusion.getInputs(), sddmm.getResult()) -
                     fusion.getInputs().begin();
    // The launch happens at the product, after every other input is ready.
    sddmm->moveBefore(fusion);
    fusion->setAttr(attr::kSparseEpilogue, b.getI64IntegerAttr(input));
    LLVM_DEBUG(llvm::dbgs() << "SDDMM epilogue: " << fusion->getLoc() << "\n");
  }
  // What fused with no SDDMM (its input is read twice, or is an argument):
  // regions of their own, run as kernels over the stored entries.
  SmallVector<Operation *> rest;
  root->walk([&](Operation *op) {
    if (isStoredEntriesOp(op) && !op->getParentOfType<FusionOp>())
      rest.push_back(op);
  });
  llvm::SmallPtrSet<Operation *, 8> outlined;
  for (Operation *op : rest) {
    if (outlined.contains(op))
      continue;
    SmallVector<Operation *> chain{op};
    llvm::append_range(chain, chainAfter(op->getResult(0)));
    outlined.insert(chain.begin(), chain.end());
    outlineStoredEntries(chain);
  }
}

struct FuseSparseEpiloguesPass
    : public sopt::impl::FuseSparseEpiloguesBase<FuseSparseEpiloguesPass> {
  void runOnOperation() override {
    fuseSpmmEpilogues(getOperation());
    fuseSddmmEpilogues(getOperation());
  }
};

} // namespace
