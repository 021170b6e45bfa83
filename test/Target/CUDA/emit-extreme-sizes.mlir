// RUN: sparse-opt %s --emit=cuda -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: sparse-opt %s --emit=cuda --gemm-kernel -o %t.gemm.cu
// RUN: FileCheck %s --check-prefix=GEMM < %t.gemm.cu

// Sizes at the edges: empty results are computed (as nothing), k = 0 is a
// product of zeros, sizes beyond int take cuBLAS's 64-bit API, and a splat
// constant is one value however large. By default every product is
// cuBLAS's; with --gemm-kernel the f32 ones run on the project's GEMM, the
// empty ones and the f16 one still as below.

// A matmul with an empty result launches nothing (it used to divide by
// m * n = 0 in the emitter).
// CHECK-LABEL: extern "C" cudaError_t empty_rows(
// CHECK: // sopt.matmul: an empty result, nothing to compute
// CHECK-NOT: cublas
// CHECK: return cudaSuccess;
func.func @empty_rows(%a: tensor<0x8xf32>, %b: tensor<8x16xf32>) -> tensor<0x16xf32> {
  %0 = sopt.matmul %a, %b : tensor<0x8xf32>, tensor<8x16xf32> -> tensor<0x16xf32>
  return %0 : tensor<0x16xf32>
}

// k = 0: every output is a sum over nothing (cuBLAS rejects k = 0).
// CHECK-LABEL: extern "C" cudaError_t empty_k(
// CHECK: // sopt.matmul with k = 0: the product is zero
// CHECK-NEXT: SOPT_TRY(cudaMemsetAsync(result0, 0, 256, stream));
func.func @empty_k(%a: tensor<4x0xf32>, %b: tensor<0x16xf32>) -> tensor<4x16xf32> {
  %0 = sopt.matmul %a, %b : tensor<4x0xf32>, tensor<0x16xf32> -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// K = 2^32 does not fit cuBLAS's int: the _64 API takes it.
// CHECK-LABEL: extern "C" cudaError_t long_k(
// CHECK: cublasGemmStridedBatchedEx_64(sopt::cublasFor(stream), CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 4294967296,
func.func @long_k(%a: tensor<1x4294967296xf16>, %b: tensor<4294967296x1xf16>) -> tensor<1x1xf16> {
  %0 = sopt.matmul %a, %b : tensor<1x4294967296xf16>, tensor<4294967296x1xf16> -> tensor<1x1xf16>
  return %0 : tensor<1x1xf16>
}

// A 4096 x 4096 splat: its 4 bytes once (1.5f is 0x3fc00000,
// little-endian), written on the device (it was 235 MB of CUDA text).
// CHECK: // tensor<4096x4096xf32> (splat: one element), little-endian bytes.
// CHECK-NEXT: static const char splat_lhs_constant{{[0-9]+}}[] =
// CHECK-NEXT: "\0\0\300\77";
// CHECK-LABEL: extern "C" cudaError_t splat_lhs(
// Sizes within int keep the classic API.
// CHECK: SOPT_TRY(sopt::launchFill(t{{[0-9]+}}, splat_lhs_constant{{[0-9]+}}, 16777216, stream));
// CHECK-NEXT: cublasSgemmStridedBatched(sopt::cublasFor(stream), CUBLAS_OP_N, CUBLAS_OP_N, 4096, 4096, 4096,
// GEMM-LABEL: extern "C" cudaError_t splat_lhs(
// GEMM: problem.m = 4096, problem.n = 4096, problem.k = 4096;
// GEMM: SOPT_TRY((sopt::gemm_simt::gemmSimtFixed<128, 128, 16, false, false>(problem, 1, stream)));
func.func @splat_lhs(%b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %a = sopt.constant dense<1.5> : tensor<4096x4096xf32>
  %0 = sopt.matmul %a, %b : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}

// A softmax over no rows: one block that finds no row (the mapping used to
// divide by the zero blocks).
// CHECK-LABEL: extern "C" cudaError_t softmax_no_rows(
// CHECK: SOPT_TRY(sopt::launchKernel(softmax_no_rows_kernel{{[0-9]+}}, 1, 64, 0, stream, arg0, result0));
func.func @softmax_no_rows(%a: tensor<0x8xf32>) -> tensor<0x8xf32> {
  %0 = sopt.softmax %a dim = 1 : tensor<0x8xf32>
  return %0 : tensor<0x8xf32>
}

// A column reduction over no columns, likewise.
// CHECK-LABEL: extern "C" cudaError_t columns_none(
// CHECK: SOPT_TRY(sopt::launchKernel(columns_none_kernel{{[0-9]+}}, 1, 256,
func.func @columns_none(%a: tensor<8x0xf32>) -> tensor<0xf32> {
  %0 = sopt.reduce sum %a dims = [0] : tensor<8x0xf32> -> tensor<0xf32>
  return %0 : tensor<0xf32>
}

// Constants written straight into the caller's buffers get names of their
// own (both used to be two_constants_constant0: a redefinition).
// CHECK: static const char two_constants_constant0[] =
// CHECK: static const char two_constants_constant1[] =
// CHECK-LABEL: extern "C" cudaError_t two_constants(
// CHECK: cudaMemcpyAsync(result0, two_constants_constant0, 16, cudaMemcpyHostToDevice, stream)
// CHECK: cudaMemcpyAsync(result1, two_constants_constant1, 16, cudaMemcpyHostToDevice, stream)
func.func @two_constants() -> (tensor<4xf32>, tensor<4xf32>) {
  %a = sopt.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %b = sopt.constant dense<[5.0, 6.0, 7.0, 8.0]> : tensor<4xf32>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}
