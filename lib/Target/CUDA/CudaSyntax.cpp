//===- CudaSyntax.cpp - spelling MLIR values in CUDA C++ ------------------===//

#include "CudaSyntax.h"

#include "sparse-opt/Dialect/SOpt/SOptOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>

using namespace mlir;
using namespace mlir::sopt;

std::optional<std::string> sopt::cuda::storageType(Type type) {
  if (type.isF32())
    return "float";
  if (type.isF16())
    return "__half";
  if (type.isBF16())
    return "__nv_bfloat16";
  if (type.isF64())
    return "double";
  if (type.isInteger(1))
    return "bool";
  if (type.isInteger(32))
    return "int32_t";
  if (type.isInteger(64))
    return "int64_t";
  return std::nullopt;
}

std::string sopt::cuda::byteStringLiteral(llvm::ArrayRef<uint8_t> bytes, llvm::StringRef indent,
                                          size_t bytesPerLine) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << indent << '"';
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (i > 0 && i % bytesPerLine == 0)
      os << "\"\n" << indent << '"';
    uint8_t byte = bytes[i];
    // '?' would start a trigraph in older dialects.
    bool printable = byte >= 0x20 && byte < 0x7f && byte != '"' && byte != '\\' && byte != '?';
    if (printable) {
      os << char(byte);
      continue;
    }
    // An escape takes up to three octal digits: a digit after a short one
    // would be read into it, so then write all three.
    bool digitNext = i + 1 < bytes.size() && (i + 1) % bytesPerLine != 0 &&
                     bytes[i + 1] >= '0' && bytes[i + 1] <= '9';
    os << '\\';
    if (digitNext)
      os << llvm::format("%03o", byte);
    else
      os << llvm::format("%o", byte);
  }
  os << '"';
  return text;
}

std::string sopt::cuda::computeType(Type type) {
  if (isa<FloatType>(type))
    return "float";
  if (type.isInteger(1))
    return "bool";
  return "long long";
}

int64_t sopt::cuda::storageBytes(Type type) {
  return type.isInteger(1) ? 1 : type.getIntOrFloatBitWidth() / 8;
}

std::string sopt::cuda::floatLiteral(double value) {
  if (std::isnan(value))
    return "NAN";
  if (std::isinf(value))
    return value > 0 ? "INFINITY" : "-INFINITY";
  float f = static_cast<float>(value);
  std::string text;
  llvm::raw_string_ostream os(text);
  // Nine significant digits round-trip every f32.
  os << llvm::format("%.9g", static_cast<double>(f));
  if (text.find_first_of(".en") == std::string::npos)
    text += ".0";
  return text + "f";
}

std::string sopt::cuda::affineToC(AffineExpr expr,
                                  llvm::ArrayRef<std::string> dimNames) {
  switch (expr.getKind()) {
  case AffineExprKind::Constant:
    return std::to_string(cast<AffineConstantExpr>(expr).getValue());
  case AffineExprKind::DimId:
    return dimNames[cast<AffineDimExpr>(expr).getPosition()];
  case AffineExprKind::SymbolId:
    llvm_unreachable("index maps have no symbols");
  default:
    break;
  }
  auto bin = cast<AffineBinaryOpExpr>(expr);
  std::string lhs = affineToC(bin.getLHS(), dimNames);
  std::string rhs = affineToC(bin.getRHS(), dimNames);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return "(" + lhs + " + " + rhs + ")";
  case AffineExprKind::Mul:
    return "(" + lhs + " * " + rhs + ")";
  case AffineExprKind::FloorDiv:
    return "(" + lhs + " / " + rhs + ")";
  case AffineExprKind::Mod:
    return "(" + lhs + " % " + rhs + ")";
  default:
    llvm_unreachable("ceildiv does not occur in index maps");
  }
}

std::string sopt::cuda::elementwiseExpression(Operation *op, ArrayRef<std::string> x) {
  auto call = [&](StringRef fn) { return (fn + "(" + x[0] + ")").str(); };
  auto infix = [&](StringRef sym) {
    return "(" + x[0] + " " + sym.str() + " " + x[1] + ")";
  };
  return llvm::TypeSwitch<Operation *, std::string>(op)
      .Case([&](NegOp) { return "(-" + x[0] + ")"; })
      .Case([&](AbsOp) { return call("fabsf"); })
      .Case([&](ExpOp) { return call("expf"); })
      .Case([&](LogOp) { return call("logf"); })
      .Case([&](TanhOp) { return call("tanhf"); })
      .Case([&](ErfOp) { return call("erff"); })
      .Case([&](SigmoidOp) { return "(1.0f / (1.0f + expf(-" + x[0] + ")))"; })
      .Case([&](ReluOp) { return "fmaxf(" + x[0] + ", 0.0f)"; })
      .Case([&](SqrtOp) { return call("sqrtf"); })
      .Case([&](RsqrtOp) { return call("rsqrtf"); })
      .Case([&](ReciprocalOp) { return "(1.0f / " + x[0] + ")"; })
      .Case([&](GeluOp gelu) {
        if (gelu.getApproximation() == GeluApproximation::Erf)
          return "(0.5f * " + x[0] + " * (1.0f + erff(" + x[0] +
                 " * 0.707106781f)))";
        return "(0.5f * " + x[0] + " * (1.0f + tanhf(0.797884561f * (" + x[0] +
               " + 0.044715f * " + x[0] + " * " + x[0] + " * " + x[0] + "))))";
      })
      .Case([&](AddOp) { return infix("+"); })
      .Case([&](SubOp) { return infix("-"); })
      .Case([&](MulOp) { return infix("*"); })
      .Case([&](DivOp) { return infix("/"); })
      .Case([&](MaxOp) { return "fmaxf(" + x[0] + ", " + x[1] + ")"; })
      .Case([&](MinOp) { return "fminf(" + x[0] + ", " + x[1] + ")"; })
      .Case([&](PowOp) { return "powf(" + x[0] + ", " + x[1] + ")"; })
      .Case([&](CompareOp cmp) {
        static const char *symbols[] = {"==", "!=", "<", "<=", ">", ">="};
        return infix(symbols[static_cast<int>(cmp.getDirection())]);
      })
      .Case([&](SelectOp) {
        return "(" + x[0] + " ? " + x[1] + " : " + x[2] + ")";
      })
      .Case([&](CastOp cast) {
        Type to = cast.getType().getElementType();
        if (to.isInteger(1))
          return "(" + x[0] + " != 0)";
        return "static_cast<" + computeType(to) + ">(" + x[0] + ")";
      })
      .Default([](Operation *) -> std::string {
        llvm_unreachable("callers check the op is elementwise");
      });
}
