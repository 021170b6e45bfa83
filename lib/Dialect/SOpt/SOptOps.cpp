//===- SOptOps.cpp - sopt verifiers and folders ---------------------------===//

#include "sparse-opt/Dialect/SOpt/SOptOps.h"
#include "sparse-opt/Dialect/SOpt/AttentionSchedule.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "sparse-opt/Dialect/SOpt/GemmScheduleAttr.h"
#include "sparse-opt/Dialect/SOpt/SparseFormat.h"
#include "sparse-opt/Dialect/SOpt/SparseScheduleAttrs.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"

#include <cmath>

using namespace mlir;
using namespace mlir::sopt;

// `mlir::sopt::`, not `sopt::`: the runtime's `::sopt` (SparseSchedule.h)
// would make the latter ambiguous.
Type mlir::sopt::getBoolTensorLike(Type type) {
  auto shaped = cast<ShapedType>(type);
  // Dense even for a sparse operand: conditions are read at stored entries.
  return RankedTensorType::get(shaped.getShape(),
                               IntegerType::get(type.getContext(), 1));
}

Type mlir::sopt::getElementwiseResultType(ArrayRef<Value> operands) {
  for (Value v : operands)
    if (sparse_tensor::getSparseTensorEncoding(v.getType()))
      return v.getType();
  return operands.front().getType();
}

bool mlir::sopt::isStoredEntriesOp(Operation *op) {
  return op->hasTrait<StoredEntriesElementwise>() &&
         llvm::any_of(op->getOperandTypes(), [](Type t) {
           return sparse_tensor::getSparseTensorEncoding(t) != nullptr;
         });
}

namespace {

/// "128x1024", the way shapes appear in tensor types.
std::string formatShape(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(shape, os, "x");
  return text;
}

/// Checks that `dims` are valid dimensions of a rank-`rank` value, in
/// strictly increasing order (no duplicates, no hidden permutation).
LogicalResult verifyIncreasingDims(Operation *op, StringRef name,
                                   ArrayRef<int64_t> dims, int64_t rank) {
  for (auto [i, d] : llvm::enumerate(dims)) {
    if (d < 0 || d >= rank)
      return op->emitOpError() << name << "[" << i << "] = " << d
                               << " is out of range for rank " << rank;
    if (i > 0 && d <= dims[i - 1])
      return op->emitOpError() << name << " must be strictly increasing";
  }
  return success();
}

LogicalResult verifyShapeEquals(Operation *op, StringRef what,
                                ArrayRef<int64_t> actual,
                                ArrayRef<int64_t> expected) {
  if (actual == expected)
    return success();
  return op->emitOpError() << what << " has shape " << formatShape(actual)
                           << " but " << formatShape(expected)
                           << " was expected";
}

/// Sparse operands must be in a format our kernels and runtime serve.
LogicalResult verifySparseOperand(Operation *op, StringRef what,
                                  RankedTensorType type,
                                  ArrayRef<SparseFormat> allowed) {
  std::optional<SparseFormat> format = getSparseFormat(type);
  if (!format || !llvm::is_contained(allowed, *format)) {
    auto diag = op->emitOpError() << what << " has an unsupported sparse "
                                  << "encoding " << type.getEncoding()
                                  << "; expected ";
    llvm::interleave(
        allowed, diag,
        [&](SparseFormat f) { diag << stringifySparseFormat(f); }, " or ");
    return diag;
  }
  if (!hasSupportedIndexWidths(type))
    return op->emitOpError() << what << " must use 32- or 64-bit positions "
                             << "and coordinates (posWidth/crdWidth 0, 32 "
                             << "or 64)";
  if (*format == SparseFormat::BSR) {
    SmallVector<unsigned> block = sparse_tensor::getBlockSize(
        sparse_tensor::getSparseTensorEncoding(type).getDimToLvl());
    for (auto [dim, size] : llvm::enumerate(type.getShape()))
      if (size % block[dim] != 0)
        return op->emitOpError()
               << what << " dimension " << dim << " (" << size
               << ") is not a multiple of the BSR block size " << block[dim];
  }
  return success();
}

/// Shared checks of the normalisation layers: a scale or bias operand is a
/// vector as long as the normalised (last) dimension.
LogicalResult verifyNormParam(Operation *op, StringRef what, Value param,
                              RankedTensorType input) {
  if (!param)
    return success();
  auto type = cast<RankedTensorType>(param.getType());
  if (type.getElementType() != input.getElementType())
    return op->emitOpError() << what << " element type " << type.getElementType()
                             << " differs from the input's "
                             << input.getElementType();
  return verifyShapeEquals(op, what, type.getShape(),
                           {input.getShape().back()});
}

LogicalResult verifyNormInput(Operation *op, RankedTensorType input) {
  if (input.getRank() == 0)
    return op->emitOpError("expects an input of rank >= 1");
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// Elementwise ops on stored entries
//===----------------------------------------------------------------------===//

LogicalResult mlir::sopt::verifyStoredEntriesOperands(Operation *op) {
  RankedTensorType sparseType;
  for (auto [i, type] : llvm::enumerate(op->getOperandTypes())) {
    auto tensor = cast<RankedTensorType>(type);
    if (!sparse_tensor::getSparseTensorEncoding(tensor))
      continue;
    if (!sparseType) {
      if (getSparseFormat(tensor) != SparseFormat::CSR || !hasSupportedIndexWidths(tensor))
        return op->emitOpError() << "operand #" << i << " has the sparse type " << tensor
                                 << "; elementwise ops act on the stored entries of "
                                    "CSR matrices only (32- or 64-bit indices)";
      sparseType = tensor;
      continue;
    }
    if (tensor != sparseType)
      return op->emitOpError() << "has sparse operands of two types, " << sparseType
                               << " and " << tensor
                               << "; the sparse operands of an elementwise op share "
                                  "one type (and pattern)";
  }
  for (Type result : op->getResultTypes()) {
    bool resultSparse = sparse_tensor::getSparseTensorEncoding(result) != nullptr;
    if (!sparseType && resultSparse)
      return op->emitOpError() << "has the sparse result type " << result
                               << " but no sparse operand; a dense op has a dense "
                                  "result";
    if (sparseType && result != sparseType)
      return op->emitOpError() << "has the result type " << result
                               << ", but an op on the stored entries of " << sparseType
                               << " returns that type (same pattern)";
  }
  return success();
}

/// `: T` when the operands and the result share the type T, otherwise
/// `: L, R -> T` (a CSR operand with a dense one).
static ParseResult parseElementwiseTypes(OpAsmParser &parser, Type &lhs, Type &rhs,
                                  Type &result) {
  if (parser.parseType(lhs))
    return failure();
  if (failed(parser.parseOptionalComma())) {
    rhs = result = lhs;
    return success();
  }
  return failure(parser.parseType(rhs) || parser.parseArrow() ||
                 parser.parseType(result));
}

static void printElementwiseTypes(OpAsmPrinter &printer, Operation *, Type lhs, Type rhs,
                           Type result) {
  printer << lhs;
  if (lhs != rhs || lhs != result)
    printer << ", " << rhs << " -> " << result;
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

//===----------------------------------------------------------------------===//
// Elementwise and layout folders
//===----------------------------------------------------------------------===//

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

LogicalResult BroadcastOp::verify() {
  auto input = getInput().getType();
  auto result = getType();
  ArrayRef<int64_t> dims = getDims();
  if (static_cast<int64_t>(dims.size()) != input.getRank())
    return emitOpError() << "dims has " << dims.size()
                         << " entries but the operand has rank "
                         << input.getRank();
  if (failed(verifyIncreasingDims(*this, "dims", dims, result.getRank())))
    return failure();
  for (auto [operandDim, resultDim] : llvm::enumerate(dims)) {
    int64_t from = input.getDimSize(operandDim);
    int64_t to = result.getDimSize(resultDim);
    if (from != 1 && from != to)
      return emitOpError() << "operand dimension " << operandDim << " has size "
                           << from << ", which is neither 1 nor the size " << to
                           << " of result dimension " << resultDim;
  }
  return success();
}

OpFoldResult BroadcastOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

LogicalResult ReshapeOp::verify() {
  auto input = getInput().getType();
  auto result = getType();
  if (input.getNumElements() != result.getNumElements())
    return emitOpError() << "cannot reshape " << input.getNumElements()
                         << " elements (" << formatShape(input.getShape())
                         << ") into " << result.getNumElements() << " ("
                         << formatShape(result.getShape()) << ")";
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  // reshape(reshape(x)) == reshape(x): read straight from the first input.
  if (auto inner = getInput().getDefiningOp<ReshapeOp>()) {
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  return {};
}

LogicalResult TransposeOp::verify() {
  auto input = getInput().getType();
  ArrayRef<int64_t> perm = getPermutation();
  if (static_cast<int64_t>(perm.size()) != input.getRank())
    return emitOpError() << "permutation has " << perm.size()
                         << " entries but the operand has rank "
                         << input.getRank();
  llvm::SmallBitVector seen(perm.size());
  SmallVector<int64_t> expected;
  for (int64_t p : perm) {
    if (p < 0 || p >= input.getRank() || seen.test(p))
      return emitOpError() << "permutation is not a permutation of [0, "
                           << input.getRank() << ")";
    seen.set(p);
    expected.push_back(input.getDimSize(p));
  }
  return verifyShapeEquals(*this, "result", getType().getShape(), expected);
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  if (llvm::equal(getPermutation(), llvm::seq<int64_t>(0, getType().getRank())))
    return getInput();
  return {};
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  auto input = getInput().getType();
  ArrayRef<int64_t> dims = getDims();
  if (dims.empty())
    return emitOpError("expects at least one reduction dimension");
  if (failed(verifyIncreasingDims(*this, "dims", dims, input.getRank())))
    return failure();
  // The kernels start from the first element; an empty max, min or mean
  // has no value.
  for (int64_t d : dims)
    if (input.getDimSize(d) == 0)
      return emitOpError() << "reduces over dimension " << d
                           << " of extent 0 (empty reductions are not supported)";
  SmallVector<int64_t> expected;
  for (auto [d, size] : llvm::enumerate(input.getShape())) {
    if (!llvm::is_contained(dims, static_cast<int64_t>(d)))
      expected.push_back(size);
    else if (getKeepDims())
      expected.push_back(1);
  }
  return verifyShapeEquals(*this, "result", getType().getShape(), expected);
}

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::verify() {
  auto lhs = getLhs().getType();
  auto rhs = getRhs().getType();
  auto result = getType();
  int64_t rank = lhs.getRank();
  if (rank < 2 || rhs.getRank() != rank || result.getRank() != rank)
    return emitOpError() << "expects lhs, rhs and result of one rank >= 2, got "
                         << lhs.getRank() << ", " << rhs.getRank() << " and "
                         << result.getRank();
  ArrayRef<int64_t> batch = lhs.getShape().drop_back(2);
  if (rhs.getShape().drop_back(2) != batch)
    return emitOpError() << "batch dimensions differ: lhs "
                         << formatShape(batch) << ", rhs "
                         << formatShape(rhs.getShape().drop_back(2));
  int64_t m = lhs.getDimSize(rank - (getTransposeLhs() ? 1 : 2));
  int64_t lhsK = lhs.getDimSize(rank - (getTransposeLhs() ? 2 : 1));
  int64_t rhsK = rhs.getDimSize(rank - (getTransposeRhs() ? 1 : 2));
  int64_t n = rhs.getDimSize(rank - (getTransposeRhs() ? 2 : 1));
  if (lhsK != rhsK)
    return emitOpError() << "contracting dimensions differ: lhs has " << lhsK
                         << ", rhs has " << rhsK;
  SmallVector<int64_t> expected(batch);
  expected.append({m, n});
  if (failed(verifyShapeEquals(*this, "result", result.getShape(), expected)))
    return failure();
  if (GemmScheduleAttr schedule = getScheduleAttr()) {
    if (!result.getElementType().isF32())
      return emitOpError() << "has a GEMM schedule, but the project's GEMM kernel is f32 "
                              "only (this product is "
                           << result.getElementType() << ")";
    int64_t matrices = 1;
    for (int64_t extent : batch)
      matrices *= extent;
    if (const char *problem = ::sopt::gemmScheduleProblem(toRuntimeSchedule(schedule), m, n,
                                                          lhsK, matrices))
      return emitOpError() << "has an invalid schedule " << schedule << ": " << problem;
  }
  return success();
}

/// Schedule parameters go through int arithmetic in the schedule checks and
/// the launches (threads per block is the product of three), so each is
/// bounded first, keeping every such product inside int: counts of lanes,
/// tiles, splits and vector elements never exceed a block's 1024 threads;
/// sizes (columns, rows, entries) get more room.
using ScheduleParameter = std::pair<StringRef, int>;
static LogicalResult verifyScheduleRanges(Operation *op, ArrayRef<ScheduleParameter> counts,
                                          ArrayRef<ScheduleParameter> sizes) {
  constexpr int kMaxCount = 1024, kMaxSize = 1 << 20;
  for (auto [bound, parameters] : {std::pair(kMaxCount, counts), std::pair(kMaxSize, sizes)})
    for (auto [name, value] : parameters)
      if (value < -bound || value > bound) // the schedule checks refuse negatives
        return op->emitOpError() << "has an invalid schedule: " << name << " = " << value
                                 << " is out of range (at most " << bound << ")";
  return success();
}

LogicalResult SpmmOp::verify() {
  auto lhs = getLhs().getType();
  auto rhs = getRhs().getType();
  bool lhsSparse = sparse_tensor::getSparseTensorEncoding(lhs) != nullptr;
  bool rhsSparse = sparse_tensor::getSparseTensorEncoding(rhs) != nullptr;
  if (lhsSparse == rhsSparse)
    return emitOpError() << "expects exactly one sparse operand, got "
                         << (lhsSparse ? "two" : "none");
  if (lhs.getRank() != 2 || rhs.getRank() != 2 || getType().getRank() != 2)
    return emitOpError("expects rank-2 operands and result");
  const SparseFormat formats[] = {SparseFormat::CSR, SparseFormat::CSC,
                                  SparseFormat::BSR};
  if (failed(verifySparseOperand(*this, lhsSparse ? "lhs" : "rhs",
                                 lhsSparse ? lhs : rhs, formats)))
    return failure();
  if (lhs.getDimSize(1) != rhs.getDimSize(0))
    return emitOpError() << "contracting dimensions differ: lhs has "
                         << lhs.getDimSize(1) << ", rhs has "
                         << rhs.getDimSize(0);
  if (failed(verifyShapeEquals(*this, "result", getType().getShape(),
                               {lhs.getDimSize(0), rhs.getDimSize(1)})))
    return failure();
  SpmmScheduleAttr schedule = getScheduleAttr();
  if (!schedule)
    return success();
  // The schedule parametrises the CSR × dense kernel, which also runs a
  // dense × CSR/CSC product transposed.
  if (lhsSparse && getSparseFormat(lhs) != SparseFormat::CSR)
    return emitOpError() << "has an invalid schedule: a schedule needs a CSR "
                            "lhs (sparse × dense) or a CSR or CSC rhs (dense × "
                            "sparse), but lhs is "
                         << stringifySparseFormat(*getSparseFormat(lhs));
  if (rhsSparse && getSparseFormat(rhs) == SparseFormat::BSR)
    return emitOpError() << "has an invalid schedule: a schedule needs a CSR "
                            "lhs (sparse × dense) or a CSR or CSC rhs (dense × "
                            "sparse), but rhs is BSR";
  if (failed(verifyScheduleRanges(
          *this,
          {{"threads_per_tile", schedule.getThreadsPerTile()},
           {"tiles_per_block", schedule.getTilesPerBlock()},
           {"vector_width", schedule.getVectorWidth()},
           {"row_splits", schedule.getRowSplits()}},
          {{"tile_columns", schedule.getTileColumns()},
           {"block_rows", schedule.getBlockRows()},
           {"row_segment", schedule.getRowSegment()}})))
    return failure();
  std::string reason = ::sopt::checkSpmmSchedule(
      toRuntimeSchedule(schedule), getScheduleColumns(),
      getScheduleElementBytes(lhs.getElementType()));
  if (!reason.empty())
    return emitOpError() << "has an invalid schedule: " << reason;
  return success();
}

bool SpmmOp::isDenseTimesSparse() {
  return sparse_tensor::getSparseTensorEncoding(getRhs().getType()) != nullptr;
}

int64_t SpmmOp::getScheduleColumns() {
  return isDenseTimesSparse() ? getLhs().getType().getDimSize(0)
                              : getRhs().getType().getDimSize(1);
}

LogicalResult SddmmOp::verify() {
  auto lhs = getLhs().getType();
  auto rhs = getRhs().getType();
  auto pattern = getPattern().getType();
  if (lhs.getRank() != 2 || rhs.getRank() != 2 || pattern.getRank() != 2)
    return emitOpError("expects rank-2 operands");
  if (failed(verifySparseOperand(*this, "pattern", pattern,
                                 {SparseFormat::CSR})))
    return failure();
  int64_t rhsK = rhs.getDimSize(getTransposeRhs() ? 1 : 0);
  int64_t n = rhs.getDimSize(getTransposeRhs() ? 0 : 1);
  if (lhs.getDimSize(1) != rhsK)
    return emitOpError() << "contracting dimensions differ: lhs has "
                         << lhs.getDimSize(1) << ", rhs has " << rhsK;
  if (failed(verifyShapeEquals(*this, "pattern", pattern.getShape(),
                               {lhs.getDimSize(0), n})))
    return failure();
  if (SddmmScheduleAttr schedule = getScheduleAttr()) {
    if (failed(verifyScheduleRanges(
            *this,
            {{"threads_per_nonzero", schedule.getThreadsPerNonzero()},
             {"tiles_per_block", schedule.getTilesPerBlock()},
             {"vector_width", schedule.getVectorWidth()},
             {"k_splits", schedule.getKSplits()}},
            {{"tile_nonzeros", schedule.getTileNonzeros()},
             {"block_size", schedule.getBlockSize()},
             {"column_panel", schedule.getColumnPanel()}})))
      return failure();
    std::string reason = ::sopt::checkSddmmSchedule(
        toRuntimeSchedule(schedule), lhs.getDimSize(1), getTransposeRhs(),
        getScheduleElementBytes(lhs.getElementType()));
    if (!reason.empty())
      return emitOpError() << "has an invalid schedule: " << reason;
  }
  return success();
}

LogicalResult SpmvOp::verify() {
  auto matrix = getMatrix().getType();
  auto vector = getVector().getType();
  if (matrix.getRank() != 2 || vector.getRank() != 1 ||
      getType().getRank() != 1)
    return emitOpError("expects a rank-2 matrix, a rank-1 vector and a rank-1 "
                       "result");
  if (failed(verifySparseOperand(*this, "matrix", matrix,
                                 {SparseFormat::CSR, SparseFormat::BSR})))
    return failure();
  if (vector.getDimSize(0) != matrix.getDimSize(1))
    return emitOpError() << "vector has " << vector.getDimSize(0)
                         << " elements but the matrix has "
                         << matrix.getDimSize(1) << " columns";
  return verifyShapeEquals(*this, "result", getType().getShape(),
                           {matrix.getDimSize(0)});
}

//===----------------------------------------------------------------------===//
// Composites
//===----------------------------------------------------------------------===//

LogicalResult SoftmaxOp::verify() {
  int64_t rank = getType().getRank();
  int64_t dim = getDimAttr().getInt();
  if (dim < 0 || dim >= rank)
    return emitOpError() << "dim " << dim << " is out of range for rank "
                         << rank;
  if (sparse_tensor::getSparseTensorEncoding(getType())) {
    if (failed(verifySparseOperand(*this, "input", getType(), {SparseFormat::CSR})))
      return failure();
    if (dim != 1)
      return emitOpError("over stored entries takes dim = 1 (each row's entries)");
  }
  return success();
}

/// A norm's epsilon: finite (1e400 parses as infinity) and non-negative.
static LogicalResult verifyEpsilon(Operation *op, APFloat epsilon) {
  double value = epsilon.convertToDouble();
  if (!std::isfinite(value) || value < 0)
    return op->emitOpError("expects a finite non-negative epsilon");
  return success();
}

LogicalResult LayerNormOp::verify() {
  auto input = getInput().getType();
  if (failed(verifyNormInput(*this, input)) ||
      failed(verifyNormParam(*this, "scale", getScale(), input)) ||
      failed(verifyNormParam(*this, "bias", getBias(), input)))
    return failure();
  if (failed(verifyEpsilon(*this, getEpsilon())))
    return failure();
  return success();
}

LogicalResult RmsNormOp::verify() {
  auto input = getInput().getType();
  if (failed(verifyNormInput(*this, input)) ||
      failed(verifyNormParam(*this, "scale", getScale(), input)))
    return failure();
  if (failed(verifyEpsilon(*this, getEpsilon())))
    return failure();
  return success();
}

LogicalResult AttentionOp::verify() {
  auto q = getQuery().getType();
  auto k = getKey().getType();
  auto v = getValue().getType();
  int64_t rank = q.getRank();
  if (rank < 2 || k.getRank() != rank || v.getRank() != rank ||
      getType().getRank() != rank)
    return emitOpError("expects query, key, value and result of one rank >= 2");
  ArrayRef<int64_t> batch = q.getShape().drop_back(2);
  if (k.getShape().drop_back(2) != batch || v.getShape().drop_back(2) != batch)
    return emitOpError("expects query, key and value with equal leading "
                       "(batch) dimensions");
  int64_t sq = q.getDimSize(rank - 2), d = q.getDimSize(rank - 1);
  int64_t sk = k.getDimSize(rank - 2);
  if (k.getDimSize(rank - 1) != d)
    return emitOpError() << "key head dimension " << k.getDimSize(rank - 1)
                         << " differs from the query's " << d;
  if (v.getDimSize(rank - 2) != sk)
    return emitOpError() << "value has " << v.getDimSize(rank - 2)
                         << " positions but key has " << sk;
  if (Value mask = getMask()) {
    SmallVector<int64_t> expected(batch);
    expected.append({sq, sk});
    auto maskType = cast<RankedTensorType>(mask.getType());
    if (!maskType.getElementType().isInteger(1) &&
        maskType.getElementType() != q.getElementType())
      return emitOpError() << "mask must be i1 or " << q.getElementType()
                           << ", got " << maskType.getElementType();
    if (failed(verifyShapeEquals(*this, "mask", maskType.getShape(), expected)))
      return failure();
  }
  if (FloatAttr scale = getScaleAttr();
      scale && !(scale.getValueAsDouble() > 0 && std::isfinite(scale.getValueAsDouble())))
    return emitOpError("expects a finite positive scale");
  SmallVector<int64_t> expected(batch);
  expected.append({sq, v.getDimSize(rank - 1)});
  if (failed(verifyShapeEquals(*this, "result", getType().getShape(), expected)))
    return failure();
  if (AttentionScheduleAttr schedule = getScheduleAttr()) {
    if (std::string why = attentionKernelRefusal(*this); !why.empty())
      return emitOpError() << "has a schedule, but the fused attention kernel cannot run it: "
                           << why;
    if (const char *why = ::sopt::rejectAttentionTile(toRuntimeTile(schedule), d))
      return emitOpError() << "has a schedule that is no tile of the fused attention kernel: "
                           << why;
  }
  return success();
}

LogicalResult SparseAttentionOp::verify() {
  RankedTensorType pattern = getPattern().getType();
  if (pattern.getRank() != 2 ||
      failed(verifySparseOperand(*this, "pattern", pattern, {SparseFormat::CSR})))
    return pattern.getRank() != 2 ? emitOpError("expects a rank-2 CSR pattern") : failure();
  const int64_t sq = pattern.getDimSize(0), sk = pattern.getDimSize(1);
  RankedTensorType q = getQuery().getType(), k = getKey().getType();
  RankedTensorType v = getValue().getType(), result = getType();
  const int64_t rank = q.getRank();
  for (RankedTensorType t : {k, v, result})
    if (t.getRank() != rank || rank < 2)
      return emitOpError("expects query, key, value and result of one rank >= 2");
  // [b..., rows, head dimension] for each operand, the rows the pattern's.
  SmallVector<int64_t> leading(q.getShape().drop_back(2));
  const int64_t d = q.getDimSize(rank - 1), dv = v.getDimSize(rank - 1);
  auto shaped = [&](int64_t rows, int64_t columns) {
    SmallVector<int64_t> shape(leading);
    shape.append({rows, columns});
    return shape;
  };
  if (failed(verifyShapeEquals(*this, "query", q.getShape(), shaped(sq, d))) ||
      failed(verifyShapeEquals(*this, "key", k.getShape(), shaped(sk, d))) ||
      failed(verifyShapeEquals(*this, "value", v.getShape(), shaped(sk, dv))) ||
      failed(verifyShapeEquals(*this, "result", result.getShape(), shaped(sq, dv))))
    return failure();
  const double scale = getScale().convertToDouble();
  if (!std::isfinite(scale))
    return emitOpError("expects a finite scale");
  return success();
}

//===----------------------------------------------------------------------===//
// FusionOp
//===----------------------------------------------------------------------===//

YieldOp FusionOp::getYield() {
  return cast<YieldOp>(getBodyBlock().getTerminator());
}

bool FusionOp::isOverStoredEntries() {
  return llvm::any_of(getResultTypes(), [](Type t) {
    return sparse_tensor::getSparseTensorEncoding(t) != nullptr;
  });
}

LogicalResult FusionOp::verifyRegions() {
  Block &body = getBodyBlock();
  if (body.getArgumentTypes() != getInputs().getTypes())
    return emitOpError("expects one block argument per input, of the input's "
                       "type");
  if (getYield().getValues().getTypes() != getResultTypes())
    return emitOpError("expects the yielded values to have the result types");
  return success();
}

#define GET_OP_CLASSES
#include "sparse-opt/Dialect/SOpt/SOptOps.cpp.inc"
