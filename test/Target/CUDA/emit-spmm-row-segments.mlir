// An SpMM whose pattern, known at compile time, has hub rows (2048 x 2048,
// rows of 4 nonzeros but one of 2000 and one of 600) cuts them into segments
// of 64 nonzeros: the segments' table is prepared at compile time (2 long
// rows, 32 + 10 = 42 segments), their partial sums get a temporary of 42 x
// 256 floats, and the launch passes both; the fused epilogue stays on the
// launch (the second kernel applies it to the long rows).
// RUN: python3 -c "import itertools, sys; r = c = 2048; hub = sys.argv[1] == \"hub\"; rows = [sorted({(i * 7 + j * 13) % c for j in range(4)}) for i in range(r)]; rows[7] = list(range(2000)) if hub else list(range(200)); rows[100] = list(range(1, 1201, 2)) if hub else rows[100]; pos = [0] + list(itertools.accumulate(len(x) for x in rows)); print(f\"{r}, {c}, {pos[-1]}\"); print(\" \".join(map(str, pos))); print(\" \".join(str(j) for x in rows for j in x))" hub > %t.hub.smtx
// RUN: sed -e 's|@HUB@|%t.hub.smtx|' %s > %t.mlir
// RUN: sparse-opt %t.mlir --emit=cuda -o %t.cu --kernel-summary 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s < %t.cu

// SUMMARY: graph_layer_spmm0: sopt.spmm with the project's kernel, #sopt.spmm_schedule<{{.*}}row_order = by_length, row_segment = 64>
// SUMMARY: graph_layer_epilogue1: epilogue of 3 op(s) fused into the sparse product: broadcast add relu

// CHECK: // The 2 rows of {{.*}}hub.smtx longer than 64 nonzeros, in 42 segments of at most 64
// CHECK-NEXT: // (sopt_csr_row_segments: segments' rows, their first entries, each row's first segment).
// CHECK-NEXT: static const int32_t graph_layer0_row_segments_host[] = {
// CHECK-NEXT: 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
// CHECK: sopt::allocateTemporary(&graph_layer0_row_segments_partials, std::max<int64_t>(10752, 1) * sizeof(float), stream)
// CHECK: // The segments were prepared for a pattern of 10784 nonzeros.
// CHECK: rows longer than 64 nonzeros cut into segments of that many, added by a second kernel
// CHECK: sopt::launchSpmm<float, {{.*}}graph_layer0_row_order, {{.*}}, stream, graph_layer_epilogue1{arg2}, sopt::RowSegments{graph_layer0_row_segments, 42, 2, 64, graph_layer0_row_segments_partials})
// CHECK: cudaFreeAsync(graph_layer0_row_segments_partials, stream);

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
func.func @graph_layer(%a: tensor<2048x2048xf32, #CSR> {sopt.sparsity_pattern = "@HUB@"},
                       %x: tensor<2048x256xf32>, %bias: tensor<256xf32>) -> tensor<2048x256xf32> {
  %y = sopt.spmm %a, %x : tensor<2048x2048xf32, #CSR>, tensor<2048x256xf32> -> tensor<2048x256xf32>
  %bb = sopt.broadcast %bias dims = [1] : tensor<256xf32> -> tensor<2048x256xf32>
  %z = sopt.add %y, %bb : tensor<2048x256xf32>
  %r = sopt.relu %z : tensor<2048x256xf32>
  return %r : tensor<2048x256xf32>
}
