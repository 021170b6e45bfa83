// RUN: sparse-opt %s --emit=cuda --gemm-kernel -o %t.cu --kernel-summary 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s < %t.cu
// RUN: sparse-opt %s --sopt-pipeline=gemm-kernel=true | FileCheck %s --check-prefix=IR
// By default every product is a cuBLAS call and every consumer a kernel.
// RUN: sparse-opt %s --emit=cuda -o %t.cublas.cu --kernel-summary 2>&1 | FileCheck %s --check-prefix=CUBLAS-SUMMARY
// RUN: FileCheck %s --check-prefix=CUBLAS < %t.cublas.cu
// A bad schedule written by hand: a located error, no output.
// RUN: not sparse-opt %S/Inputs/bad-gemm-schedule.mlir --emit=cuda -o %t.bad.cu 2>&1 | FileCheck %s --check-prefix=BAD

// f32 products run on the project's GEMM (Runtime/Kernels/GemmSimt.cuh)
// under the schedule sopt-schedule-gemm chose; an elementwise region that
// reads a one-slice, unbatched product only at the element it computes is
// that GEMM's epilogue, and the product is never stored.

// SUMMARY: linear_matmul0: sopt.matmul on the project's GEMM kernel | 1000x2051x333 | tile 128x128, k_step 16, no split | epilogue fused
// SUMMARY-NEXT: linear_epilogue0: epilogue of 8 op(s) fused into the GEMM: broadcast add mul erf add mul mul add
// SUMMARY-NEXT: split_matmul0: sopt.matmul on the project's GEMM kernel | 128x3072x768 | tile 64x128, k_step 8, 8 K slices | consumer region not fused (split K adds partial sums atomically)
// SUMMARY-NEXT: split_kernel0: 7 ops | elementwise
// SUMMARY-NEXT: heads_matmul0: sopt.matmul on the project's GEMM kernel | 67x33x45, batch 3 | tile 64x128, k_step 8, no split
// SUMMARY-NEXT: half_kernel0: 1 ops
// SUMMARY-NEXT: compile time

// CHECK: #include "sparse-opt/Runtime/Kernels/GemmSimt.cuh"
// CHECK: struct linear_epilogue0 {
// CHECK-NEXT: const float *__restrict__ in0;
// CHECK-NEXT: const float *__restrict__ in2;
// CHECK-NEXT: __device__ __forceinline__ float operator()(int64_t d0, int64_t d1, float acc) const {

// CHECK-LABEL: extern "C" cudaError_t linear(
// CHECK: // sopt.matmul on the project's GEMM kernel | 1000x2051x333 | tile 128x128, k_step 16, no split | epilogue fused: linear_epilogue0
// CHECK-NEXT: sopt::gemm_simt::GemmProblem problem;
// CHECK-NEXT: problem.m = 1000, problem.n = 2051, problem.k = 333;
// CHECK-NEXT: problem.a = arg0, problem.lda = 333, problem.transposeA = false;
// CHECK-NEXT: problem.b = arg1, problem.ldb = 2051, problem.transposeB = false;
// CHECK-NEXT: problem.c = nullptr, problem.ldc = 2051;
// CHECK-NEXT: SOPT_TRY((sopt::gemm_simt::gemmSimtFixed<128, 128, 16, false, false>(problem, 1, stream, sopt::gemm_simt::storeThrough(result0, 2051, linear_epilogue0{arg2, arg3}))));
// CHECK-NOT: launchKernel
// CHECK-NOT: allocateTemporary
// CHECK: return cudaSuccess;
// IR-LABEL: func.func @linear
// IR: sopt.matmul %arg0, %arg1 {schedule = #sopt.gemm_schedule<block_m = 128, block_n = 128, k_step = 16>}
// IR-NEXT: sopt.fusion ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2051xf32>, tensor<1000x2051xf32>, tensor<1000x2051xf32>) attributes {{{.*}}sopt.sparse_epilogue = 1 : i64
func.func @linear(%x: tensor<1000x333xf32>, %w: tensor<333x2051xf32>, %b: tensor<2051xf32>, %r: tensor<1000x2051xf32>) -> tensor<1000x2051xf32> {
  %y = sopt.matmul %x, %w : tensor<1000x333xf32>, tensor<333x2051xf32> -> tensor<1000x2051xf32>
  %bb = sopt.broadcast %b dims = [1] : tensor<2051xf32> -> tensor<1000x2051xf32>
  %s = sopt.add %y, %bb : tensor<1000x2051xf32>
  %g = sopt.gelu %s : tensor<1000x2051xf32>
  %o = sopt.add %g, %r : tensor<1000x2051xf32>
  return %o : tensor<1000x2051xf32>
}

// Split K: the product goes to an intermediate, summed atomically; its
// consumers are a kernel.
// CHECK-LABEL: extern "C" cudaError_t split(
// CHECK: SOPT_TRY(sopt::allocateTemporary(&[[T:t[0-9]+]],
// CHECK: problem.c = [[T]], problem.ldc = 3072;
// CHECK-NEXT: SOPT_TRY((sopt::gemm_simt::gemmSimtFixed<64, 128, 8, false, false>(problem, 8, stream)));
// CHECK: sopt::launchKernel(split_kernel0, {{.*}}, arg2, [[T]], result0));
// IR-LABEL: func.func @split
// IR: sopt.fusion
// IR-NOT: sopt.sparse_epilogue
// IR: return
func.func @split(%x: tensor<128x768xf32>, %w: tensor<768x3072xf32>, %b: tensor<3072xf32>) -> tensor<128x3072xf32> {
  %y = sopt.matmul %x, %w : tensor<128x768xf32>, tensor<768x3072xf32> -> tensor<128x3072xf32>
  %bb = sopt.broadcast %b dims = [1] : tensor<3072xf32> -> tensor<128x3072xf32>
  %s = sopt.add %y, %bb : tensor<128x3072xf32>
  %g = sopt.gelu %s : tensor<128x3072xf32>
  return %g : tensor<128x3072xf32>
}

// Batched with both operands transposed: the matrices share one grid, each
// operand one matrix after the one before.
// CHECK-LABEL: extern "C" cudaError_t heads(
// CHECK: problem.m = 67, problem.n = 33, problem.k = 45;
// CHECK-NEXT: problem.a = arg0, problem.lda = 67, problem.transposeA = true;
// CHECK-NEXT: problem.b = arg1, problem.ldb = 45, problem.transposeB = true;
// CHECK-NEXT: problem.c = result0, problem.ldc = 33;
// CHECK-NEXT: problem.batch = 3, problem.strideA = 3015, problem.strideB = 1485, problem.strideC = 2211;
// CHECK-NEXT: SOPT_TRY((sopt::gemm_simt::gemmSimtFixed<64, 128, 8, true, true>(problem, 1, stream)));
func.func @heads(%a: tensor<3x45x67xf32>, %b: tensor<3x33x45xf32>) -> tensor<3x67x33xf32> {
  %y = sopt.matmul %a, %b transpose_lhs transpose_rhs : tensor<3x45x67xf32>, tensor<3x33x45xf32> -> tensor<3x67x33xf32>
  return %y : tensor<3x67x33xf32>
}

// f16 stays on cuBLAS.
// CHECK-LABEL: extern "C" cudaError_t half(
// CHECK: cublasGemmStridedBatchedEx(
func.func @half(%x: tensor<64x64xf16>, %w: tensor<64x64xf16>) -> tensor<64x64xf16> {
  %y = sopt.matmul %x, %w : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf16>
  %r = sopt.relu %y : tensor<64x64xf16>
  return %r : tensor<64x64xf16>
}

// CUBLAS-SUMMARY: linear_kernel0: 8 ops | elementwise
// CUBLAS-SUMMARY-NOT: matmul
// CUBLAS-SUMMARY-NOT: epilogue
// CUBLAS-NOT: GemmSimt
// CUBLAS-LABEL: extern "C" cudaError_t linear(
// CUBLAS: cublasSgemmStridedBatched(sopt::cublasFor(stream), CUBLAS_OP_N, CUBLAS_OP_N, 2051, 1000, 333,
// CUBLAS: sopt::launchKernel(linear_kernel0,

// BAD: bad-gemm-schedule.mlir:3:8: error: 'sopt.matmul' op has an invalid schedule #sopt.gemm_schedule<block_m = 32, block_n = 128, k_step = 8>: M needs more than 65535 tile rows
