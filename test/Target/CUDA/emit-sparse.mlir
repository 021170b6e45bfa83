// RUN: sparse-opt %s --emit=cuda -o %t.cu --kernel-summary 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s < %t.cu
// RUN: FileCheck %s --check-prefix=HEADER < %t.h

// Scheduled sparse products launch the project's kernel templates; an
// elementwise region that consumes an SpMM runs as its epilogue.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// SUMMARY: linear_spmm0: sopt.spmm with the project's kernel, #sopt.spmm_schedule<tile_columns = 16, threads_per_tile = 16, tiles_per_block = 4, vector_width = 1, row_order = by_length>
// SUMMARY: linear_epilogue1: epilogue of 3 op(s) fused into the sparse product: broadcast add relu
// @attention's SDDMM has @scores's types and schedule: one line for both.
// SUMMARY: scores_sddmm0: sopt.sddmm with the project's kernel, #sopt.sddmm_schedule<tile_nonzeros = 8, threads_per_nonzero = 4, tiles_per_block = 8, vector_width = 4, row_order = natural> | launched 2 times
// SUMMARY: scores_blocks_sddmm0: sopt.sddmm with the project's kernel, #sopt.sddmm_schedule<tiling = dense_blocks, {{.*}}block_size = 32>
// SUMMARY: weight_grad_sddmm0: sopt.sddmm with the project's kernel, #sopt.sddmm_schedule<tiling = dense_blocks, {{.*}}transpose_rhs_first = true>
// SUMMARY: scores_blocks_split_sddmm0: sopt.sddmm with the project's kernel, #sopt.sddmm_schedule<tiling = dense_blocks, {{.*}}k_splits = 2>
// SUMMARY: linear_blocks_spmm0: sopt.spmm with the project's kernel, #sopt.spmm_schedule<{{.*}}tiling = dense_blocks, block_rows = 32>
// SUMMARY: linear_blocks_epilogue1: epilogue of 3 op(s) fused into the sparse product: broadcast add relu
// SUMMARY: linear_slices_spmm0: sopt.spmm with the project's kernel, #sopt.spmm_schedule<{{.*}}tiling = staged_slices>
// SUMMARY: linear_slices_epilogue1: epilogue of 3 op(s) fused into the sparse product: broadcast add relu
// SUMMARY-NOT: attention_sddmm0
// SUMMARY: attention_spmm1: sopt.spmm

// CHECK: #include "sparse-opt/Runtime/Kernels/Sddmm.cuh"
// CHECK: #include "sparse-opt/Runtime/Kernels/SddmmBlocks.cuh"
// CHECK: #include "sparse-opt/Runtime/Kernels/Spmm.cuh"
// CHECK: #include "sparse-opt/Runtime/Kernels/SpmmBlocks.cuh"
// CHECK-NOT: cusparse

// The epilogue: a functor over (row, column, accumulator) holding the
// region's other inputs.
// CHECK: struct linear_epilogue1 {
// CHECK-NEXT:   const float *__restrict__ in0;
// CHECK-NEXT:   __device__ __forceinline__ float operator()(int64_t d0, int64_t d1, float acc) const {
// CHECK:          const float [[BIAS:v[0-9]+]] = sopt::toFloat(in0[d1]);
// CHECK:          const float [[SUM:v[0-9]+]] = (acc + [[BIAS]]);
// CHECK:          fmaxf([[SUM]], 0.0f)
// CHECK:        return

// The pattern's rows, longest first (lengths 1, 3, 0, 2), uploaded once and
// valid only for its nnz.
// CHECK: static const int32_t linear{{[0-9]+}}_row_order_host[] = {
// CHECK-NEXT: 1, 3, 0, 2,
// CHECK: extern "C" cudaError_t linear(const int32_t *arg0_positions, const int32_t *arg0_coordinates, const float *arg0_values, int64_t arg0_nnz, const float *arg1, const float *arg2, float *result0, cudaStream_t stream)
// CHECK: if (arg0_nnz != 6)
// CHECK-NEXT: return cudaErrorInvalidValue;
// One launch writes the region's result; the product is never stored.
// CHECK-NOT: allocateTemporary(
// CHECK: sopt::launchSpmm<float, 16, 1, 1>(sopt::CsrMatrix<float>{4, 6, arg0_nnz, arg0_positions, arg0_coordinates, arg0_values}, arg1, 16, result0, linear{{[0-9]+}}_row_order, 4, 1, sopt::TileOrder::ByRow, stream, linear_epilogue1{arg2})
// CHECK-NOT: sopt::launchKernel(
func.func @linear(%w: tensor<4x6xf32, #CSR> {sopt.sparsity_pattern = "Inputs/tiny.smtx"},
                  %x: tensor<6x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %y = sopt.spmm %w, %x : tensor<4x6xf32, #CSR>, tensor<6x16xf32> -> tensor<4x16xf32>
  %bb = sopt.broadcast %b dims = [1] : tensor<16xf32> -> tensor<4x16xf32>
  %z = sopt.add %y, %bb : tensor<4x16xf32>
  %r = sopt.relu %z : tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// A CSR result is the pattern's values: the caller passes a buffer of nnz.
// CHECK: extern "C" cudaError_t scores(const float *arg0, const float *arg1, const int32_t *arg2_positions, const int32_t *arg2_coordinates, const float *arg2_values, int64_t arg2_nnz, float *result0_values, cudaStream_t stream)
// CHECK: entries' rows searched
// CHECK-NEXT: sopt::launchSddmm<float, 4, 4, 4, 8>(sopt::CsrMatrix<float>{64, 48, arg2_nnz, arg2_positions, arg2_coordinates, arg2_values}, arg0, arg1, 64, result0_values, 8, stream)
func.func @scores(%q: tensor<64x64xf32>, %k: tensor<48x64xf32>, %s: tensor<64x48xf32, #CSR>) -> tensor<64x48xf32, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs : tensor<64x64xf32>, tensor<48x64xf32>, tensor<64x48xf32, #CSR> -> tensor<64x48xf32, #CSR>
  return %d : tensor<64x48xf32, #CSR>
}

// With the pattern known at compile time the tiles read each entry's row
// instead of searching the positions: the pattern's positions (tiny.smtx:
// rows of 1, 3, 0 and 2 entries) are a static table, the generated code
// checks the caller's nnz, has a sopt::DeviceTable of its own expand the positions
// into each entry's row (copied to the device on its first call there) and
// passes them after the default epilogue.
// CHECK: // Where each row of {{.*}}Inputs/tiny.smtx starts among its entries.
// CHECK-NEXT: static const int32_t [[ROWS:[a-z_0-9]+]]_positions_host[] = {
// CHECK-NEXT:     0, 1, 4, 4, 6,
// CHECK-NEXT: };
// CHECK-NEXT: static sopt::DeviceTable [[ROWS]]_device;
// CHECK: extern "C" cudaError_t scores_known(
// CHECK: // The row of each entry of {{.*}}Inputs/tiny.smtx, expanded from its positions.
// CHECK-NEXT: if (arg2_nnz != 6)
// CHECK-NEXT: return cudaErrorInvalidValue;
// CHECK-NEXT: const int32_t *[[ROWS]] = nullptr;
// CHECK-NEXT: SOPT_TRY([[ROWS]]_device.entryRows([[ROWS]]_positions_host, 4, &[[ROWS]]));
// CHECK-NEXT: // sopt.sddmm (A · Bᵀ) ⊙ S, S 4x6, k = 64: tiles of 16 consecutive nonzeros, 4 lanes per nonzero, vectors of 4, 4 warps per block, entries' rows from the compile-time pattern
// CHECK-NEXT: SOPT_TRY((sopt::launchSddmm<float, 4, 4, 4, 16>(sopt::CsrMatrix<float>{4, 6, arg2_nnz, arg2_positions, arg2_coordinates, arg2_values}, arg0, arg1, 64, result0_values, 4, stream, sopt::ScaleByPattern{}, [[ROWS]])));
func.func @scores_known(%q: tensor<4x64xf32>, %k: tensor<6x64xf32>,
                        %s: tensor<4x6xf32, #CSR> {sopt.sparsity_pattern = "Inputs/tiny.smtx"}) -> tensor<4x6xf32, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 16, threads_per_nonzero = 4, tiles_per_block = 4, vector_width = 4, row_order = natural>}
      : tensor<4x64xf32>, tensor<6x64xf32>, tensor<4x6xf32, #CSR> -> tensor<4x6xf32, #CSR>
  return %d : tensor<4x6xf32, #CSR>
}

// A column panel without the pattern: no order to take them in, so the
// tiles run in S's order, in blocks of at most 8 warps.
// CHECK: extern "C" cudaError_t scores_panels_unknown(
// CHECK: tiles of 32 consecutive nonzeros, 4 lanes per nonzero, vectors of 4, 8 warps per block, entries' rows searched
// CHECK-NEXT: SOPT_TRY((sopt::launchSddmm<float, 4, 4, 4, 32>({{.*}}, arg0, arg1, 64, result0_values, 8, stream)));
func.func @scores_panels_unknown(%q: tensor<64x64xf32>, %k: tensor<48x64xf32>, %s: tensor<64x48xf32, #CSR>) -> tensor<64x48xf32, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 32, threads_per_nonzero = 4, tiles_per_block = 32, vector_width = 4, row_order = natural, column_panel = 16>}
      : tensor<64x64xf32>, tensor<48x64xf32>, tensor<64x48xf32, #CSR> -> tensor<64x48xf32, #CSR>
  return %d : tensor<64x48xf32, #CSR>
}

// Dense tensor-core blocks (set by hand here; sopt-schedule-sparse picks
// them for dense enough known patterns): one launch, the block side its only
// parameter.
// CHECK: extern "C" cudaError_t scores_blocks(
// CHECK: // sopt.sddmm (A · Bᵀ) ⊙ S, S 64x48, k = 64: dense 32x32 blocks on tensor cores, sampled at S's entries (rows' column windows searched, blocks of empty rows skipped)
// CHECK: sopt::launchSddmmBlocks<__half, 32>(sopt::CsrMatrix<__half>{64, 48, arg2_nnz, arg2_positions, arg2_coordinates, arg2_values}, arg0, arg1, 64, result0_values, stream)
func.func @scores_blocks(%q: tensor<64x64xf16>, %k: tensor<48x64xf16>, %s: tensor<64x48xf16, #CSR>) -> tensor<64x48xf16, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural, block_size = 32>}
      : tensor<64x64xf16>, tensor<48x64xf16>, tensor<64x48xf16, #CSR> -> tensor<64x48xf16, #CSR>
  return %d : tensor<64x48xf16, #CSR>
}

// (A · B) ⊙ S with B[k, n] and transpose_rhs_first: B is copied into a
// temporary Bᵀ[n, k] (48 x 64) first, and the transposed form's launch reads
// that; for f32 64 x 64 blocks without a prepared pattern no B planes.
// CHECK: extern "C" cudaError_t weight_grad(
// CHECK: float *[[BT:[a-z_0-9]+_rhs_t]] = nullptr;
// CHECK: sopt::allocateTemporary(&[[BT]], std::max<int64_t>(3072, 1) * sizeof(float), stream)
// CHECK: // sopt.sddmm (A · B) ⊙ S: B (64x48) transposed into [[BT]] first
// CHECK-NEXT: SOPT_TRY(sopt::launchTranspose(arg1, 64, 48, [[BT]], stream));
// CHECK-NEXT: // sopt.sddmm (A · Bᵀ) ⊙ S, S 64x48, k = 64: dense 64x64 blocks
// CHECK: sopt::launchSddmmBlocks<float, 64>(sopt::CsrMatrix<float>{64, 48, arg2_nnz, arg2_positions, arg2_coordinates, arg2_values}, arg0, [[BT]], 64, result0_values, stream)
// CHECK-NOT: b_planes
// CHECK: return cudaSuccess;
func.func @weight_grad(%a: tensor<64x64xf32>, %b: tensor<64x48xf32>, %s: tensor<64x48xf32, #CSR>) -> tensor<64x48xf32, #CSR> {
  %d = sopt.sddmm %a, %b, %s {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural, transpose_rhs_first = true>}
      : tensor<64x64xf32>, tensor<64x48xf32>, tensor<64x48xf32, #CSR> -> tensor<64x48xf32, #CSR>
  return %d : tensor<64x48xf32, #CSR>
}

// k = 0: every product is an empty sum; the tile kernel still gets one
// vector per lane (a zero-sized register array would not compile), and B's
// empty transpose is launched as for any k.
// CHECK: extern "C" cudaError_t weight_grad_k0(
// CHECK: SOPT_TRY(sopt::launchTranspose(arg1, 0, 16, {{[a-z_0-9]+}}_rhs_t, stream));
// CHECK: sopt::launchSddmm<float, 1, 4, 1, 32>(sopt::CsrMatrix<float>{8, 16, arg2_nnz, arg2_positions, arg2_coordinates, arg2_values}, arg0, {{[a-z_0-9]+}}_rhs_t, 0, result0_values, 8, stream)
func.func @weight_grad_k0(%a: tensor<8x0xf32>, %b: tensor<0x16xf32>, %s: tensor<8x16xf32, #CSR>) -> tensor<8x16xf32, #CSR> {
  %d = sopt.sddmm %a, %b, %s {schedule = #sopt.sddmm_schedule<tile_nonzeros = 32, threads_per_nonzero = 1, tiles_per_block = 8, vector_width = 4, row_order = natural, transpose_rhs_first = true>}
      : tensor<8x0xf32>, tensor<0x16xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  return %d : tensor<8x16xf32, #CSR>
}

// k split in two: a cluster of two blocks per output block, named in the
// launch.
// CHECK: extern "C" cudaError_t scores_blocks_split(
// CHECK: // sopt.sddmm (A · Bᵀ) ⊙ S, S 64x48, k = 1024: dense 64x64 blocks on tensor cores, k split among clusters of 2 blocks, sampled at S's entries (rows' column windows searched, blocks of empty rows skipped)
// CHECK: sopt::launchSddmmBlocks<float, 64, 2>(sopt::CsrMatrix<float>{64, 48, arg2_nnz, arg2_positions, arg2_coordinates, arg2_values}, arg0, arg1, 1024, result0_values, stream)
func.func @scores_blocks_split(%q: tensor<64x1024xf32>, %k: tensor<48x1024xf32>, %s: tensor<64x48xf32, #CSR>) -> tensor<64x48xf32, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural, k_splits = 2>}
      : tensor<64x1024xf32>, tensor<48x1024xf32>, tensor<64x48xf32, #CSR> -> tensor<64x48xf32, #CSR>
  return %d : tensor<64x48xf32, #CSR>
}

// With the pattern known at compile time (tiny.smtx, 4 x 6: rows of 1, 3,
// 0 and 2 entries) the rows' column windows are a static table (one block
// of 32 columns: each row's first entry and end), copied to each device on
// its first use there and passed after the default epilogue; the blocks
// then need no search.
// CHECK: // Where the rows of {{.*}}Inputs/tiny.smtx reach each block of 32 columns
// CHECK-NEXT: // (sopt_csr_column_windows).
// CHECK-NEXT: static const int32_t [[WINDOWS:[a-z_0-9]+]]_host[] = {
// CHECK-NEXT:     0, 1, 1, 4, 4, 4, 4, 6,
// CHECK-NEXT: };
// CHECK: extern "C" cudaError_t scores_blocks_known(
// CHECK: // The windows were prepared for a pattern of 6 nonzeros.
// CHECK-NEXT: if (arg2_nnz != 6)
// CHECK-NEXT: return cudaErrorInvalidValue;
// CHECK-NEXT: const int32_t *[[WINDOWS]] = nullptr;
// CHECK-NEXT: SOPT_TRY([[WINDOWS]]_device.copy([[WINDOWS]]_host, sizeof([[WINDOWS]]_host) / sizeof(int32_t), &[[WINDOWS]]));
// CHECK: dense 32x32 blocks on tensor cores, sampled at S's entries (rows' column windows prepared at compile time, blocks without entries skipped)
// CHECK-NEXT: SOPT_TRY((sopt::launchSddmmBlocks<__half, 32>(sopt::CsrMatrix<__half>{4, 6, arg2_nnz, arg2_positions, arg2_coordinates, arg2_values}, arg0, arg1, 64, result0_values, stream, sopt::ScaleByPattern{}, [[WINDOWS]])));
func.func @scores_blocks_known(%q: tensor<4x64xf16>, %k: tensor<6x64xf16>,
                               %s: tensor<4x6xf16, #CSR> {sopt.sparsity_pattern = "Inputs/tiny.smtx"}) -> tensor<4x6xf16, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural, block_size = 32>}
      : tensor<4x64xf16>, tensor<6x64xf16>, tensor<4x6xf16, #CSR> -> tensor<4x6xf16, #CSR>
  return %d : tensor<4x6xf16, #CSR>
}

// f32 64 x 64 blocks over a known pattern split B into its TF32 parts and
// remainders once per call: the host function allocates the planes (2 n k
// floats) as a temporary and passes them last; the runtime then feeds the
// blocks by TMA.
// CHECK: extern "C" cudaError_t scores_blocks_planes(
// CHECK: float *[[PLANES:[a-z_0-9]+_b_planes]] = nullptr;
// CHECK: SOPT_TRY(sopt::allocateTemporary(&[[PLANES]], std::max<int64_t>(768, 1) * sizeof(float), stream));
// CHECK: dense 64x64 blocks on tensor cores, sampled at S's entries (rows' column windows prepared at compile time, blocks without entries skipped)
// CHECK-NEXT: // B split into its TF32 parts and remainders first ([[PLANES]])
// CHECK-NEXT: SOPT_TRY((sopt::launchSddmmBlocks<float, 64>(sopt::CsrMatrix<float>{4, 6, arg2_nnz, arg2_positions, arg2_coordinates, arg2_values}, arg0, arg1, 64, result0_values, stream, sopt::ScaleByPattern{}, {{[a-z_0-9]+}}, [[PLANES]])));
// CHECK: cudaFreeAsync([[PLANES]], stream);
func.func @scores_blocks_planes(%q: tensor<4x64xf32>, %k: tensor<6x64xf32>,
                                %s: tensor<4x6xf32, #CSR> {sopt.sparsity_pattern = "Inputs/tiny.smtx"}) -> tensor<4x6xf32, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural>}
      : tensor<4x64xf32>, tensor<6x64xf32>, tensor<4x6xf32, #CSR> -> tensor<4x6xf32, #CSR>
  return %d : tensor<4x6xf32, #CSR>
}

// SpMM by dense tensor-core blocks (set by hand): the epilogue functor is
// the row kernel's, the launch names the block shape.
// CHECK: extern "C" cudaError_t linear_blocks(
// CHECK: // sopt.spmm 300x257 (CSR) x 257x50 + epilogue linear_blocks_epilogue1: dense 32x64 blocks of C on tensor cores
// CHECK-NEXT: SOPT_TRY((sopt::launchSpmmBlocks<float, 32, 64>(sopt::CsrMatrix<float>{300, 257, arg0_nnz, arg0_positions, arg0_coordinates, arg0_values}, arg1, 50, result0, stream, linear_blocks_epilogue1{arg2})));
func.func @linear_blocks(%w: tensor<300x257xf32, #CSR>, %x: tensor<257x50xf32>, %b: tensor<300xf32>) -> tensor<300x50xf32> {
  %y = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 32, tiles_per_block = 1, vector_width = 1, row_order = natural, tiling = dense_blocks, block_rows = 32>}
      : tensor<300x257xf32, #CSR>, tensor<257x50xf32> -> tensor<300x50xf32>
  %bb = sopt.broadcast %b dims = [0] : tensor<300xf32> -> tensor<300x50xf32>
  %z = sopt.add %y, %bb : tensor<300x50xf32>
  %r = sopt.relu %z : tensor<300x50xf32>
  return %r : tensor<300x50xf32>
}

// The same blocks in 16-bit: one product per product, f32 accumulation.
// CHECK: extern "C" cudaError_t linear_blocks_f16(
// CHECK: // sopt.spmm 300x257 (CSR) x 257x64: dense 64x64 blocks of C on tensor cores (f32 accumulation), A densified a chunk of 64 columns at a time over its rows' window of k
// CHECK-NEXT: SOPT_TRY((sopt::launchSpmmBlocks<__half, 64, 64>(sopt::CsrMatrix<__half>{300, 257, arg0_nnz, arg0_positions, arg0_coordinates, arg0_values}, arg1, 64, result0, stream)));
func.func @linear_blocks_f16(%w: tensor<300x257xf16, #CSR>, %x: tensor<257x64xf16>) -> tensor<300x64xf16> {
  %y = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 32, tiles_per_block = 1, vector_width = 1, row_order = natural, tiling = dense_blocks>}
      : tensor<300x257xf16, #CSR>, tensor<257x64xf16> -> tensor<300x64xf16>
  return %y : tensor<300x64xf16>
}

// SpMM from staged slices of B (set by hand): 1024 threads per block, the
// epilogue functor as for row tiles.
// CHECK: extern "C" cudaError_t linear_slices(
// CHECK: // sopt.spmm 300x257 (CSR) x 257x64 + epilogue linear_slices_epilogue1: each block stages a 257x64 slice of B in shared memory, rows 16 threads each, 64 per block, rows in order
// CHECK-NEXT: SOPT_TRY((sopt::launchSpmmSlices<float, 64, 4>(sopt::CsrMatrix<float>{300, 257, arg0_nnz, arg0_positions, arg0_coordinates, arg0_values}, arg1, 64, result0, nullptr, 1024, stream, linear_slices_epilogue1{arg2})));
func.func @linear_slices(%w: tensor<300x257xf32, #CSR>, %x: tensor<257x64xf32>, %b: tensor<300xf32>) -> tensor<300x64xf32> {
  %y = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 16, tiles_per_block = 64, vector_width = 4, row_order = natural, tiling = staged_slices>}
      : tensor<300x257xf32, #CSR>, tensor<257x64xf32> -> tensor<300x64xf32>
  %bb = sopt.broadcast %b dims = [0] : tensor<300xf32> -> tensor<300x64xf32>
  %z = sopt.add %y, %bb : tensor<300x64xf32>
  %r = sopt.relu %z : tensor<300x64xf32>
  return %r : tensor<300x64xf32>
}

// SDDMM into SpMM: the sampled values live in an intermediate of nnz
// elements; the SpMM reads them with the pattern's positions and coordinates.
// CHECK: extern "C" cudaError_t attention(
// CHECK: SOPT_TRY(sopt::allocateTemporary(&[[P:t[0-9]+]], std::max<int64_t>(arg3_nnz, 1) * sizeof(float), stream));
// CHECK: sopt::launchSddmm<float, {{.*}}, arg0, arg1, 64, [[P]], 8, stream
// CHECK: sopt::launchSpmm<float, {{.*}}>(sopt::CsrMatrix<float>{64, 48, arg3_nnz, arg3_positions, arg3_coordinates, [[P]]}, arg2, 32, result0,
// CHECK: cudaFreeAsync([[P]], stream);
func.func @attention(%q: tensor<64x64xf32>, %k: tensor<48x64xf32>, %v: tensor<48x32xf32>,
                     %s: tensor<64x48xf32, #CSR>) -> tensor<64x32xf32> {
  %p = sopt.sddmm %q, %k, %s transpose_rhs : tensor<64x64xf32>, tensor<48x64xf32>, tensor<64x48xf32, #CSR> -> tensor<64x48xf32, #CSR>
  %o = sopt.spmm %p, %v : tensor<64x48xf32, #CSR>, tensor<48x32xf32> -> tensor<64x32xf32>
  return %o : tensor<64x32xf32>
}

// HEADER: extern "C" cudaError_t linear(
// HEADER: extern "C" cudaError_t scores(
// HEADER: extern "C" cudaError_t scores_blocks(
// HEADER: extern "C" cudaError_t linear_blocks(
// HEADER: extern "C" cudaError_t attention(
