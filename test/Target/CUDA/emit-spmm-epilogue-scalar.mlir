// RUN: sparse-opt %s --emit=cuda -o %t.cu --kernel-summary 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s < %t.cu

// An SpMM epilogue runs once per output element: every value it needs, the
// scalar scale included, is computed inside the functor, and a tensor of
// the product's shape is read at (row, column), not at a flat index.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// SUMMARY: scaled_residual_epilogue1: epilogue of 4 op(s) fused into the sparse product: broadcast mul add relu

// CHECK: struct scaled_residual_epilogue1 {
// CHECK: __device__ __forceinline__ float operator()(int64_t d0, int64_t d1, float acc) const {
// CHECK-DAG: sopt::toFloat(in{{[0-9]}}[0])
// CHECK-DAG: sopt::toFloat(in{{[0-9]}}[((d0 * 16) + d1)])
// CHECK: return
// CHECK-NEXT: }
func.func @scaled_residual(%w: tensor<40x24xf32, #CSR>, %x: tensor<24x16xf32>,
                           %s: tensor<f32>, %r: tensor<40x16xf32>) -> tensor<40x16xf32> {
  %y = sopt.spmm %w, %x : tensor<40x24xf32, #CSR>, tensor<24x16xf32> -> tensor<40x16xf32>
  %sb = sopt.broadcast %s dims = [] : tensor<f32> -> tensor<40x16xf32>
  %z = sopt.mul %y, %sb : tensor<40x16xf32>
  %a = sopt.add %z, %r : tensor<40x16xf32>
  %o = sopt.relu %a : tensor<40x16xf32>
  return %o : tensor<40x16xf32>
}
