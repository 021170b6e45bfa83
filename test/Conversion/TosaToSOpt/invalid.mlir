// RUN: sparse-opt %s -split-input-file --sopt-convert-tosa -verify-diagnostics
// RUN: not sparse-opt %s -split-input-file --sopt-convert-tosa > /dev/null 2>&1

// TOSA's own verifier already rejects nonzero constant shifts and zero
// points, non-constant reshape shapes and shapes that do not broadcast; what
// remains are the ops, types and operands that sopt cannot express.

// An op without a sopt counterpart. Its zero-point constants are reported
// through it, not on their own.
func.func @conv2d(%x: tensor<1x8x8x4xf32>, %w: tensor<16x3x3x4xf32>, %b: tensor<16xf32>) -> tensor<1x6x6x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-error @+1 {{'tosa.conv2d' op is not supported by sopt-convert-tosa}}
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<16x3x3x4xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x16xf32>
  return %0 : tensor<1x6x6x16xf32>
}

// -----

// Every leftover is reported, not only the first; the tile's shape constant
// is not, and the convertible exp between them still converts.
func.func @several(%a: tensor<2x3xf32>) -> tensor<1x3xf32> {
  %m = tosa.const_shape {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.tile' op is not supported by sopt-convert-tosa}}
  %0 = tosa.tile %a, %m : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<4x3xf32>
  %1 = tosa.exp %0 : (tensor<4x3xf32>) -> tensor<4x3xf32>
  // expected-error @+1 {{'tosa.reduce_product' op is not supported by sopt-convert-tosa}}
  %2 = tosa.reduce_product %1 {axis = 0 : i32} : (tensor<4x3xf32>) -> tensor<1x3xf32>
  return %2 : tensor<1x3xf32>
}

// -----

func.func @integer_add(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'tosa.add' op is not supported by sopt-convert-tosa: expects tensors of f16, bf16, f32 or f64, got 'tensor<4xi32>'}}
  %0 = tosa.add %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @integer_compare(%a: tensor<4xi32>) -> tensor<4xi1> {
  // expected-error @+1 {{'tosa.greater' op is not supported by sopt-convert-tosa: expects tensors of f16, bf16, f32 or f64, got 'tensor<4xi32>'}}
  %0 = tosa.greater %a, %a : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @quantized(%a: tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4x!quant.uniform<i8:f32, 0.5>> {
  // expected-error @+1 {{'tosa.abs' op is not supported by sopt-convert-tosa: expects tensors of f16, bf16, f32 or f64, got 'tensor<4x!quant.uniform<i8:f32, 5.000000e-01>>'}}
  %0 = tosa.abs %a : (tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4x!quant.uniform<i8:f32, 0.5>>
  return %0 : tensor<4x!quant.uniform<i8:f32, 0.5>>
}

// -----

func.func @dynamic_shape(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{'tosa.exp' op is not supported by sopt-convert-tosa: expects statically shaped tensors, got 'tensor<?x4xf32>'}}
  %0 = tosa.exp %a : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// A shift that is not a constant may be nonzero.
func.func @unknown_shift(%a: tensor<4xf32>, %shift: tensor<1xi8>) -> tensor<4xf32> {
  // expected-error @+1 {{'tosa.mul' op is not supported by sopt-convert-tosa: shift must be a constant 0 for float operands}}
  %0 = tosa.mul %a, %a, %shift : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @negate_zero_point(%a: tensor<4xf32>, %zp: tensor<1xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tosa.negate' op is not supported by sopt-convert-tosa: zero points must be constant 0}}
  %0 = tosa.negate %a, %zp, %zp : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @matmul_zero_point(%a: tensor<1x2x3xf32>, %b: tensor<1x3x2xf32>, %zp: tensor<1xf32>) -> tensor<1x2x2xf32> {
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-error @+1 {{'tosa.matmul' op is not supported by sopt-convert-tosa: zero points must be constant 0}}
  %0 = tosa.matmul %a, %b, %zero, %zp : (tensor<1x2x3xf32>, tensor<1x3x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  return %0 : tensor<1x2x2xf32>
}

// -----

// sopt.matmul has one element type; only a widening result is rebuilt.
func.func @matmul_narrowing(%a: tensor<1x2x3xf32>, %b: tensor<1x3x2xf32>) -> tensor<1x2x2xf16> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-error @+1 {{'tosa.matmul' op is not supported by sopt-convert-tosa: operand element types must match and widen to the result's}}
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x2x3xf32>, tensor<1x3x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf16>
  return %0 : tensor<1x2x2xf16>
}

// -----

func.func @clamp_nan_ignore(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tosa.clamp' op is not supported by sopt-convert-tosa: nan_mode = IGNORE has no sopt equivalent}}
  %0 = tosa.clamp %a {min_val = 0.0 : f32, max_val = 1.0 : f32, nan_mode = #tosa.nan_mode<IGNORE>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @cast_to_i8(%a: tensor<4xf32>) -> tensor<4xi8> {
  // expected-error @+1 {{'tosa.cast' op is not supported by sopt-convert-tosa: expects tensors of f16, bf16, f32, f64, i1, i32 or i64, got 'tensor<4xi8>'}}
  %0 = tosa.cast %a : (tensor<4xf32>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// A constant used as data outside TOSA is reported itself.
func.func @i8_constant() -> tensor<4xi8> {
  // expected-error @+1 {{'tosa.const' op is not supported by sopt-convert-tosa: expects tensors of f16, bf16, f32, f64, i1, i32 or i64, got 'tensor<4xi8>'}}
  %c = "tosa.const"() <{values = dense<1> : tensor<4xi8>}> : () -> tensor<4xi8>
  return %c : tensor<4xi8>
}
