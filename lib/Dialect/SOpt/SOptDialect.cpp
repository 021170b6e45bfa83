//===- SOptDialect.cpp - sopt dialect registration ------------------------===//

#include "sparse-opt/Dialect/SOpt/SOptDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "sparse-opt/Dialect/SOpt/SOptOps.h"

#include "AttributeVerifiers.h"

using namespace mlir;
using namespace mlir::sopt;

#include "sparse-opt/Dialect/SOpt/SOptDialect.cpp.inc"
#include "sparse-opt/Dialect/SOpt/SOptEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "sparse-opt/Dialect/SOpt/SOptAttrs.cpp.inc"

void SOptDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "sparse-opt/Dialect/SOpt/SOptOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "sparse-opt/Dialect/SOpt/SOptAttrs.cpp.inc"
      >();
}

Operation *SOptDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}

LogicalResult SOptDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute named) {
  return failure(failed(verifyFusionAnnotation(op, named)) ||
                 failed(verifySparseEmissionAttribute(op, named)));
}
