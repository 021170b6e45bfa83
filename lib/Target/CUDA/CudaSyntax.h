//===- CudaSyntax.h - spelling MLIR values in CUDA C++ ----------*- C++ -*-===//

#ifndef SPARSE_OPT_LIB_TARGET_CUDA_CUDASYNTAX_H
#define SPARSE_OPT_LIB_TARGET_CUDA_CUDASYNTAX_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace mlir::sopt::cuda {

/// The C++ type a tensor element is stored as ("float", "__nv_bfloat16",
/// "bool", ...), or nullopt for element types we cannot store.
std::optional<std::string> storageType(Type elementType);

/// The C++ type a value is computed in: float for every float storage type
/// (f16/bf16 widen), bool for i1, long long for integers.
std::string computeType(Type elementType);

/// Bytes of one stored element.
int64_t storageBytes(Type elementType);

/// A float literal that reads back exactly as `value` in f32.
std::string floatLiteral(double value);

/// `bytes` as a C++ string literal, split over lines of `bytesPerLine` and
/// indented by `indent`: printable bytes as themselves, the rest as octal
/// escapes. Compilers read a literal as one token, where an initializer list
/// is one expression per byte: tens of times faster to compile, a fraction
/// of the memory.
std::string byteStringLiteral(llvm::ArrayRef<uint8_t> bytes, llvm::StringRef indent = "    ",
                              size_t bytesPerLine = 64);

/// The C++ expression of an elementwise sopt op (unary, binary, compare,
/// select, cast, gelu) over its operands' expressions, computed in f32.
std::string elementwiseExpression(Operation *op, llvm::ArrayRef<std::string> operands);

/// An affine expression over dims named `d0, d1, ...` as C++ (non-negative
/// operands: floordiv and mod are / and %).
std::string affineToC(AffineExpr expr, llvm::ArrayRef<std::string> dimNames);

} // namespace mlir::sopt::cuda

#endif // SPARSE_OPT_LIB_TARGET_CUDA_CUDASYNTAX_H
