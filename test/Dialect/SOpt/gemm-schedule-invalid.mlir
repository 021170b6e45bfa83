// RUN: sparse-opt %s -split-input-file -verify-diagnostics

// A tile the kernel does not compile.
func.func @no_such_tile(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{the GEMM kernel has no 128 x 64 tile with k_step 8}}
  %0 = sopt.matmul %a, %a {schedule = #sopt.gemm_schedule<block_m = 128, block_n = 64, k_step = 8>} : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// K step 16 exists only for the 128 x 128 tile.
func.func @k_step_16(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{the GEMM kernel has no 64 x 128 tile with k_step 16}}
  %0 = sopt.matmul %a, %a {schedule = #sopt.gemm_schedule<block_m = 64, block_n = 128, k_step = 16>} : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

func.func @no_slices(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{k_splits must be 1 to 65535, got 0}}
  %0 = sopt.matmul %a, %a {schedule = #sopt.gemm_schedule<block_m = 64, block_n = 64, k_step = 8, k_splits = 0>} : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// The kernel is f32 only.
func.func @bf16(%a: tensor<64x64xbf16>) -> tensor<64x64xbf16> {
  // expected-error @+1 {{'sopt.matmul' op has a GEMM schedule, but the project's GEMM kernel is f32 only (this product is 'bf16')}}
  %0 = sopt.matmul %a, %a {schedule = #sopt.gemm_schedule<block_m = 64, block_n = 64, k_step = 8>} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xbf16>
  return %0 : tensor<64x64xbf16>
}

// -----

// 65536 rows of 32-row tiles is 2048 tile rows; 4194304 rows would be
// 131072, past the grid's 65535 in y.
func.func @too_many_rows(%a: tensor<4194304x1xf32>, %b: tensor<1x1xf32>) -> tensor<4194304x1xf32> {
  // expected-error @+1 {{'sopt.matmul' op has an invalid schedule #sopt.gemm_schedule<block_m = 32, block_n = 128, k_step = 8>: M needs more than 65535 tile rows}}
  %0 = sopt.matmul %a, %b {schedule = #sopt.gemm_schedule<block_m = 32, block_n = 128, k_step = 8>} : tensor<4194304x1xf32>, tensor<1x1xf32> -> tensor<4194304x1xf32>
  return %0 : tensor<4194304x1xf32>
}

// -----

// Not an attribute of that name.
func.func @not_a_schedule(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{attribute 'schedule' failed to satisfy constraint}}
  %0 = sopt.matmul %a, %a {schedule = 3 : i64} : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// 70000 matrices, one slice each: more than a grid's 65535 in z.
func.func @too_many_matrices(%a: tensor<70000x1x1xf32>) -> tensor<70000x1x1xf32> {
  // expected-error @+1 {{the batch times k_splits exceeds 65535}}
  %0 = sopt.matmul %a, %a {schedule = #sopt.gemm_schedule<block_m = 32, block_n = 128, k_step = 8>} : tensor<70000x1x1xf32>, tensor<70000x1x1xf32> -> tensor<70000x1x1xf32>
  return %0 : tensor<70000x1x1xf32>
}
