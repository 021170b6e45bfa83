//===- GemmLaunch.cpp - host code launching the project's GEMM ------------===//

#include "GemmLaunch.h"

#include "sparse-opt/Dialect/SOpt/FusionAnnotations.h"
#include "sparse-opt/Dialect/SOpt/GemmScheduleAttr.h"
#include "sparse-opt/Support/Extents.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::sopt;

namespace {

/// One matrix of the batch: sizes and the leading dimensions of the
/// operands as stored (a transposed operand is stored [k, m] / [n, k]).
struct GemmShape {
  int64_t batch, m, n, k, lda, ldb;
};

GemmShape shapeOf(MatmulOp op) {
  auto result = op.getType();
  int64_t rank = result.getRank();
  GemmShape s;
  s.m = result.getDimSize(rank - 2), s.n = result.getDimSize(rank - 1);
  s.k = op.getLhs().getType().getDimSize(rank - (op.getTransposeLhs() ? 2 : 1));
  s.batch = product(result.getShape().drop_back(2));
  s.lda = op.getTransposeLhs() ? s.m : s.k;
  s.ldb = op.getTransposeRhs() ? s.k : s.n;
  return s;
}

} // namespace

std::string mlir::sopt::cuda::describeGemm(MatmulOp op) {
  ::sopt::GemmSchedule s = toRuntimeSchedule(op.getScheduleAttr());
  GemmShape shape = shapeOf(op);
  std::string text = llvm::formatv("sopt.matmul on the project's GEMM kernel | {0}x{1}x{2}",
                                   shape.m, shape.n, shape.k);
  if (shape.batch != 1)
    text += llvm::formatv(", batch {0}", shape.batch).str();
  text += llvm::formatv(" | tile {0}x{1}, k_step {2}, ", s.blockM, s.blockN, s.kStep).str();
  text += s.kSplits == 1 ? "no split" : llvm::formatv("{0} K slices", s.kSplits).str();
  // The epilogue decision (sopt-fuse-sparse-epilogues) for a product read
  // by one region.
  auto consumer = op->hasOneUse() ? dyn_cast<FusionOp>(*op->user_begin()) : FusionOp();
  if (!consumer)
    return text;
  if (consumer->hasAttr(attr::kSparseEpilogue))
    return text + " | epilogue fused";
  return text + " | consumer region not fused (" +
         (s.kSplits > 1                ? "split K adds partial sums atomically"
          : op.getType().getRank() > 2 ? "batched"
                                       : "not elementwise over the product") +
         ")";
}

std::string mlir::sopt::cuda::emitGemmLaunch(MatmulOp op, StringRef a, StringRef b, StringRef c,
                                 const GemmEpilogue *epilogue) {
  ::sopt::GemmSchedule s = toRuntimeSchedule(op.getScheduleAttr());
  GemmShape shape = shapeOf(op);
  std::string text = "    {\n      // " + describeGemm(op);
  text += epilogue ? ": " + epilogue->name + "\n" : "\n"; // after "epilogue fused"
  text += llvm::formatv(
      "      sopt::gemm_simt::GemmProblem problem;\n"
      "      problem.m = {0}, problem.n = {1}, problem.k = {2};\n"
      "      problem.a = {3}, problem.lda = {4}, problem.transposeA = {5};\n"
      "      problem.b = {6}, problem.ldb = {7}, problem.transposeB = {8};\n"
      "      problem.c = {9}, problem.ldc = {1};\n",
      shape.m, shape.n, shape.k, a, shape.lda, op.getTransposeLhs() ? "true" : "false", b,
      shape.ldb, op.getTransposeRhs() ? "true" : "false", epilogue ? "nullptr" : c.str());
  if (shape.batch != 1) // the matrices of the batch share the grid
    text += llvm::formatv("      problem.batch = {0}, problem.strideA = {1}, problem.strideB = "
                          "{2}, problem.strideC = {3};\n",
                          shape.batch, shape.m * shape.k, shape.k * shape.n, shape.m * shape.n);
  // The schedule's tile and the transposes are template arguments: only
  // the kernels of this product's layouts are compiled.
  std::string call = llvm::formatv("sopt::gemm_simt::gemmSimtFixed<{0}, {1}, {2}, {3}, {4}>",
                                   s.blockM, s.blockN, s.kStep,
                                   op.getTransposeLhs() ? "true" : "false",
                                   op.getTransposeRhs() ? "true" : "false");
  if (epilogue)
    text += llvm::formatv("      SOPT_TRY(({0}(problem, 1, stream, "
                          "sopt::gemm_simt::storeThrough({1}, {2}, {3}))));\n",
                          call, epilogue->out, shape.n, epilogue->functor);
  else
    text += llvm::formatv("      SOPT_TRY(({0}(problem, {1}, stream)));\n", call, s.kSplits);
  return text + "    }\n";
}
