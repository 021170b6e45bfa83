// A pattern with hub rows (a graph's: 2048 x 2048, rows of 4 nonzeros but
// one of 2000 and one of 600, the longest 380 times the mean) takes row
// tiles whose long rows are cut into segments of 64 nonzeros (four mean
// rows, 64 at least), 8 columns per lane at most; a pattern whose longest
// row (200) is short of 256 nonzeros keeps whole rows, as does a pattern
// not known at compile time.
//
// A pattern of skewed rows (512 x 2048, rows of 100 nonzeros and one of
// 470, 4.7 times the mean) cuts its long rows into segments of 128 (the
// mean row, rounded up to a power of two) where the unsplit f32 tiles at
// n = 256 all run at once; at n = 1024 they fill the GPU twice and keep
// whole rows.
// RUN: python3 -c "import itertools, sys; r = c = 2048; hub = sys.argv[1] == \"hub\"; rows = [sorted({(i * 7 + j * 13) % c for j in range(4)}) for i in range(r)]; rows[7] = list(range(2000)) if hub else list(range(200)); rows[100] = list(range(1, 1201, 2)) if hub else rows[100]; pos = [0] + list(itertools.accumulate(len(x) for x in rows)); print(f\"{r}, {c}, {pos[-1]}\"); print(\" \".join(map(str, pos))); print(\" \".join(str(j) for x in rows for j in x))" hub > %t.hub.smtx
// RUN: python3 -c "import itertools, sys; r = c = 2048; hub = sys.argv[1] == \"hub\"; rows = [sorted({(i * 7 + j * 13) % c for j in range(4)}) for i in range(r)]; rows[7] = list(range(2000)) if hub else list(range(200)); rows[100] = list(range(1, 1201, 2)) if hub else rows[100]; pos = [0] + list(itertools.accumulate(len(x) for x in rows)); print(f\"{r}, {c}, {pos[-1]}\"); print(\" \".join(map(str, pos))); print(\" \".join(str(j) for x in rows for j in x))" short > %t.short.smtx
// RUN: python3 -c "import itertools; r, c = 512, 2048; rows = [sorted({(i * 7 + j * 13) % c for j in range(100)}) for i in range(r)]; rows[3] = list(range(0, 2 * 470, 2)); pos = [0] + list(itertools.accumulate(len(x) for x in rows)); print(f\"{r}, {c}, {pos[-1]}\"); print(\" \".join(map(str, pos))); print(\" \".join(str(j) for x in rows for j in x))" > %t.skewed.smtx
// RUN: sed -e 's|@HUB@|%t.hub.smtx|' -e 's|@SHORT@|%t.short.smtx|' -e 's|@SKEWED@|%t.skewed.smtx|' %s | sparse-opt --sopt-schedule-sparse > %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: not grep -E 'sopt.spmm %arg(4|5), .*row_segment' %t.mlir
// RUN: not grep -E 'sopt.spmm %arg0, %arg2 .*row_segment' %t.mlir

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
// CHECK-LABEL: func.func @hub_rows
// CHECK: sopt.spmm %arg0, %arg1 {schedule = #sopt.spmm_schedule<{{[^>]*}}row_order = by_length, {{[^>]*}}row_segment = 64>}
// f16 at n = 1024: 8 columns per lane (the output's size alone asks for 16).
// CHECK: sopt.spmm %arg2, %arg3 {schedule = #sopt.spmm_schedule<tile_columns = 256, threads_per_tile = 32, {{[^>]*}}row_order = by_length, {{[^>]*}}row_segment = 64>}
// CHECK: sopt.spmm %arg4, %arg1 {schedule = #sopt.spmm_schedule<{{[^>]*}}row_order = by_length
// CHECK: sopt.spmm %arg5, %arg1 {schedule = #sopt.spmm_schedule<{{[^>]*}}row_order = natural
func.func @hub_rows(%s: tensor<2048x2048xf32, #CSR> {sopt.sparsity_pattern = "@HUB@"},
                    %x: tensor<2048x256xf32>,
                    %h: tensor<2048x2048xf16, #CSR> {sopt.sparsity_pattern = "@HUB@"},
                    %hx: tensor<2048x1024xf16>,
                    %short: tensor<2048x2048xf32, #CSR> {sopt.sparsity_pattern = "@SHORT@"},
                    %unknown: tensor<2048x2048xf32, #CSR>)
    -> (tensor<2048x256xf32>, tensor<2048x1024xf16>, tensor<2048x256xf32>, tensor<2048x256xf32>) {
  %y = sopt.spmm %s, %x : tensor<2048x2048xf32, #CSR>, tensor<2048x256xf32> -> tensor<2048x256xf32>
  %hy = sopt.spmm %h, %hx : tensor<2048x2048xf16, #CSR>, tensor<2048x1024xf16> -> tensor<2048x1024xf16>
  %sy = sopt.spmm %short, %x : tensor<2048x2048xf32, #CSR>, tensor<2048x256xf32> -> tensor<2048x256xf32>
  %uy = sopt.spmm %unknown, %x : tensor<2048x2048xf32, #CSR>, tensor<2048x256xf32> -> tensor<2048x256xf32>
  return %y, %hy, %sy, %uy : tensor<2048x256xf32>, tensor<2048x1024xf16>, tensor<2048x256xf32>, tensor<2048x256xf32>
}

// CHECK-LABEL: func.func @skewed_rows
// CHECK: sopt.spmm %arg0, %arg1 {schedule = #sopt.spmm_schedule<tile_columns = 32, {{[^>]*}}row_order = by_length, row_segment = 128>}
// CHECK: sopt.spmm %arg0, %arg2 {schedule = #sopt.spmm_schedule<{{[^>]*}}row_order = by_length
func.func @skewed_rows(%s: tensor<512x2048xf32, #CSR> {sopt.sparsity_pattern = "@SKEWED@"},
                       %x: tensor<2048x256xf32>, %wide: tensor<2048x1024xf32>)
    -> (tensor<512x256xf32>, tensor<512x1024xf32>) {
  %y = sopt.spmm %s, %x : tensor<512x2048xf32, #CSR>, tensor<2048x256xf32> -> tensor<512x256xf32>
  %w = sopt.spmm %s, %wide : tensor<512x2048xf32, #CSR>, tensor<2048x1024xf32> -> tensor<512x1024xf32>
  return %y, %w : tensor<512x256xf32>, tensor<512x1024xf32>
}
