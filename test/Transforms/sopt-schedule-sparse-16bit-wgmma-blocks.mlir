// 16-bit SDDMMs of a known pattern also take 64 x 64 dense blocks (which
// multiply by wgmma on sm_90a) from 4 % density, or 1.9 % from k = 1024, when
// 132 to 1024 such blocks cover the pattern and k is at least 256; and
// their dense blocks are 64 x 64 from 64 such blocks on when k is at least
// 256 (f32 and shorter k: from 132). The patterns are written by the test:
// 2048 x 512 with every 20th column of each row (5 %, 256 blocks of
// 64 x 64) and every 40th (2.5 %), 16384 x 512 with every 20th (5 %, 2048
// blocks), and 512 x 512 with every 5th (20 %, 64 blocks). From k = 1024
// they take 4 % dense patterns of 64 blocks or more whatever their number
// (@long_k_blocks: 512 x 512 with every 20th and every 40th column).
// RUN: python3 -c "r, c, s = 2048, 512, 20; rows = [[j for j in range(c) if j % s == i % s] for i in range(r)]; import itertools; pos = [0] + list(itertools.accumulate(len(x) for x in rows)); print(f'{r}, {c}, {pos[-1]}'); print(' '.join(map(str, pos))); print(' '.join(str(j) for x in rows for j in x))" > %t.five.smtx
// RUN: python3 -c "r, c, s = 2048, 512, 40; rows = [[j for j in range(c) if j % s == i % s] for i in range(r)]; import itertools; pos = [0] + list(itertools.accumulate(len(x) for x in rows)); print(f'{r}, {c}, {pos[-1]}'); print(' '.join(map(str, pos))); print(' '.join(str(j) for x in rows for j in x))" > %t.two.smtx
// RUN: python3 -c "r, c, s = 16384, 512, 20; rows = [[j for j in range(c) if j % s == i % s] for i in range(r)]; import itertools; pos = [0] + list(itertools.accumulate(len(x) for x in rows)); print(f'{r}, {c}, {pos[-1]}'); print(' '.join(map(str, pos))); print(' '.join(str(j) for x in rows for j in x))" > %t.tall.smtx
// RUN: python3 -c "r, c, s = 512, 512, 5; rows = [[j for j in range(c) if j % s == i % s] for i in range(r)]; import itertools; pos = [0] + list(itertools.accumulate(len(x) for x in rows)); print(f'{r}, {c}, {pos[-1]}'); print(' '.join(map(str, pos))); print(' '.join(str(j) for x in rows for j in x))" > %t.square.smtx
// RUN: python3 -c "r, c, s = 512, 512, 20; rows = [[j for j in range(c) if j % s == i % s] for i in range(r)]; import itertools; pos = [0] + list(itertools.accumulate(len(x) for x in rows)); print(f'{r}, {c}, {pos[-1]}'); print(' '.join(map(str, pos))); print(' '.join(str(j) for x in rows for j in x))" > %t.sqfive.smtx
// RUN: python3 -c "r, c, s = 512, 512, 40; rows = [[j for j in range(c) if j % s == i % s] for i in range(r)]; import itertools; pos = [0] + list(itertools.accumulate(len(x) for x in rows)); print(f'{r}, {c}, {pos[-1]}'); print(' '.join(map(str, pos))); print(' '.join(str(j) for x in rows for j in x))" > %t.sqtwo.smtx
// RUN: sed -e 's|@FIVE@|%t.five.smtx|' -e 's|@TWO@|%t.two.smtx|' -e 's|@TALL@|%t.tall.smtx|' -e 's|@SQUARE@|%t.square.smtx|' -e 's|@SQFIVE@|%t.sqfive.smtx|' -e 's|@SQTWO@|%t.sqtwo.smtx|' %s | sparse-opt --sopt-schedule-sparse | FileCheck %s

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// CHECK-LABEL: func.func @wide_blocks
// 5 %, f16, k = 256: dense blocks of 64 (block_size left at its default;
// below the 6 % of the other rule).
// CHECK: sopt.sddmm %arg1, %arg2, %arg0 transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, {{[^>]*}}row_order = natural>}
// 5 %, f16, k = 128: too short a k -> tiles of nonzeros.
// CHECK: sopt.sddmm %arg3, %arg4, %arg0 transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros =
// 5 %, f32, k = 256: the rule is 16-bit only -> tiles.
// CHECK: sopt.sddmm %arg6, %arg7, %arg5 transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros =
// 2.5 %, bf16, k = 1024: dense blocks of 64.
// CHECK: sopt.sddmm %arg9, %arg10, %arg8 transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, {{[^>]*}}row_order = natural>}
// 2.5 %, bf16, k = 256: below 4 % -> tiles.
// CHECK: sopt.sddmm %arg11, %arg12, %arg8 transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros =
// 5 % of 16384 x 512, f16, k = 256: 2048 blocks, too many -> tiles.
// CHECK: sopt.sddmm %arg14, %arg15, %arg13 transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros =
// 20 % of 512 x 512 (64 blocks of 64), f16: k = 256 -> blocks of 64; k =
// 128 -> blocks of 32; f32, k = 256 -> blocks of 32.
// CHECK: sopt.sddmm %arg17, %arg18, %arg16 transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, {{[^>]*}}row_order = natural>}
// CHECK: sopt.sddmm %arg19, %arg20, %arg16 transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, {{[^>]*}}block_size = 32>}
// CHECK: sopt.sddmm %arg22, %arg23, %arg21 transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, {{[^>]*}}block_size = 32>}
func.func @wide_blocks(%s: tensor<2048x512xf16, #CSR> {sopt.sparsity_pattern = "@FIVE@"},
                       %a: tensor<2048x256xf16>, %b: tensor<512x256xf16>,
                       %a1: tensor<2048x128xf16>, %b1: tensor<512x128xf16>,
                       %f: tensor<2048x512xf32, #CSR> {sopt.sparsity_pattern = "@FIVE@"},
                       %fa: tensor<2048x256xf32>, %fb: tensor<512x256xf32>,
                       %t: tensor<2048x512xbf16, #CSR> {sopt.sparsity_pattern = "@TWO@"},
                       %ta: tensor<2048x1024xbf16>, %tb: tensor<512x1024xbf16>,
                       %ta1: tensor<2048x256xbf16>, %tb1: tensor<512x256xbf16>,
                       %u: tensor<16384x512xf16, #CSR> {sopt.sparsity_pattern = "@TALL@"},
                       %ua: tensor<16384x256xf16>, %ub: tensor<512x256xf16>,
                       %q: tensor<512x512xf16, #CSR> {sopt.sparsity_pattern = "@SQUARE@"},
                       %qa: tensor<512x256xf16>, %qb: tensor<512x256xf16>,
                       %qa1: tensor<512x128xf16>, %qb1: tensor<512x128xf16>,
                       %r: tensor<512x512xf32, #CSR> {sopt.sparsity_pattern = "@SQUARE@"},
                       %ra: tensor<512x256xf32>, %rb: tensor<512x256xf32>)
    -> (tensor<2048x512xf16, #CSR>, tensor<2048x512xf16, #CSR>, tensor<2048x512xf32, #CSR>,
        tensor<2048x512xbf16, #CSR>, tensor<2048x512xbf16, #CSR>, tensor<16384x512xf16, #CSR>,
        tensor<512x512xf16, #CSR>, tensor<512x512xf16, #CSR>, tensor<512x512xf32, #CSR>) {
  %d = sopt.sddmm %a, %b, %s transpose_rhs : tensor<2048x256xf16>, tensor<512x256xf16>, tensor<2048x512xf16, #CSR> -> tensor<2048x512xf16, #CSR>
  %d1 = sopt.sddmm %a1, %b1, %s transpose_rhs : tensor<2048x128xf16>, tensor<512x128xf16>, tensor<2048x512xf16, #CSR> -> tensor<2048x512xf16, #CSR>
  %d2 = sopt.sddmm %fa, %fb, %f transpose_rhs : tensor<2048x256xf32>, tensor<512x256xf32>, tensor<2048x512xf32, #CSR> -> tensor<2048x512xf32, #CSR>
  %d3 = sopt.sddmm %ta, %tb, %t transpose_rhs : tensor<2048x1024xbf16>, tensor<512x1024xbf16>, tensor<2048x512xbf16, #CSR> -> tensor<2048x512xbf16, #CSR>
  %d4 = sopt.sddmm %ta1, %tb1, %t transpose_rhs : tensor<2048x256xbf16>, tensor<512x256xbf16>, tensor<2048x512xbf16, #CSR> -> tensor<2048x512xbf16, #CSR>
  %d5 = sopt.sddmm %ua, %ub, %u transpose_rhs : tensor<16384x256xf16>, tensor<512x256xf16>, tensor<16384x512xf16, #CSR> -> tensor<16384x512xf16, #CSR>
  %d6 = sopt.sddmm %qa, %qb, %q transpose_rhs : tensor<512x256xf16>, tensor<512x256xf16>, tensor<512x512xf16, #CSR> -> tensor<512x512xf16, #CSR>
  %d7 = sopt.sddmm %qa1, %qb1, %q transpose_rhs : tensor<512x128xf16>, tensor<512x128xf16>, tensor<512x512xf16, #CSR> -> tensor<512x512xf16, #CSR>
  %d8 = sopt.sddmm %ra, %rb, %r transpose_rhs : tensor<512x256xf32>, tensor<512x256xf32>, tensor<512x512xf32, #CSR> -> tensor<512x512xf32, #CSR>
  return %d, %d1, %d2, %d3, %d4, %d5, %d6, %d7, %d8 : tensor<2048x512xf16, #CSR>, tensor<2048x512xf16, #CSR>, tensor<2048x512xf32, #CSR>, tensor<2048x512xbf16, #CSR>, tensor<2048x512xbf16, #CSR>, tensor<16384x512xf16, #CSR>, tensor<512x512xf16, #CSR>, tensor<512x512xf16, #CSR>, tensor<512x512xf32, #CSR>
}

// From k = 1024, 4 % dense 16-bit patterns of at least 64 blocks of 64 x 64
// take them: 5 % of 16384 x 512 (2048 blocks) unsplit; 5 % of 512 x 512
// (64 blocks) with k split in two; not at k = 256, nor at 2.5 %.
// CHECK-LABEL: func.func @long_k_blocks
// CHECK: sopt.sddmm %arg1, %arg2, %arg0 transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, {{[^>]*}}row_order = natural>}
// CHECK: sopt.sddmm %arg4, %arg5, %arg3 transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, {{[^>]*}}k_splits = 2>}
// CHECK: sopt.sddmm %arg6, %arg7, %arg3 transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros =
// CHECK: sopt.sddmm %arg9, %arg10, %arg8 transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros =
func.func @long_k_blocks(%u: tensor<16384x512xf16, #CSR> {sopt.sparsity_pattern = "@TALL@"},
                         %ua: tensor<16384x1024xf16>, %ub: tensor<512x1024xf16>,
                         %q: tensor<512x512xf16, #CSR> {sopt.sparsity_pattern = "@SQFIVE@"},
                         %qa: tensor<512x1024xf16>, %qb: tensor<512x1024xf16>,
                         %qa1: tensor<512x256xf16>, %qb1: tensor<512x256xf16>,
                         %t: tensor<512x512xbf16, #CSR> {sopt.sparsity_pattern = "@SQTWO@"},
                         %ta: tensor<512x1024xbf16>, %tb: tensor<512x1024xbf16>)
    -> (tensor<16384x512xf16, #CSR>, tensor<512x512xf16, #CSR>, tensor<512x512xf16, #CSR>,
        tensor<512x512xbf16, #CSR>) {
  %d = sopt.sddmm %ua, %ub, %u transpose_rhs : tensor<16384x1024xf16>, tensor<512x1024xf16>, tensor<16384x512xf16, #CSR> -> tensor<16384x512xf16, #CSR>
  %d1 = sopt.sddmm %qa, %qb, %q transpose_rhs : tensor<512x1024xf16>, tensor<512x1024xf16>, tensor<512x512xf16, #CSR> -> tensor<512x512xf16, #CSR>
  %d2 = sopt.sddmm %qa1, %qb1, %q transpose_rhs : tensor<512x256xf16>, tensor<512x256xf16>, tensor<512x512xf16, #CSR> -> tensor<512x512xf16, #CSR>
  %d3 = sopt.sddmm %ta, %tb, %t transpose_rhs : tensor<512x1024xbf16>, tensor<512x1024xbf16>, tensor<512x512xbf16, #CSR> -> tensor<512x512xbf16, #CSR>
  return %d, %d1, %d2, %d3 : tensor<16384x512xf16, #CSR>, tensor<512x512xf16, #CSR>, tensor<512x512xf16, #CSR>, tensor<512x512xbf16, #CSR>
}
