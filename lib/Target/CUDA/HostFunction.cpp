//===- HostFunction.cpp - a func.func as a C-ABI host launcher ------------===//

#include "HostFunction.h"
#include "AttentionLaunch.h"
#include "CudaSyntax.h"
#include "SparseAttentionLaunch.h"
#include "GemmLaunch.h"
#include "SparseLaunch.h"
#include "StoredEntriesFunctor.h"

#include "sparse-opt/Dialect/SOpt/IndexableExtents.h"
#include "sparse-opt/Dialect/SOpt/SOptOps.h"
#include "sparse-opt/Dialect/SOpt/SparseFormat.h"
#include "sparse-opt/Dialect/SOpt/SparseScheduleAttrs.h"
#include "sparse-opt/Support/Extents.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <limits>

using namespace mlir;
using namespace mlir::sopt;
using namespace mlir::sopt::cuda;

namespace {

RankedTensorType tensorType(Value v) { return cast<RankedTensorType>(v.getType()); }

int64_t bytesOf(RankedTensorType type) {
  return type.getNumElements() * storageBytes(type.getElementType());
}

/// CUDA's launch limits: blocks of at most 1024 threads, grids of at most
/// 2^31 - 1 blocks in x.
constexpr int64_t kMaxThreadsPerBlock = 1024;
constexpr int64_t kMaxGridBlocks = (int64_t(1) << 31) - 1;

/// The project's sparse kernels take 32-bit sizes, positions and
/// coordinates (their launchers fail at run time on larger ones, e.g. SpMM
/// when cols * n of B exceeds int32): refuses `op` at compile time when a
/// dense operand or result has more elements, or the sparse one a larger
/// extent.
LogicalResult checkInt32Extents(Operation *op) {
  for (Type type : llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes())) {
    auto tensor = cast<RankedTensorType>(type);
    bool sparse = sparse_tensor::getSparseTensorEncoding(tensor) != nullptr;
    int64_t largest = sparse ? *llvm::max_element(tensor.getShape()) : tensor.getNumElements();
    if (largest > std::numeric_limits<int32_t>::max())
      return op->emitOpError() << "has the operand or result type " << type << ", whose "
                               << (sparse ? "extents exceed" : "element count exceeds")
                               << " the 32-bit sizes the project's sparse kernels take (at "
                                  "most 2^31 - 1)";
  }
  return success();
}

class HostWriter {
public:
  HostWriter(func::FuncOp fn, const DenseMap<Operation *, KernelLaunch> &kernels)
      : fn(fn), kernels(kernels) {}

  LogicalResult write(llvm::raw_ostream &os, llvm::raw_ostream *header);

private:
  LogicalResult checkSignature();
  /// The pointer that holds `v`, allocating an intermediate when `v` is not
  /// a function result.
  std::string destination(Value v);
  /// The line that allocates `bytes` (a C++ expression) of stream-ordered
  /// temporary into `name` (sopt::allocateTemporary: a pool that keeps its
  /// memory between calls).
  static std::string allocation(llvm::StringRef name, llvm::StringRef bytes) {
    return llvm::formatv("    SOPT_TRY(sopt::allocateTemporary(&{0}, {1}, stream));\n", name,
                         bytes)
        .str();
  }
  LogicalResult emitOp(Operation *op);
  LogicalResult emitMatmul(MatmulOp op);
  LogicalResult emitConstant(ConstantOp op);
  LogicalResult emitSparseProduct(Operation *op, Value sparse, Value dense);
  /// A product with an empty result (nothing to write) or summing over
  /// k = 0 (zeros): written here without a library call, which would refuse
  /// the sizes. Returns whether it was one.
  bool emitDegenerateProduct(Operation *op, bool emptyResult, bool emptySum);
  LogicalResult emitPreparedSpmv(SpmvOp spmv);
  LogicalResult emitScheduledSpmm(SpmmOp op);
  /// The fusion region marked as `op`'s epilogue: its functor expression,
  /// its summary for the launch comment, and the buffer it writes (all
  /// empty when none).
  void fusedEpilogue(SpmmOp op, std::string &epilogue, std::string &summary,
                     std::string &out);
  /// The fusion region that runs inside `op`'s kernel as its epilogue, or
  /// null.
  FusionOp epilogueOf(Operation *op);
  /// The expression constructing the functor of `fusion` (an epilogue or a
  /// region over stored entries): its inputs but the product's, CSR inputs
  /// by their values.
  std::string functorOf(FusionOp fusion);
  /// Where the values of the CSR value `v` (nnz of them) go: the caller's
  /// result, or an intermediate allocated here.
  std::string csrValuesDestination(Value v, const std::string &nnz);
  LogicalResult emitStoredEntries(FusionOp fusion);
  /// Allocates `t` (`count` elements) as an intermediate freed at the end.
  void allocate(const Temporary &t);
  LogicalResult emitSparseText(FailureOr<SparseLaunchText> text);
  LogicalResult emitSddmm(SddmmOp op);

  func::FuncOp fn;
  const DenseMap<Operation *, KernelLaunch> &kernels;
  DenseMap<Value, std::string> pointer;
  DenseMap<Value, std::string> resultSlot; // values the caller receives
  /// CSR values (arguments and SDDMM results): their arrays and nnz.
  DenseMap<Value, CsrExpressions> csr;
  /// CSC arguments: their arrays (those of the transpose in CSR) and nnz.
  DenseMap<Value, CsrExpressions> csc;
  SmallVector<std::string> intermediates;
  std::string declarations, body, statics;
  unsigned counter = 0;
};

/// CSR with 32- or 64-bit indices: what the cuSPARSE calls take.
bool isCsr(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && getSparseFormat(tensor) == SparseFormat::CSR &&
         hasSupportedIndexWidths(tensor);
}

/// CSC with 32- or 64-bit indices: a function argument (the operand of a
/// dense × sparse product), passed as the CSR arrays of its transpose.
bool isCsc(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && getSparseFormat(tensor) == SparseFormat::CSC &&
         hasSupportedIndexWidths(tensor);
}

/// The index type of a CSR tensor's positions and coordinates (they share
/// one type in the C ABI: the wider of the two).
std::string csrIndexType(RankedTensorType type) {
  auto enc = sparse_tensor::getSparseTensorEncoding(type);
  return enc.getPosWidth() == 32 && enc.getCrdWidth() == 32 ? "int32_t" : "int64_t";
}

LogicalResult HostWriter::checkSignature() {
  for (auto [i, t] : llvm::enumerate(fn.getArgumentTypes()))
    if (failed(verifyIndexableType(t, "argument #" + Twine(i),
                                   [&] { return fn.emitOpError(); })))
      return failure();
  for (auto [i, t] : llvm::enumerate(fn.getResultTypes()))
    if (failed(verifyIndexableType(t, "result #" + Twine(i), [&] { return fn.emitOpError(); })))
      return failure();
  auto supportedDense = [](Type t) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    return tensor && tensor.hasStaticShape() &&
           !sparse_tensor::getSparseTensorEncoding(tensor) &&
           storageType(tensor.getElementType());
  };
  for (Type t : fn.getArgumentTypes())
    if (!supportedDense(t) && !((isCsr(t) || isCsc(t)) &&
                                storageType(cast<RankedTensorType>(t).getElementType())))
      return fn.emitOpError() << "has the argument type " << t
                              << "; the CUDA emitter takes statically shaped "
                                 "dense tensors of f32, f16, bf16, f64, i1, "
                                 "i32 or i64, and CSR or CSC matrices";
  for (Type t : fn.getResultTypes())
    if (!supportedDense(t) && !isCsr(t))
      return fn.emitOpError() << "has the result type " << t
                              << "; the CUDA emitter returns statically shaped "
                                 "dense tensors of f32, f16, bf16, f64, i1, "
                                 "i32 or i64, and CSR values of a pattern";
  return success();
}

std::string HostWriter::destination(Value v) {
  if (auto it = pointer.find(v); it != pointer.end())
    return it->second;
  std::string name;
  if (auto it = resultSlot.find(v); it != resultSlot.end()) {
    name = it->second;
    resultSlot.erase(it); // a value returned twice is copied the second time
  } else {
    auto type = tensorType(v);
    name = "t" + std::to_string(counter++);
    declarations += "  " + *storageType(type.getElementType()) + " *" + name +
                    " = nullptr;\n";
    body += allocation(name, std::to_string(bytesOf(type)));
    intermediates.push_back(name);
  }
  pointer[v] = name;
  return name;
}

LogicalResult HostWriter::emitMatmul(MatmulOp op) {
  auto lhs = op.getLhs().getType(), result = op.getType();
  int64_t rank = result.getRank();
  int64_t m = result.getDimSize(rank - 2), n = result.getDimSize(rank - 1);
  int64_t k = lhs.getDimSize(rank - (op.getTransposeLhs() ? 2 : 1));
  int64_t batch = product(result.getShape().drop_back(2));
  Type element = result.getElementType();
  if (!element.isF32() && !element.isF16() && !element.isBF16())
    return op.emitOpError("has an element type the cuBLAS call does not take "
                          "(f32, f16 and bf16 are supported)");
  std::string a = pointer.lookup(op.getLhs()), b = pointer.lookup(op.getRhs());
  if (op.getScheduleAttr() && m > 0 && n > 0 && batch > 0 && k > 0) {
    // The project's GEMM; a region fused as its epilogue is stored instead
    // of the product.
    if (FusionOp fusion = epilogueOf(op)) {
      GemmEpilogue epilogue{functorOf(fusion), kernels.find(fusion)->second.name,
                            destination(fusion.getResult(0))};
      body += emitGemmLaunch(op, a, b, "", &epilogue);
    } else {
      body += emitGemmLaunch(op, a, b, destination(op.getResult()), nullptr);
    }
    return success();
  }
  if (emitDegenerateProduct(op, m == 0 || n == 0 || batch == 0, k == 0))
    return success();
  std::string c = destination(op.getResult());
  // cuBLAS's classic API takes sizes, leading dimensions and the batch
  // count as int; legal tensors beyond that take its _64 API.
  constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
  std::string api = m > kInt32Max || n > kInt32Max || k > kInt32Max || batch > kInt32Max
                        ? "_64"
                        : "";
  // Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ: cuBLAS gets B first.
  std::string opB = op.getTransposeRhs() ? "CUBLAS_OP_T" : "CUBLAS_OP_N";
  std::string opA = op.getTransposeLhs() ? "CUBLAS_OP_T" : "CUBLAS_OP_N";
  int64_t ldb = op.getTransposeRhs() ? k : n;
  int64_t lda = op.getTransposeLhs() ? m : k;
  if (element.isF32()) {
    body += llvm::formatv(
        "    SOPT_TRY_CUBLAS(cublasSgemmStridedBatched{14}(sopt::cublasFor(stream), {0}, "
        "{1}, {2}, {3}, {4}, &one, {5}, {6}, {7}, {8}, {9}, {10}, &zero, {11}, {2}, "
        "{12}, {13}));\n",
        opB, opA, n, m, k, b, ldb, k * n, a, lda, m * k, c, m * n, batch, api);
    return success();
  }
  std::string dataType = element.isF16() ? "CUDA_R_16F" : "CUDA_R_16BF";
  body += llvm::formatv(
      "    SOPT_TRY_CUBLAS(cublasGemmStridedBatchedEx{15}(sopt::cublasFor(stream), {0}, "
      "{1}, {2}, {3}, {4}, &one, {5}, {14}, {6}, {7}, {8}, {14}, {9}, {10}, &zero, "
      "{11}, {14}, {2}, {12}, {13}, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));\n",
      opB, opA, n, m, k, b, ldb, k * n, a, lda, m * k, c, m * n, batch, dataType, api);
  return success();
}

/// A sopt.spmv marked sopt.prepared_spmv: the prepared SpMV, its plan made
/// at the call site's first call (SpmvPrepared.cuh) and kept.
LogicalResult HostWriter::emitPreparedSpmv(SpmvOp spmv) {
  auto matrix = tensorType(spmv.getMatrix());
  Type element = matrix.getElementType();
  if (!element.isF32() && !element.isF64())
    return spmv.emitOpError("runs on the prepared SpMV only in f32 or f64");
  const CsrExpressions a = csr.lookup(spmv.getMatrix());
  std::string site = "spmv_plan" + std::to_string(counter++);
  body += llvm::formatv(
      "    {\n      // sopt.spmv through the prepared SpMV (HBP or row-vector kernel, "
      "chosen from the pattern at the first call; the plan is kept)\n"
      "      static sopt::spmv::PreparedSpmv {0};\n"
      "      SOPT_TRY({0}.run({1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}, {9}, {10}, stream));\n"
      "    }\n",
      site, matrix.getDimSize(0), matrix.getDimSize(1), a.nnz, a.positions, a.coordinates,
      csrIndexType(matrix) == "int32_t" ? "SOPT_SPMV_I32" : "SOPT_SPMV_I64",
      element.isF64() ? "SOPT_SPMV_F64" : "SOPT_SPMV_F32", a.values,
      pointer.lookup(spmv.getVector()), destination(spmv.getResult()));
  return success();
}

LogicalResult HostWriter::emitSparseProduct(Operation *op, Value sparse,
                                            Value dense) {
  auto matrix = tensorType(sparse);
  auto denseType = tensorType(dense);
  Type element = matrix.getElementType();
  std::string dataType = element.isF32()    ? "CUDA_R_32F"
                         : element.isF16()  ? "CUDA_R_16F"
                         : element.isBF16() ? "CUDA_R_16BF"
                                            : "";
  if (dataType.empty())
    return op->emitOpError("has an element type cuSPARSE does not take here "
                           "(f32, f16 and bf16 are supported)");
  const CsrExpressions a = csr.lookup(sparse);
  std::string index = csrIndexType(matrix) == "int32_t" ? "CUSPARSE_INDEX_32I"
                                                         : "CUSPARSE_INDEX_64I";
  int64_t m = matrix.getDimSize(0), k = matrix.getDimSize(1);
  int64_t n = isa<SpmvOp>(op) ? 1 : denseType.getDimSize(1);
  std::string out = destination(op->getResult(0));
  std::string in = pointer.lookup(dense);
  std::string opName = op->getName().getStringRef().str();
  if (emitDegenerateProduct(op, m == 0 || n == 0, k == 0))
    return success();
  body += "    {\n      // " + opName +
          " through cuSPARSE (default algorithm, f32 accumulation)\n";
  body += llvm::formatv(
      "      sopt::CusparseCsr a;\n"
      "      SOPT_TRY_CUSPARSE(cusparseCreateCsr(&a.descriptor, {0}, {1}, {2}, "
      "(void *){3}, (void *){4}, (void *){5}, {6}, {6}, "
      "CUSPARSE_INDEX_BASE_ZERO, {7}));\n",
      m, k, a.nnz, a.positions, a.coordinates, a.values, index, dataType);
  if (isa<SpmvOp>(op)) {
    body += llvm::formatv(
        "      sopt::CusparseDnVec x, y;\n"
        "      SOPT_TRY_CUSPARSE(cusparseCreateDnVec(&x.descriptor, {0}, (void *){1}, {2}));\n"
        "      SOPT_TRY_CUSPARSE(cusparseCreateDnVec(&y.descriptor, {3}, (void *){4}, {2}));\n"
        "      size_t bytes = 0;\n"
        "      SOPT_TRY_CUSPARSE(cusparseSpMV_bufferSize(sopt::cusparseFor(stream), "
        "CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a.descriptor, x.descriptor, &zero, "
        "y.descriptor, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes));\n"
        "      sopt::StreamBuffer buffer(bytes, stream);\n"
        "      SOPT_TRY(buffer.status);\n"
        "      SOPT_TRY_CUSPARSE(cusparseSpMV(sopt::cusparseFor(stream), "
        "CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a.descriptor, x.descriptor, &zero, "
        "y.descriptor, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer.data));\n",
        k, in, dataType, m, out);
  } else {
    body += llvm::formatv(
        "      sopt::CusparseDnMat b, c;\n"
        "      SOPT_TRY_CUSPARSE(cusparseCreateDnMat(&b.descriptor, {0}, {1}, {1}, "
        "(void *){2}, {3}, CUSPARSE_ORDER_ROW));\n"
        "      SOPT_TRY_CUSPARSE(cusparseCreateDnMat(&c.descriptor, {4}, {1}, {1}, "
        "(void *){5}, {3}, CUSPARSE_ORDER_ROW));\n"
        "      size_t bytes = 0;\n"
        "      SOPT_TRY_CUSPARSE(cusparseSpMM_bufferSize(sopt::cusparseFor(stream), "
        "CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, "
        "a.descriptor, b.descriptor, &zero, c.descriptor, CUDA_R_32F, "
        "CUSPARSE_SPMM_ALG_DEFAULT, &bytes));\n"
        "      sopt::StreamBuffer buffer(bytes, stream);\n"
        "      SOPT_TRY(buffer.status);\n"
        "      SOPT_TRY_CUSPARSE(cusparseSpMM(sopt::cusparseFor(stream), "
        "CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, "
        "a.descriptor, b.descriptor, &zero, c.descriptor, CUDA_R_32F, "
        "CUSPARSE_SPMM_ALG_DEFAULT, buffer.data));\n",
        k, n, in, dataType, m, out);
  }
  body += "    }\n";
  return success();
}

FusionOp HostWriter::epilogueOf(Operation *op) {
  if (!op->hasOneUse())
    return nullptr;
  auto it = kernels.find(*op->user_begin());
  if (it == kernels.end() || !it->second.sparseEpilogue)
    return nullptr;
  return cast<FusionOp>(it->first);
}

std::string HostWriter::functorOf(FusionOp fusion) {
  const KernelLaunch &launch = kernels.find(fusion)->second;
  SmallVector<std::string> members;
  for (auto [i, input] : llvm::enumerate(fusion.getInputs())) {
    if (launch.sparseEpilogue && i == launch.accumulatorInput)
      continue;
    auto it = csr.find(input);
    members.push_back(it != csr.end() ? it->second.values : pointer.lookup(input));
  }
  return launch.name + "{" + llvm::join(members, ", ") + "}";
}

void HostWriter::fusedEpilogue(SpmmOp op, std::string &epilogue, std::string &summary,
                               std::string &out) {
  // A fusion region marked as this product's epilogue runs in its kernel
  // and writes the region's result; the product itself is never stored.
  FusionOp fusion = epilogueOf(op);
  if (!fusion)
    return;
  epilogue = functorOf(fusion);
  summary = " + epilogue " + kernels.find(fusion)->second.name;
  out = destination(fusion.getResult(0));
}

std::string HostWriter::csrValuesDestination(Value v, const std::string &nnz) {
  if (auto it = resultSlot.find(v); it != resultSlot.end()) {
    std::string values = it->second;
    resultSlot.erase(it);
    return values;
  }
  std::string values = "t" + std::to_string(counter++);
  allocate({values, *storageType(tensorType(v).getElementType()), nnz});
  return values;
}

LogicalResult HostWriter::emitStoredEntries(FusionOp fusion) {
  // Checked when the functor was written.
  Value patternValue = fusion.getInputs()[*patternInput(fusion)];
  auto it = csr.find(patternValue);
  if (it == csr.end())
    return fusion.emitOpError("computes on the stored entries of a CSR matrix that is "
                              "not a function argument or SDDMM result; the CUDA "
                              "emitter takes those");
  // Same pattern, new values.
  CsrExpressions result = it->second;
  result.values = csrValuesDestination(fusion.getResult(0), result.nnz);
  if (failed(emitSparseText(emitStoredEntriesLaunch(fusion, it->second, result.values,
                                                    functorOf(fusion),
                                                    kernels.find(fusion)->second.summary))))
    return failure();
  csr[fusion.getResult(0)] = result;
  return success();
}

void HostWriter::allocate(const Temporary &t) {
  declarations += "  " + t.element + " *" + t.name + " = nullptr;\n";
  body += allocation(t.name, llvm::formatv("std::max<int64_t>({0}, 1) * sizeof({1})",
                                           t.count, t.element)
                                 .str());
  intermediates.push_back(t.name);
}

LogicalResult HostWriter::emitSparseText(FailureOr<SparseLaunchText> text) {
  if (failed(text))
    return failure();
  statics += text->statics;
  for (const Temporary &t : text->temporaries)
    allocate(t);
  body += text->body;
  return success();
}

LogicalResult HostWriter::emitScheduledSpmm(SpmmOp op) {
  if (failed(checkInt32Extents(op)))
    return failure();
  std::string tablePrefix = fn.getName().str() + std::to_string(counter++);
  if (!op.isDenseTimesSparse()) {
    if (!csr.count(op.getLhs()))
      return op.emitOpError("has a schedule, but its sparse operand is not a CSR "
                            "function argument or SDDMM result");
    std::string epilogue, summary, out;
    fusedEpilogue(op, epilogue, summary, out);
    if (out.empty())
      out = destination(op.getResult());
    return emitSparseText(emitSpmmLaunch(op, csr.lookup(op.getLhs()),
                                         pointer.lookup(op.getRhs()), out, epilogue,
                                         summary, tablePrefix));
  }

  // Dense × sparse, Y = X · S, as Yᵀ = Sᵀ · Xᵀ on the CSR kernel. Sᵀ in CSR
  // is S in CSC: a CSC argument's arrays as they are, a CSR operand's
  // transpose prepared here.
  Value sparse = op.getRhs();
  CsrExpressions transposed;
  if (auto it = csc.find(sparse); it != csc.end()) {
    transposed = it->second;
  } else if (auto it = csr.find(sparse); it != csr.end()) {
    std::string prefix = fn.getName().str() + "_transpose" + std::to_string(counter++);
    if (failed(emitSparseText(emitCsrTranspose(op, it->second, prefix, transposed))))
      return failure();
  } else {
    return op.emitOpError("has a schedule, but its sparse operand is not a CSR or CSC "
                          "function argument or SDDMM result");
  }
  // Xᵀ: a tiled transpose (both sides coalesced) into a buffer of k x m.
  auto x = tensorType(op.getLhs());
  int64_t m = x.getDimSize(0), k = x.getDimSize(1);
  std::string element = *storageType(x.getElementType());
  std::string xt = "t" + std::to_string(counter++);
  allocate({xt, element, std::to_string(m * k)});
  body += llvm::formatv("    // Xᵀ ({0}x{1}) for the transposed product\n"
                        "    SOPT_TRY(sopt::launchTranspose({2}, {1}, {0}, {3}, stream));\n",
                        k, m, pointer.lookup(op.getLhs()), xt);
  std::string epilogue, summary, out;
  fusedEpilogue(op, epilogue, summary, out);
  if (out.empty())
    out = destination(op.getResult());
  return emitSparseText(
      emitSpmmLaunch(op, transposed, xt, out, epilogue, summary, tablePrefix));
}

LogicalResult HostWriter::emitSddmm(SddmmOp op) {
  if (failed(checkInt32Extents(op)))
    return failure();
  if (!csr.count(op.getPattern()))
    return op.emitOpError("samples at a pattern that is not a CSR function argument "
                          "or SDDMM result; the CUDA emitter takes those");
  const CsrExpressions pattern = csr.lookup(op.getPattern());
  // A region over stored entries marked as the epilogue runs per entry in
  // the kernel; what is stored is then the region's result, not the product.
  FusionOp epilogue = epilogueOf(op);
  if (epilogue && !kernels.find(epilogue)->second.storedEntries)
    return epilogue.emitOpError("is marked as an SDDMM's epilogue but is not a region "
                                "over stored entries");
  Value stored = epilogue ? epilogue.getResult(0) : op.getResult();
  // The result shares the pattern's positions and coordinates; only its
  // values are new.
  CsrExpressions result = pattern;
  result.values = csrValuesDestination(stored, pattern.nnz);
  std::string functor = epilogue ? functorOf(epilogue) : "";
  std::string summary =
      epilogue ? " + epilogue " + kernels.find(epilogue)->second.name : "";
  if (failed(emitSparseText(emitSddmmLaunch(
          op, pattern, pointer.lookup(op.getLhs()), pointer.lookup(op.getRhs()),
          result.values, functor, summary,
          fn.getName().str() + std::to_string(counter++)))))
    return failure();
  csr[stored] = result;
  return success();
}

bool HostWriter::emitDegenerateProduct(Operation *op, bool emptyResult, bool emptySum) {
  std::string opName = op->getName().getStringRef().str();
  // The result has its buffer even when nothing is written to it: a return
  // of it copies from there.
  std::string out = destination(op->getResult(0));
  if (emptyResult) {
    body += "    // " + opName + ": an empty result, nothing to compute\n";
    return true;
  }
  if (!emptySum)
    return false;
  body += llvm::formatv("    // {0} with k = 0: the product is zero\n"
                        "    SOPT_TRY(cudaMemsetAsync({1}, 0, {2}, stream));\n",
                        opName, out, bytesOf(tensorType(op->getResult(0))));
  return true;
}

LogicalResult HostWriter::emitConstant(ConstantOp op) {
  auto attr = dyn_cast<DenseElementsAttr>(op.getValue());
  if (!attr)
    return op.emitOpError("is not a dense constant; the CUDA emitter uploads "
                          "dense constants only");
  auto type = op.getType();
  std::string data = fn.getName().str() + "_constant" + std::to_string(counter++);
  int64_t width = storageBytes(type.getElementType());
  std::vector<uint8_t> bytes;
  auto appendBits = [&](uint64_t bits) {
    for (int64_t i = 0; i < width; ++i)
      bytes.push_back(uint8_t(bits >> (8 * i)));
  };
  auto bitsOf = [&](auto value) -> uint64_t {
    if constexpr (std::is_same_v<decltype(value), APFloat>)
      return value.bitcastToAPInt().getZExtValue();
    else
      return value.getZExtValue();
  };
  // A splat is one value whatever the tensor's size: its bytes once, copied
  // on the device (Fill.cuh).
  if (attr.isSplat())
    appendBits(isa<FloatType>(type.getElementType()) ? bitsOf(attr.getSplatValue<APFloat>())
                                                     : bitsOf(attr.getSplatValue<APInt>()));
  else if (isa<FloatType>(type.getElementType()))
    for (APFloat v : attr.getValues<APFloat>())
      appendBits(bitsOf(v));
  else
    for (APInt v : attr.getValues<APInt>())
      appendBits(bitsOf(v));
  std::string typeText;
  llvm::raw_string_ostream(typeText) << type;
  statics += llvm::formatv("// {0}{1}, little-endian bytes.\nstatic const char {2}[] =\n{3};\n\n",
                           typeText, attr.isSplat() ? " (splat: one element)" : "", data,
                           byteStringLiteral(bytes));
  std::string dest = destination(op.getResult());
  if (attr.isSplat())
    body += llvm::formatv("    SOPT_TRY(sopt::launchFill({0}, {1}, {2}, stream));\n", dest,
                          data, type.getNumElements());
  else
    body += llvm::formatv(
        "    SOPT_TRY(cudaMemcpyAsync({0}, {1}, {2}, cudaMemcpyHostToDevice, stream));\n",
        dest, data, bytesOf(type));
  return success();
}

LogicalResult HostWriter::emitOp(Operation *op) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](FusionOp fusion) -> LogicalResult {
        auto it = kernels.find(op);
        if (it == kernels.end())
          return fusion.emitOpError("has no kernel");
        const KernelLaunch &launch = it->second;
        if (launch.sparseEpilogue)
          return success(); // ran inside the sparse product's kernel
        if (launch.grid < 1 || launch.grid > kMaxGridBlocks || launch.block < 1 ||
            launch.block > kMaxThreadsPerBlock)
          return fusion.emitOpError()
                 << "needs " << launch.grid << " blocks of " << launch.block
                 << " threads, beyond what CUDA launches (1 to 2^31 - 1 blocks of 1 to "
                 << kMaxThreadsPerBlock << " threads)";
        if (launch.storedEntries)
          return emitStoredEntries(fusion);
        SmallVector<std::string> args;
        for (Value input : fusion.getInputs())
          args.push_back(pointer.lookup(input));
        for (Value result : fusion.getResults())
          args.push_back(destination(result));
        body += "    // " + launch.summary + "\n";
        if (launch.sharedBytes > 48 * 1024) // beyond the default: opt in
          body += llvm::formatv(
              "    SOPT_TRY(cudaFuncSetAttribute({0}, "
              "cudaFuncAttributeMaxDynamicSharedMemorySize, {1}));\n",
              launch.name, launch.sharedBytes);
        if (!launch.cooperative) {
          // A dependent launch where the device has them (Launch.cuh): the
          // kernel starts waiting while the one before it drains.
          body += llvm::formatv("    SOPT_TRY(sopt::launchKernel({0}, {1}, {2}, {3}, stream, ",
                                launch.name, launch.grid, launch.block, launch.sharedBytes);
          body += llvm::join(args, ", ") + "));\n";
          return success();
        }
        // Grid-wide barriers need every block resident: a cooperative
        // launch, which fails (instead of hanging) when they do not fit.
        std::string scratch = "t" + std::to_string(counter++);
        declarations += "  float *" + scratch + " = nullptr;\n";
        intermediates.push_back(scratch);
        body += allocation(scratch, std::to_string(launch.scratchFloats * 4));
        args.push_back(scratch);
        body += "    {\n";
        SmallVector<std::string> addresses;
        for (auto [i, arg] : llvm::enumerate(args)) {
          body += llvm::formatv("      auto *p{0} = {1};\n", i, arg);
          addresses.push_back("&p" + std::to_string(i));
        }
        body += "      void *params[] = {" + llvm::join(addresses, ", ") + "};\n";
        body += llvm::formatv(
            "      SOPT_TRY(cudaLaunchCooperativeKernel((const void *){0}, {1}, {2}, "
            "params, {3}, stream));\n    }\n",
            launch.name, launch.grid, launch.block, launch.sharedBytes);
        return success();
      })
      .Case([&](MatmulOp matmul) { return emitMatmul(matmul); })
      .Case([&](AttentionOp attention) -> LogicalResult {
        FailureOr<std::string> launch = emitAttentionLaunch(
            attention, pointer.lookup(attention.getQuery()), pointer.lookup(attention.getKey()),
            pointer.lookup(attention.getValue()), destination(attention.getResult()));
        if (failed(launch))
          return failure();
        body += *launch;
        return success();
      })
      .Case([&](SpmmOp spmm) -> LogicalResult {
        if (spmm.getScheduleAttr())
          return emitScheduledSpmm(spmm);
        if (!csr.count(spmm.getLhs()))
          return spmm.emitOpError(
              "is lowered to cuSPARSE only as CSR argument x dense matrix; "
              "dense x CSR/CSC products run on the project's SpMM kernel once "
              "scheduled (sopt-schedule-sparse, not --cusparse)");
        return emitSparseProduct(spmm, spmm.getLhs(), spmm.getRhs());
      })
      .Case([&](SddmmOp sddmm) { return emitSddmm(sddmm); })
      .Case([&](SparseAttentionOp attention) -> LogicalResult {
        if (failed(checkInt32Extents(attention)))
          return failure();
        if (!csr.count(attention.getPattern()))
          return attention.emitOpError("takes its pattern from a CSR function argument "
                                       "or SDDMM result only");
        return emitSparseText(cuda::emitSparseAttentionLaunch(
            attention, csr.lookup(attention.getPattern()), pointer.lookup(attention.getQuery()),
            pointer.lookup(attention.getKey()), pointer.lookup(attention.getValue()),
            destination(attention.getResult()), fn.getName().str() + std::to_string(counter++)));
      })
      .Case([&](SpmvOp spmv) -> LogicalResult {
        if (spmv->hasAttr(attr::kPreparedSpmv) && csr.count(spmv.getMatrix()))
          return emitPreparedSpmv(spmv);
        if (!csr.count(spmv.getMatrix()))
          return spmv.emitOpError("is lowered to cuSPARSE only for a CSR "
                                  "function argument");
        return emitSparseProduct(spmv, spmv.getMatrix(), spmv.getVector());
      })
      .Case([&](ReshapeOp reshape) -> LogicalResult {
        // Row-major reshapes move no data: the result aliases the input.
        pointer[reshape.getResult()] = pointer.lookup(reshape.getInput());
        return success();
      })
      .Case([&](ConstantOp constant) { return emitConstant(constant); })
      .Case([&](func::ReturnOp ret) -> LogicalResult {
        for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
          if (isCsr(v.getType())) {
            // The caller's pattern: only the values are returned.
            const CsrExpressions &m = csr[v];
            std::string result = "result" + std::to_string(i) + "_values";
            if (m.values != result)
              body += llvm::formatv(
                  "    SOPT_TRY(cudaMemcpyAsync({0}, {1}, {2} * sizeof(*{0}), "
                  "cudaMemcpyDeviceToDevice, stream));\n",
                  result, m.values, m.nnz);
            continue;
          }
          std::string result = "result" + std::to_string(i);
          if (pointer.lookup(v) != result)
            body += llvm::formatv("    SOPT_TRY(cudaMemcpyAsync({0}, {1}, {2}, "
                                  "cudaMemcpyDeviceToDevice, stream));\n",
                                  result, pointer.lookup(v), bytesOf(tensorType(v)));
        }
        return success();
      })
      .Default([](Operation *op) -> LogicalResult {
        return op->emitOpError(
            "is not supported by the CUDA emitter yet (run the sparse-opt "
            "pipeline first; fusion regions, matmul, reshape and constants "
            "are lowered)");
      });
}

LogicalResult HostWriter::write(llvm::raw_ostream &os, llvm::raw_ostream *header) {
  if (failed(checkSignature()))
    return failure();
  if (!fn.getBody().hasOneBlock())
    return fn.emitOpError("has control flow; the CUDA emitter takes one block");

  SmallVector<std::string> params;
  for (auto [i, arg] : llvm::enumerate(fn.getArguments())) {
    std::string name = "arg" + std::to_string(i);
    std::string element = *storageType(tensorType(arg).getElementType());
    if (isCsr(arg.getType()) || isCsc(arg.getType())) {
      // A CSR matrix is four parameters: row positions (rows + 1),
      // column coordinates and values (nnz each), and nnz; a CSC matrix
      // the same four of its transpose (column positions, row coordinates).
      std::string index = csrIndexType(tensorType(arg));
      params.push_back("const " + index + " *" + name + "_positions");
      params.push_back("const " + index + " *" + name + "_coordinates");
      params.push_back("const " + element + " *" + name + "_values");
      params.push_back("int64_t " + name + "_nnz");
      (isCsr(arg.getType()) ? csr : csc)[arg] = {
          name + "_positions", name + "_coordinates", name + "_values", name + "_nnz"};
      continue;
    }
    params.push_back("const " + element + " *" + name);
    pointer[arg] = name;
  }
  auto ret = cast<func::ReturnOp>(fn.getBody().front().getTerminator());
  for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
    if (isCsr(v.getType())) {
      // A CSR result has the pattern of the operand it was sampled at: the
      // caller gets its nnz values.
      std::string name = "result" + std::to_string(i) + "_values";
      params.push_back(*storageType(tensorType(v).getElementType()) + " *" + name);
      if (!resultSlot.count(v) && !isa<BlockArgument>(v))
        resultSlot[v] = name;
      continue;
    }
    params.push_back(*storageType(tensorType(v).getElementType()) + " *result" +
                     std::to_string(i));
    // The producer writes straight into the caller's buffer; arguments and
    // values returned twice are copied at the return.
    if (!isa<BlockArgument>(v) && !resultSlot.count(v) && !isa<ReshapeOp>(v.getDefiningOp()))
      resultSlot[v] = "result" + std::to_string(i);
  }
  params.push_back("cudaStream_t stream");

  for (Operation &op : fn.getBody().front())
    if (failed(emitOp(&op)))
      return failure();

  std::string signature = "extern \"C\" cudaError_t " + fn.getName().str() + "(" +
                          llvm::join(params, ", ") + ")";
  if (header)
    *header << signature << ";\n";
  os << statics << signature << " {\n" << declarations
     << "  auto run = [&]() -> cudaError_t {\n"
     << body << "    return cudaSuccess;\n  };\n"
     << "  const cudaError_t status = run();\n";
  for (const std::string &t : llvm::reverse(intermediates))
    os << "  if (" << t << ")\n    cudaFreeAsync(" << t << ", stream);\n";
  os << "  return status;\n}\n\n";
  return success();
}

} // namespace

LogicalResult
mlir::sopt::cuda::emitHostFunction(func::FuncOp fn,
                             const DenseMap<Operation *, KernelLaunch> &kernels,
                             llvm::raw_ostream &os, llvm::raw_ostream *header) {
  return HostWriter(fn, kernels).write(os, header);
}
