// RUN: sparse-opt %s -split-input-file --sopt-schedule-gemm | FileCheck %s
// RUN: sparse-opt %s -split-input-file --sopt-schedule-gemm=sm-count=16 | FileCheck %s --check-prefix=SM16
// The pipeline schedules too under gemm-kernel; by default products stay
// cuBLAS's.
// RUN: sparse-opt %s -split-input-file --sopt-pipeline=gemm-kernel | FileCheck %s --check-prefix=PIPE
// RUN: sparse-opt %s -split-input-file --sopt-pipeline | FileCheck %s --check-prefix=CUBLAS

// The expected schedules follow sopt::chooseGemmSchedule
// (Runtime/Schedule/GemmSchedule.h) on 132 SMs: the tile by M (32 rows up
// to M = 32, 64 up to 128, else 128); 128 x 128 tiles that fill the SMs
// take K step 16 and no split; otherwise min(ceil(8 * 132 / tiles), K / 96)
// slices, K step 16 with the 128 x 128 tile and 8 with the others.

// 32 x 32 tiles of 128 x 128 = 1024 >= 132: no split.
// CHECK-LABEL: func.func @square
// CHECK: sopt.matmul {{.*}} {schedule = #sopt.gemm_schedule<block_m = 128, block_n = 128, k_step = 16>}
// PIPE-LABEL: func.func @square
// PIPE: #sopt.gemm_schedule<block_m = 128, block_n = 128, k_step = 16>
// CUBLAS-LABEL: func.func @square
// CUBLAS-NEXT: sopt.matmul %{{.*}}, %{{.*}} : tensor<4096x4096xf32>, tensor<4096x4096xf32>
func.func @square(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = sopt.matmul %a, %b : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}

// -----

// BERT at 128 tokens: 64-row tiles, 2 x 6 = 12; ceil(1056 / 12) = 88
// wanted, 768 / 96 = 8 deepest: 8 slices. On 16 SMs: ceil(128 / 12) = 11,
// still 8.
// CHECK-LABEL: func.func @bert_128
// CHECK: {schedule = #sopt.gemm_schedule<block_m = 64, block_n = 128, k_step = 8, k_splits = 8>}
// SM16-LABEL: func.func @bert_128
// SM16: {schedule = #sopt.gemm_schedule<block_m = 64, block_n = 128, k_step = 8, k_splits = 8>}
func.func @bert_128(%a: tensor<128x768xf32>, %b: tensor<768x768xf32>) -> tensor<128x768xf32> {
  %0 = sopt.matmul %a, %b : tensor<128x768xf32>, tensor<768x768xf32> -> tensor<128x768xf32>
  return %0 : tensor<128x768xf32>
}

// -----

// 512 x 1024: 4 x 8 = 32 tiles of 128 x 128, fewer than 132: split K (K step 16),
// ceil(1056 / 32) = 33 wanted, 1000 / 96 = 10 deepest. On 16 SMs the 32
// tiles fill them: K step 16, no split.
// CHECK-LABEL: func.func @mid
// CHECK: {schedule = #sopt.gemm_schedule<block_m = 128, block_n = 128, k_step = 16, k_splits = 10>}
// SM16-LABEL: func.func @mid
// SM16: {schedule = #sopt.gemm_schedule<block_m = 128, block_n = 128, k_step = 16>}
func.func @mid(%a: tensor<512x1000xf32>, %b: tensor<1000x1024xf32>) -> tensor<512x1024xf32> {
  %0 = sopt.matmul %a, %b : tensor<512x1000xf32>, tensor<1000x1024xf32> -> tensor<512x1024xf32>
  return %0 : tensor<512x1024xf32>
}

// -----

// One row, x · Wᵀ (W stored [N, K]): K is read from lhs; 32-row tiles, 32
// tiles along N = 4096, ceil(1056 / 32) = 33, 4096 / 96 = 42: 33 slices.
// CHECK-LABEL: func.func @gemv_t
// CHECK: transpose_rhs {schedule = #sopt.gemm_schedule<block_m = 32, block_n = 128, k_step = 8, k_splits = 33>}
func.func @gemv_t(%a: tensor<1x4096xf32>, %w: tensor<4096x4096xf32>) -> tensor<1x4096xf32> {
  %0 = sopt.matmul %a, %w transpose_rhs : tensor<1x4096xf32>, tensor<4096x4096xf32> -> tensor<1x4096xf32>
  return %0 : tensor<1x4096xf32>
}

// -----

// Batched, lhs transposed ([b, k, m]): M = 67, K = 45 (< 96: one slice).
// CHECK-LABEL: func.func @batched_t
// CHECK: transpose_lhs {schedule = #sopt.gemm_schedule<block_m = 64, block_n = 128, k_step = 8>}
func.func @batched_t(%a: tensor<3x45x67xf32>, %b: tensor<3x45x33xf32>) -> tensor<3x67x33xf32> {
  %0 = sopt.matmul %a, %b transpose_lhs : tensor<3x45x67xf32>, tensor<3x45x33xf32> -> tensor<3x67x33xf32>
  return %0 : tensor<3x67x33xf32>
}

// -----

// The matrices of a batch share the grid, so their tiles count together:
// one 512 x 512 product is 16 tiles of 128 x 128 (a split), 16 of them
// 256 >= 132 (none, K step 16).
// CHECK-LABEL: func.func @batch_fills
// CHECK: {schedule = #sopt.gemm_schedule<block_m = 128, block_n = 128, k_step = 16>}
func.func @batch_fills(%a: tensor<16x512x512xf32>) -> tensor<16x512x512xf32> {
  %0 = sopt.matmul %a, %a : tensor<16x512x512xf32>, tensor<16x512x512xf32> -> tensor<16x512x512xf32>
  return %0 : tensor<16x512x512xf32>
}

// -----

// Left to cuBLAS: 16-bit elements, K = 0 (a fill), an empty result. A
// schedule set by hand is kept.
// CHECK-LABEL: func.func @kept
// CHECK: sopt.matmul %{{.*}}, %{{.*}} : tensor<64x64xbf16>
// CHECK: sopt.matmul %{{.*}}, %{{.*}} : tensor<4x0xf32>
// CHECK: sopt.matmul %{{.*}}, %{{.*}} : tensor<0x8xf32>
// CHECK: {schedule = #sopt.gemm_schedule<block_m = 32, block_n = 128, k_step = 8, k_splits = 2>}
func.func @kept(%h: tensor<64x64xbf16>, %a: tensor<4x0xf32>, %b: tensor<0x16xf32>,
                %e: tensor<0x8xf32>, %f: tensor<8x16xf32>, %x: tensor<300x300xf32>)
    -> (tensor<64x64xbf16>, tensor<4x16xf32>, tensor<0x16xf32>, tensor<300x300xf32>) {
  %0 = sopt.matmul %h, %h : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xbf16>
  %1 = sopt.matmul %a, %b : tensor<4x0xf32>, tensor<0x16xf32> -> tensor<4x16xf32>
  %2 = sopt.matmul %e, %f : tensor<0x8xf32>, tensor<8x16xf32> -> tensor<0x16xf32>
  %3 = sopt.matmul %x, %x {schedule = #sopt.gemm_schedule<block_m = 32, block_n = 128, k_step = 8, k_splits = 2>} : tensor<300x300xf32>, tensor<300x300xf32> -> tensor<300x300xf32>
  return %0, %1, %2, %3 : tensor<64x64xbf16>, tensor<4x16xf32>, tensor<0x16xf32>, tensor<300x300xf32>
}
