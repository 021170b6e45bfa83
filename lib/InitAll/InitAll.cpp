//===- InitAll.cpp - register sparse-opt dialects, passes, pipelines ------===//

#include "sparse-opt/InitAll.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "sparse-opt/Conversion/Passes.h"
#include "sparse-opt/Dialect/SOpt/SOptDialect.h"
#include "sparse-opt/Pipelines.h"
#include "sparse-opt/Transforms/Passes.h"

void mlir::sopt::registerAllSparseOptDialects(DialectRegistry &registry) {
  registry.insert<SOptDialect, sparse_tensor::SparseTensorDialect,
                  tensor::TensorDialect, arith::ArithDialect,
                  func::FuncDialect, tosa::TosaDialect>();
}

void mlir::sopt::registerAllSparseOptPasses() {
  // Pass registration is global; a second call must not register twice.
  static bool registered = [] {
    registerSparseOptPasses();
    registerSparseOptConversionPasses();
    registerSparseOptPipelines();
    return true;
  }();
  (void)registered;
}
