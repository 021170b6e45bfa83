// RUN: sparse-opt %s --emit=cuda -o %t.cu --kernel-summary 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s < %t.cu
// RUN: FileCheck %s --check-prefix=HEADER < %t.h
// Every decision of the CUDA below is in --emit=mlir (sopt-prepare-sparse-emission).
// RUN: sparse-opt %s --emit=mlir -o - | FileCheck %s --check-prefix=MLIR

// A CSC operand's file holds Sᵀ in CSR: its tables are the file's own.
// MLIR: sopt.pattern_tables @linear_spmm0 of "{{.*}}Inputs/tiny.smtx" {cols = 6 : i64, nnz = 6 : i64, row_order = dense<[1, 3, 0, 2]> : tensor<4xi32>, rows = 4 : i64}
// MLIR-LABEL: func.func @linear
// MLIR: sopt.launch = #sopt.sparse_launch<stores_transposed = true>, sopt.pattern_tables = @linear_spmm0
// MLIR: sopt.pattern_tables @known_spmm0 of "{{.*}}Inputs/tiny.smtx" transposed {{{.*}}transpose_coordinates = dense<[1, 3, 0, 1, 3, 1]> : tensor<6xi32>, transpose_permutation = dense<[1, 4, 0, 2, 5, 3]> : tensor<6xi32>, transpose_positions = dense<[0, 1, 2, 3, 4, 5, 6]> : tensor<7xi32>}
// MLIR-LABEL: func.func @known
// MLIR: sopt.launch = #sopt.sparse_launch<stores_transposed = true>, sopt.pattern_tables = @known_spmm0
// MLIR-LABEL: func.func @unknown
// MLIR: sopt.launch = #sopt.sparse_launch<stores_transposed = true, transposes_sparse = true>
// MLIR-LABEL: func.func @wide
// MLIR: sopt.launch = #sopt.sparse_launch<result_workspace = 512>
// MLIR-LABEL: func.func @blocks
// MLIR: sopt.launch = #sopt.sparse_launch<stores_transposed = true>

// Dense × sparse products, X · S, run as (Sᵀ · Xᵀ)ᵀ on the project's CSR
// SpMM kernel: Xᵀ by a tiled transpose, the kernel storing Y transposed.
// Sᵀ in CSR is a CSC S as it is, or a CSR S transposed: at compile time
// when its pattern is known, by cuSPARSE on each call otherwise.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed), posWidth = 32, crdWidth = 32 }>

// SUMMARY: linear_spmm0: sopt.spmm with the project's kernel, #sopt.spmm_schedule<{{.*}}row_order = by_length>; dense x sparse as (Sᵀ · Xᵀ)ᵀ: S is CSC: its arrays are Sᵀ in CSR, used as they are; Xᵀ by a tiled transpose; the kernel stores Y transposed
// SUMMARY: linear_epilogue1: epilogue of 3 op(s) fused into the sparse product: broadcast add relu
// SUMMARY: known_spmm0: sopt.spmm with the project's kernel, {{.*}}; dense x sparse as (Sᵀ · Xᵀ)ᵀ: Sᵀ's pattern transposed at compile time, S's values permuted on every call;
// SUMMARY: unknown_spmm0: sopt.spmm with the project's kernel, {{.*}}; dense x sparse as (Sᵀ · Xᵀ)ᵀ: Sᵀ in CSR by cuSPARSE csr2csc on every call (pattern unknown);

// CHECK: #include "sparse-opt/Runtime/Kernels/Spmm.cuh"
// CHECK: #include "sparse-opt/Runtime/Kernels/Transpose.cuh"
// CHECK: #include "sparse-opt/Runtime/Host/Cusparse.h"

// The bias of y = relu(x · Wᵀ + b) is indexed by Y's column (d1): the
// kernel calls the epilogue with Y's indices.
// CHECK: struct linear_epilogue1 {
// CHECK:   const float v{{[0-9]+}} = sopt::toFloat(in0[d1]);

// A CSC argument is passed as the arrays of its transpose in CSR; its
// pattern file (tiny.smtx, 4 x 6: rows of 1, 3, 0, 2 entries) holds them.
// CHECK: static const int32_t linear{{[0-9]+}}_row_order_host[] = {
// CHECK-NEXT: 1, 3, 0, 2,
// CHECK: extern "C" cudaError_t linear(const float *arg0, const int32_t *arg1_positions, const int32_t *arg1_coordinates, const float *arg1_values, int64_t arg1_nnz, const float *arg2, float *result0, cudaStream_t stream) {
// CHECK:   SOPT_TRY(sopt::launchTranspose(arg0, 8, 6, [[XT:t[0-9]+]], stream));
// CHECK:   if (arg1_nnz != 6)
// CHECK:   // sopt.spmm 8x6 x 6x4 (CSC) as (Sᵀ · Xᵀ)ᵀ + epilogue linear_epilogue1:
// CHECK-NEXT: SOPT_TRY((sopt::launchSpmm<float, {{[0-9]+}}, {{[0-9]+}}, 1, /*TransposeC=*/true>(sopt::CsrMatrix<float>{4, 6, arg1_nnz, arg1_positions, arg1_coordinates, arg1_values}, [[XT]], 8, result0, linear{{[0-9]+}}_row_order, {{[0-9]+}}, 1, sopt::TileOrder::ByRow, stream, sopt::swapIndices(linear_epilogue1{arg2}))));
func.func @linear(%x: tensor<8x6xf32>,
                  %wt: tensor<6x4xf32, #CSC> {sopt.sparsity_pattern = "Inputs/tiny.smtx"},
                  %b: tensor<4xf32>) -> tensor<8x4xf32> {
  %y = sopt.spmm %x, %wt : tensor<8x6xf32>, tensor<6x4xf32, #CSC> -> tensor<8x4xf32>
  %bb = sopt.broadcast %b dims = [1] : tensor<4xf32> -> tensor<8x4xf32>
  %z = sopt.add %y, %bb : tensor<8x4xf32>
  %r = sopt.relu %z : tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// A CSR S with a known pattern (tiny.smtx, 4 x 6): Sᵀ's positions (6 + 1),
// coordinates and the permutation into S's values are tables; each call
// checks nnz and permutes the values.
// CHECK: static const int32_t known_transpose{{[0-9]+}}_positions_host[] = {
// CHECK-NEXT: 0, 1, 2, 3, 4, 5, 6,
// CHECK: static const int32_t known_transpose{{[0-9]+}}_coordinates_host[] = {
// CHECK-NEXT: 1, 3, 0, 1, 3, 1,
// CHECK: static const int32_t known_transpose{{[0-9]+}}_permutation_host[] = {
// CHECK-NEXT: 1, 4, 0, 2, 5, 3,
// CHECK: extern "C" cudaError_t known(
// CHECK:   if (arg1_nnz != 6)
// CHECK-NEXT: return cudaErrorInvalidValue;
// CHECK:   SOPT_TRY(sopt::launchPermuteValues(arg1_values, {{.*}}, arg1_nnz, [[VALUES:known_transpose[0-9]+_values]], stream));
// CHECK:   SOPT_TRY(sopt::launchTranspose(arg0, 3, 4, [[XT:t[0-9]+]], stream));
// CHECK:   SOPT_TRY((sopt::launchSpmm<float, {{.*}}, /*TransposeC=*/true>(sopt::CsrMatrix<float>{6, 4, arg1_nnz, known_transpose{{[0-9]+}}_positions, known_transpose{{[0-9]+}}_coordinates, [[VALUES]]}, [[XT]], 3, result0, nullptr, {{[0-9]+}}, 1, sopt::TileOrder::ByRow, stream)));
func.func @known(%x: tensor<3x4xf32>,
                 %s: tensor<4x6xf32, #CSR> {sopt.sparsity_pattern = "Inputs/tiny.smtx"}) -> tensor<3x6xf32> {
  %y = sopt.spmm %x, %s : tensor<3x4xf32>, tensor<4x6xf32, #CSR> -> tensor<3x6xf32>
  return %y : tensor<3x6xf32>
}

// Without a pattern, cuSPARSE transposes S (csr2csc) on every call.
// CHECK: extern "C" cudaError_t unknown(
// CHECK:   cusparseCsr2cscEx2(sopt::cusparseFor(stream), 64, 32, int(arg1_nnz), arg1_values, arg1_positions, arg1_coordinates, [[VALUES:unknown_transpose[0-9]+_values]], [[POS:unknown_transpose[0-9]+_positions]], [[CRD:unknown_transpose[0-9]+_coordinates]], CUDA_R_16F,
// CHECK:   SOPT_TRY((sopt::launchSpmm<__half, {{.*}}, /*TransposeC=*/true>(sopt::CsrMatrix<__half>{32, 64, arg1_nnz, [[POS]], [[CRD]], [[VALUES]]}
func.func @unknown(%x: tensor<16x64xf16>, %s: tensor<64x32xf16, #CSR>) -> tensor<16x32xf16> {
  %y = sopt.spmm %x, %s : tensor<16x64xf16>, tensor<64x32xf16, #CSR> -> tensor<16x32xf16>
  return %y : tensor<16x32xf16>
}

// With vectors wider than 1 the kernel stores Cᵀ row-major (its vector
// stores kept) and a tiled transpose writes Y; the epilogue, written for
// Y's indices, is adapted by swapIndices.
// SUMMARY: wide_spmm0: sopt.spmm with the project's kernel, {{.*}}vector_width = 4{{.*}}; Cᵀ stored row-major, then a tiled transpose to Y
// The same bias epilogue in @wide and @blocks: one functor for both.
// SUMMARY: wide_epilogue1: epilogue of 2 op(s) fused into the sparse product: broadcast add | called by 2 launches
// SUMMARY-NOT: blocks_epilogue
// CHECK: extern "C" cudaError_t wide(
// CHECK:   SOPT_TRY((sopt::launchSpmm<float, 16, 4, 4>(sopt::CsrMatrix<float>{8, 16, arg1_nnz, arg1_positions, arg1_coordinates, arg1_values}, [[XT:t[0-9]+]], 64, [[CT:wide[0-9]+_ct]], nullptr, 4, 1, sopt::TileOrder::ByRow, stream, sopt::swapIndices(wide_epilogue{{[0-9]+}}{arg2}))));
// CHECK-NEXT: SOPT_TRY(sopt::launchTranspose([[CT]], 8, 64, result0, stream));
func.func @wide(%x: tensor<64x16xf32>, %s: tensor<16x8xf32, #CSC>, %b: tensor<8xf32>) -> tensor<64x8xf32> {
  %y = sopt.spmm %x, %s {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 16,
      tiles_per_block = 4, vector_width = 4, row_order = natural>}
      : tensor<64x16xf32>, tensor<16x8xf32, #CSC> -> tensor<64x8xf32>
  %bb = sopt.broadcast %b dims = [1] : tensor<8xf32> -> tensor<64x8xf32>
  %z = sopt.add %y, %bb : tensor<64x8xf32>
  return %z : tensor<64x8xf32>
}

// Dense tensor-core blocks store Y transposed whatever the schedule's vector
// width (through shared memory, coalesced either way): no Cᵀ, no transpose
// of the result.
// CHECK: extern "C" cudaError_t blocks(
// CHECK:   SOPT_TRY(sopt::launchTranspose(arg0, 64, 16, [[XT:t[0-9]+]], stream));
// CHECK:   // sopt.spmm 64x16 x 16x8 (CSC) as (Sᵀ · Xᵀ)ᵀ + epilogue wide_epilogue1: dense 32x64 blocks of Y on tensor cores (3 TF32 products per product), stored transposed
// CHECK-NEXT: SOPT_TRY((sopt::launchSpmmBlocks<float, 64, 32, /*TransposeC=*/true>(sopt::CsrMatrix<float>{8, 16, arg1_nnz, arg1_positions, arg1_coordinates, arg1_values}, [[XT]], 64, result0, stream, sopt::swapIndices(wide_epilogue1{arg2}))));
// CHECK-NOT: launchTranspose
// CHECK: return cudaSuccess;
func.func @blocks(%x: tensor<64x16xf32>, %s: tensor<16x8xf32, #CSC>, %b: tensor<8xf32>) -> tensor<64x8xf32> {
  %y = sopt.spmm %x, %s {schedule = #sopt.spmm_schedule<tile_columns = 32, threads_per_tile = 32,
      tiles_per_block = 1, vector_width = 4, row_order = natural, tiling = dense_blocks>}
      : tensor<64x16xf32>, tensor<16x8xf32, #CSC> -> tensor<64x8xf32>
  %bb = sopt.broadcast %b dims = [1] : tensor<8xf32> -> tensor<64x8xf32>
  %z = sopt.add %y, %bb : tensor<64x8xf32>
  return %z : tensor<64x8xf32>
}

// HEADER: extern "C" cudaError_t linear(const float *arg0, const int32_t *arg1_positions, const int32_t *arg1_coordinates, const float *arg1_values, int64_t arg1_nnz, const float *arg2, float *result0, cudaStream_t stream);
// HEADER: extern "C" cudaError_t known(
// HEADER: extern "C" cudaError_t unknown(
