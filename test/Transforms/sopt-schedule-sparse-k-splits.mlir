// Long SDDMMs by dense blocks whose 64 x 64 blocks are too few to fill the
// GPU (64 to 131 of them) split k in two in 16-bit from k = 1024: a cluster
// of two thread blocks per output block (k_splits = 2). f32 takes 32 x 32
// blocks fed from global memory there instead (SddmmDirect.cuh), from k =
// 512 where it used to split. The patterns are written by
// the test: 512 x 512 with every fifth column of each row (20 %, 64 blocks
// of 64 x 64), 2048 x 512 likewise (256 blocks) and 256 x 512 (32 blocks),
// and 512 x 512 with every tenth (10 %). In f32 from k = 1024 such blocks
// also serve patterns of 8 % density whatever nnz * k.
// RUN: python3 -c "r, c, s = 512, 512, 5; rows = [[j for j in range(c) if j % s == i % s] for i in range(r)]; import itertools; pos = [0] + list(itertools.accumulate(len(x) for x in rows)); print(f'{r}, {c}, {pos[-1]}'); print(' '.join(map(str, pos))); print(' '.join(str(j) for x in rows for j in x))" > %t.square.smtx
// RUN: python3 -c "r, c, s = 2048, 512, 5; rows = [[j for j in range(c) if j % s == i % s] for i in range(r)]; import itertools; pos = [0] + list(itertools.accumulate(len(x) for x in rows)); print(f'{r}, {c}, {pos[-1]}'); print(' '.join(map(str, pos))); print(' '.join(str(j) for x in rows for j in x))" > %t.tall.smtx
// RUN: python3 -c "r, c, s = 256, 512, 5; rows = [[j for j in range(c) if j % s == i % s] for i in range(r)]; import itertools; pos = [0] + list(itertools.accumulate(len(x) for x in rows)); print(f'{r}, {c}, {pos[-1]}'); print(' '.join(map(str, pos))); print(' '.join(str(j) for x in rows for j in x))" > %t.short.smtx
// RUN: python3 -c "r, c, s = 512, 512, 10; rows = [[j for j in range(c) if j % s == i % s] for i in range(r)]; import itertools; pos = [0] + list(itertools.accumulate(len(x) for x in rows)); print(f'{r}, {c}, {pos[-1]}'); print(' '.join(map(str, pos))); print(' '.join(str(j) for x in rows for j in x))" > %t.tenth.smtx
// RUN: sed -e 's|@SQUARE@|%t.square.smtx|' -e 's|@TALL@|%t.tall.smtx|' -e 's|@SHORT@|%t.short.smtx|' -e 's|@TENTH@|%t.tenth.smtx|' %s | sparse-opt --sopt-schedule-sparse | FileCheck %s

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// CHECK-LABEL: func.func @k_splits
// 512 x 512, f32, k = 1024: blocks of 32, k whole.
// CHECK: sopt.sddmm %arg1, %arg2, %arg0 transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, {{[^>]*}}row_order = natural, block_size = 32>}
// ... k = 256: blocks of 32, k whole.
// CHECK: sopt.sddmm %arg3, %arg4, %arg0 transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, {{[^>]*}}row_order = natural, block_size = 32>}
// ... f16, k = 1024: split; k = 256: blocks of 64, k whole.
// CHECK: sopt.sddmm %arg6, %arg7, %arg5 transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, {{[^>]*}}row_order = natural, k_splits = 2>}
// CHECK: sopt.sddmm %arg8, %arg9, %arg5 transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, {{[^>]*}}row_order = natural>}
// 2048 x 512, f32, k = 1024: 256 blocks fill the GPU, k whole.
// CHECK: sopt.sddmm %arg11, %arg12, %arg10 transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, {{[^>]*}}row_order = natural>}
// 256 x 512, f32, k = 2048: 32 blocks of 64, too few even split: blocks of 32.
// CHECK: sopt.sddmm %arg14, %arg15, %arg13 transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, {{[^>]*}}row_order = natural, block_size = 32>}
// 512 x 512 at 10 %, f32, k = 1024: 2.7e7 products, below 3e7, but dense
// blocks (of 32); k = 512: tiles of nonzeros.
// 512 x 512 at 20 %, k = 512: f32 blocks of 32 (2.7e7 products, blocks by
// the 15 % rule: they fill the GPU); f16 does not split.
// CHECK: sopt.sddmm %arg1, %arg2, %arg16 transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, {{[^>]*}}row_order = natural, block_size = 32>}
// CHECK: sopt.sddmm %arg17, %arg18, %arg16 transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros =
// CHECK: sopt.sddmm %arg17, %arg18, %arg0 transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, {{[^>]*}}row_order = natural, block_size = 32>}
// CHECK: sopt.sddmm %arg19, %arg20, %arg5 transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, {{[^>]*}}row_order = natural>}
func.func @k_splits(%s: tensor<512x512xf32, #CSR> {sopt.sparsity_pattern = "@SQUARE@"},
                    %a: tensor<512x1024xf32>, %b: tensor<512x1024xf32>,
                    %a1: tensor<512x256xf32>, %b1: tensor<512x256xf32>,
                    %h: tensor<512x512xf16, #CSR> {sopt.sparsity_pattern = "@SQUARE@"},
                    %ha: tensor<512x1024xf16>, %hb: tensor<512x1024xf16>,
                    %ha1: tensor<512x256xf16>, %hb1: tensor<512x256xf16>,
                    %t: tensor<2048x512xf32, #CSR> {sopt.sparsity_pattern = "@TALL@"},
                    %ta: tensor<2048x1024xf32>, %tb: tensor<512x1024xf32>,
                    %u: tensor<256x512xf32, #CSR> {sopt.sparsity_pattern = "@SHORT@"},
                    %ua: tensor<256x2048xf32>, %ub: tensor<512x2048xf32>,
                    %v: tensor<512x512xf32, #CSR> {sopt.sparsity_pattern = "@TENTH@"},
                    %va: tensor<512x512xf32>, %vb: tensor<512x512xf32>,
                    %hva: tensor<512x512xf16>, %hvb: tensor<512x512xf16>)
    -> (tensor<512x512xf32, #CSR>, tensor<512x512xf32, #CSR>, tensor<512x512xf16, #CSR>,
        tensor<512x512xf16, #CSR>, tensor<2048x512xf32, #CSR>, tensor<256x512xf32, #CSR>,
        tensor<512x512xf32, #CSR>, tensor<512x512xf32, #CSR>, tensor<512x512xf32, #CSR>,
        tensor<512x512xf16, #CSR>) {
  %d = sopt.sddmm %a, %b, %s transpose_rhs : tensor<512x1024xf32>, tensor<512x1024xf32>, tensor<512x512xf32, #CSR> -> tensor<512x512xf32, #CSR>
  %d1 = sopt.sddmm %a1, %b1, %s transpose_rhs : tensor<512x256xf32>, tensor<512x256xf32>, tensor<512x512xf32, #CSR> -> tensor<512x512xf32, #CSR>
  %dh = sopt.sddmm %ha, %hb, %h transpose_rhs : tensor<512x1024xf16>, tensor<512x1024xf16>, tensor<512x512xf16, #CSR> -> tensor<512x512xf16, #CSR>
  %dh1 = sopt.sddmm %ha1, %hb1, %h transpose_rhs : tensor<512x256xf16>, tensor<512x256xf16>, tensor<512x512xf16, #CSR> -> tensor<512x512xf16, #CSR>
  %dt = sopt.sddmm %ta, %tb, %t transpose_rhs : tensor<2048x1024xf32>, tensor<512x1024xf32>, tensor<2048x512xf32, #CSR> -> tensor<2048x512xf32, #CSR>
  %du = sopt.sddmm %ua, %ub, %u transpose_rhs : tensor<256x2048xf32>, tensor<512x2048xf32>, tensor<256x512xf32, #CSR> -> tensor<256x512xf32, #CSR>
  %dv = sopt.sddmm %a, %b, %v transpose_rhs : tensor<512x1024xf32>, tensor<512x1024xf32>, tensor<512x512xf32, #CSR> -> tensor<512x512xf32, #CSR>
  %dv1 = sopt.sddmm %va, %vb, %v transpose_rhs : tensor<512x512xf32>, tensor<512x512xf32>, tensor<512x512xf32, #CSR> -> tensor<512x512xf32, #CSR>
  %ds = sopt.sddmm %va, %vb, %s transpose_rhs : tensor<512x512xf32>, tensor<512x512xf32>, tensor<512x512xf32, #CSR> -> tensor<512x512xf32, #CSR>
  %dhs = sopt.sddmm %hva, %hvb, %h transpose_rhs : tensor<512x512xf16>, tensor<512x512xf16>, tensor<512x512xf16, #CSR> -> tensor<512x512xf16, #CSR>
  return %d, %d1, %dh, %dh1, %dt, %du, %dv, %dv1, %ds, %dhs : tensor<512x512xf32, #CSR>, tensor<512x512xf32, #CSR>, tensor<512x512xf16, #CSR>, tensor<512x512xf16, #CSR>, tensor<2048x512xf32, #CSR>, tensor<256x512xf32, #CSR>, tensor<512x512xf32, #CSR>, tensor<512x512xf32, #CSR>, tensor<512x512xf32, #CSR>, tensor<512x512xf16, #CSR>
}
