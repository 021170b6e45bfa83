// RUN: rm -rf %t && mkdir -p %t/first %t/again
// RUN: sparse-opt %s --emit=cuda -o %t/first/plan.cu --kernel-summary 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s < %t/first/plan.cu
// The plan travels in the IR: emitting --emit=mlir's output as given gives
// the same CUDA.
// RUN: sparse-opt %s --emit=mlir -o %t/plan.mlir
// RUN: FileCheck %s --check-prefix=MLIR < %t/plan.mlir
// RUN: sparse-opt %t/plan.mlir --skip-pipeline --emit=cuda -o %t/again/plan.cu
// RUN: diff %t/first/plan.cu %t/again/plan.cu
// Likewise for a plan held as a dense_resource blob (512 unsplit rows).
// RUN: sparse-opt %S/../../GPU/SparseAttention/Inputs/sparse_attention_graph.mlir --emit=cuda -o %t/first/graph.cu
// RUN: sparse-opt %S/../../GPU/SparseAttention/Inputs/sparse_attention_graph.mlir --emit=mlir -o %t/graph.mlir
// RUN: FileCheck %s --check-prefix=BLOB < %t/graph.mlir
// RUN: sparse-opt %t/graph.mlir --skip-pipeline --emit=cuda -o %t/again/graph.cu
// RUN: diff %t/first/graph.cu %t/again/graph.cu
// BLOB: split_rows = dense<[0, 17, 258, 400, 516]> : tensor<5xi32>, unsplit_rows = dense_resource<hubs_f32_sparse_attention0_unsplit_rows> : tensor<512xi32>
// BLOB: hubs_f32_sparse_attention0_unsplit_rows: "0x04000000

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

// SUMMARY: hub_sparse_attention{{[0-9]+}}: sopt.sparse_attention, {{.*}}heads 1, head dims 32 / 16; 2 long rows split (over 64 entries)
// SUMMARY: even_sparse_attention{{[0-9]+}}: sopt.sparse_attention, {{.*}}heads 2, head dims 8 / 8; 0 long rows split (over 64 entries)
// SUMMARY: unknown_sparse_attention{{[0-9]+}}: sopt.sparse_attention, {{.*}}; rows in order, none split

// MLIR: sopt.pattern_tables @hub_sparse_attention0 of "{{.*}}prepare-attention-hub.smtx" {{.*}}split_rows = dense<[2, 5]>
// MLIR: sopt.sparse_attention {{.*}}sopt.pattern_tables = @hub_sparse_attention0

// The hub pattern's plan: its two tables as static arrays, each uploaded
// once per device after a guard on the caller's nnz; the launch takes them.
// CHECK: // Rows of {{.*}}prepare-attention-hub.smtx over 64 entries, longest first: a block per head each.
// CHECK-NEXT: static const int32_t hub0_split_rows_host[] = {
// CHECK-NEXT:     2, 5,
// CHECK-NEXT: };
// CHECK-NEXT: static sopt::DeviceTable hub0_split_rows_device;
// CHECK: // The other rows of {{.*}}prepare-attention-hub.smtx, in the order the lane groups take them.
// CHECK-NEXT: static const int32_t hub0_unsplit_rows_host[] = {
// CHECK-NEXT:     0, 1, 3, 4, 6, 7,
// CHECK-NEXT: };
// CHECK-NEXT: static sopt::DeviceTable hub0_unsplit_rows_device;
// CHECK-NOT: _rows_host
// CHECK-LABEL: extern "C" cudaError_t hub(
// CHECK: // The split rows were prepared for a pattern of 175 nonzeros.
// CHECK-NEXT: if (arg3_nnz != 175)
// CHECK-NEXT: return cudaErrorInvalidValue;
// CHECK-NEXT: const int32_t *hub0_split_rows = nullptr;
// CHECK-NEXT: SOPT_TRY(hub0_split_rows_device.copy(hub0_split_rows_host, sizeof(hub0_split_rows_host) / sizeof(int32_t), &hub0_split_rows));
// CHECK: const int32_t *hub0_unsplit_rows = nullptr;
// CHECK-NEXT: SOPT_TRY(hub0_unsplit_rows_device.copy(
// CHECK: // sopt.sparse_attention, {{.*}}; 2 long rows split (over 64 entries)
// CHECK: SOPT_TRY(sopt::runSparseAttention(p, sopt::SparseAttentionRows{hub0_split_rows, 2, hub0_unsplit_rows, 6}, stream));
func.func @hub(%q: tensor<8x32xf32>, %k: tensor<100x32xf32>, %v: tensor<100x16xf32>,
               %s: tensor<8x100xf32, #CSR> {sopt.sparsity_pattern = "../../Transforms/Inputs/prepare-attention-hub.smtx"})
    -> tensor<8x16xf32> {
  %o = sopt.sparse_attention %q, %k, %v, %s scale = 0.125
      : tensor<8x32xf32>, tensor<100x32xf32>, tensor<100x16xf32>, tensor<8x100xf32, #CSR>
        -> tensor<8x16xf32>
  return %o : tensor<8x16xf32>
}

// No long row: the empty plan, no table, no guard.
// CHECK-LABEL: extern "C" cudaError_t even(
// CHECK-NOT: DeviceTable
// CHECK: // sopt.sparse_attention, {{.*}}; 0 long rows split (over 64 entries)
// CHECK: SOPT_TRY(sopt::runSparseAttention(p, sopt::SparseAttentionRows{}, stream));
func.func @even(%q: tensor<2x6x8xf16>, %k: tensor<2x6x8xf16>, %v: tensor<2x6x8xf16>,
                %s: tensor<6x6xf16, #CSR> {sopt.sparsity_pattern = "../../Transforms/Inputs/prepare-attention-even.smtx"})
    -> tensor<2x6x8xf16> {
  %o = sopt.sparse_attention %q, %k, %v, %s scale = 0.5
      : tensor<2x6x8xf16>, tensor<2x6x8xf16>, tensor<2x6x8xf16>, tensor<6x6xf16, #CSR>
        -> tensor<2x6x8xf16>
  return %o : tensor<2x6x8xf16>
}

// No pattern known: the empty plan.
// CHECK-LABEL: extern "C" cudaError_t unknown(
// CHECK-NOT: DeviceTable
// CHECK: // sopt.sparse_attention, {{.*}}; rows in order, none split
// CHECK: SOPT_TRY(sopt::runSparseAttention(p, sopt::SparseAttentionRows{}, stream));
func.func @unknown(%q: tensor<8x32xf32>, %k: tensor<100x32xf32>, %v: tensor<100x16xf32>,
                   %s: tensor<8x100xf32, #CSR>) -> tensor<8x16xf32> {
  %o = sopt.sparse_attention %q, %k, %v, %s scale = 0.125
      : tensor<8x32xf32>, tensor<100x32xf32>, tensor<100x16xf32>, tensor<8x100xf32, #CSR>
        -> tensor<8x16xf32>
  return %o : tensor<8x16xf32>
}
