// f32 SDDMMs of a known pattern of at least 8 * 132 * 32 = 33792 nonzeros
// and 6e6 products (nnz * k) take tiles of 32 nonzeros (one output per lane
// after the transposed butterfly), with pow2_at_least(sqrt(k /
// vector_width)) lanes per output and 2 warps per block; below either
// bound, tiles of one output per group (32 / threads_per_nonzero nonzeros)
// and 8 warps per block. The pattern, 132 dense rows of 256 (33792
// entries), is written by the test; 33792 * 256 < 3e7 products keep it
// below the f32 dense blocks' threshold.
// RUN: python3 -c "print('132, 256, 33792'); print(' '.join(str(256 * r) for r in range(133))); print(' '.join(str(c) for r in range(132) for c in range(256)))" > %t.smtx
// RUN: sed -e 's|@PATTERN@|%t.smtx|' %s | sparse-opt --sopt-schedule-sparse | FileCheck %s
// The same pattern less its last row (33536 entries) keeps the smaller
// tiles.
// RUN: python3 -c "print('132, 256, 33536'); print(' '.join(str(min(256 * r, 33536)) for r in range(133))); print(' '.join(str(c) for r in range(131) for c in range(256)))" > %t.small.smtx
// RUN: sed -e 's|@PATTERN@|%t.small.smtx|' %s | sparse-opt --sopt-schedule-sparse | FileCheck %s --check-prefix=SMALL

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// k = 256: 64 vectors of 4, sqrt -> 8 lanes, 32-tiles (8.7e6 products).
// k = 128: 4.3e6 products, too little work: ceil(128 / 16) = 8 lanes, one
// output per group: 4 nonzeros per tile.
// CHECK-LABEL: func.func @lane_tiles
// CHECK: sopt.sddmm %arg1, %arg2, %arg0 transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 2, vector_width = 4, row_order = natural>}
// CHECK: sopt.sddmm %arg3, %arg4, %arg0 transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 4, threads_per_nonzero = 8, tiles_per_block = 8, vector_width = 4, row_order = natural>}
// 33536 nonzeros: k = 256 as 16 lanes per output, 2 nonzeros per tile.
// SMALL-LABEL: func.func @lane_tiles
// SMALL: sopt.sddmm %arg1, %arg2, %arg0 transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 2, threads_per_nonzero = 16, tiles_per_block = 8, vector_width = 4, row_order = natural>}
// SMALL: sopt.sddmm %arg3, %arg4, %arg0 transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 4, threads_per_nonzero = 8, tiles_per_block = 8, vector_width = 4, row_order = natural>}
func.func @lane_tiles(%s: tensor<132x256xf32, #CSR> {sopt.sparsity_pattern = "@PATTERN@"},
                      %a: tensor<132x256xf32>, %b: tensor<256x256xf32>,
                      %a2: tensor<132x128xf32>, %b2: tensor<256x128xf32>)
    -> (tensor<132x256xf32, #CSR>, tensor<132x256xf32, #CSR>) {
  %d = sopt.sddmm %a, %b, %s transpose_rhs : tensor<132x256xf32>, tensor<256x256xf32>, tensor<132x256xf32, #CSR> -> tensor<132x256xf32, #CSR>
  %d2 = sopt.sddmm %a2, %b2, %s transpose_rhs : tensor<132x128xf32>, tensor<256x128xf32>, tensor<132x256xf32, #CSR> -> tensor<132x256xf32, #CSR>
  return %d, %d2 : tensor<132x256xf32, #CSR>, tensor<132x256xf32, #CSR>
}
