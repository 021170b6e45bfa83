// RUN: sparse-opt %s --emit=cuda -o %t.cu --kernel-summary 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s < %t.cu
// RUN: sparse-opt %s --emit=cuda --attention-kernel=false -o %t.decomposed.cu
// RUN: FileCheck %s --check-prefix=DECOMPOSED < %t.decomposed.cu

// Scheduled attention is one launch of the fused kernel: the schedule's tile
// and the head dimension as template arguments, the leading dimensions as
// batch x heads, the causal diagonal at the top left, the scale the op's or
// 1/sqrt(d). f32 attention is still decomposed (cuBLAS, a softmax kernel).

// SUMMARY: attn_bf16_attention0: sopt.attention on the fused attention kernel, #sopt.attention_schedule<block_m = 128, block_n = 64, warps = 4>, head dim 64, 2 x 8 heads of 200 queries x 300 keys, causal
// SUMMARY: attn_f16_attention0: sopt.attention on the fused attention kernel, #sopt.attention_schedule<block_m = 128, block_n = 64, warps = 4>, head dim 128, 1 x 3 heads of 100 queries x 77 keys
// SUMMARY: attn_then_residual_attention0: {{.*}}head dim 96
// SUMMARY: attn_then_residual_kernel1:

// CHECK: #include "sparse-opt/Runtime/Kernels/Attention.cuh"

// CHECK-LABEL: extern "C" cudaError_t attn_bf16(
// CHECK: sopt::attention::Arguments<__nv_bfloat16> a;
// CHECK-NEXT: a.query = arg0;
// CHECK-NEXT: a.key = arg1;
// CHECK-NEXT: a.value = arg2;
// CHECK-NEXT: a.output = result0;
// CHECK-NEXT: a.queryStrides = a.outputStrides = sopt::attention::headMajorStrides(8, 200, 64);
// CHECK-NEXT: a.keyStrides = a.valueStrides = sopt::attention::headMajorStrides(8, 300, 64);
// CHECK-NEXT: a.batch = 2;
// CHECK-NEXT: a.queryHeads = a.keyHeads = 8;
// CHECK-NEXT: a.queryLength = 200;
// CHECK-NEXT: a.keyLength = 300;
// CHECK-NEXT: a.scale = 0.125f;
// CHECK-NEXT: a.causal = true;
// CHECK-NEXT: if (sopt::attention::rejectArguments(a, 64))
// CHECK-NEXT: return cudaErrorInvalidValue;
// CHECK-NEXT: SOPT_TRY((sopt::attention::launchAttentionTile<__nv_bfloat16, 64, 128, 64, 4>(a, stream)));
// CHECK-NOT: cublas
// DECOMPOSED-LABEL: extern "C" cudaError_t attn_bf16(
// DECOMPOSED-NOT: sopt::attention
// DECOMPOSED: cublasGemmStridedBatchedEx
func.func @attn_bf16(%q: tensor<2x8x200x64xbf16>, %k: tensor<2x8x300x64xbf16>, %v: tensor<2x8x300x64xbf16>) -> tensor<2x8x200x64xbf16> {
  %0 = sopt.attention %q, %k, %v causal : tensor<2x8x200x64xbf16>, tensor<2x8x300x64xbf16>, tensor<2x8x300x64xbf16> -> tensor<2x8x200x64xbf16>
  return %0 : tensor<2x8x200x64xbf16>
}

// CHECK-LABEL: extern "C" cudaError_t attn_f16(
// CHECK: sopt::attention::Arguments<__half> a;
// CHECK: a.batch = 1;
// CHECK-NEXT: a.queryHeads = a.keyHeads = 3;
// CHECK: a.scale = 0.200000003f;
// CHECK-NEXT: a.causal = false;
// CHECK: launchAttentionTile<__half, 128, 128, 64, 4>
func.func @attn_f16(%q: tensor<3x100x128xf16>, %k: tensor<3x77x128xf16>, %v: tensor<3x77x128xf16>) -> tensor<3x100x128xf16> {
  %0 = sopt.attention %q, %k, %v scale = 0.2 : tensor<3x100x128xf16>, tensor<3x77x128xf16>, tensor<3x77x128xf16> -> tensor<3x100x128xf16>
  return %0 : tensor<3x100x128xf16>
}

// The attention writes an intermediate that the residual's fusion kernel reads.
// CHECK-LABEL: extern "C" cudaError_t attn_then_residual(
// CHECK: SOPT_TRY(sopt::allocateTemporary(&[[T:t[0-9]+]],
// CHECK: a.output = [[T]];
// CHECK: launchAttentionTile<__nv_bfloat16, 96, 128, 64, 4>
// CHECK: sopt::launchKernel(attn_then_residual_kernel1, {{.*}}[[T]]
func.func @attn_then_residual(%q: tensor<4x33x96xbf16>, %r: tensor<4x33x96xbf16>) -> tensor<4x33x96xbf16> {
  %0 = sopt.attention %q, %q, %q : tensor<4x33x96xbf16>, tensor<4x33x96xbf16>, tensor<4x33x96xbf16> -> tensor<4x33x96xbf16>
  %1 = sopt.add %0, %r : tensor<4x33x96xbf16>
  return %1 : tensor<4x33x96xbf16>
}

// CHECK-LABEL: extern "C" cudaError_t attn_f32(
// CHECK-NOT: sopt::attention
// CHECK: cublasSgemmStridedBatched
func.func @attn_f32(%q: tensor<2x16x64xf32>) -> tensor<2x16x64xf32> {
  %0 = sopt.attention %q, %q, %q : tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32> -> tensor<2x16x64xf32>
  return %0 : tensor<2x16x64xf32>
}
