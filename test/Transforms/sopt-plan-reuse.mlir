// RUN: sparse-opt %s -split-input-file --sopt-decompose-composites --canonicalize --sopt-form-fusion-regions --sopt-group-backbones --sopt-propagate-mapping --sopt-plan-reuse --mlir-print-local-scope | FileCheck %s
// RUN: not sparse-opt %s -split-input-file --sopt-form-fusion-regions --sopt-group-backbones --sopt-plan-reuse 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not sparse-opt %s -split-input-file --sopt-form-fusion-regions --sopt-plan-reuse 2>&1 | FileCheck %s --check-prefix=NOMARKS

// Default target: 132 SMs, 2048 threads and 228 KiB of shared memory per SM,
// 232448 bytes per block. A block-wide reduction's scratch is (warps + rows
// per block) * 4 bytes, aligned to 16.

// LayerNorm, warp_rows (a warp per 512-wide row): both reductions reach
// their consumers in registers (warp shuffles); x (read by the mean and by
// the centring) is cached in registers: 512 / 32 = 16 elements per lane.
// The centred value is x minus a row scalar: recomputed from the cache in
// each later phase rather than kept (registers limit occupancy, arithmetic
// does not). No shared memory, no grid barrier.
// CHECK-LABEL: func.func @layer_norm_warp_rows
// CHECK-NEXT: %[[F:[^ ]+]] = sopt.fusion ins(%arg0, %arg1, %arg2 : tensor<16384x512xf32>, tensor<512xf32>, tensor<512xf32>) attributes {sopt.arg_cache = [#sopt.memory<register>, unit, unit], sopt.grid_barriers = 0 : i64, sopt.smem_bytes = 0 : i64} -> tensor<16384x512xf32> {
// CHECK-NEXT: ^bb0(%[[X:[^:]+]]: tensor<16384x512xf32>,
// CHECK-NEXT: %[[INV:[^ ]+]] = sopt.constant
// CHECK-NEXT: %[[EPS:[^ ]+]] = sopt.constant
// CHECK-NEXT: %[[SUM:[^ ]+]] = sopt.reduce sum %[[X]] dims = [1] keep_dims {sopt.backbone, sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, 0)>, sopt.mapping = #sopt.mapping<kind = warp_rows, rows = 16384, cols = 512, {{[^>]+}}>, sopt.result_memory = #sopt.memory<register>} : tensor<16384x512xf32> -> tensor<16384x1xf32>
// CHECK-NEXT: %[[MEAN:[^ ]+]] = sopt.mul %[[SUM]], %[[INV]] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, 0)>} : tensor<16384x1xf32>
// CHECK-NEXT: %[[MEANB:[^ ]+]] = sopt.broadcast %[[MEAN]] dims = [0, 1] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, d1)>} : tensor<16384x1xf32> -> tensor<16384x512xf32>
// CHECK-NEXT: %[[C:[^ ]+]] = sopt.sub %[[X]], %[[MEANB]] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, d1)>} : tensor<16384x512xf32>
// CHECK-NEXT: %[[SQ:[^ ]+]] = sopt.mul %[[C]], %[[C]] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, d1)>} : tensor<16384x512xf32>
// CHECK-NEXT: %[[SQSUM:[^ ]+]] = sopt.reduce sum %[[SQ]] dims = [1] keep_dims {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, 0)>, sopt.result_memory = #sopt.memory<register>, sopt.sub_backbone} : tensor<16384x512xf32> -> tensor<16384x1xf32>
// CHECK-NOT: sopt.smem
// CHECK-NOT: sopt.cache
// CHECK: sopt.yield
func.func @layer_norm_warp_rows(%x: tensor<16384x512xf32>, %g: tensor<512xf32>, %b: tensor<512xf32>) -> tensor<16384x512xf32> {
  %0 = sopt.layer_norm %x scale(%g : tensor<512xf32>) bias(%b : tensor<512xf32>) : tensor<16384x512xf32>
  return %0 : tensor<16384x512xf32>
}

// -----

// Softmax, block_rows (a 512-thread block per 8192-wide row): each reduction
// hands its result over in shared memory, (16 + 1) * 4 -> 80 bytes of scratch.
// The max's slot is live in phases 0-1 and the sum's in phases 1-2: they are
// live together in phase 1, so the sum's slot follows the max's. x stays in
// registers (8192 / 512 = 16 per thread); exp(x - max) is recomputed from it.
// CHECK-LABEL: func.func @softmax_block_rows
// CHECK-NEXT: sopt.fusion ins(%arg0 : tensor<8192x8192xf32>) attributes {sopt.arg_cache = [#sopt.memory<register>], sopt.grid_barriers = 0 : i64, sopt.smem_bytes = 160 : i64}
// CHECK-NEXT: ^bb0(%[[X:[^:]+]]: tensor<8192x8192xf32>):
// CHECK-NEXT: %[[MAX:[^ ]+]] = sopt.reduce max %[[X]] dims = [1] keep_dims {sopt.backbone, sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, 0)>, sopt.mapping = #sopt.mapping<kind = block_rows, {{[^>]+}}>, sopt.result_memory = #sopt.memory<shared>, sopt.smem = array<i64: 0, 80>} : tensor<8192x8192xf32> -> tensor<8192x1xf32>
// CHECK-NEXT: %[[MAXB:[^ ]+]] = sopt.broadcast %[[MAX]]
// CHECK-NEXT: %[[D:[^ ]+]] = sopt.sub %[[X]], %[[MAXB]] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, d1)>} : tensor<8192x8192xf32>
// CHECK-NEXT: %[[E:[^ ]+]] = sopt.exp %[[D]] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, d1)>} : tensor<8192x8192xf32>
// CHECK-NEXT: %[[SUM:[^ ]+]] = sopt.reduce sum %[[E]] dims = [1] keep_dims {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, 0)>, sopt.result_memory = #sopt.memory<shared>, sopt.smem = array<i64: 80, 80>, sopt.sub_backbone} : tensor<8192x8192xf32> -> tensor<8192x1xf32>
func.func @softmax_block_rows(%x: tensor<8192x8192xf32>) -> tensor<8192x8192xf32> {
  %0 = sopt.softmax %x dim = 1 : tensor<8192x8192xf32>
  return %0 : tensor<8192x8192xf32>
}

// -----

// RMSNorm, block_rows: one reduction, one 80-byte slot at offset 0.
// CHECK-LABEL: func.func @rms_norm_block_rows
// CHECK-NEXT: sopt.fusion ins(%arg0, %arg1 : tensor<8192x8192xf32>, tensor<8192xf32>) attributes {sopt.arg_cache = [#sopt.memory<register>, unit], sopt.grid_barriers = 0 : i64, sopt.smem_bytes = 80 : i64}
// CHECK: sopt.reduce sum %{{.+}} dims = [1] keep_dims {sopt.backbone, sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, 0)>, sopt.mapping = #sopt.mapping<kind = block_rows, {{[^>]+}}>, sopt.result_memory = #sopt.memory<shared>, sopt.smem = array<i64: 0, 80>} : tensor<8192x8192xf32> -> tensor<8192x1xf32>
func.func @rms_norm_block_rows(%x: tensor<8192x8192xf32>, %g: tensor<8192xf32>) -> tensor<8192x8192xf32> {
  %0 = sopt.rms_norm %x scale(%g : tensor<8192xf32>) : tensor<8192x8192xf32>
  return %0 : tensor<8192x8192xf32>
}

// -----

// Three chained reductions in one block_rows group: phases 0-1, 1-2 and 2-3.
// The third is never live with the first, so it reuses offset 0; the region
// needs 160 bytes, not 240.
// CHECK-LABEL: func.func @three_reductions_share_smem
// CHECK-NEXT: sopt.fusion ins(%arg0 : tensor<8192x8192xf32>) attributes {sopt.arg_cache = [#sopt.memory<register>], sopt.grid_barriers = 0 : i64, sopt.smem_bytes = 160 : i64}
// CHECK: sopt.reduce max {{.+}} {sopt.backbone, {{.+}}, sopt.result_memory = #sopt.memory<shared>, sopt.smem = array<i64: 0, 80>}
// CHECK: sopt.sub {{.+}} {sopt.group = 0 : i64,
// CHECK-NEXT: sopt.exp {{.+}} {sopt.group = 0 : i64,
// CHECK-NEXT: sopt.reduce sum {{.+}} {sopt.group = 0 : i64, {{.+}}, sopt.result_memory = #sopt.memory<shared>, sopt.smem = array<i64: 80, 80>, sopt.sub_backbone}
// CHECK: sopt.reduce sum {{.+}} {sopt.group = 0 : i64, {{.+}}, sopt.result_memory = #sopt.memory<shared>, sopt.smem = array<i64: 0, 80>, sopt.sub_backbone}
func.func @three_reductions_share_smem(%x: tensor<8192x8192xf32>) -> tensor<8192x1xf32> {
  %m = sopt.reduce max %x dims = [1] keep_dims : tensor<8192x8192xf32> -> tensor<8192x1xf32>
  %mb = sopt.broadcast %m dims = [0, 1] : tensor<8192x1xf32> -> tensor<8192x8192xf32>
  %d = sopt.sub %x, %mb : tensor<8192x8192xf32>
  %e = sopt.exp %d : tensor<8192x8192xf32>
  %s = sopt.reduce sum %e dims = [1] keep_dims : tensor<8192x8192xf32> -> tensor<8192x1xf32>
  %sb = sopt.broadcast %s dims = [0, 1] : tensor<8192x1xf32> -> tensor<8192x8192xf32>
  %p = sopt.div %e, %sb : tensor<8192x8192xf32>
  %l = sopt.mul %p, %d : tensor<8192x8192xf32>
  %h = sopt.reduce sum %l dims = [1] keep_dims : tensor<8192x8192xf32> -> tensor<8192x1xf32>
  return %h : tensor<8192x1xf32>
}

// -----

// f16 rows of 49152: 1024 threads per row leave 48 elements per thread, too
// many for registers; a block's row is 98304 bytes, which fits the shared
// memory, so x is cached there (exp(x - max) is recomputed from it). Scratch
// is (32 + 1) * 4 -> 144 bytes. Phase 0-1: max scratch [0, 144); phases 0-2:
// x [144, 98448); phase 1-2: sum scratch [98448, 98592).
// CHECK-LABEL: func.func @cache_in_shared
// CHECK-NEXT: sopt.fusion ins(%arg0 : tensor<1024x49152xf16>) attributes {sopt.arg_cache = [#sopt.memory<shared>], sopt.arg_smem = [array<i64: 144, 98304>], sopt.grid_barriers = 0 : i64, sopt.smem_bytes = 98592 : i64}
// CHECK: sopt.reduce max {{.+}} {sopt.backbone, {{.+}}, sopt.mapping = #sopt.mapping<kind = block_rows, rows = 1024, cols = 49152, threads_per_block = 1024, threads_per_row = 1024, {{[^>]+}}>, sopt.result_memory = #sopt.memory<shared>, sopt.smem = array<i64: 0, 144>}
// CHECK: sopt.exp {{.+}} {sopt.group = 0 : i64, sopt.index_map = {{[^}]+}}} :
// CHECK-NEXT: sopt.reduce sum {{.+}} {sopt.group = 0 : i64, {{.+}}, sopt.result_memory = #sopt.memory<shared>, sopt.smem = array<i64: 98448, 144>, sopt.sub_backbone}
func.func @cache_in_shared(%x: tensor<1024x49152xf16>) -> tensor<1024x49152xf16> {
  %0 = sopt.softmax %x dim = 1 : tensor<1024x49152xf16>
  return %0 : tensor<1024x49152xf16>
}

// -----

// f32 rows of 65536: 64 elements per thread, and a row is 262144 bytes, more
// than half the shared memory: rows are re-read from global memory. Only the
// two 144-byte scratch slots use shared memory.
// CHECK-LABEL: func.func @cache_in_global
// CHECK-NEXT: sopt.fusion ins(%arg0 : tensor<256x65536xf32>) attributes {sopt.arg_cache = [#sopt.memory<global>], sopt.grid_barriers = 0 : i64, sopt.smem_bytes = 288 : i64}
// CHECK: sopt.reduce max {{.+}} sopt.result_memory = #sopt.memory<shared>, sopt.smem = array<i64: 0, 144>}
// CHECK: sopt.exp {{.+}} {sopt.cache = #sopt.memory<global>, sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, d1)>} :
// CHECK-NEXT: sopt.reduce sum {{.+}} sopt.result_memory = #sopt.memory<shared>, sopt.smem = array<i64: 144, 144>, sopt.sub_backbone}
func.func @cache_in_global(%x: tensor<256x65536xf32>) -> tensor<256x65536xf32> {
  %0 = sopt.softmax %x dim = 1 : tensor<256x65536xf32>
  return %0 : tensor<256x65536xf32>
}

// -----

// split_row (4 rows of 2^20 over 33 blocks each): each block reduces its
// segment through 144 bytes of shared scratch, then the segments meet in
// global memory. A thread's share of a row is ceil(2^20 / (1024 * 33)) = 32
// elements, so x stays in registers; exp(x - max) is recomputed from it.
// CHECK-LABEL: func.func @split_row
// CHECK-NEXT: sopt.fusion ins(%arg0 : tensor<4x1048576xf32>) attributes {sopt.arg_cache = [#sopt.memory<register>], sopt.grid_barriers = 0 : i64, sopt.smem_bytes = 288 : i64}
// CHECK: sopt.reduce max {{.+}} {sopt.backbone, {{.+}}, sopt.mapping = #sopt.mapping<kind = split_row, {{.+}}, blocks_per_row = 33, {{[^>]+}}>, sopt.result_memory = #sopt.memory<global>, sopt.smem = array<i64: 0, 144>} :
// CHECK: sopt.exp {{.+}} {sopt.group = 0 : i64, sopt.index_map = {{[^}]+}}} :
// CHECK-NEXT: sopt.reduce sum {{.+}} {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, 0)>, sopt.result_memory = #sopt.memory<global>, sopt.smem = array<i64: 144, 144>, sopt.sub_backbone} :
func.func @split_row(%x: tensor<4x1048576xf32>) -> tensor<4x1048576xf32> {
  %0 = sopt.softmax %x dim = 1 : tensor<4x1048576xf32>
  return %0 : tensor<4x1048576xf32>
}

// -----

// A column reduction split over 5 blocks per column group meets in global
// memory, after its 8 slices combine in 1 KiB of shared scratch (one float
// per thread).
// CHECK-LABEL: func.func @columns_split
// CHECK-NEXT: sopt.fusion ins(%arg0 : tensor<16384x768xf32>) attributes {sopt.arg_cache = [unit], sopt.grid_barriers = 0 : i64, sopt.smem_bytes = 1024 : i64}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: sopt.reduce sum {{.+}} {sopt.backbone, {{.+}}, sopt.mapping = #sopt.mapping<kind = columns, {{.+}}, blocks_per_row = 5, {{[^>]+}}>, sopt.result_memory = #sopt.memory<global>, sopt.smem = array<i64: 0, 1024>} :
func.func @columns_split(%x: tensor<16384x768xf32>) -> tensor<1x768xf32> {
  %s = sopt.reduce sum %x dims = [0] keep_dims : tensor<16384x768xf32> -> tensor<1x768xf32>
  return %s : tensor<1x768xf32>
}

// -----

// No reduction: nothing to keep, no result_memory, no cache.
// CHECK-LABEL: func.func @elementwise
// CHECK-NEXT: sopt.fusion ins(%arg0 : tensor<128x3072xf32>) attributes {sopt.arg_cache = [unit], sopt.grid_barriers = 0 : i64, sopt.smem_bytes = 0 : i64}
// CHECK-NOT: sopt.result_memory
// CHECK-NOT: sopt.cache
// CHECK: return
func.func @elementwise(%x: tensor<128x3072xf32>) -> tensor<128x3072xf32> {
  %y = sopt.gelu %x : tensor<128x3072xf32>
  return %y : tensor<128x3072xf32>
}

// -----

// Two groups of different shapes, the first small (256 rows of 16 threads:
// grid 64, the second grid 1, both within a wave): one kernel with one
// grid-wide barrier;
// the log crossing from group 0 to group 1 goes through global memory, while
// the first backbone's result stays in registers within its group.
// CHECK-LABEL: func.func @two_groups_one_wave
// CHECK-NEXT: %[[F:[^ ]+]] = sopt.fusion ins(%arg0 : tensor<256x128xf32>) attributes {sopt.arg_cache = [unit], sopt.grid_barriers = 1 : i64, sopt.resident_blocks = 1 : i64, sopt.smem_bytes = 0 : i64} -> tensor<f32> {
// CHECK-NEXT: ^bb0(%[[X:[^:]+]]: tensor<256x128xf32>):
// CHECK-NEXT: %[[E:[^ ]+]] = sopt.exp %[[X]] {sopt.group = 0 : i64,
// CHECK-NEXT: %[[R:[^ ]+]] = sopt.reduce sum %[[E]] dims = [1] {sopt.backbone, sopt.group = 0 : i64, {{.+}}, sopt.mapping = #sopt.mapping<kind = subwarp_rows, {{.+}}, grid = 64>, sopt.result_memory = #sopt.memory<register>} :
// CHECK-NEXT: %[[L:[^ ]+]] = sopt.log %[[R]] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0)>, sopt.result_memory = #sopt.memory<global>} : tensor<256xf32>
// CHECK-NEXT: %[[T:[^ ]+]] = sopt.reduce sum %[[L]] dims = [0] {sopt.backbone, sopt.group = 1 : i64, {{.+}}, sopt.mapping = #sopt.mapping<kind = warp_rows, {{.+}}, grid = 1>, sopt.result_memory = #sopt.memory<register>} :
// CHECK-NEXT: %[[N:[^ ]+]] = sopt.neg %[[T]] {sopt.group = 1 : i64, sopt.index_map = affine_map<(d0) -> ()>} : tensor<f32>
// CHECK-NEXT: sopt.yield %[[N]] : tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]] : tensor<f32>
func.func @two_groups_one_wave(%x: tensor<256x128xf32>) -> tensor<f32> {
  %e = sopt.exp %x : tensor<256x128xf32>
  %r = sopt.reduce sum %e dims = [1] : tensor<256x128xf32> -> tensor<256xf32>
  %l = sopt.log %r : tensor<256xf32>
  %t = sopt.reduce sum %l dims = [0] : tensor<256xf32> -> tensor<f32>
  %n = sopt.neg %t : tensor<f32>
  return %n : tensor<f32>
}

// -----

// The boundary: 2112 rows of 1024 (64 threads each) in the kernel's
// 512-thread blocks (the second group's one row of 2112 takes 512), 8 rows
// per block, give exactly 264 blocks = one wave at 64 registers per thread (2
// blocks per SM, which the kernel's launch bounds then demand). Still one
// kernel.
// CHECK-LABEL: func.func @two_groups_exactly_one_wave
// CHECK-NEXT: %[[F:[^ ]+]] = sopt.fusion ins(%arg0 : tensor<2112x1024xf32>) attributes {sopt.arg_cache = [unit], sopt.grid_barriers = 1 : i64, sopt.resident_blocks = 2 : i64, sopt.smem_bytes = 176 : i64} -> tensor<f32> {
// CHECK: sopt.mapping = #sopt.mapping<kind = block_rows, {{.+}}, grid = 264>
// CHECK: sopt.log {{.+}} sopt.result_memory = #sopt.memory<global>} : tensor<2112xf32>
// CHECK-NOT: sopt.fusion
// CHECK: return %[[F]] : tensor<f32>
func.func @two_groups_exactly_one_wave(%x: tensor<2112x1024xf32>) -> tensor<f32> {
  %e = sopt.exp %x : tensor<2112x1024xf32>
  %r = sopt.reduce sum %e dims = [1] : tensor<2112x1024xf32> -> tensor<2112xf32>
  %l = sopt.log %r : tensor<2112xf32>
  %t = sopt.reduce sum %l dims = [0] : tensor<2112xf32> -> tensor<f32>
  return %t : tensor<f32>
}

// -----

// 2116 rows: 265 such blocks, one more than a wave, so no grid-wide barrier: the
// region is split at the second group into two kernels, in order; the value
// between them is an ordinary kernel output (no global result_memory mark).
// CHECK-LABEL: func.func @two_groups_one_block_over
// CHECK-NEXT: %[[F0:[^ ]+]] = sopt.fusion ins(%arg0 : tensor<2116x1024xf32>) attributes {sopt.arg_cache = [unit], sopt.grid_barriers = 0 : i64, sopt.smem_bytes = 48 : i64} -> tensor<2116xf32> {
// CHECK: grid = 529>
// CHECK-NEXT: %[[L:[^ ]+]] = sopt.log %{{.+}} {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0)>} : tensor<2116xf32>
// CHECK-NEXT: sopt.yield %[[L]] : tensor<2116xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[F1:[^ ]+]] = sopt.fusion ins(%[[F0]] : tensor<2116xf32>) attributes {sopt.arg_cache = [unit], sopt.grid_barriers = 0 : i64, sopt.smem_bytes = 80 : i64} -> tensor<f32> {
// CHECK-NEXT: ^bb0(%[[A:[^:]+]]: tensor<2116xf32>):
// CHECK-NEXT: %[[T:[^ ]+]] = sopt.reduce sum %[[A]] dims = [0] {sopt.backbone, sopt.group = 0 : i64,
// CHECK-NEXT: sopt.yield %[[T]] : tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F1]] : tensor<f32>
func.func @two_groups_one_block_over(%x: tensor<2116x1024xf32>) -> tensor<f32> {
  %e = sopt.exp %x : tensor<2116x1024xf32>
  %r = sopt.reduce sum %e dims = [1] : tensor<2116x1024xf32> -> tensor<2116xf32>
  %l = sopt.log %r : tensor<2116xf32>
  %t = sopt.reduce sum %l dims = [0] : tensor<2116xf32> -> tensor<f32>
  return %t : tensor<f32>
}

// -----

// One kernel runs at one block size: the second group (33 short rows of 8
// threads, which alone would take 64-thread blocks) runs at the first
// group's 256 threads, 32 rows per block.
// CHECK-LABEL: func.func @two_groups_one_block_size
// CHECK: sopt.mapping = #sopt.mapping<kind = block_rows, rows = 2112, cols = 1024, threads_per_block = 256, threads_per_row = 64, rows_per_block = 4, blocks_per_row = 1, vector_width = 4, grid = 528>
// CHECK: sopt.mapping = #sopt.mapping<kind = subwarp_rows, rows = 33, cols = 64, threads_per_block = 256, threads_per_row = 8, rows_per_block = 32, blocks_per_row = 1, vector_width = 4, grid = 2>
// CHECK-NOT: sopt.fusion
func.func @two_groups_one_block_size(%x: tensor<2112x1024xf32>) -> tensor<33xf32> {
  %r = sopt.reduce sum %x dims = [1] : tensor<2112x1024xf32> -> tensor<2112xf32>
  %s = sopt.reshape %r : tensor<2112xf32> -> tensor<33x64xf32>
  %m = sopt.reduce max %s dims = [1] : tensor<33x64xf32> -> tensor<33xf32>
  return %m : tensor<33xf32>
}

// -----

// A large first group (65536 rows of 1024: grid 16384, beyond a wave): the
// region is split into two sopt.fusion ops, the first producing the logs, the
// second reducing them. Each part keeps its mapping and is planned alone: the
// second group's split_row reduction now meets in global memory, and its
// ops are renumbered as group 0 of their new region.
// CHECK-LABEL: func.func @two_groups_split
// CHECK-SAME: (%[[XIN:[^:]+]]: tensor<65536x1024xf32>)
// CHECK-NEXT: %[[F0:[^ ]+]] = sopt.fusion ins(%[[XIN]] : tensor<65536x1024xf32>) attributes {sopt.arg_cache = [unit], sopt.grid_barriers = 0 : i64, sopt.smem_bytes = 48 : i64} -> tensor<65536xf32> {
// CHECK-NEXT: ^bb0(%[[X:[^:]+]]: tensor<65536x1024xf32>):
// CHECK-NEXT: %[[E:[^ ]+]] = sopt.exp %[[X]] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, d1)>} : tensor<65536x1024xf32>
// CHECK-NEXT: %[[R:[^ ]+]] = sopt.reduce sum %[[E]] dims = [1] {sopt.backbone, sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0)>, sopt.mapping = #sopt.mapping<kind = block_rows, rows = 65536, cols = 1024, threads_per_block = 256, threads_per_row = 64, rows_per_block = 4, blocks_per_row = 1, vector_width = 4, grid = 16384>, sopt.result_memory = #sopt.memory<shared>, sopt.smem = array<i64: 0, 48>} : tensor<65536x1024xf32> -> tensor<65536xf32>
// CHECK-NEXT: %[[L:[^ ]+]] = sopt.log %[[R]] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0)>} : tensor<65536xf32>
// CHECK-NEXT: sopt.yield %[[L]] : tensor<65536xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[F1:[^ ]+]] = sopt.fusion ins(%[[F0]] : tensor<65536xf32>) attributes {sopt.arg_cache = [unit], sopt.grid_barriers = 0 : i64, sopt.smem_bytes = 144 : i64} -> tensor<f32> {
// CHECK-NEXT: ^bb0(%[[A:[^:]+]]: tensor<65536xf32>):
// CHECK-NEXT: %[[T:[^ ]+]] = sopt.reduce sum %[[A]] dims = [0] {sopt.backbone, sopt.group = 0 : i64, sopt.index_map = affine_map<(d0) -> ()>, sopt.mapping = #sopt.mapping<kind = split_row, rows = 1, cols = 65536, threads_per_block = 1024, threads_per_row = 1024, rows_per_block = 1, blocks_per_row = 16, vector_width = 4, grid = 16>, sopt.result_memory = #sopt.memory<global>, sopt.smem = array<i64: 0, 144>} : tensor<65536xf32> -> tensor<f32>
// CHECK-NEXT: %[[N:[^ ]+]] = sopt.neg %[[T]] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0) -> ()>} : tensor<f32>
// CHECK-NEXT: sopt.yield %[[N]] : tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F1]] : tensor<f32>
func.func @two_groups_split(%x: tensor<65536x1024xf32>) -> tensor<f32> {
  %e = sopt.exp %x : tensor<65536x1024xf32>
  %r = sopt.reduce sum %e dims = [1] : tensor<65536x1024xf32> -> tensor<65536xf32>
  %l = sopt.log %r : tensor<65536xf32>
  %t = sopt.reduce sum %l dims = [0] : tensor<65536xf32> -> tensor<f32>
  %n = sopt.neg %t : tensor<f32>
  return %n : tensor<f32>
}

// -----

// Without sopt-propagate-mapping the groups have no mapping (second RUN
// line); without sopt-group-backbones no groups (third RUN line): the later
// passes read the grouping from its marks, never compute it again.
// ERR: sopt-plan-reuse.mlir:[[@LINE+3]]:8: error: 'sopt.exp' op has no thread mapping; run sopt-propagate-mapping first
// NOMARKS: sopt-plan-reuse.mlir:[[@LINE+2]]:8: error: 'sopt.exp' op has no sopt.group; run sopt-group-backbones first
func.func @no_mapping(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %e = sopt.exp %x : tensor<64x128xf32>
  %n = sopt.neg %e : tensor<64x128xf32>
  return %n : tensor<64x128xf32>
}
