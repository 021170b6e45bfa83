// 16-bit SDDMMs of a known pattern of at least 8 * 132 * 32 = 33792 nonzeros
// take tiles of 32 nonzeros, with lanes per output as in f32
// (pow2_at_least(sqrt(k / vector_width))) but at most 32 elements of k per
// lane, and 4 warps per block. The pattern, 132 dense rows of 256 (33792
// entries), is written by the test; at density 100 % with 33792 * 64 < 6e6
// products it stays below the dense blocks' threshold at k = 64 and 128.
// RUN: python3 -c "print('132, 256, 33792'); print(' '.join(str(256 * r) for r in range(133))); print(' '.join(str(c) for r in range(132) for c in range(256)))" > %t.smtx
// RUN: sed -e 's|@PATTERN@|%t.smtx|' %s | sparse-opt --sopt-schedule-sparse | FileCheck %s
// The same pattern less its last row (33536 entries) keeps the smaller
// tiles.
// RUN: python3 -c "print('132, 256, 33536'); print(' '.join(str(min(256 * r, 33536)) for r in range(133))); print(' '.join(str(c) for r in range(131) for c in range(256)))" > %t.small.smtx
// RUN: sed -e 's|@PATTERN@|%t.small.smtx|' %s | sparse-opt --sopt-schedule-sparse | FileCheck %s --check-prefix=SMALL

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// k = 64: 16 vectors of 4, 4 lanes (16 elements each); k = 128: 32 vectors,
// sqrt -> 8 lanes (16 elements each).
// CHECK-LABEL: func.func @lane_tiles_16bit
// CHECK: sopt.sddmm %arg1, %arg2, %arg0 transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 32, threads_per_nonzero = 4, tiles_per_block = 4, vector_width = 4, row_order = natural>}
// CHECK: sopt.sddmm %arg4, %arg5, %arg3 transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural>}
// SMALL-LABEL: func.func @lane_tiles_16bit
// SMALL-NOT: tile_nonzeros = 32
// SMALL: return
func.func @lane_tiles_16bit(%s: tensor<132x256xf16, #CSR> {sopt.sparsity_pattern = "@PATTERN@"},
                            %a: tensor<132x64xf16>, %b: tensor<256x64xf16>,
                            %s2: tensor<132x256xbf16, #CSR> {sopt.sparsity_pattern = "@PATTERN@"},
                            %a2: tensor<132x128xbf16>, %b2: tensor<256x128xbf16>)
    -> (tensor<132x256xf16, #CSR>, tensor<132x256xbf16, #CSR>) {
  %d = sopt.sddmm %a, %b, %s transpose_rhs : tensor<132x64xf16>, tensor<256x64xf16>, tensor<132x256xf16, #CSR> -> tensor<132x256xf16, #CSR>
  %d2 = sopt.sddmm %a2, %b2, %s2 transpose_rhs : tensor<132x128xbf16>, tensor<256x128xbf16>, tensor<132x256xbf16, #CSR> -> tensor<132x256xbf16, #CSR>
  return %d, %d2 : tensor<132x256xf16, #CSR>, tensor<132x256xbf16, #CSR>
}
