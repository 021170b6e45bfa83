// RUN: sparse-opt %s --emit=cuda -o %t.cu
// RUN: FileCheck %s < %t.cu

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// The runtime's fused kernel, included once.
// CHECK: #include "sparse-opt/Runtime/Kernels/SparseAttentionDispatch.cuh"
// CHECK-NOT: #include "sparse-opt/Runtime/Kernels/SparseAttentionDispatch.cuh"

// The chain of three steps becomes one launch: the pattern's arrays and
// values (which scale the scores, as the SDDMM's did), the scale folded in.
// CHECK-LABEL: extern "C" cudaError_t chain(
// CHECK: // sopt.sparse_attention, fused SDDMM + softmax over stored entries + SpMM; heads 1, head dims 64 / 32; rows in order, none split
// CHECK-NEXT: sopt::SparseAttentionProblem<float> p;
// CHECK-NEXT: p.rows = 100; p.cols = 300; p.nnz = arg2_nnz; p.heads = 1;
// CHECK-NEXT: p.queryDim = 64; p.valueDim = 32;
// CHECK-NEXT: p.positions = arg2_positions; p.coordinates = arg2_coordinates; p.patternValues = arg2_values;
// CHECK-NEXT: p.q = arg0; p.k = arg1; p.v = arg3; p.out = result0;
// CHECK-NEXT: p.scale = 0.125f;
// CHECK-NEXT: SOPT_TRY(sopt::runSparseAttention(p, sopt::SparseAttentionRows{}, stream));
// CHECK-NOT: sopt::SparseAttentionProblem
// CHECK: return cudaSuccess;
func.func @chain(%q: tensor<100x64xf32>, %k: tensor<300x64xf32>, %s: tensor<100x300xf32, #CSR>,
                 %v: tensor<300x32xf32>) -> tensor<100x32xf32> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs
      : tensor<100x64xf32>, tensor<300x64xf32>, tensor<100x300xf32, #CSR> -> tensor<100x300xf32, #CSR>
  %c = sopt.constant dense<0.125> : tensor<100x300xf32>
  %x = sopt.mul %d, %c : tensor<100x300xf32, #CSR>, tensor<100x300xf32> -> tensor<100x300xf32, #CSR>
  %p = sopt.softmax %x dim = 1 : tensor<100x300xf32, #CSR>
  %o = sopt.spmm %p, %v : tensor<100x300xf32, #CSR>, tensor<300x32xf32> -> tensor<100x32xf32>
  return %o : tensor<100x32xf32>
}

// Batch x heads leading dimensions, bf16: the heads multiply out.
// CHECK-LABEL: extern "C" cudaError_t heads(
// CHECK: // sopt.sparse_attention, fused SDDMM + softmax over stored entries + SpMM; heads 8, head dims 64 / 64; rows in order, none split
// CHECK-NEXT: sopt::SparseAttentionProblem<__nv_bfloat16> p;
// CHECK-NEXT: p.rows = 256; p.cols = 256; p.nnz = arg3_nnz; p.heads = 8;
// CHECK: p.scale = 0.0625f;
func.func @heads(%q: tensor<2x4x256x64xbf16>, %k: tensor<2x4x256x64xbf16>,
                 %v: tensor<2x4x256x64xbf16>, %s: tensor<256x256xbf16, #CSR>)
    -> tensor<2x4x256x64xbf16> {
  %o = sopt.sparse_attention %q, %k, %v, %s scale = 0.0625
      : tensor<2x4x256x64xbf16>, tensor<2x4x256x64xbf16>, tensor<2x4x256x64xbf16>,
        tensor<256x256xbf16, #CSR> -> tensor<2x4x256x64xbf16>
  return %o : tensor<2x4x256x64xbf16>
}
