// f32 SDDMMs of a known pattern take dense blocks from 8 % density and 3e7
// products (nnz * k), and also from 15 % density and 1e7 products when the
// blocks fill the GPU (at least 132 of them). The patterns are written by
// the test: 512 x 512 with every fifth column of each row (52429 entries,
// 20 %; 256 blocks of 32 x 32) and every tenth (26215, 10 %), and 64 x 512
// with every fifth (6554 entries, 20 %; 32 blocks of 32 x 32).
// RUN: python3 -c "r, c, s = 512, 512, 5; rows = [[j for j in range(c) if j % s == i % s] for i in range(r)]; import itertools; pos = [0] + list(itertools.accumulate(len(x) for x in rows)); print(f'{r}, {c}, {pos[-1]}'); print(' '.join(map(str, pos))); print(' '.join(str(j) for x in rows for j in x))" > %t.fifth.smtx
// RUN: python3 -c "r, c, s = 512, 512, 10; rows = [[j for j in range(c) if j % s == i % s] for i in range(r)]; import itertools; pos = [0] + list(itertools.accumulate(len(x) for x in rows)); print(f'{r}, {c}, {pos[-1]}'); print(' '.join(map(str, pos))); print(' '.join(str(j) for x in rows for j in x))" > %t.tenth.smtx
// RUN: python3 -c "r, c, s = 64, 512, 5; rows = [[j for j in range(c) if j % s == i % s] for i in range(r)]; import itertools; pos = [0] + list(itertools.accumulate(len(x) for x in rows)); print(f'{r}, {c}, {pos[-1]}'); print(' '.join(map(str, pos))); print(' '.join(str(j) for x in rows for j in x))" > %t.short.smtx
// RUN: sed -e 's|@FIFTH@|%t.fifth.smtx|' -e 's|@TENTH@|%t.tenth.smtx|' -e 's|@SHORT@|%t.short.smtx|' %s | sparse-opt --sopt-schedule-sparse | FileCheck %s

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// 20 %, k = 256: 1.34e7 products, 256 blocks of 32 -> dense blocks of 32.
// CHECK-LABEL: func.func @f32_dense_blocks
// CHECK: sopt.sddmm %arg1, %arg2, %arg0 transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, {{[^>]*}}block_size = 32>}
// 20 %, k = 128: 6.7e6 products, too few -> tiles of nonzeros.
// CHECK: sopt.sddmm %arg3, %arg4, %arg0 transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros =
// 10 %, k = 512: 1.34e7 products, but below 15 % and 3e7 -> tiles.
// CHECK: sopt.sddmm %arg6, %arg7, %arg5 transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros =
// 20 % of 64 x 512, k = 2048: 1.34e7 products, but 32 blocks -> tiles.
// CHECK: sopt.sddmm %arg9, %arg10, %arg8 transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros =
// The same 20 % pattern in f16 (6 % and 6e6 apply): dense blocks.
// CHECK: sopt.sddmm %arg12, %arg13, %arg11 transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks,
func.func @f32_dense_blocks(%s: tensor<512x512xf32, #CSR> {sopt.sparsity_pattern = "@FIFTH@"},
                            %a: tensor<512x256xf32>, %b: tensor<512x256xf32>,
                            %a1: tensor<512x128xf32>, %b1: tensor<512x128xf32>,
                            %t: tensor<512x512xf32, #CSR> {sopt.sparsity_pattern = "@TENTH@"},
                            %a2: tensor<512x512xf32>, %b2: tensor<512x512xf32>,
                            %u: tensor<64x512xf32, #CSR> {sopt.sparsity_pattern = "@SHORT@"},
                            %a3: tensor<64x2048xf32>, %b3: tensor<512x2048xf32>,
                            %h: tensor<512x512xf16, #CSR> {sopt.sparsity_pattern = "@FIFTH@"},
                            %ha: tensor<512x128xf16>, %hb: tensor<512x128xf16>)
    -> (tensor<512x512xf32, #CSR>, tensor<512x512xf32, #CSR>, tensor<512x512xf32, #CSR>,
        tensor<64x512xf32, #CSR>, tensor<512x512xf16, #CSR>) {
  %d = sopt.sddmm %a, %b, %s transpose_rhs : tensor<512x256xf32>, tensor<512x256xf32>, tensor<512x512xf32, #CSR> -> tensor<512x512xf32, #CSR>
  %d1 = sopt.sddmm %a1, %b1, %s transpose_rhs : tensor<512x128xf32>, tensor<512x128xf32>, tensor<512x512xf32, #CSR> -> tensor<512x512xf32, #CSR>
  %d2 = sopt.sddmm %a2, %b2, %t transpose_rhs : tensor<512x512xf32>, tensor<512x512xf32>, tensor<512x512xf32, #CSR> -> tensor<512x512xf32, #CSR>
  %d3 = sopt.sddmm %a3, %b3, %u transpose_rhs : tensor<64x2048xf32>, tensor<512x2048xf32>, tensor<64x512xf32, #CSR> -> tensor<64x512xf32, #CSR>
  %dh = sopt.sddmm %ha, %hb, %h transpose_rhs : tensor<512x128xf16>, tensor<512x128xf16>, tensor<512x512xf16, #CSR> -> tensor<512x512xf16, #CSR>
  return %d, %d1, %d2, %d3, %dh : tensor<512x512xf32, #CSR>, tensor<512x512xf32, #CSR>, tensor<512x512xf32, #CSR>, tensor<64x512xf32, #CSR>, tensor<512x512xf16, #CSR>
}
