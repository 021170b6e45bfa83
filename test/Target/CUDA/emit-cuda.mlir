// RUN: sparse-opt %s --emit=cuda --cusparse -o %t.cu --kernel-summary 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s < %t.cu
// RUN: FileCheck %s --check-prefix=HEADER < %t.h

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// SUMMARY: layer_norm_kernel0: 15 ops (2 reductions) | block_rows 2048x1024, 128 threads (64/row), vector 8, grid 1024 | smem 64 B | reductions in shared memory | 1 row value(s) kept across reductions
// SUMMARY: pruned_kernel0: 2 ops | elementwise 1024x1, 256 threads, vector 4, grid 1

// The preamble, once.
// CHECK: #include "sparse-opt/Runtime/Device/Reduce.cuh"
// CHECK: #include "{{.*}}emit-cuda.mlir.tmp.h"
// CHECK: #include "sparse-opt/Runtime/Host/Cusparse.h"

// LayerNorm in bf16: 16-byte vectors (8 elements), two warps per row (16-bit
// rows keep 16 elements per thread), x kept in registers, the centred value
// recomputed in the last phase.
// CHECK-LABEL: extern "C" __global__ void __launch_bounds__(128)
// CHECK-NEXT: layer_norm_kernel0(const __nv_bfloat16 *__restrict__ in0,
// Its first statement waits for the kernels launched before it (it is
// launched as a dependent launch).
// CHECK: __restrict__ out0) {
// CHECK-NEXT: sopt::awaitPrecedingKernels();
// CHECK: constexpr int kVector = 8;
// CHECK: float cache{{[0-9]+}}[kItems * kVector];
// CHECK: sopt::loadVector<kVector>(in0 + ((d0 * 1024) + d1c), ld{{[0-9]+}});
// CHECK: sopt::blockRowAllReduce<sopt::SumOp, kThreadsPerRow>(acc{{[0-9]+}}, reinterpret_cast<float *>(smem + 0))
// CHECK: sopt::blockRowAllReduce<sopt::SumOp, kThreadsPerRow>(acc{{[0-9]+}}, reinterpret_cast<float *>(smem + 32))
// CHECK: rsqrtf(
// CHECK: sopt::storeVector<kVector>(out0 + ((d0 * 1024) + d1c),

// The host function: a launch with the kernel's summary.
// CHECK: extern "C" cudaError_t layer_norm(const __nv_bfloat16 *arg0, const __nv_bfloat16 *arg1, const __nv_bfloat16 *arg2, __nv_bfloat16 *result0, cudaStream_t stream)
// CHECK: SOPT_TRY(sopt::launchKernel(layer_norm_kernel0, 1024, 128, 64, stream, arg0, arg1, arg2, result0));
func.func @layer_norm(%x: tensor<2048x1024xbf16>, %g: tensor<1024xbf16>, %b: tensor<1024xbf16>) -> tensor<2048x1024xbf16> {
  %y = sopt.layer_norm %x scale(%g : tensor<1024xbf16>) bias(%b : tensor<1024xbf16>) : tensor<2048x1024xbf16>
  return %y : tensor<2048x1024xbf16>
}

// A CSR argument is four parameters. With --cusparse, cuSPARSE computes the product into an
// intermediate that the epilogue kernel reads.
// CHECK: extern "C" cudaError_t pruned(const int32_t *arg0_positions, const int32_t *arg0_coordinates, const float *arg0_values, int64_t arg0_nnz, const float *arg1, float *result0, cudaStream_t stream)
// CHECK: SOPT_TRY(sopt::allocateTemporary(&t0, 4096, stream));
// CHECK: cusparseCreateCsr(&a.descriptor, 64, 32, arg0_nnz, (void *)arg0_positions, (void *)arg0_coordinates, (void *)arg0_values, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F)
// CHECK: cusparseSpMM(
// CHECK: SOPT_TRY(sopt::launchKernel(pruned_kernel0, 1, 256, 0, stream, t0, result0));
// CHECK: cudaFreeAsync(t0, stream);
func.func @pruned(%w: tensor<64x32xf32, #CSR>, %x: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %y = sopt.spmm %w, %x : tensor<64x32xf32, #CSR>, tensor<32x16xf32> -> tensor<64x16xf32>
  %r = sopt.relu %y : tensor<64x16xf32>
  %s = sopt.sigmoid %r : tensor<64x16xf32>
  return %s : tensor<64x16xf32>
}

// HEADER: #pragma once
// HEADER: extern "C" cudaError_t layer_norm(
// HEADER: extern "C" cudaError_t pruned(
