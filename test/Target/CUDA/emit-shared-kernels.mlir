// RUN: sparse-opt %s --emit=cuda --cublas -o %t.cu --kernel-summary 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s < %t.cu
// RUN: sparse-opt %S/Inputs/repeated-sparse-layers.mlir --emit=cuda -o %t.sparse.cu --kernel-summary 2>&1 | FileCheck %s --check-prefix=SPARSE-SUMMARY
// RUN: FileCheck %s --check-prefix=SPARSE < %t.sparse.cu

// Regions of the same structure (same ops, attributes and types, whatever
// their operands) compile to one kernel, named after the first and launched
// by every one of them, in any function. A region that differs in a type or
// an op gets its own. (--cublas: on the project's GEMM the regions after the
// products would become their epilogues.)

// SUMMARY: twice_kernel0: 2 ops | elementwise {{.*}} | launched 3 times
// SUMMARY-NEXT: twice_kernel2: 2 ops | elementwise {{.*}}
// SUMMARY-NOT: launched
// SUMMARY-NEXT: other_kernel1: 2 ops | elementwise {{.*}}
// SUMMARY-NOT: kernel

// CHECK-COUNT-3: __global__
// CHECK-NOT: __global__
// CHECK-LABEL: extern "C" cudaError_t twice(
// CHECK: sopt::launchKernel(twice_kernel0, {{.*}}, arg0, [[T0:t[0-9]+]]));
// CHECK: sopt::launchKernel(twice_kernel0, {{.*}}, [[M:t[0-9]+]], [[T1:t[0-9]+]]));
// CHECK: sopt::launchKernel(twice_kernel2,
// CHECK-LABEL: extern "C" cudaError_t other(
// CHECK: sopt::launchKernel(twice_kernel0,
// CHECK: sopt::launchKernel(other_kernel1,
// Sparse products alike share a summary line (and their template
// instance); equal epilogues one functor.
// SPARSE-SUMMARY: layers_spmm0: sopt.spmm with the project's kernel, #sopt.spmm_schedule<{{.*}}> | launched 2 times
// SPARSE-SUMMARY-NEXT: layers_epilogue1: epilogue of 1 op(s) fused into the sparse product: relu | called by 2 launches
// SPARSE-SUMMARY-NEXT: compile time:
// SPARSE-COUNT-1: struct layers_epilogue{{[0-9]+}} {
// SPARSE-NOT: struct
// SPARSE: sopt::launchSpmm<float, {{.*}}arg0_values}{{.*}}layers_epilogue1{
// SPARSE: sopt::launchSpmm<float, {{.*}}arg1_values}{{.*}}layers_epilogue1{

func.func @twice(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %a = sopt.exp %x : tensor<64x64xf32>
  %b = sopt.relu %a : tensor<64x64xf32>
  %m = sopt.matmul %b, %w : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  %c = sopt.exp %m : tensor<64x64xf32>
  %d = sopt.relu %c : tensor<64x64xf32>
  %n = sopt.matmul %d, %w : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  // relu before exp: another kernel.
  %e = sopt.relu %n : tensor<64x64xf32>
  %f = sopt.exp %e : tensor<64x64xf32>
  return %f : tensor<64x64xf32>
}

func.func @other(%x: tensor<64x64xf32>, %y: tensor<32x64xf32>) -> (tensor<64x64xf32>, tensor<32x64xf32>) {
  %a = sopt.exp %x : tensor<64x64xf32>
  %b = sopt.relu %a : tensor<64x64xf32>
  // The same ops on another shape: another kernel.
  %c = sopt.exp %y : tensor<32x64xf32>
  %d = sopt.relu %c : tensor<32x64xf32>
  return %b, %d : tensor<64x64xf32>, tensor<32x64xf32>
}
