// cuSPARSE refuses zero-sized descriptors: a product over no columns is a
// zero fill, an empty result calls nothing (run on the GPU by
// test/GPU/Fusion/sparse_cusparse.cu).
// RUN: sparse-opt %s --cusparse --emit=cuda -o - | FileCheck %s
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// CHECK-LABEL: extern "C" cudaError_t spmm_k0(
// CHECK-NOT: cusparse
// CHECK: SOPT_TRY(cudaMemsetAsync(result0, 0, 140, stream));
// CHECK-NEXT: return cudaSuccess;
func.func @spmm_k0(%a: tensor<5x0xf32, #CSR>, %x: tensor<0x7xf32>) -> tensor<5x7xf32> {
  %y = sopt.spmm %a, %x : tensor<5x0xf32, #CSR>, tensor<0x7xf32> -> tensor<5x7xf32>
  return %y : tensor<5x7xf32>
}

// CHECK-LABEL: extern "C" cudaError_t spmv_m0(
// CHECK-NEXT: auto run
// CHECK-NEXT: // sopt.spmv: an empty result, nothing to compute
// CHECK-NEXT: return cudaSuccess;
func.func @spmv_m0(%a: tensor<0x9xf32, #CSR>, %x: tensor<9xf32>) -> tensor<0xf32> {
  %y = sopt.spmv %a, %x : tensor<0x9xf32, #CSR>, tensor<9xf32> -> tensor<0xf32>
  return %y : tensor<0xf32>
}

// CHECK-LABEL: extern "C" cudaError_t spmv_nonempty(
// CHECK: cusparseSpMV(
func.func @spmv_nonempty(%a: tensor<3x9xf32, #CSR>, %x: tensor<9xf32>) -> tensor<3xf32> {
  %y = sopt.spmv %a, %x : tensor<3x9xf32, #CSR>, tensor<9xf32> -> tensor<3xf32>
  return %y : tensor<3xf32>
}
