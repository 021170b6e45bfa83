// RUN: sparse-opt %s -split-input-file --sopt-schedule-sparse | FileCheck %s
// Read from stdin there is no file location: relative pattern paths resolve
// against the current directory.
// RUN: cd %S && sparse-opt -split-input-file --sopt-schedule-sparse < %s | FileCheck %s
// The pass ends sopt-pipeline.
// RUN: sparse-opt %s -split-input-file --sopt-pipeline | FileCheck %s --check-prefix=PIPE

// The expected schedules are what sopt::chooseSpmmSchedule and
// sopt::chooseSddmmSchedule (lib/Runtime/Sp{mm,ddmm}ScheduleRules.cpp) return; the
// derivations below follow that code. Busy threads = 132 * 1024 = 135168.
//
// SpMM, with the constants of f32 and wider elements (f16/bf16 in
// brackets): columns per thread = pow2_at_most(max(m * n / (0.5 [0.25] *
// 135168 * (n / 256)^0.5 [^0]), 1)) [for a known pattern also times (mean
// row length / 64)^0.25 [^0], halved when the longest row exceeds 3x the
// mean [never]], at most 16, halved while above 1 and 4x it exceeds
// pow2_at_least(n); vector_width = the widest of 4, 2, 1 that divides n,
// fits 16 bytes and the columns per thread; threads_per_tile =
// clamp(pow2_at_least(ceil(n / columns per thread)), 4, 32); tile_columns =
// threads_per_tile * columns per thread. A known pattern's rows split in
// two again (up to 8) while the lanes, m * n / columns per thread * splits,
// stay within 0.5 [1] busy GPUs and the mean row keeps 4 entries per share,
// or within 2 busy GPUs while the longest row's share exceeds 512 [128]
// entries. tiles_per_block = max(1, 64 [128] / (threads_per_tile *
// row_splits)). row_order = by_length only for a known pattern whose
// longest row is longer than the mean; tile_order = by_column from m * n =
// 2^21 outputs.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

// m = 512, n = 256, f32: 512 * 256 / 67584 = 1.9 -> 1 column per thread
// (every thread counts when the output is small), so scalar accesses; 256
// lanes -> 32; tile 32; 2 tiles per 64-thread block.
// CHECK-LABEL: func.func @spmm_n256
// CHECK: sopt.spmm %arg0, %arg1 {schedule = #sopt.spmm_schedule<tile_columns = 32, threads_per_tile = 32, tiles_per_block = 2, vector_width = 1, row_order = natural>} : tensor<512x512xf32, #{{.*}}>, tensor<512x256xf32> -> tensor<512x256xf32>
// PIPE-LABEL: func.func @spmm_n256
// PIPE: sopt.spmm %arg0, %arg1 {schedule = #sopt.spmm_schedule<tile_columns = 32, threads_per_tile = 32, tiles_per_block = 2, vector_width = 1, row_order = natural>}
func.func @spmm_n256(%w: tensor<512x512xf32, #CSR>, %x: tensor<512x256xf32>) -> tensor<512x256xf32> {
  %y = sopt.spmm %w, %x : tensor<512x512xf32, #CSR>, tensor<512x256xf32> -> tensor<512x256xf32>
  return %y : tensor<512x256xf32>
}

// -----

// m = 8192, n = 1024: 8192 * 1024 / (67584 * 2) = 62 -> 32 -> 16 columns
// per thread (the most), vector 4; 64 lanes -> 32; tile 512; 8.4M outputs:
// by column.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// CHECK-LABEL: func.func @spmm_n1024
// CHECK: sopt.spmm %arg0, %arg1 {schedule = #sopt.spmm_schedule<tile_columns = 512, threads_per_tile = 32, tiles_per_block = 2, vector_width = 4, row_order = natural, tile_order = by_column>}
func.func @spmm_n1024(%w: tensor<8192x512xf32, #CSR>, %x: tensor<512x1024xf32>) -> tensor<8192x1024xf32> {
  %y = sopt.spmm %w, %x : tensor<8192x512xf32, #CSR>, tensor<512x1024xf32> -> tensor<8192x1024xf32>
  return %y : tensor<8192x1024xf32>
}

// -----

// n = 37 is odd: scalar accesses, 1 column per thread; 37 lanes -> 64 -> 32.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// CHECK-LABEL: func.func @spmm_n37
// CHECK: sopt.spmm %arg0, %arg1 {schedule = #sopt.spmm_schedule<tile_columns = 32, threads_per_tile = 32, tiles_per_block = 2, vector_width = 1, row_order = natural>}
func.func @spmm_n37(%w: tensor<512x512xf32, #CSR>, %x: tensor<512x37xf32>) -> tensor<512x37xf32> {
  %y = sopt.spmm %w, %x : tensor<512x512xf32, #CSR>, tensor<512x37xf32> -> tensor<512x37xf32>
  return %y : tensor<512x37xf32>
}

// -----

// m = 12288, n = 64: 12288 * 64 / (67584 * 0.5) = 23 -> 16 columns per
// thread (16 * 4 = 64 does not exceed 64), vector 4, 4 lanes: eight rows
// per warp (subwarps), 16 tiles per block.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// CHECK-LABEL: func.func @spmm_n64
// CHECK: sopt.spmm %arg0, %arg1 {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 4, tiles_per_block = 16, vector_width = 4, row_order = natural>}
func.func @spmm_n64(%w: tensor<12288x512xf32, #CSR>, %x: tensor<512x64xf32>) -> tensor<12288x64xf32> {
  %y = sopt.spmm %w, %x : tensor<12288x512xf32, #CSR>, tensor<512x64xf32> -> tensor<12288x64xf32>
  return %y : tensor<12288x64xf32>
}

// -----

// f64, m = 8192, n = 256: 8192 * 256 / 67584 = 31 -> 16 columns per
// thread; a vector of 4 would be 32 bytes, so 2; 16 lanes, tile 256, 4
// tiles per block; 2^21 outputs: by column.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// CHECK-LABEL: func.func @spmm_f64
// CHECK: sopt.spmm %arg0, %arg1 {schedule = #sopt.spmm_schedule<tile_columns = 256, threads_per_tile = 16, tiles_per_block = 4, vector_width = 2, row_order = natural, tile_order = by_column>}
func.func @spmm_f64(%w: tensor<8192x512xf64, #CSR>, %x: tensor<512x256xf64>) -> tensor<8192x256xf64> {
  %y = sopt.spmm %w, %x : tensor<8192x512xf64, #CSR>, tensor<512x256xf64> -> tensor<8192x256xf64>
  return %y : tensor<8192x256xf64>
}

// -----

// f16, m = 65536, n = 32: 65536 * 32 / 33792 = 62 -> 16 -> 8 columns per
// thread (8 * 4 = 32 does not exceed 32), vector 4 (8 bytes); 4 lanes;
// tile 32; 128 / 4 = 32 tiles per block; 2^21 outputs: by column.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// CHECK-LABEL: func.func @spmm_f16_narrow
// CHECK: sopt.spmm %arg0, %arg1 {schedule = #sopt.spmm_schedule<tile_columns = 32, threads_per_tile = 4, tiles_per_block = 32, vector_width = 4, row_order = natural, tile_order = by_column>}
func.func @spmm_f16_narrow(%w: tensor<65536x64xf16, #CSR>, %x: tensor<64x32xf16>) -> tensor<65536x32xf16> {
  %y = sopt.spmm %w, %x : tensor<65536x64xf16, #CSR>, tensor<64x32xf16> -> tensor<65536x32xf16>
  return %y : tensor<65536x32xf16>
}

// -----

// Only the CSR kernel takes a schedule: CSC or BSR lhs and a BSR rhs get none.
#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
#BSR = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense) }>
// CHECK-LABEL: func.func @spmm_unscheduled
// CHECK-NOT: schedule
// CHECK: return
func.func @spmm_unscheduled(%csc: tensor<64x64xf32, #CSC>, %bsr: tensor<64x64xf32, #BSR>,
                            %x: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) {
  %0 = sopt.spmm %csc, %x : tensor<64x64xf32, #CSC>, tensor<64x64xf32> -> tensor<64x64xf32>
  %1 = sopt.spmm %bsr, %x : tensor<64x64xf32, #BSR>, tensor<64x64xf32> -> tensor<64x64xf32>
  %2 = sopt.spmm %x, %bsr : tensor<64x64xf32>, tensor<64x64xf32, #BSR> -> tensor<64x64xf32>
  return %0, %1, %2 : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
}

// -----

// Dense × sparse, X[m, k] · S[k, n] with S in CSR or CSC, runs as Sᵀ · Xᵀ:
// the schedule is that of an n x k CSR matrix times k x m. Here n = 1024
// rows, m = 256 columns: 1024 * 256 / 67584 = 3.9 -> 2 columns per thread,
// vectors of 2, tiles of 32 lanes. m = 8192: 8.4M / (67584 * 5.7) = 22 ->
// 16 columns per thread, vector 4, tile 512, by column.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
// CHECK-LABEL: func.func @dense_times_sparse
// CHECK: sopt.spmm %arg0, %arg1 {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 32, tiles_per_block = 2, vector_width = 2, row_order = natural>} : tensor<256x512xf32>, tensor<512x1024xf32, #{{.*}}> -> tensor<256x1024xf32>
// CHECK: sopt.spmm %arg0, %arg2 {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 32, tiles_per_block = 2, vector_width = 2, row_order = natural>} : tensor<256x512xf32>, tensor<512x1024xf32, #{{.*}}> -> tensor<256x1024xf32>
// CHECK: sopt.spmm %arg3, %arg1 {schedule = #sopt.spmm_schedule<tile_columns = 512, threads_per_tile = 32, tiles_per_block = 2, vector_width = 4, row_order = natural, tile_order = by_column>}
// PIPE-LABEL: func.func @dense_times_sparse
// PIPE: sopt.spmm %arg0, %arg1 {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 32, tiles_per_block = 2, vector_width = 2, row_order = natural>}
func.func @dense_times_sparse(%x: tensor<256x512xf32>, %csr: tensor<512x1024xf32, #CSR>,
                              %csc: tensor<512x1024xf32, #CSC>, %big: tensor<8192x512xf32>)
    -> (tensor<256x1024xf32>, tensor<256x1024xf32>, tensor<8192x1024xf32>) {
  %0 = sopt.spmm %x, %csr : tensor<256x512xf32>, tensor<512x1024xf32, #CSR> -> tensor<256x1024xf32>
  %1 = sopt.spmm %x, %csc : tensor<256x512xf32>, tensor<512x1024xf32, #CSC> -> tensor<256x1024xf32>
  %2 = sopt.spmm %big, %csr : tensor<8192x512xf32>, tensor<512x1024xf32, #CSR> -> tensor<8192x1024xf32>
  return %0, %1, %2 : tensor<256x1024xf32>, tensor<256x1024xf32>, tensor<8192x1024xf32>
}

// -----

// SDDMM with transpose_rhs: vector_width as for SpMM (of k);
// threads_per_nonzero = min(pow2_at_least(ceil(k / 16)), 32,
// pow2_at_most(k / vector_width)), doubled while a known pattern would give
// fewer than 16 warps per SM (counting two outputs per group); in f32 one
// output per group (tile_nonzeros = 32 / threads_per_nonzero) and 8 warps
// per block, in 16-bit two (2 * 32 / threads_per_nonzero) and 4 warps. A
// known pattern of at least 8 * 132 * 32 = 33792 nonzeros (and in f32 6e6
// products) takes tiles of 32 instead (sopt-schedule-sparse-lane-tiles.mlir;
// @small_tiles stays below). Without a known
// pattern, never dense blocks.
// k = 256: 16 lanes per output, 2 nonzeros per warp tile.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// CHECK-LABEL: func.func @sddmm_k256
// CHECK: sopt.sddmm %arg0, %arg1, %arg2 transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 2, threads_per_nonzero = 16, tiles_per_block = 8, vector_width = 4, row_order = natural>} : tensor<512x256xf32>, tensor<512x256xf32>, tensor<512x512xf32, #{{.*}}> -> tensor<512x512xf32, #{{.*}}>
func.func @sddmm_k256(%a: tensor<512x256xf32>, %b: tensor<512x256xf32>, %s: tensor<512x512xf32, #CSR>) -> tensor<512x512xf32, #CSR> {
  %d = sopt.sddmm %a, %b, %s transpose_rhs : tensor<512x256xf32>, tensor<512x256xf32>, tensor<512x512xf32, #CSR> -> tensor<512x512xf32, #CSR>
  return %d : tensor<512x512xf32, #CSR>
}

// -----

// k = 1024: a whole warp per output (the cap), 1 nonzero per tile.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// CHECK-LABEL: func.func @sddmm_k1024
// CHECK: sopt.sddmm %arg0, %arg1, %arg2 transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 1, threads_per_nonzero = 32, tiles_per_block = 8, vector_width = 4, row_order = natural>}
func.func @sddmm_k1024(%a: tensor<512x1024xf32>, %b: tensor<512x1024xf32>, %s: tensor<512x512xf32, #CSR>) -> tensor<512x512xf32, #CSR> {
  %d = sopt.sddmm %a, %b, %s transpose_rhs : tensor<512x1024xf32>, tensor<512x1024xf32>, tensor<512x512xf32, #CSR> -> tensor<512x512xf32, #CSR>
  return %d : tensor<512x512xf32, #CSR>
}

// -----

// Without transpose_rhs (B[k, n]) B is transposed first, and the schedule
// is the transposed form's (here as for @sddmm_transposed above), whatever
// k ...
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// CHECK-LABEL: func.func @sddmm_transpose_first
// CHECK: sopt.sddmm %arg0, %arg1, %arg2 {schedule = #sopt.sddmm_schedule<tile_nonzeros = 8, threads_per_nonzero = 4, tiles_per_block = 8, vector_width = 4, row_order = natural, transpose_rhs_first = true>}
func.func @sddmm_transpose_first(%a: tensor<512x64xf32>, %b: tensor<64x512xf32>, %s: tensor<512x512xf32, #CSR>) -> tensor<512x512xf32, #CSR> {
  %d = sopt.sddmm %a, %b, %s : tensor<512x64xf32>, tensor<64x512xf32>, tensor<512x512xf32, #CSR> -> tensor<512x512xf32, #CSR>
  return %d : tensor<512x512xf32, #CSR>
}

// -----

// ... also k = 4 (vectors of 4, one lane per output) ...
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// CHECK-LABEL: func.func @sddmm_transpose_first_short_k
// CHECK: sopt.sddmm %arg0, %arg1, %arg2 {schedule = #sopt.sddmm_schedule<{{.*}}threads_per_nonzero = 1, {{.*}}vector_width = 4, row_order = natural, transpose_rhs_first = true>}
func.func @sddmm_transpose_first_short_k(%a: tensor<512x4xf32>, %b: tensor<4x512xf32>, %s: tensor<512x512xf32, #CSR>) -> tensor<512x512xf32, #CSR> {
  %d = sopt.sddmm %a, %b, %s : tensor<512x4xf32>, tensor<4x512xf32>, tensor<512x512xf32, #CSR> -> tensor<512x512xf32, #CSR>
  return %d : tensor<512x512xf32, #CSR>
}

// -----

// ... but for a known pattern with fewer entries than a tenth of B's
// columns (5 entries, 200 columns) B's columns are gathered: one lane per
// output, scalar loads, 32 nonzeros per tile (the gather reads less of B
// than a transpose would).
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// CHECK-LABEL: func.func @sddmm_gather_few_entries
// CHECK: sopt.sddmm %arg1, %arg2, %arg0 {schedule = #sopt.sddmm_schedule<tile_nonzeros = 32, threads_per_nonzero = 1, tiles_per_block = 4, vector_width = 1, row_order = by_length>}
func.func @sddmm_gather_few_entries(%s: tensor<4x200xf32, #CSR> {sopt.sparsity_pattern = "Inputs/schedule-few-entries.mtx"},
                                    %a: tensor<4x64xf32>, %b: tensor<64x200xf32>) -> tensor<4x200xf32, #CSR> {
  %d = sopt.sddmm %a, %b, %s : tensor<4x64xf32>, tensor<64x200xf32>, tensor<4x200xf32, #CSR> -> tensor<4x200xf32, #CSR>
  return %d : tensor<4x200xf32, #CSR>
}

// -----

// Schedules set by hand are kept (the chosen ones would differ: see
// @spmm_n256 and @sddmm_k256).
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// CHECK-LABEL: func.func @kept
// CHECK: sopt.spmm %arg0, %arg1 {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 16, tiles_per_block = 8, vector_width = 4, row_order = by_length>}
// CHECK: sopt.sddmm %arg2, %arg2, %arg0 transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 16, threads_per_nonzero = 16, tiles_per_block = 2, vector_width = 2, row_order = natural>}
func.func @kept(%w: tensor<512x512xf32, #CSR>, %x: tensor<512x256xf32>, %a: tensor<512x256xf32>) -> (tensor<512x256xf32>, tensor<512x512xf32, #CSR>) {
  %y = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 16, tiles_per_block = 8, vector_width = 4, row_order = by_length>}
      : tensor<512x512xf32, #CSR>, tensor<512x256xf32> -> tensor<512x256xf32>
  %d = sopt.sddmm %a, %a, %w transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 16, threads_per_nonzero = 16, tiles_per_block = 2, vector_width = 2, row_order = natural>}
      : tensor<512x256xf32>, tensor<512x256xf32>, tensor<512x512xf32, #CSR> -> tensor<512x512xf32, #CSR>
  return %y, %d : tensor<512x256xf32>, tensor<512x512xf32, #CSR>
}

// -----

// A pattern known ahead of time whose rows differ in length (8 x 16, rows of
// 5, 0, 1, 2, 1, 1, 1, 1 nonzeros: longest 5 > mean 1.5): longest rows
// first for the SpMM (the SDDMM tiles split nonzeros evenly and need no row
// order). The other fields depend on the shape alone. The same file serves
// both products (it is read once).
// SpMM, m = 8, n = 256: as @spmm_n256. SDDMM, k = 64: vector 4;
// min(pow2_at_least(4), 32, 16) = 4 lanes per output, doubled up to the
// cap of 16 since 12 nonzeros make few warps; 32 / 16 = 2. (Density
// 12 / 128 but 12 * 64 products: too little work for dense blocks.)
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// CHECK-LABEL: func.func @pattern_skewed
// CHECK: sopt.spmm %arg0, %arg1 {schedule = #sopt.spmm_schedule<tile_columns = 32, threads_per_tile = 32, tiles_per_block = 2, vector_width = 1, row_order = by_length>}
// CHECK: sopt.sddmm %arg2, %arg3, %arg0 transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 2, threads_per_nonzero = 16, tiles_per_block = 8, vector_width = 4, row_order = natural>}
func.func @pattern_skewed(%w: tensor<8x16xf32, #CSR> {sopt.sparsity_pattern = "Inputs/schedule-skewed-rows.smtx"},
                          %x: tensor<16x256xf32>, %a: tensor<8x64xf32>, %b: tensor<16x64xf32>) -> (tensor<8x256xf32>, tensor<8x16xf32, #CSR>) {
  %y = sopt.spmm %w, %x : tensor<8x16xf32, #CSR>, tensor<16x256xf32> -> tensor<8x256xf32>
  %d = sopt.sddmm %a, %b, %w transpose_rhs : tensor<8x64xf32>, tensor<16x64xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  return %y, %d : tensor<8x256xf32>, tensor<8x16xf32, #CSR>
}

// The same file on another function's argument.
// CHECK-LABEL: func.func @pattern_skewed_again
// CHECK: sopt.spmm %arg0, %arg1 {schedule = #sopt.spmm_schedule<tile_columns = 32, threads_per_tile = 32, tiles_per_block = 2, vector_width = 1, row_order = by_length>}
func.func @pattern_skewed_again(%w: tensor<8x16xf32, #CSR> {sopt.sparsity_pattern = "Inputs/schedule-skewed-rows.smtx"},
                                %x: tensor<16x256xf32>) -> tensor<8x256xf32> {
  %y = sopt.spmm %w, %x : tensor<8x16xf32, #CSR>, tensor<16x256xf32> -> tensor<8x256xf32>
  return %y : tensor<8x256xf32>
}

// -----

// Every row of this Matrix Market pattern has 2 nonzeros: natural order.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// CHECK-LABEL: func.func @pattern_uniform
// CHECK: sopt.spmm %arg0, %arg1 {schedule = #sopt.spmm_schedule<tile_columns = 32, threads_per_tile = 32, tiles_per_block = 2, vector_width = 1, row_order = natural>}
// CHECK: sopt.sddmm %arg2, %arg3, %arg0 {schedule = #sopt.sddmm_schedule<tile_nonzeros = 4, threads_per_nonzero = 8, tiles_per_block = 8, vector_width = 4, row_order = natural, transpose_rhs_first = true>}
func.func @pattern_uniform(%w: tensor<8x16xf32, #CSR> {sopt.sparsity_pattern = "Inputs/schedule-uniform-rows.mtx"},
                           %x: tensor<16x256xf32>, %a: tensor<8x32xf32>, %b: tensor<32x16xf32>) -> (tensor<8x256xf32>, tensor<8x16xf32, #CSR>) {
  %y = sopt.spmm %w, %x : tensor<8x16xf32, #CSR>, tensor<16x256xf32> -> tensor<8x256xf32>
  %d = sopt.sddmm %a, %b, %w : tensor<8x32xf32>, tensor<32x16xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  return %y, %d : tensor<8x256xf32>, tensor<8x16xf32, #CSR>
}

// -----

// Split rows. One row of 1000 entries among 128 (mean 7.8, n = 256): 1
// column per thread; the mean is too short to split, but the long row is
// split while its share exceeds 512 entries in f32 (2 ways) and 128 in f16
// (8 ways); being 128 times the mean (a hub row), it is also cut into
// segments of 64 entries. Sixteen rows of 64 entries (mean 64): the even
// shares keep 4 entries of a mean row up to 8 ways. One tile of 32 lanes
// per block then has 64-256 threads.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// CHECK-LABEL: func.func @split_rows
// CHECK: sopt.spmm %arg0, %arg1 {schedule = #sopt.spmm_schedule<tile_columns = 32, threads_per_tile = 32, tiles_per_block = 1, vector_width = 1, row_order = by_length, row_splits = 2, row_segment = 64>}
// CHECK: sopt.spmm %arg2, %arg3 {schedule = #sopt.spmm_schedule<tile_columns = 32, threads_per_tile = 32, tiles_per_block = 1, vector_width = 1, row_order = by_length, row_splits = 8, row_segment = 64>}
// CHECK: sopt.spmm %arg4, %arg5 {schedule = #sopt.spmm_schedule<tile_columns = 32, threads_per_tile = 32, tiles_per_block = 1, vector_width = 1, row_order = natural, row_splits = 8>}
func.func @split_rows(%w: tensor<128x1024xf32, #CSR> {sopt.sparsity_pattern = "Inputs/schedule-one-long-row.smtx"},
                      %x: tensor<1024x256xf32>,
                      %h: tensor<128x1024xf16, #CSR> {sopt.sparsity_pattern = "Inputs/schedule-one-long-row.smtx"},
                      %hx: tensor<1024x256xf16>,
                      %e: tensor<16x512xf32, #CSR> {sopt.sparsity_pattern = "Inputs/schedule-even-rows.smtx"},
                      %ex: tensor<512x256xf32>)
    -> (tensor<128x256xf32>, tensor<128x256xf16>, tensor<16x256xf32>) {
  %y = sopt.spmm %w, %x : tensor<128x1024xf32, #CSR>, tensor<1024x256xf32> -> tensor<128x256xf32>
  %z = sopt.spmm %h, %hx : tensor<128x1024xf16, #CSR>, tensor<1024x256xf16> -> tensor<128x256xf16>
  %v = sopt.spmm %e, %ex : tensor<16x512xf32, #CSR>, tensor<512x256xf32> -> tensor<16x256xf32>
  return %y, %z, %v : tensor<128x256xf32>, tensor<128x256xf16>, tensor<16x256xf32>
}

// -----

// Tiles of 32 nonzeros (one output per lane after the transposed
// butterfly) need a known pattern of at least 33792 nonzeros: the 68 full
// rows of 256 (17408 nonzeros; too little work for dense blocks: 17408 *
// 1024 < 3e7) keep the smaller tiles at either k and type. f32: one output
// per group, 8 warps per block; f16: two, 4 warps. Patterns that take the
// 32-tiles: sopt-schedule-sparse-lane-tiles.mlir.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// CHECK-LABEL: func.func @small_tiles
// CHECK: sopt.sddmm %arg1, %arg2, %arg0 transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 2, threads_per_nonzero = 16, tiles_per_block = 8, vector_width = 4, row_order = natural>}
// CHECK: sopt.sddmm %arg3, %arg4, %arg0 transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 1, threads_per_nonzero = 32, tiles_per_block = 8, vector_width = 4, row_order = natural>}
// CHECK: sopt.sddmm %arg6, %arg7, %arg5 transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 4, threads_per_nonzero = 16, tiles_per_block = 4, vector_width = 4, row_order = natural>}
func.func @small_tiles(%s: tensor<68x256xf32, #CSR> {sopt.sparsity_pattern = "Inputs/schedule-dense-rows.smtx"},
                      %a: tensor<68x256xf32>, %b: tensor<256x256xf32>,
                      %a2: tensor<68x1024xf32>, %b2: tensor<256x1024xf32>,
                      %h: tensor<68x256xf16, #CSR> {sopt.sparsity_pattern = "Inputs/schedule-dense-rows.smtx"},
                      %ha: tensor<68x256xf16>, %hb: tensor<256x256xf16>)
    -> (tensor<68x256xf32, #CSR>, tensor<68x256xf32, #CSR>, tensor<68x256xf16, #CSR>) {
  %d = sopt.sddmm %a, %b, %s transpose_rhs : tensor<68x256xf32>, tensor<256x256xf32>, tensor<68x256xf32, #CSR> -> tensor<68x256xf32, #CSR>
  %d2 = sopt.sddmm %a2, %b2, %s transpose_rhs : tensor<68x1024xf32>, tensor<256x1024xf32>, tensor<68x256xf32, #CSR> -> tensor<68x256xf32, #CSR>
  %dh = sopt.sddmm %ha, %hb, %h transpose_rhs : tensor<68x256xf16>, tensor<256x256xf16>, tensor<68x256xf16, #CSR> -> tensor<68x256xf16, #CSR>
  return %d, %d2, %dh : tensor<68x256xf32, #CSR>, tensor<68x256xf32, #CSR>, tensor<68x256xf16, #CSR>
}

// -----

// Dense tensor-core blocks: a known pattern of density at least 6 % (f16) or
// 8 % (f32) with at least 6e6 (f16) or 3e7 (f32) products, nnz * k. The
// skewed pattern (12 of 128 entries) with k = 2^20: 1.26e7 products, dense
// blocks in f16. In f32 with k = 2048 (too little work) tiles of nonzeros,
// a warp per output; with k = 4096 dense blocks again, since a warp per
// output cannot hold A's slice of k / 32 > 64 elements (the blocks take any
// k). An 8 x 16 pattern makes one 64 x 64 block: 32 x 32 blocks
// (block_size = 32), as for every pattern of fewer than 132 blocks of 64.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// CHECK-LABEL: func.func @dense_blocks
// CHECK: sopt.sddmm %arg1, %arg2, %arg0 transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, {{.*}}, block_size = 32>}
// CHECK: sopt.sddmm %arg4, %arg5, %arg3 transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 1, threads_per_nonzero = 32,
// CHECK: sopt.sddmm %arg6, %arg7, %arg3 transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, {{.*}}, block_size = 32>}
func.func @dense_blocks(%h: tensor<8x16xf16, #CSR> {sopt.sparsity_pattern = "Inputs/schedule-skewed-rows.smtx"},
                        %ha: tensor<8x1048576xf16>, %hb: tensor<16x1048576xf16>,
                        %w: tensor<8x16xf32, #CSR> {sopt.sparsity_pattern = "Inputs/schedule-skewed-rows.smtx"},
                        %a: tensor<8x2048xf32>, %b: tensor<16x2048xf32>,
                        %la: tensor<8x4096xf32>, %lb: tensor<16x4096xf32>)
    -> (tensor<8x16xf16, #CSR>, tensor<8x16xf32, #CSR>, tensor<8x16xf32, #CSR>) {
  %dh = sopt.sddmm %ha, %hb, %h transpose_rhs : tensor<8x1048576xf16>, tensor<16x1048576xf16>, tensor<8x16xf16, #CSR> -> tensor<8x16xf16, #CSR>
  %d = sopt.sddmm %a, %b, %w transpose_rhs : tensor<8x2048xf32>, tensor<16x2048xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  %dl = sopt.sddmm %la, %lb, %w transpose_rhs : tensor<8x4096xf32>, tensor<16x4096xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  return %dh, %d, %dl : tensor<8x16xf16, #CSR>, tensor<8x16xf32, #CSR>, tensor<8x16xf32, #CSR>
}

// -----

// The side of the dense blocks from the shape alone (k = 4096 takes them
// whatever the pattern): 1024 x 1024 makes 256 blocks of 64 x 64, enough for
// the 132 SMs (64, the default, not printed); 512 x 512 makes 64, too few:
// f32 takes 32 x 32 blocks (fed from global memory, SddmmDirect.cuh) rather
// than split k (16-bit splits); 256 x 512 makes 32, so 32 x 32 blocks, four
// times as many.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// CHECK-LABEL: func.func @dense_block_size
// CHECK: sopt.sddmm %arg1, %arg2, %arg0 transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, {{[^>]*}}row_order = natural>}
// CHECK: sopt.sddmm %arg4, %arg5, %arg3 transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, {{[^>]*}}row_order = natural, block_size = 32>}
// CHECK: sopt.sddmm %arg7, %arg8, %arg6 transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, {{[^>]*}}row_order = natural, block_size = 32>}
func.func @dense_block_size(%s: tensor<1024x1024xf32, #CSR>, %a: tensor<1024x4096xf32>, %b: tensor<1024x4096xf32>,
                            %t: tensor<512x512xf32, #CSR>, %c: tensor<512x4096xf32>, %d: tensor<512x4096xf32>,
                            %u: tensor<256x512xf32, #CSR>, %e: tensor<256x4096xf32>, %f: tensor<512x4096xf32>)
    -> (tensor<1024x1024xf32, #CSR>, tensor<512x512xf32, #CSR>, tensor<256x512xf32, #CSR>) {
  %0 = sopt.sddmm %a, %b, %s transpose_rhs : tensor<1024x4096xf32>, tensor<1024x4096xf32>, tensor<1024x1024xf32, #CSR> -> tensor<1024x1024xf32, #CSR>
  %1 = sopt.sddmm %c, %d, %t transpose_rhs : tensor<512x4096xf32>, tensor<512x4096xf32>, tensor<512x512xf32, #CSR> -> tensor<512x512xf32, #CSR>
  %2 = sopt.sddmm %e, %f, %u transpose_rhs : tensor<256x4096xf32>, tensor<512x4096xf32>, tensor<256x512xf32, #CSR> -> tensor<256x512xf32, #CSR>
  return %0, %1, %2 : tensor<1024x1024xf32, #CSR>, tensor<512x512xf32, #CSR>, tensor<256x512xf32, #CSR>
}

// -----

// Dense × sparse with a known pattern: the schedule sees Sᵀ's rows. A CSR S
// (the 8 x 16 skewed file) is transposed: its 16 columns hold 0 or 1
// entries, the longest longer than the mean (0.75), so by_length. A CSC S
// is passed as the arrays of Sᵀ in CSR, and its file holds those: the
// 16 x 8 CSC argument takes the 8 x 16 file, whose rows are Sᵀ's (5, 0, 1,
// 2, ...): by_length.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
// CHECK-LABEL: func.func @dense_times_pattern
// CHECK: sopt.spmm %arg0, %arg1 {schedule = #sopt.spmm_schedule<{{.*}}row_order = by_length>} : tensor<4x8xf32>, tensor<8x16xf32, #{{.*}}> -> tensor<4x16xf32>
// CHECK: sopt.spmm %arg2, %arg3 {schedule = #sopt.spmm_schedule<{{.*}}row_order = by_length>} : tensor<4x16xf32>, tensor<16x8xf32, #{{.*}}> -> tensor<4x8xf32>
// The same CSR argument also as the lhs of a product: its own rows.
// CHECK: sopt.spmm %arg1, %arg4 {schedule = #sopt.spmm_schedule<{{.*}}row_order = by_length>}
func.func @dense_times_pattern(%x: tensor<4x8xf32>,
                               %s: tensor<8x16xf32, #CSR> {sopt.sparsity_pattern = "Inputs/schedule-skewed-rows.smtx"},
                               %x2: tensor<4x16xf32>,
                               %st: tensor<16x8xf32, #CSC> {sopt.sparsity_pattern = "Inputs/schedule-skewed-rows.smtx"},
                               %d: tensor<16x32xf32>)
    -> (tensor<4x16xf32>, tensor<4x8xf32>, tensor<8x32xf32>) {
  %0 = sopt.spmm %x, %s : tensor<4x8xf32>, tensor<8x16xf32, #CSR> -> tensor<4x16xf32>
  %1 = sopt.spmm %x2, %st : tensor<4x16xf32>, tensor<16x8xf32, #CSC> -> tensor<4x8xf32>
  %2 = sopt.spmm %s, %d : tensor<8x16xf32, #CSR>, tensor<16x32xf32> -> tensor<8x32xf32>
  return %0, %1, %2 : tensor<4x16xf32>, tensor<4x8xf32>, tensor<8x32xf32>
}

// -----

// Dense tensor-core blocks for SpMM (lib/Runtime/Schedule/SpmmScheduleRules.cpp): a
// known pattern of density >= 25 %, or in f32 >= 15 % with a longest row
// twice the mean, and at least 2^24 products of the dense shape (m * k *
// n); blocks of 64 x 64 while they number at least 96, else 32 x 32.
// - 68 x 256, every entry: n = 1024 gives 17.8M products -> blocks; 2 x 16
//   = 32 blocks of 64 -> 32 x 32, in f16 too. n = 512 (8.9M products)
//   keeps row tiles (split in two: even f32 rows of 64 entries or more may
//   fill a whole GPU's lanes).
// - 64 x 64 with one full row and 63 of 12 (density 20 %, longest row 5x
//   the mean 12.8): n = 4096 -> 64 blocks of 64 -> 32 x 32; n = 8192 ->
//   128 blocks -> 64 x 64 (block_rows = 64 is the default, not printed).
// - 64 x 64 with rows of 13 (density 20 %, no long row): row tiles.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// CHECK-LABEL: func.func @dense_blocks
// CHECK: sopt.spmm %arg0, %arg1 {schedule = #sopt.spmm_schedule<tile_columns = 32, threads_per_tile = 32, tiles_per_block = 1, vector_width = 1, row_order = natural, tiling = dense_blocks, block_rows = 32>}
// CHECK: sopt.spmm %arg0, %arg2 {schedule = #sopt.spmm_schedule<{{[^>]*}}row_order = natural, row_splits = 2>}
// CHECK: sopt.spmm %arg3, %arg4 {schedule = #sopt.spmm_schedule<tile_columns = 32, threads_per_tile = 32, tiles_per_block = 1, vector_width = 1, row_order = natural, tiling = dense_blocks, block_rows = 32>}
// CHECK: sopt.spmm %arg5, %arg6 {schedule = #sopt.spmm_schedule<tile_columns = 32, threads_per_tile = 32, tiles_per_block = 1, vector_width = 1, row_order = natural, tiling = dense_blocks, block_rows = 32>}
// CHECK: sopt.spmm %arg5, %arg7 {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 32, tiles_per_block = 1, vector_width = 1, row_order = natural, tiling = dense_blocks>}
// CHECK: sopt.spmm %arg8, %arg6 {schedule = #sopt.spmm_schedule<{{[^>]*}}row_order = natural>}
func.func @dense_blocks(%w: tensor<68x256xf32, #CSR> {sopt.sparsity_pattern = "Inputs/schedule-dense-rows.smtx"},
                        %x: tensor<256x1024xf32>, %x2: tensor<256x512xf32>,
                        %h: tensor<68x256xf16, #CSR> {sopt.sparsity_pattern = "Inputs/schedule-dense-rows.smtx"},
                        %hx: tensor<256x1024xf16>,
                        %s: tensor<64x64xf32, #CSR> {sopt.sparsity_pattern = "Inputs/schedule-skewed-dense.smtx"},
                        %y: tensor<64x4096xf32>, %y2: tensor<64x8192xf32>,
                        %e: tensor<64x64xf32, #CSR> {sopt.sparsity_pattern = "Inputs/schedule-even-dense.smtx"}) {
  %0 = sopt.spmm %w, %x : tensor<68x256xf32, #CSR>, tensor<256x1024xf32> -> tensor<68x1024xf32>
  %1 = sopt.spmm %w, %x2 : tensor<68x256xf32, #CSR>, tensor<256x512xf32> -> tensor<68x512xf32>
  %2 = sopt.spmm %h, %hx : tensor<68x256xf16, #CSR>, tensor<256x1024xf16> -> tensor<68x1024xf16>
  %3 = sopt.spmm %s, %y : tensor<64x64xf32, #CSR>, tensor<64x4096xf32> -> tensor<64x4096xf32>
  %4 = sopt.spmm %s, %y2 : tensor<64x64xf32, #CSR>, tensor<64x8192xf32> -> tensor<64x8192xf32>
  %5 = sopt.spmm %e, %y : tensor<64x64xf32, #CSR>, tensor<64x4096xf32> -> tensor<64x4096xf32>
  return
}
