// RUN: sparse-opt %s --emit=cuda -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: sparse-opt %s --emit=mlir -o - | FileCheck %s --check-prefix=MLIR
// RUN: sparse-opt %s --cusparse --emit=cuda -o %t-lib.cu
// RUN: FileCheck %s --check-prefix=LIB < %t-lib.cu
// RUN: sparse-opt %S/Inputs/spmv-prepared-f64.mlir --emit=cuda -o %t64.cu
// RUN: FileCheck %s --check-prefix=F64 < %t64.cu
// RUN: %if nvcc %{ %nvcc -I%sopt_src_root/include -c %t.cu -o %t.o %}
// RUN: %if nvcc %{ %nvcc -I%sopt_src_root/include -c %t64.cu -o %t64.o %}

// A sopt.spmv whose CSR matrix is an argument with a pattern file runs the
// prepared SpMV (HBP or row-vector kernel, its plan made at the first call
// and kept) when it has at most 4096 rows; otherwise, without a pattern
// file, or under --cusparse, cuSPARSE.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// CHECK: #include "sparse-opt/Runtime/Host/SpmvPrepared.cuh"
// CHECK: #include "sparse-opt/Runtime/Host/Cusparse.h"

// CHECK-LABEL: cudaError_t step(
// CHECK:      static sopt::spmv::PreparedSpmv [[PLAN:spmv_plan[0-9]+]];
// CHECK-NEXT: SOPT_TRY([[PLAN]].run(4, 6, {{.*}}, SOPT_SPMV_I32, SOPT_SPMV_F32, {{.*}}, stream));
// CHECK-NOT: cusparseSpMV
// MLIR-LABEL: func.func @step
// MLIR: sopt.spmv %{{.*}}, %{{.*}} {sopt.prepared_spmv}
func.func @step(%a: tensor<4x6xf32, #CSR> {sopt.sparsity_pattern = "Inputs/tiny.smtx"},
                %x: tensor<6xf32>) -> tensor<4xf32> {
  %y = sopt.spmv %a, %x : tensor<4x6xf32, #CSR>, tensor<6xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// f64 values and 64-bit indices (Inputs/spmv-prepared-f64.mlir).
// F64-LABEL: cudaError_t step_f64(
// F64:      static sopt::spmv::PreparedSpmv [[PLAN64:spmv_plan[0-9]+]];
// F64-NEXT: SOPT_TRY([[PLAN64]].run(4, 6, {{.*}}, SOPT_SPMV_I64, SOPT_SPMV_F64, {{.*}}, stream));

// A pattern that arrives at run time: cuSPARSE.
// CHECK-LABEL: cudaError_t runtime_pattern(
// CHECK-NOT: PreparedSpmv
// CHECK: cusparseSpMV(
// MLIR-LABEL: func.func @runtime_pattern
// MLIR-NOT: prepared_spmv
func.func @runtime_pattern(%a: tensor<4x6xf32, #CSR>, %x: tensor<6xf32>) -> tensor<4xf32> {
  %y = sopt.spmv %a, %x : tensor<4x6xf32, #CSR>, tensor<6xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// Beyond the few thousand rows where the prepared kernels were measured
// faster (docs/benchmarks/spmv.md), cuSPARSE even with a pattern file.
// CHECK-LABEL: cudaError_t tall(
// CHECK-NOT: PreparedSpmv
// CHECK: cusparseSpMV(
// MLIR-LABEL: func.func @tall
// MLIR-NOT: prepared_spmv
func.func @tall(%a: tensor<5000x6xf32, #CSR> {sopt.sparsity_pattern = "Inputs/tall_5000x6.smtx"},
                %x: tensor<6xf32>) -> tensor<5000xf32> {
  %y = sopt.spmv %a, %x : tensor<5000x6xf32, #CSR>, tensor<6xf32> -> tensor<5000xf32>
  return %y : tensor<5000xf32>
}

// Under --cusparse every spmv goes to the library.
// LIB-NOT: PreparedSpmv
// LIB-LABEL: cudaError_t step(
// LIB: cusparseSpMV(
