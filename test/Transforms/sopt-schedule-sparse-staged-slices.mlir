// f32 SpMMs of a known pattern whose k is at most 512 (a slice of B 64
// columns wide is 128 KiB) take staged slices of B from 2^20 products
// (nnz * n): 1024 threads per block, vectors of 4 from n = 512 (or beyond
// 4096 rows), of 2 below (at n = 64 to 128, patterns of up to 1024 rows
// take slices of 32 columns instead: these 2048 rows keep 64). The
// pattern, 2048 rows of 8 entries over 512 columns (16384 entries, rows of
// equal length: natural order), is written by the test.
// RUN: python3 -c "print('2048, 512, 16384'); print(' '.join(str(8 * r) for r in range(2049))); print(' '.join(str(x) for r in range(2048) for x in sorted((r * 61 + 64 * c) % 512 for c in range(8))))" > %t.smtx
// RUN: sed -e 's|@PATTERN@|%t.smtx|' %s | sparse-opt --sopt-schedule-sparse | FileCheck %s

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#CSR16 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// n = 1024: 16 lanes of 4, 64 rows per block at once.
// CHECK-LABEL: func.func @staged_slices
// CHECK: sopt.spmm %arg0, %arg1 {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 16, tiles_per_block = 64, vector_width = 4, row_order = natural, tiling = staged_slices>}
// n = 64: 16384 * 64 = 2^20 products, 32 lanes of 2.
// CHECK: sopt.spmm %arg0, %arg2 {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 32, tiles_per_block = 32, vector_width = 2, row_order = natural, tiling = staged_slices>}
// n = 32: half as many products, row tiles (no tiling field printed).
// CHECK: sopt.spmm %arg0, %arg3 {schedule = #sopt.spmm_schedule<{{[^>]*}}row_order = natural>}
// f16: row tiles.
// CHECK: sopt.spmm %arg4, %arg5 {schedule = #sopt.spmm_schedule<{{[^>]*}}tile_order = by_column>}
func.func @staged_slices(%a: tensor<2048x512xf32, #CSR> {sopt.sparsity_pattern = "@PATTERN@"},
                         %b: tensor<512x1024xf32>, %b64: tensor<512x64xf32>,
                         %b32: tensor<512x32xf32>,
                         %a16: tensor<2048x512xf16, #CSR16> {sopt.sparsity_pattern = "@PATTERN@"},
                         %b16: tensor<512x1024xf16>)
    -> (tensor<2048x1024xf32>, tensor<2048x64xf32>, tensor<2048x32xf32>, tensor<2048x1024xf16>) {
  %c = sopt.spmm %a, %b : tensor<2048x512xf32, #CSR>, tensor<512x1024xf32> -> tensor<2048x1024xf32>
  %c64 = sopt.spmm %a, %b64 : tensor<2048x512xf32, #CSR>, tensor<512x64xf32> -> tensor<2048x64xf32>
  %c32 = sopt.spmm %a, %b32 : tensor<2048x512xf32, #CSR>, tensor<512x32xf32> -> tensor<2048x32xf32>
  %c16 = sopt.spmm %a16, %b16 : tensor<2048x512xf16, #CSR16>, tensor<512x1024xf16> -> tensor<2048x1024xf16>
  return %c, %c64, %c32, %c16 : tensor<2048x1024xf32>, tensor<2048x64xf32>, tensor<2048x32xf32>, tensor<2048x1024xf16>
}

// A pattern of 1024 columns: the slice would be 256 KiB, row tiles.
// RUN: python3 -c "print('2048, 1024, 16384'); print(' '.join(str(8 * r) for r in range(2049))); print(' '.join(str(x) for r in range(2048) for x in sorted((r * 61 + 128 * c) % 1024 for c in range(8))))" > %t.wide.smtx
// RUN: sed -e 's|@PATTERN@|%t.wide.smtx|' %S/Inputs/spmm-wide-k.mlir | sparse-opt --sopt-schedule-sparse | FileCheck %s --check-prefix=WIDE
// WIDE-LABEL: func.func @wide_k
// WIDE-NOT: staged_slices
// WIDE: return

// 16-bit: 1024 rows of 32 entries over 512 columns (6.25 %, rows of equal
// length). From n = 512 slices of 128 columns in vectors of 4 (density >=
// 4 %); below, up to 1024 rows, 64 columns in vectors of 2.
// RUN: python3 -c "print('1024, 512, 32768'); print(' '.join(str(32 * r) for r in range(1025))); print(' '.join(str(x) for r in range(1024) for x in sorted((r * 7 + 16 * c) % 512 for c in range(32))))" > %t.16.smtx
// RUN: sed -e 's|@PATTERN@|%t.16.smtx|' %S/Inputs/spmm-16bit-slices.mlir | sparse-opt --sopt-schedule-sparse | FileCheck %s --check-prefix=HALF
// HALF-LABEL: func.func @half_slices
// HALF: sopt.spmm %arg0, %arg1 {schedule = #sopt.spmm_schedule<tile_columns = 128, threads_per_tile = 32, tiles_per_block = 32, vector_width = 4, row_order = natural, tiling = staged_slices>}
// HALF: sopt.spmm %arg0, %arg2 {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 32, tiles_per_block = 32, vector_width = 2, row_order = natural, tiling = staged_slices>}
// HALF: sopt.spmm %arg3, %arg4 {schedule = #sopt.spmm_schedule<tile_columns = 128, threads_per_tile = 32, tiles_per_block = 32, vector_width = 4, row_order = natural, tiling = staged_slices>}

// 16-bit below n = 512 beyond 1024 rows: 128 columns in vectors of 4, as
// from n = 512 (2048 rows of 32 entries, 6.25 %); at 1.6 % with rows of
// equal length, row tiles.
// RUN: python3 -c "print('2048, 512, 65536'); print(' '.join(str(32 * r) for r in range(2049))); print(' '.join(str(x) for r in range(2048) for x in sorted((r * 7 + 16 * c) % 512 for c in range(32))))" > %t.tall.smtx
// RUN: sed -e 's|@PATTERN@|%t.tall.smtx|' %S/Inputs/spmm-16bit-slices-tall.mlir | sparse-opt --sopt-schedule-sparse | FileCheck %s --check-prefix=TALL
// TALL-LABEL: func.func @half_slices_tall
// TALL: sopt.spmm %arg0, %arg1 {schedule = #sopt.spmm_schedule<tile_columns = 128, threads_per_tile = 32, tiles_per_block = 32, vector_width = 4, row_order = natural, tiling = staged_slices>}
// RUN: sed -e 's|@PATTERN@|%t.smtx|' %S/Inputs/spmm-16bit-slices-tall.mlir | sparse-opt --sopt-schedule-sparse | FileCheck %s --check-prefix=TALL-SPARSE
// TALL-SPARSE-LABEL: func.func @half_slices_tall
// TALL-SPARSE-NOT: staged_slices
// TALL-SPARSE: return
