// RUN: sparse-opt %s -split-input-file -verify-diagnostics

func.func @f32(%q: tensor<16x64xf32>) -> tensor<16x64xf32> {
  // expected-error @+1 {{'sopt.attention' op has a schedule, but the fused attention kernel cannot run it: its element type is not f16 or bf16}}
  %0 = sopt.attention %q, %q, %q {schedule = #sopt.attention_schedule<block_m = 128, block_n = 64, warps = 4>} : tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32> -> tensor<16x64xf32>
  return %0 : tensor<16x64xf32>
}

// -----

func.func @masked(%q: tensor<16x64xbf16>, %m: tensor<16x16xi1>) -> tensor<16x64xbf16> {
  // expected-error @+1 {{cannot run it: it has a mask operand}}
  %0 = sopt.attention %q, %q, %q mask(%m : tensor<16x16xi1>) {schedule = #sopt.attention_schedule<block_m = 128, block_n = 64, warps = 4>} : tensor<16x64xbf16>, tensor<16x64xbf16>, tensor<16x64xbf16> -> tensor<16x64xbf16>
  return %0 : tensor<16x64xbf16>
}

// -----

func.func @head_dim(%q: tensor<16x32xbf16>) -> tensor<16x32xbf16> {
  // expected-error @+1 {{cannot run it: its head dimension is not 64, 80, 96, 128 or 256}}
  %0 = sopt.attention %q, %q, %q {schedule = #sopt.attention_schedule<block_m = 128, block_n = 64, warps = 4>} : tensor<16x32xbf16>, tensor<16x32xbf16>, tensor<16x32xbf16> -> tensor<16x32xbf16>
  return %0 : tensor<16x32xbf16>
}

// -----

func.func @value_head_dim(%q: tensor<16x64xbf16>, %v: tensor<16x128xbf16>) -> tensor<16x128xbf16> {
  // expected-error @+1 {{cannot run it: its value head dimension differs from the query's}}
  %0 = sopt.attention %q, %q, %v {schedule = #sopt.attention_schedule<block_m = 128, block_n = 64, warps = 4>} : tensor<16x64xbf16>, tensor<16x64xbf16>, tensor<16x128xbf16> -> tensor<16x128xbf16>
  return %0 : tensor<16x128xbf16>
}

// -----

func.func @too_many_heads(%q: tensor<65536x4x64xbf16>) -> tensor<65536x4x64xbf16> {
  // expected-error @+1 {{cannot run it: its batch or head dimension exceeds 65535}}
  %0 = sopt.attention %q, %q, %q {schedule = #sopt.attention_schedule<block_m = 128, block_n = 64, warps = 4>} : tensor<65536x4x64xbf16>, tensor<65536x4x64xbf16>, tensor<65536x4x64xbf16> -> tensor<65536x4x64xbf16>
  return %0 : tensor<65536x4x64xbf16>
}

// -----

func.func @rows_per_warp(%q: tensor<16x64xbf16>) -> tensor<16x64xbf16> {
  // expected-error @+1 {{'sopt.attention' op has a schedule that is no tile of the fused attention kernel: block_m not 16 or 32 rows per warp}}
  %0 = sopt.attention %q, %q, %q {schedule = #sopt.attention_schedule<block_m = 256, block_n = 64, warps = 4>} : tensor<16x64xbf16>, tensor<16x64xbf16>, tensor<16x64xbf16> -> tensor<16x64xbf16>
  return %0 : tensor<16x64xbf16>
}

// -----

func.func @warps(%q: tensor<16x64xbf16>) -> tensor<16x64xbf16> {
  // expected-error @+1 {{no tile of the fused attention kernel: warps not 2, 4 or 8}}
  %0 = sopt.attention %q, %q, %q {schedule = #sopt.attention_schedule<block_m = 48, block_n = 64, warps = 3>} : tensor<16x64xbf16>, tensor<16x64xbf16>, tensor<16x64xbf16> -> tensor<16x64xbf16>
  return %0 : tensor<16x64xbf16>
}

// -----

func.func @block_n(%q: tensor<16x64xbf16>) -> tensor<16x64xbf16> {
  // expected-error @+1 {{no tile of the fused attention kernel: block_n not 16, 32, 48, ..., 128}}
  %0 = sopt.attention %q, %q, %q {schedule = #sopt.attention_schedule<block_m = 128, block_n = 40, warps = 4>} : tensor<16x64xbf16>, tensor<16x64xbf16>, tensor<16x64xbf16> -> tensor<16x64xbf16>
  return %0 : tensor<16x64xbf16>
}

// -----

func.func @shared_memory(%q: tensor<16x256xbf16>) -> tensor<16x256xbf16> {
  // expected-error @+1 {{no tile of the fused attention kernel: shared memory beyond 227 KiB}}
  %0 = sopt.attention %q, %q, %q {schedule = #sopt.attention_schedule<block_m = 256, block_n = 128, warps = 8>} : tensor<16x256xbf16>, tensor<16x256xbf16>, tensor<16x256xbf16> -> tensor<16x256xbf16>
  return %0 : tensor<16x256xbf16>
}
