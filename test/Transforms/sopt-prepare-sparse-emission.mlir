// RUN: sparse-opt %s --sopt-prepare-sparse-emission='inline-table-limit=200' | FileCheck %s
// The pass leaves products that name their tables alone: a second run adds nothing.
// RUN: sparse-opt %s --sopt-prepare-sparse-emission='inline-table-limit=200' --sopt-prepare-sparse-emission='inline-table-limit=200' | FileCheck %s --check-prefix=TWICE
// Above the inline limit a table is a dense_resource blob.
// RUN: sparse-opt %s --sopt-prepare-sparse-emission='inline-table-limit=0' | FileCheck %s --check-prefix=BLOB

// Every table a sparse launch reads is prepared here from the pattern file
// (read once per path) and held in a sopt.pattern_tables op that the product
// names; products whose schedules read no table get none.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// prepare-tiny.smtx: 4 x 6, rows of 1, 3, 0 and 2 entries.
// CHECK-LABEL: sopt.pattern_tables @by_length_spmm0 of "{{.*}}Inputs/prepare-tiny.smtx"
// CHECK-SAME: cols = 6 : i64, nnz = 6 : i64, row_order = dense<[1, 3, 0, 2]> : tensor<4xi32>, rows = 4 : i64
// CHECK-LABEL: func.func @by_length
// CHECK: sopt.spmm {{.*}}sopt.pattern_tables = @by_length_spmm0
// TWICE-COUNT-1: sopt.pattern_tables @by_length_spmm0
// TWICE-NOT: sopt.pattern_tables @by_length_spmm0
// BLOB: sopt.pattern_tables @by_length_spmm0 {{.*}}row_order = dense_resource<by_length_spmm0_row_order> : tensor<4xi32>
func.func @by_length(%w: tensor<4x6xf32, #CSR> {sopt.sparsity_pattern = "Inputs/prepare-tiny.smtx"},
                     %x: tensor<6x16xf32>) -> tensor<4x16xf32> {
  %y = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 16, threads_per_tile = 16, tiles_per_block = 4, vector_width = 1, row_order = by_length>} : tensor<4x6xf32, #CSR>, tensor<6x16xf32> -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// Rows in order read no table.
// CHECK-LABEL: func.func @natural
// CHECK-NOT: sopt.pattern_tables
// CHECK: return
func.func @natural(%w: tensor<4x6xf32, #CSR> {sopt.sparsity_pattern = "Inputs/prepare-tiny.smtx"},
                   %x: tensor<6x16xf32>) -> tensor<4x16xf32> {
  %y = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 16, threads_per_tile = 16, tiles_per_block = 4, vector_width = 1, row_order = natural>} : tensor<4x6xf32, #CSR>, tensor<6x16xf32> -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// prepare-long-row.smtx: row 0 holds 150 entries, row 1 one, row 2 none.
// Segments of 64: row 0 in three (sopt_csr_row_segments: the segments'
// rows 0, 0, 0, their first entries 0, 64, 128, then each long row's first
// segment, 0, and the count, 3).
// CHECK-LABEL: sopt.pattern_tables @segments_spmm0
// CHECK-SAME: long_rows = 1 : i64
// CHECK-SAME: row_order = dense<[0, 1, 2]> : tensor<3xi32>
// CHECK-SAME: row_segments = dense<[0, 0, 0, 0, 64, 128, 0, 3]> : tensor<8xi32>
// CHECK-LABEL: func.func @segments
// The partial sums of the 3 segments, 64 columns each.
// CHECK: sopt.launch = #sopt.sparse_launch<segment_workspace = 192>
func.func @segments(%w: tensor<3x200xf32, #CSR> {sopt.sparsity_pattern = "Inputs/prepare-long-row.smtx"},
                    %x: tensor<200x64xf32>) -> tensor<3x64xf32> {
  %y = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 32, tiles_per_block = 2, vector_width = 2, row_order = by_length, row_segment = 64>} : tensor<3x200xf32, #CSR>, tensor<200x64xf32> -> tensor<3x64xf32>
  return %y : tensor<3x64xf32>
}

// Dense x CSR runs as Sᵀ · Xᵀ: the tables describe Sᵀ (6 x 4) and map each
// of its entries to S's.
// CHECK-LABEL: sopt.pattern_tables @dense_times_csr_spmm0 of "{{.*}}Inputs/prepare-tiny.smtx" transposed
// CHECK-SAME: cols = 4 : i64, nnz = 6 : i64
// CHECK-SAME: rows = 6 : i64
// CHECK-SAME: transpose_coordinates = dense<[1, 3, 0, 1, 3, 1]> : tensor<6xi32>
// CHECK-SAME: transpose_permutation = dense<[1, 4, 0, 2, 5, 3]> : tensor<6xi32>
// CHECK-SAME: transpose_positions = dense<[0, 1, 2, 3, 4, 5, 6]> : tensor<7xi32>
// CHECK-LABEL: func.func @dense_times_csr
// CHECK: sopt.launch = #sopt.sparse_launch<stores_transposed = true>, sopt.pattern_tables = @dense_times_csr_spmm0
func.func @dense_times_csr(%x: tensor<3x4xf32>,
                           %s: tensor<4x6xf32, #CSR> {sopt.sparsity_pattern = "Inputs/prepare-tiny.smtx"}) -> tensor<3x6xf32> {
  %y = sopt.spmm %x, %s {schedule = #sopt.spmm_schedule<tile_columns = 4, threads_per_tile = 4, tiles_per_block = 8, vector_width = 1, row_order = natural>} : tensor<3x4xf32>, tensor<4x6xf32, #CSR> -> tensor<3x6xf32>
  return %y : tensor<3x6xf32>
}

// SDDMM tiles read each entry's row, made from the rows' positions.
// CHECK-LABEL: sopt.pattern_tables @tiles_sddmm0
// CHECK-SAME: positions = dense<[0, 1, 4, 4, 6]> : tensor<5xi32>
func.func @tiles(%q: tensor<4x64xf32>, %k: tensor<6x64xf32>,
                 %s: tensor<4x6xf32, #CSR> {sopt.sparsity_pattern = "Inputs/prepare-tiny.smtx"}) -> tensor<4x6xf32, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural>} : tensor<4x64xf32>, tensor<6x64xf32>, tensor<4x6xf32, #CSR> -> tensor<4x6xf32, #CSR>
  return %d : tensor<4x6xf32, #CSR>
}

// Gathered columns in row order longest first read the row order.
// CHECK-LABEL: sopt.pattern_tables @gather_sddmm0
// CHECK-SAME: row_order = dense<[1, 3, 0, 2]> : tensor<4xi32>
func.func @gather(%q: tensor<4x8xf32>, %k: tensor<8x6xf32>,
                  %s: tensor<4x6xf32, #CSR> {sopt.sparsity_pattern = "Inputs/prepare-tiny.smtx"}) -> tensor<4x6xf32, #CSR> {
  %d = sopt.sddmm %q, %k, %s {schedule = #sopt.sddmm_schedule<tile_nonzeros = 32, threads_per_nonzero = 1, tiles_per_block = 4, vector_width = 1, row_order = by_length>} : tensor<4x8xf32>, tensor<8x6xf32>, tensor<4x6xf32, #CSR> -> tensor<4x6xf32, #CSR>
  return %d : tensor<4x6xf32, #CSR>
}

// Dense blocks of a pattern that fills its one block: every row's column
// window per block (first entry, end; rows x (blocks + 1) values).
// CHECK-LABEL: sopt.pattern_tables @blocks_sddmm0
// CHECK-SAME: column_windows = dense<[0, 1, 1, 4, 4, 4, 4, 6]> : tensor<8xi32>
// CHECK-NOT: occupied
func.func @blocks(%q: tensor<4x64xf32>, %k: tensor<6x64xf32>,
                  %s: tensor<4x6xf32, #CSR> {sopt.sparsity_pattern = "Inputs/prepare-tiny.smtx"}) -> tensor<4x6xf32, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural, block_size = 32>} : tensor<4x64xf32>, tensor<6x64xf32>, tensor<4x6xf32, #CSR> -> tensor<4x6xf32, #CSR>
  return %d : tensor<4x6xf32, #CSR>
}

// prepare-band.smtx (40 x 40, entries (0, 0), (1, 2), (35, 36)) fills 2 of
// the 4 blocks of 32 x 32: only those are launched, each with its rows'
// windows.
// CHECK-LABEL: sopt.pattern_tables @band_sddmm0
// CHECK-SAME: occupied_blocks = dense<[0, 3]> : tensor<2xi32>
// Windows (first entry, end) of rows 0, 1, 2, ... of block 0: (0, 1), (1, 2),
// (2, 2), ... (printed in hex beyond 100 values).
// CHECK-SAME: occupied_windows = dense<"0x000000000100000001000000020000000200000002000000
// CHECK-SAME: tensor<128xi32>
func.func @band(%q: tensor<40x64xf32>, %k: tensor<40x64xf32>,
                %s: tensor<40x40xf32, #CSR> {sopt.sparsity_pattern = "Inputs/prepare-band.smtx"}) -> tensor<40x40xf32, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural, block_size = 32>} : tensor<40x64xf32>, tensor<40x64xf32>, tensor<40x40xf32, #CSR> -> tensor<40x40xf32, #CSR>
  return %d : tensor<40x40xf32, #CSR>
}

// Without a pattern file nothing is prepared (the tiles search the rows).
// CHECK-LABEL: func.func @unknown
// CHECK-NOT: sopt.pattern_tables
// CHECK: return
func.func @unknown(%q: tensor<4x64xf32>, %k: tensor<6x64xf32>, %s: tensor<4x6xf32, #CSR>) -> tensor<4x6xf32, #CSR> {
  %d = sopt.sddmm %q, %k, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural>} : tensor<4x64xf32>, tensor<6x64xf32>, tensor<4x6xf32, #CSR> -> tensor<4x6xf32, #CSR>
  return %d : tensor<4x6xf32, #CSR>
}

// The launch decisions (#sopt.sparse_launch) of the products above.
// CHECK-LABEL: func.func @launches
// A gathered SDDMM, and an SpMM stored as it is: nothing beyond the schedule.
// CHECK: sopt.spmm {{.*}}sopt.launch = #sopt.sparse_launch<>
// Dense x sparse, vectors of 1: the kernel stores Y transposed itself.
// CHECK: sopt.spmm {{.*}}sopt.launch = #sopt.sparse_launch<stores_transposed = true, transposes_sparse = true>
// Vectors of 4: Cᵀ (8 x 64) in a workspace, then a tiled transpose; S is CSR
// without a pattern: cuSPARSE transposes it on every call.
// CHECK: sopt.spmm {{.*}}sopt.launch = #sopt.sparse_launch<result_workspace = 512, transposes_sparse = true>
// (A · B) ⊙ S with transpose_rhs_first: B (64 x 48) into a Bᵀ of 3072 first.
// CHECK: sopt.sddmm {{.*}}sopt.launch = #sopt.sparse_launch<transposes_rhs = true, rhs_workspace = 3072>
// k = 0: still transposed (an empty workspace).
// CHECK: sopt.sddmm {{.*}}sopt.launch = #sopt.sparse_launch<transposes_rhs = true, warps_per_block = 8>
// A column panel without the pattern: S's order, 32 warps clamped to 8.
// CHECK: sopt.sddmm {{.*}}sopt.launch = #sopt.sparse_launch<warps_per_block = 8>
func.func @launches(%w: tensor<4x6xf32, #CSR>, %x: tensor<6x16xf32>,
                    %xs: tensor<64x16xf32>, %sc: tensor<16x8xf32, #CSR>,
                    %a: tensor<64x64xf32>, %b: tensor<64x48xf32>, %s: tensor<64x48xf32, #CSR>,
                    %a0: tensor<8x0xf32>, %b0: tensor<0x16xf32>, %s0: tensor<8x16xf32, #CSR>,
                    %q: tensor<4x64xf32>, %k: tensor<6x64xf32>, %t: tensor<4x6xf32, #CSR>)
    -> (tensor<4x16xf32>, tensor<64x8xf32>, tensor<64x8xf32>, tensor<64x48xf32, #CSR>, tensor<8x16xf32, #CSR>, tensor<4x6xf32, #CSR>) {
  %0 = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 16, threads_per_tile = 16, tiles_per_block = 4, vector_width = 1, row_order = natural>} : tensor<4x6xf32, #CSR>, tensor<6x16xf32> -> tensor<4x16xf32>
  %1 = sopt.spmm %xs, %sc {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 32, tiles_per_block = 2, vector_width = 1, row_order = natural>} : tensor<64x16xf32>, tensor<16x8xf32, #CSR> -> tensor<64x8xf32>
  %2 = sopt.spmm %xs, %sc {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 16, tiles_per_block = 2, vector_width = 4, row_order = natural>} : tensor<64x16xf32>, tensor<16x8xf32, #CSR> -> tensor<64x8xf32>
  %3 = sopt.sddmm %a, %b, %s {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural, transpose_rhs_first = true>} : tensor<64x64xf32>, tensor<64x48xf32>, tensor<64x48xf32, #CSR> -> tensor<64x48xf32, #CSR>
  %4 = sopt.sddmm %a0, %b0, %s0 {schedule = #sopt.sddmm_schedule<tile_nonzeros = 32, threads_per_nonzero = 1, tiles_per_block = 8, vector_width = 4, row_order = natural, transpose_rhs_first = true>} : tensor<8x0xf32>, tensor<0x16xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  %5 = sopt.sddmm %q, %k, %t transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 32, vector_width = 4, row_order = natural, column_panel = 2>} : tensor<4x64xf32>, tensor<6x64xf32>, tensor<4x6xf32, #CSR> -> tensor<4x6xf32, #CSR>
  return %0, %1, %2, %3, %4, %5 : tensor<4x16xf32>, tensor<64x8xf32>, tensor<64x8xf32>, tensor<64x48xf32, #CSR>, tensor<8x16xf32, #CSR>, tensor<4x6xf32, #CSR>
}

// With the pattern: the column panels are taken (32 warps a block), and f32
// 64 x 64 dense blocks with prepared windows split B into TF32 planes.
// CHECK-LABEL: func.func @launches_known
// CHECK: sopt.sddmm {{.*}}sopt.launch = #sopt.sparse_launch<warps_per_block = 32, column_panels = true>
// CHECK: sopt.sddmm {{.*}}sopt.launch = #sopt.sparse_launch<planes_workspace = {{[1-9][0-9]*}}>
func.func @launches_known(%q: tensor<4x64xf32>, %k: tensor<6x64xf32>,
                          %t: tensor<4x6xf32, #CSR> {sopt.sparsity_pattern = "Inputs/prepare-tiny.smtx"})
    -> (tensor<4x6xf32, #CSR>, tensor<4x6xf32, #CSR>) {
  %0 = sopt.sddmm %q, %k, %t transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 32, vector_width = 4, row_order = natural, column_panel = 2>} : tensor<4x64xf32>, tensor<6x64xf32>, tensor<4x6xf32, #CSR> -> tensor<4x6xf32, #CSR>
  %1 = sopt.sddmm %q, %k, %t transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural>} : tensor<4x64xf32>, tensor<6x64xf32>, tensor<4x6xf32, #CSR> -> tensor<4x6xf32, #CSR>
  return %0, %1 : tensor<4x6xf32, #CSR>, tensor<4x6xf32, #CSR>
}
