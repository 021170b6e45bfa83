// Shared-memory budgets and recorded slots of sopt-plan-reuse (these were
// bugs once: caches overflowing the block's shared memory, argument slots
// not recorded, split rows not resident after caching).
// RUN: sparse-opt %s -split-input-file --sopt-decompose-composites --sopt-form-fusion-regions --sopt-group-backbones --sopt-propagate-mapping --sopt-plan-reuse --mlir-print-local-scope | FileCheck %s
// RUN: sparse-opt %s -split-input-file --sopt-decompose-composites --sopt-form-fusion-regions --sopt-group-backbones --sopt-propagate-mapping --sopt-plan-reuse=shared-memory-per-block=196608 --mlir-print-local-scope | FileCheck %s --check-prefix=SMALL

// Shared caches are admitted against what is left of the block's budget.
// Three f16 rows of 98304 bytes per block (too many elements per thread for
// registers) would need 295200 bytes together, more than the 232448 a block
// may use: the values that do not fit are re-read instead, keeping
// sopt.smem_bytes <= 232448.
// CHECK-LABEL: func.func @shared_caches_over_budget
// CHECK-NEXT: sopt.fusion ins(%arg0 : tensor<1024x49152xf16>) attributes {{[{].*}}sopt.smem_bytes = {{([0-9]{1,5}|1[0-9]{5}|2[0-2][0-9]{4}|23[01][0-9]{3}|232[0-3][0-9]{2}|2324[0-3][0-9]|23244[0-8])}} : i64}
func.func @shared_caches_over_budget(%x: tensor<1024x49152xf16>) -> tensor<1024x49152xf16> {
  %two = sopt.constant dense<2.0> : tensor<1024x49152xf16>
  %a = sopt.mul %x, %two : tensor<1024x49152xf16>
  %r1 = sopt.reduce sum %a dims = [1] keep_dims : tensor<1024x49152xf16> -> tensor<1024x1xf16>
  %r1b = sopt.broadcast %r1 dims = [0, 1] : tensor<1024x1xf16> -> tensor<1024x49152xf16>
  %b = sopt.sub %a, %r1b : tensor<1024x49152xf16>
  %r2 = sopt.reduce max %b dims = [1] keep_dims : tensor<1024x49152xf16> -> tensor<1024x1xf16>
  %r2b = sopt.broadcast %r2 dims = [0, 1] : tensor<1024x1xf16> -> tensor<1024x49152xf16>
  %c = sopt.add %x, %a : tensor<1024x49152xf16>
  %d = sopt.add %c, %b : tensor<1024x49152xf16>
  %y = sopt.add %d, %r2b : tensor<1024x49152xf16>
  return %y : tensor<1024x49152xf16>
}

// -----

// The same with the smallest graph: softmax over f16 rows of 49152 with a
// budget of 196608 bytes. x and exp(x - max) (98304 bytes each) do not both
// fit next to two 144-byte scratch slots (196896 > 196608): one is re-read.
// SMALL-LABEL: func.func @softmax_over_budget
// SMALL-NEXT: sopt.fusion ins(%arg0 : tensor<1024x49152xf16>) attributes {{[{].*}}sopt.smem_bytes = {{([0-9]{1,5}|1[0-8][0-9]{4}|19[0-5][0-9]{3}|196[0-5][0-9]{2}|19660[0-8])}} : i64}
func.func @softmax_over_budget(%x: tensor<1024x49152xf16>) -> tensor<1024x49152xf16> {
  %0 = sopt.softmax %x dim = 1 : tensor<1024x49152xf16>
  return %0 : tensor<1024x49152xf16>
}

// -----

// A region argument cached in shared memory has its slot recorded on the
// fusion op (sopt.arg_smem): [offset = 144, bytes = 98304].
// CHECK-LABEL: func.func @argument_cache_slot
// CHECK-NEXT: sopt.fusion ins(%arg0 : tensor<1024x49152xf16>) attributes {{[{].*}}sopt.arg_smem = [array<i64: 144, 98304>]{{.*}}} -> tensor<1024x49152xf16>
func.func @argument_cache_slot(%x: tensor<1024x49152xf16>) -> tensor<1024x49152xf16> {
  %0 = sopt.softmax %x dim = 1 : tensor<1024x49152xf16>
  return %0 : tensor<1024x49152xf16>
}

// -----

// A split row's blocks meet at a grid-wide barrier, so all of them must be
// resident at once: the mapping gives at most one block per SM (40 rows x 3
// segments = 120 <= 132 blocks), which holds whatever shared memory the plan
// then adds (here x cached in shared memory: 131360 bytes per block).
// CHECK-LABEL: func.func @split_row_wave_after_caching
// CHECK-NEXT: sopt.fusion ins(%arg0 : tensor<40x196608xf16>) attributes {{[{].*}}sopt.smem_bytes = 131360 : i64}
// CHECK: kind = split_row, rows = 40, cols = 196608, threads_per_block = 1024, threads_per_row = 1024, rows_per_block = 1, blocks_per_row = 3, vector_width = 8, grid = 120>
func.func @split_row_wave_after_caching(%x: tensor<40x196608xf16>) -> tensor<40x196608xf16> {
  %0 = sopt.softmax %x dim = 1 : tensor<40x196608xf16>
  return %0 : tensor<40x196608xf16>
}

// -----

// Rows of 65536 floats fit neither registers nor shared memory. A chain of
// four softmaxes would recompute ever longer stretches of itself after each
// reduction; once a value needed later takes more than a few ops to
// recompute, the region is cut there into two kernels (each grouped and
// mapped afresh), the value passing between them through global memory.
// CHECK-LABEL: func.func @softmax_chain_cut
// CHECK: %[[A:.+]] = sopt.fusion ins(%arg0 : tensor<1024x65536xf32>)
// CHECK-COUNT-6: sopt.reduce
// CHECK-NOT: sopt.reduce
// CHECK: sopt.yield
// CHECK: %[[B:.+]] = sopt.fusion ins(%[[A]] : tensor<1024x65536xf32>)
// CHECK: sopt.reduce max {{.*}}sopt.backbone, sopt.group = 0 : i64, {{.*}}sopt.mapping = #sopt.mapping<kind = block_rows
// CHECK: sopt.reduce sum {{.*}}sopt.sub_backbone
// CHECK-NOT: sopt.reduce
// CHECK: return %[[B]]
func.func @softmax_chain_cut(%x: tensor<1024x65536xf32>) -> tensor<1024x65536xf32> {
  %s1 = sopt.softmax %x dim = 1 : tensor<1024x65536xf32>
  %s2 = sopt.softmax %s1 dim = 1 : tensor<1024x65536xf32>
  %s3 = sopt.softmax %s2 dim = 1 : tensor<1024x65536xf32>
  %s4 = sopt.softmax %s3 dim = 1 : tensor<1024x65536xf32>
  return %s4 : tensor<1024x65536xf32>
}
