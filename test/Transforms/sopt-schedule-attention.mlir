// RUN: sparse-opt %s --sopt-schedule-attention --split-input-file | FileCheck %s
// RUN: sparse-opt %s --sopt-schedule-attention --sopt-decompose-composites --split-input-file | FileCheck %s --check-prefix=DECOMPOSED

// bf16 and f16 at every head dimension of the kernel get the rule's tile;
// the decomposition keeps them.
// CHECK-LABEL: func.func @bf16_d64
// CHECK: sopt.attention %{{.*}} causal {schedule = #sopt.attention_schedule<block_m = 128, block_n = 64, warps = 4>}
// DECOMPOSED-LABEL: func.func @bf16_d64
// DECOMPOSED-NEXT: sopt.attention
// DECOMPOSED-NOT: sopt.matmul
func.func @bf16_d64(%q: tensor<2x8x200x64xbf16>, %k: tensor<2x8x300x64xbf16>) -> tensor<2x8x200x64xbf16> {
  %0 = sopt.attention %q, %k, %k causal : tensor<2x8x200x64xbf16>, tensor<2x8x300x64xbf16>, tensor<2x8x300x64xbf16> -> tensor<2x8x200x64xbf16>
  return %0 : tensor<2x8x200x64xbf16>
}

// -----

// CHECK-LABEL: func.func @f16_d256
// CHECK: sopt.attention %{{.*}} {schedule = #sopt.attention_schedule<block_m = 64, block_n = 32, warps = 4>}
func.func @f16_d256(%q: tensor<17x256xf16>) -> tensor<17x256xf16> {
  %0 = sopt.attention %q, %q, %q scale = 0.5 : tensor<17x256xf16>, tensor<17x256xf16>, tensor<17x256xf16> -> tensor<17x256xf16>
  return %0 : tensor<17x256xf16>
}

// -----

// CHECK-LABEL: func.func @bf16_d80_d96_d128
// CHECK: sopt.attention {{.*}}schedule = #sopt.attention_schedule<block_m = 128, block_n = 64, warps = 4>{{.*}}x80xbf16>
// CHECK: sopt.attention {{.*}}schedule = #sopt.attention_schedule<block_m = 128, block_n = 64, warps = 4>{{.*}}x96xbf16>
// CHECK: sopt.attention {{.*}}schedule = #sopt.attention_schedule<block_m = 128, block_n = 64, warps = 4>{{.*}}x128xbf16>
func.func @bf16_d80_d96_d128(%a: tensor<4x9x80xbf16>, %b: tensor<4x9x96xbf16>, %c: tensor<4x9x128xbf16>) -> (tensor<4x9x80xbf16>, tensor<4x9x96xbf16>, tensor<4x9x128xbf16>) {
  %0 = sopt.attention %a, %a, %a : tensor<4x9x80xbf16>, tensor<4x9x80xbf16>, tensor<4x9x80xbf16> -> tensor<4x9x80xbf16>
  %1 = sopt.attention %b, %b, %b : tensor<4x9x96xbf16>, tensor<4x9x96xbf16>, tensor<4x9x96xbf16> -> tensor<4x9x96xbf16>
  %2 = sopt.attention %c, %c, %c : tensor<4x9x128xbf16>, tensor<4x9x128xbf16>, tensor<4x9x128xbf16> -> tensor<4x9x128xbf16>
  return %0, %1, %2 : tensor<4x9x80xbf16>, tensor<4x9x96xbf16>, tensor<4x9x128xbf16>
}

// -----

// A schedule written by hand is kept.
// CHECK-LABEL: func.func @by_hand
// CHECK: schedule = #sopt.attention_schedule<block_m = 64, block_n = 32, warps = 2>
func.func @by_hand(%q: tensor<2x33x64xbf16>) -> tensor<2x33x64xbf16> {
  %0 = sopt.attention %q, %q, %q {schedule = #sopt.attention_schedule<block_m = 64, block_n = 32, warps = 2>} : tensor<2x33x64xbf16>, tensor<2x33x64xbf16>, tensor<2x33x64xbf16> -> tensor<2x33x64xbf16>
  return %0 : tensor<2x33x64xbf16>
}

// -----

// What the kernel does not take is left to the decomposition: f32, a mask
// operand, a head dimension it has no instance for, a value head dimension
// of its own.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: schedule
// DECOMPOSED-LABEL: func.func @left_alone
// DECOMPOSED-NOT: sopt.attention
func.func @left_alone(%f: tensor<2x16x64xf32>, %m: tensor<2x16x16xi1>, %b: tensor<2x16x64xbf16>,
                      %d48: tensor<2x16x48xbf16>, %v: tensor<2x16x128xbf16>)
    -> (tensor<2x16x64xf32>, tensor<2x16x64xbf16>, tensor<2x16x48xbf16>, tensor<2x16x128xbf16>) {
  %0 = sopt.attention %f, %f, %f : tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32> -> tensor<2x16x64xf32>
  %1 = sopt.attention %b, %b, %b mask(%m : tensor<2x16x16xi1>) : tensor<2x16x64xbf16>, tensor<2x16x64xbf16>, tensor<2x16x64xbf16> -> tensor<2x16x64xbf16>
  %2 = sopt.attention %d48, %d48, %d48 : tensor<2x16x48xbf16>, tensor<2x16x48xbf16>, tensor<2x16x48xbf16> -> tensor<2x16x48xbf16>
  %3 = sopt.attention %b, %b, %v : tensor<2x16x64xbf16>, tensor<2x16x64xbf16>, tensor<2x16x128xbf16> -> tensor<2x16x128xbf16>
  return %0, %1, %2, %3 : tensor<2x16x64xf32>, tensor<2x16x64xbf16>, tensor<2x16x48xbf16>, tensor<2x16x128xbf16>
}
