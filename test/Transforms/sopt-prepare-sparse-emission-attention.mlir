// RUN: sparse-opt %s --sopt-prepare-sparse-emission | FileCheck %s
// The pass may run again on its output: every plan is kept, none added.
// RUN: sparse-opt %s --sopt-prepare-sparse-emission --sopt-prepare-sparse-emission | FileCheck %s
// Above the inline limit the plan is a dense_resource blob, read back alike.
// RUN: sparse-opt %s --sopt-prepare-sparse-emission=inline-table-limit=2 | FileCheck %s --check-prefix=BLOB

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// 8 x 100, mean 21.9 entries a row: rows over max(64, 2 x 21.9) = 64
// entries are split, longest first (row 2 of 100, row 5 of 70); the
// others run in order, row 7 empty among them.
// CHECK-LABEL: sopt.pattern_tables @hub_sparse_attention0 of "{{.*}}Inputs/prepare-attention-hub.smtx"
// CHECK-SAME: cols = 100 : i64, nnz = 175 : i64, rows = 8 : i64
// CHECK-SAME: split_length = 64 : i64
// CHECK-SAME: split_rows = dense<[2, 5]> : tensor<2xi32>
// CHECK-SAME: unsplit_rows = dense<[0, 1, 3, 4, 6, 7]> : tensor<6xi32>
// CHECK-NOT: sopt.pattern_tables @hub
// CHECK: func.func @hub(
// CHECK: sopt.sparse_attention {{.*}} {sopt.pattern_tables = @hub_sparse_attention0}
// BLOB-LABEL: sopt.pattern_tables @hub_sparse_attention0
// BLOB-SAME: split_rows = dense<[2, 5]> : tensor<2xi32>
// BLOB-SAME: unsplit_rows = dense_resource<hub_sparse_attention0_unsplit_rows> : tensor<6xi32>
func.func @hub(%q: tensor<8x32xf32>, %k: tensor<100x32xf32>, %v: tensor<100x16xf32>,
               %s: tensor<8x100xf32, #CSR> {sopt.sparsity_pattern = "Inputs/prepare-attention-hub.smtx"})
    -> tensor<8x16xf32> {
  %o = sopt.sparse_attention %q, %k, %v, %s scale = 0.125
      : tensor<8x32xf32>, tensor<100x32xf32>, tensor<100x16xf32>, tensor<8x100xf32, #CSR>
        -> tensor<8x16xf32>
  return %o : tensor<8x16xf32>
}

// Two entries in every row: nothing is long, and the plan is empty (no
// unsplit_rows: every row in order).
// CHECK-LABEL: sopt.pattern_tables @even_sparse_attention0 of "{{.*}}Inputs/prepare-attention-even.smtx"
// CHECK-SAME: split_length = 64 : i64
// CHECK-SAME: split_rows = dense<> : tensor<0xi32>
// CHECK-NOT: unsplit_rows
// CHECK: func.func @even(
// CHECK: sopt.sparse_attention {{.*}} {sopt.pattern_tables = @even_sparse_attention0}
func.func @even(%q: tensor<2x6x8xf16>, %k: tensor<2x6x8xf16>, %v: tensor<2x6x8xf16>,
                %s: tensor<6x6xf16, #CSR> {sopt.sparsity_pattern = "Inputs/prepare-attention-even.smtx"})
    -> tensor<2x6x8xf16> {
  %o = sopt.sparse_attention %q, %k, %v, %s scale = 0.5
      : tensor<2x6x8xf16>, tensor<2x6x8xf16>, tensor<2x6x8xf16>, tensor<6x6xf16, #CSR>
        -> tensor<2x6x8xf16>
  return %o : tensor<2x6x8xf16>
}

// No pattern known: no tables, the launch keeps the empty plan.
// CHECK-NOT: sopt.pattern_tables
// CHECK-LABEL: func.func @unknown(
// CHECK: sopt.sparse_attention
// CHECK-NOT: sopt.pattern_tables
// CHECK: return
func.func @unknown(%q: tensor<8x32xf32>, %k: tensor<100x32xf32>, %v: tensor<100x16xf32>,
                   %s: tensor<8x100xf32, #CSR>) -> tensor<8x16xf32> {
  %o = sopt.sparse_attention %q, %k, %v, %s scale = 0.125
      : tensor<8x32xf32>, tensor<100x32xf32>, tensor<100x16xf32>, tensor<8x100xf32, #CSR>
        -> tensor<8x16xf32>
  return %o : tensor<8x16xf32>
}
