// RUN: sparse-opt %s --emit=cuda -o %t.cu --kernel-summary 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s < %t.cu

// Elementwise ops on an SDDMM's stored entries become a functor that every
// SDDMM kernel calls per entry; ops that fuse with no SDDMM run as a kernel
// over the stored entries.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// SUMMARY: scores_sddmm0: sopt.sddmm with the project's kernel, #sopt.sddmm_schedule<tile_nonzeros = 16,
// SUMMARY: scores_epilogue1: epilogue of 4 op(s) on stored entries fused into the SDDMM: mul (scale of lhs, moved from the prologue) mul exp add
// SUMMARY: scores_blocks_sddmm0: sopt.sddmm with the project's kernel, #sopt.sddmm_schedule<tiling = dense_blocks,
// SUMMARY: scores_blocks_epilogue1: epilogue of 2 op(s) on stored entries fused into the SDDMM: select relu
// SUMMARY: stored_sddmm0: sopt.sddmm
// SUMMARY: stored_kernel1: kernel over the stored entries, 2 op(s): exp mul

// CHECK: #include "sparse-opt/Runtime/Kernels/StoredEntries.cuh"

// The functor gets the entry's row, column and index, the product and the
// pattern's value; the SDDMM result is their product. The scale of Q is a
// factor on it, the runtime scale a load of element 0, the bias a load at
// the entry's row and column.
// CHECK: struct scores_epilogue1 {
// CHECK-NEXT:   const float *__restrict__ in1;
// CHECK-NEXT:   const float *__restrict__ in2;
// CHECK-NEXT:   __device__ __forceinline__ float operator()(int64_t row, int64_t column, int64_t entry, float product, float pattern) const {
// CHECK-NEXT:     const float [[D:v[0-9]+]] = product * pattern;
// CHECK-NEXT:     const float [[X0:v[0-9]+]] = ([[D]] * 0.125f);
// CHECK-NEXT:     const float [[SC:v[0-9]+]] = sopt::toFloat(in1[0]);
// CHECK-NEXT:     const float [[X1:v[0-9]+]] = ([[X0]] * [[SC]]);
// CHECK-NEXT:     const float [[E:v[0-9]+]] = expf([[X1]]);
// CHECK-NEXT:     const float [[B:v[0-9]+]] = sopt::toFloat(in2[row * 48 + column]);
// CHECK-NEXT:     const float [[Y:v[0-9]+]] = ([[E]] + [[B]]);
// CHECK-NEXT:     return [[Y]];

// A boolean mask, sampled, and a bias broadcast along the rows.
// CHECK: struct scores_blocks_epilogue1 {
// CHECK-NEXT:   const __half *__restrict__ in0;
// CHECK-NEXT:   const bool *__restrict__ in1;
// CHECK-NEXT:   __device__ __forceinline__ float operator()(int64_t row, int64_t column, int64_t entry, float product, float pattern) const {
// CHECK-NEXT:     const float [[BIAS:v[0-9]+]] = sopt::toFloat(in0[column]);
// CHECK-NEXT:     const bool [[KEEP:v[0-9]+]] = in1[row * 48 + column];
// CHECK-NEXT:     const float [[D:v[0-9]+]] = product * pattern;
// CHECK-NEXT:     const float [[M:v[0-9]+]] = ([[KEEP]] ? [[D]] : [[BIAS]]);
// CHECK-NEXT:     const float [[R:v[0-9]+]] = fmaxf([[M]], 0.0f);
// CHECK-NEXT:     return [[R]];

// CHECK: struct stored_kernel1 {
// CHECK-NEXT:   const float *__restrict__ in0;
// CHECK-NEXT:   const float *__restrict__ in1;
// CHECK-NEXT:   __device__ __forceinline__ float operator()(int64_t row, int64_t column, int64_t entry) const {
// CHECK-NEXT:     const float {{v[0-9]+}} = sopt::toFloat(in0[entry]);

// CHECK-LABEL: extern "C" cudaError_t scores(
// CHECK: // sopt.sddmm (A · Bᵀ) ⊙ S + epilogue scores_epilogue1, S 40x48, k = 32: tiles of 16 consecutive nonzeros
// CHECK-NEXT: SOPT_TRY((sopt::launchSddmm<float, 4, 4, 2, 16>(sopt::CsrMatrix<float>{40, 48, arg2_nnz, arg2_positions, arg2_coordinates, arg2_values}, arg0, arg1, 32, result0_values, 4, stream, scores_epilogue1{arg4, arg3})));
func.func @scores(%q: tensor<40x32xf32>, %k: tensor<48x32xf32>, %s: tensor<40x48xf32, #CSR>,
                  %bias: tensor<40x48xf32>, %scale: tensor<f32>) -> tensor<40x48xf32, #CSR> {
  %c = sopt.constant dense<0.125> : tensor<40x32xf32>
  %qs = sopt.mul %q, %c : tensor<40x32xf32>
  %d = sopt.sddmm %qs, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 16,
      threads_per_nonzero = 4, tiles_per_block = 4, vector_width = 4, row_order = natural>}
      : tensor<40x32xf32>, tensor<48x32xf32>, tensor<40x48xf32, #CSR> -> tensor<40x48xf32, #CSR>
  %sb = sopt.broadcast %scale dims = [] : tensor<f32> -> tensor<40x48xf32>
  %x = sopt.mul %d, %sb : tensor<40x48xf32, #CSR>, tensor<40x48xf32> -> tensor<40x48xf32, #CSR>
  %e = sopt.exp %x : tensor<40x48xf32, #CSR>
  %y = sopt.add %e, %bias : tensor<40x48xf32, #CSR>, tensor<40x48xf32> -> tensor<40x48xf32, #CSR>
  return %y : tensor<40x48xf32, #CSR>
}

// CHECK-LABEL: extern "C" cudaError_t scores_blocks(
// CHECK: SOPT_TRY((sopt::launchSddmmBlocks<__half, 64>({{.*}}, arg0, arg1, 32, result0_values, stream, scores_blocks_epilogue1{arg4, arg3})));
func.func @scores_blocks(%q: tensor<40x32xf16>, %k: tensor<48x32xf16>, %s: tensor<40x48xf16, #CSR>,
                         %keep: tensor<40x48xi1>, %bias: tensor<1x48xf16>) -> tensor<40x48xf16, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks,
      tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural>}
      : tensor<40x32xf16>, tensor<48x32xf16>, tensor<40x48xf16, #CSR> -> tensor<40x48xf16, #CSR>
  %bb = sopt.broadcast %bias dims = [0, 1] : tensor<1x48xf16> -> tensor<40x48xf16>
  %m = sopt.select %keep, %d, %bb : tensor<40x48xf16, #CSR>, tensor<40x48xf16> -> tensor<40x48xf16, #CSR>
  %r = sopt.relu %m : tensor<40x48xf16, #CSR>
  return %r : tensor<40x48xf16, #CSR>
}

// The product is returned as well: stored by the SDDMM, then exp · mask by
// a kernel over its stored entries (the pattern's arrays with the product's
// values).
// CHECK-LABEL: extern "C" cudaError_t stored(
// CHECK: SOPT_TRY((sopt::launchSddmm<{{.*}}, result0_values, 8, stream)));
// CHECK-NEXT: // stored_kernel1: kernel over the stored entries, 2 op(s): exp mul
// CHECK-NEXT: SOPT_TRY(sopt::launchStoredEntries(sopt::CsrMatrix<float>{40, 48, arg2_nnz, arg2_positions, arg2_coordinates, result0_values}, result1_values, stored_kernel1{result0_values, arg3}, stream));
func.func @stored(%q: tensor<40x32xf32>, %k: tensor<48x32xf32>, %s: tensor<40x48xf32, #CSR>,
                  %mask: tensor<40x48xf32>) -> (tensor<40x48xf32, #CSR>, tensor<40x48xf32, #CSR>) {
  %d = sopt.sddmm %q, %k, %s transpose_rhs
      : tensor<40x32xf32>, tensor<48x32xf32>, tensor<40x48xf32, #CSR> -> tensor<40x48xf32, #CSR>
  %e = sopt.exp %d : tensor<40x48xf32, #CSR>
  %y = sopt.mul %e, %mask : tensor<40x48xf32, #CSR>, tensor<40x48xf32> -> tensor<40x48xf32, #CSR>
  return %d, %y : tensor<40x48xf32, #CSR>, tensor<40x48xf32, #CSR>
}
