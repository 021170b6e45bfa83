// RUN: sparse-opt %s -split-input-file --sopt-form-fusion-regions --sopt-group-backbones --sopt-propagate-mapping --mlir-print-local-scope | FileCheck %s
// RUN: sparse-opt %s -split-input-file --sopt-form-fusion-regions --sopt-group-backbones --sopt-propagate-mapping=sm-count=16 --mlir-print-local-scope | FileCheck %s --check-prefix=SM16

// Default target: 132 SMs, 256-thread blocks, 64 bytes of a row per thread
// (16 f32 elements; a quarter of the 132 * 2048 thread slots is 67584),
// blocksPerWave(256) = 8 * 132 = 1056, blocksPerWave(1024) = 264.

// Short rows: 16 columns fit one thread's 64 bytes, but 4096 rows of one
// thread fill under a quarter of the thread slots (4096 < 67584): twice the
// threads per row, 2 (8 elements each, two 4-wide vectors). 256-thread
// blocks would give only 32 blocks, under four per SM, so the blocks shrink
// to two warps: 32 rows per block, 4096 / 32 = 128 blocks. With 16 SMs the
// same 2 threads per row; its blocks stop shrinking at 128 threads (64
// blocks = four per SM).
// CHECK-LABEL: func.func @subwarp_rows
// CHECK: sopt.reduce sum %{{.+}} dims = [1] keep_dims {sopt.backbone, sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, 0)>, sopt.mapping = #sopt.mapping<kind = subwarp_rows, rows = 4096, cols = 16, threads_per_block = 64, threads_per_row = 2, rows_per_block = 32, blocks_per_row = 1, vector_width = 4, grid = 128>} : tensor<4096x16xf32> -> tensor<4096x1xf32>
// SM16-LABEL: func.func @subwarp_rows
// SM16: kind = subwarp_rows, rows = 4096, cols = 16, threads_per_block = 128, threads_per_row = 2, rows_per_block = 64, blocks_per_row = 1, vector_width = 4, grid = 64>
func.func @subwarp_rows(%x: tensor<4096x16xf32>) -> tensor<4096x1xf32> {
  %s = sopt.reduce sum %x dims = [1] keep_dims : tensor<4096x16xf32> -> tensor<4096x1xf32>
  return %s : tensor<4096x1xf32>
}

// -----

// 128 columns: 8 threads per row hold 16 elements each; 4096 * 8 threads
// fill under a quarter of the slots, so 16 threads per row (8 elements
// each). Blocks shrink to two warps (4 rows per block, 1024 blocks). Without
// keep_dims the reduced dim is dropped.
// CHECK-LABEL: func.func @subwarp_rows_4
// CHECK: sopt.reduce sum %{{.+}} dims = [1] {sopt.backbone, sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0)>, sopt.mapping = #sopt.mapping<kind = subwarp_rows, rows = 4096, cols = 128, threads_per_block = 64, threads_per_row = 16, rows_per_block = 4, blocks_per_row = 1, vector_width = 4, grid = 1024>} : tensor<4096x128xf32> -> tensor<4096xf32>
func.func @subwarp_rows_4(%x: tensor<4096x128xf32>) -> tensor<4096xf32> {
  %s = sopt.reduce sum %x dims = [1] : tensor<4096x128xf32> -> tensor<4096xf32>
  return %s : tensor<4096xf32>
}

// -----

// 1024 columns: 64 threads per row (16 elements each), 4 rows per block,
// 16384 / 4 = 4096 blocks.
// CHECK-LABEL: func.func @warp_rows_1024
// CHECK: sopt.reduce sum %{{.+}} dims = [1] keep_dims {sopt.backbone, sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, 0)>, sopt.mapping = #sopt.mapping<kind = block_rows, rows = 16384, cols = 1024, threads_per_block = 256, threads_per_row = 64, rows_per_block = 4, blocks_per_row = 1, vector_width = 4, grid = 4096>} : tensor<16384x1024xf32> -> tensor<16384x1xf32>
// The row kinds do not depend on the SM count while the rows fill the GPU.
// SM16-LABEL: func.func @warp_rows_1024
// SM16: kind = block_rows, rows = 16384, cols = 1024, threads_per_block = 256, threads_per_row = 64, rows_per_block = 4, blocks_per_row = 1, vector_width = 4, grid = 4096>
func.func @warp_rows_1024(%x: tensor<16384x1024xf32>) -> tensor<16384x1xf32> {
  %s = sopt.reduce sum %x dims = [1] keep_dims : tensor<16384x1024xf32> -> tensor<16384x1xf32>
  return %s : tensor<16384x1xf32>
}

// -----

// 768 columns: 64 threads per row (12 elements each: three whole 4-wide
// passes); 65536 / 4 = 16384 blocks.
// CHECK-LABEL: func.func @warp_rows_768
// CHECK: sopt.reduce max %{{.+}} dims = [1] keep_dims {sopt.backbone, sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, 0)>, sopt.mapping = #sopt.mapping<kind = block_rows, rows = 65536, cols = 768, threads_per_block = 256, threads_per_row = 64, rows_per_block = 4, blocks_per_row = 1, vector_width = 4, grid = 16384>} : tensor<65536x768xf32> -> tensor<65536x1xf32>
func.func @warp_rows_768(%x: tensor<65536x768xf32>) -> tensor<65536x1xf32> {
  %s = sopt.reduce max %x dims = [1] keep_dims : tensor<65536x768xf32> -> tensor<65536x1xf32>
  return %s : tensor<65536x1xf32>
}

// -----

// 8192 columns: 512 threads per row (16 elements each), a block per row,
// 8192 blocks: enough rows, so no split.
// CHECK-LABEL: func.func @block_rows
// CHECK: sopt.reduce sum %{{.+}} dims = [1] keep_dims {sopt.backbone, sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, 0)>, sopt.mapping = #sopt.mapping<kind = block_rows, rows = 8192, cols = 8192, threads_per_block = 512, threads_per_row = 512, rows_per_block = 1, blocks_per_row = 1, vector_width = 4, grid = 8192>} : tensor<8192x8192xf32> -> tensor<8192x1xf32>
func.func @block_rows(%x: tensor<8192x8192xf32>) -> tensor<8192x1xf32> {
  %s = sopt.reduce sum %x dims = [1] keep_dims : tensor<8192x8192xf32> -> tensor<8192x1xf32>
  return %s : tensor<8192x1xf32>
}

// -----

// Heavy arithmetic per element (erf, about 24 instructions, plus a multiply
// and an add): half the bytes per thread, so 8 f32 elements and 128 threads
// per 1024-column row, twice the warps of the light row sum above.
// CHECK-LABEL: func.func @heavy_rows
// CHECK: sopt.mapping = #sopt.mapping<kind = block_rows, rows = 16384, cols = 1024, threads_per_block = 256, threads_per_row = 128, rows_per_block = 2, blocks_per_row = 1, vector_width = 4, grid = 8192>
func.func @heavy_rows(%x: tensor<16384x1024xf32>) -> tensor<16384x1xf32> {
  %c = sopt.constant dense<0.5> : tensor<16384x1024xf32>
  %h = sopt.mul %x, %c : tensor<16384x1024xf32>
  %e = sopt.erf %h : tensor<16384x1024xf32>
  %g = sopt.add %e, %x : tensor<16384x1024xf32>
  %s = sopt.reduce sum %g dims = [1] keep_dims : tensor<16384x1024xf32> -> tensor<16384x1xf32>
  return %s : tensor<16384x1xf32>
}

// -----

// 16-bit rows: the same 64 bytes hold 32 elements, so a 4096-column bf16
// row takes 128 threads (8-wide vectors, 4 passes); a light exp stays light.
// CHECK-LABEL: func.func @bf16_rows
// CHECK: sopt.mapping = #sopt.mapping<kind = block_rows, rows = 16384, cols = 4096, threads_per_block = 256, threads_per_row = 128, rows_per_block = 2, blocks_per_row = 1, vector_width = 8, grid = 8192>
func.func @bf16_rows(%x: tensor<16384x4096xbf16>) -> tensor<16384x1xbf16> {
  %e = sopt.exp %x : tensor<16384x4096xbf16>
  %s = sopt.reduce sum %e dims = [1] keep_dims : tensor<16384x4096xbf16> -> tensor<16384x1xbf16>
  return %s : tensor<16384x1xbf16>
}

// -----

// 4 rows of 2^20: 1024 threads per row give 4 blocks, far fewer than 132 SMs.
// Each row is split over min(ceil(132 / 4), 2^20 / (1024 * 4), 264 / 4) = 33
// blocks: grid 4 * 33 = 132. With 16 SMs: min(4, 256, 32 / 4) = 4, grid 16.
// CHECK-LABEL: func.func @split_row
// CHECK: sopt.reduce sum %{{.+}} dims = [1] {sopt.backbone, sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0)>, sopt.mapping = #sopt.mapping<kind = split_row, rows = 4, cols = 1048576, threads_per_block = 1024, threads_per_row = 1024, rows_per_block = 1, blocks_per_row = 33, vector_width = 4, grid = 132>} : tensor<4x1048576xf32> -> tensor<4xf32>
// SM16-LABEL: func.func @split_row
// SM16: sopt.mapping = #sopt.mapping<kind = split_row, rows = 4, cols = 1048576, threads_per_block = 1024, threads_per_row = 1024, rows_per_block = 1, blocks_per_row = 4, vector_width = 4, grid = 16>
func.func @split_row(%x: tensor<4x1048576xf32>) -> tensor<4xf32> {
  %s = sopt.reduce sum %x dims = [1] : tensor<4x1048576xf32> -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// Reduction over the leading dim: threads own columns. rows = 768 parallel
// columns, cols = 16384 reduced rows; 32 column threads of one column each
// (adjacent threads, adjacent columns: no vectors needed), 8 slices;
// ceil(768 / 32) = 24 column blocks fill less than half of the 132 SMs, so
// the reduced extent is split min(132 / 24, ceil(16384 / 32)) = 5 ways (one
// resident block per SM at most): grid 120. With 16 SMs, 24 blocks already
// fill the GPU: no split, grid 24.
// CHECK-LABEL: func.func @columns
// CHECK: sopt.reduce sum %{{.+}} dims = [0] keep_dims {sopt.backbone, sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (0, d1)>, sopt.mapping = #sopt.mapping<kind = columns, rows = 768, cols = 16384, threads_per_block = 256, threads_per_row = 8, rows_per_block = 32, blocks_per_row = 5, vector_width = 1, grid = 120>} : tensor<16384x768xf32> -> tensor<1x768xf32>
// SM16-LABEL: func.func @columns
// SM16: sopt.mapping = #sopt.mapping<kind = columns, rows = 768, cols = 16384, threads_per_block = 256, threads_per_row = 8, rows_per_block = 32, blocks_per_row = 1, vector_width = 1, grid = 24>
func.func @columns(%x: tensor<16384x768xf32>) -> tensor<1x768xf32> {
  %s = sopt.reduce sum %x dims = [0] keep_dims : tensor<16384x768xf32> -> tensor<1x768xf32>
  return %s : tensor<1x768xf32>
}

// -----

// Elementwise, 1003 columns (odd): vector width 1; ceil(1003000 / 256) =
// 3918 blocks, under the 4-wave cap of 4224. With 16 SMs the cap is
// 4 * 8 * 16 = 512.
// CHECK-LABEL: func.func @elementwise_odd
// CHECK: sopt.gelu %{{.+}} {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, d1)>, sopt.mapping = #sopt.mapping<kind = elementwise, rows = 1003000, cols = 1, threads_per_block = 256, threads_per_row = 1, rows_per_block = 256, blocks_per_row = 1, vector_width = 1, grid = 3918>} : tensor<1000x1003xf32>
// SM16-LABEL: func.func @elementwise_odd
// SM16: sopt.mapping = #sopt.mapping<kind = elementwise, rows = 1003000, cols = 1, threads_per_block = 256, threads_per_row = 1, rows_per_block = 256, blocks_per_row = 1, vector_width = 1, grid = 512>
func.func @elementwise_odd(%x: tensor<1000x1003xf32>) -> tensor<1000x1003xf32> {
  %y = sopt.gelu %x : tensor<1000x1003xf32>
  return %y : tensor<1000x1003xf32>
}

// -----

// Elementwise, 3072 columns: vector width 4; 393216 / (256 * 4) = 384 blocks.
// CHECK-LABEL: func.func @elementwise_vec4
// CHECK: sopt.gelu %{{.+}} {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, d1)>, sopt.mapping = #sopt.mapping<kind = elementwise, rows = 393216, cols = 1, threads_per_block = 256, threads_per_row = 1, rows_per_block = 256, blocks_per_row = 1, vector_width = 4, grid = 384>} : tensor<128x3072xf32>
func.func @elementwise_vec4(%x: tensor<128x3072xf32>) -> tensor<128x3072xf32> {
  %y = sopt.gelu %x : tensor<128x3072xf32>
  return %y : tensor<128x3072xf32>
}

// -----

// 1002 columns: vector width 2.
// CHECK-LABEL: func.func @elementwise_vec2
// CHECK: kind = elementwise, rows = 2004, cols = 1, threads_per_block = 256, threads_per_row = 1, rows_per_block = 256, blocks_per_row = 1, vector_width = 2, grid = 4>
func.func @elementwise_vec2(%x: tensor<2x1002xf32>) -> tensor<2x1002xf32> {
  %y = sopt.exp %x : tensor<2x1002xf32>
  return %y : tensor<2x1002xf32>
}

// -----

// Index maps through broadcasts, in an elementwise group over [128x768]. The
// bias is negated before its broadcast (dims = [1]), so the neg is evaluated
// at (d0, d1) -> (d1); each broadcast's own result is the full space
// (identity); a block argument carries no map. The mapping sits on the last
// op of the group only.
// CHECK-LABEL: func.func @index_map_broadcast
// CHECK: ^bb0(%[[B:[^:]+]]: tensor<768xf32>, %[[X:[^:]+]]: tensor<128x768xf32>):
// CHECK-NEXT: %[[N:[^ ]+]] = sopt.neg %[[B]] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d1)>} : tensor<768xf32>
// CHECK-NEXT: %[[NB:[^ ]+]] = sopt.broadcast %[[N]] dims = [1] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, d1)>} : tensor<768xf32> -> tensor<128x768xf32>
// CHECK-NEXT: %[[BB:[^ ]+]] = sopt.broadcast %[[B]] dims = [1] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, d1)>} : tensor<768xf32> -> tensor<128x768xf32>
// CHECK-NEXT: %[[S:[^ ]+]] = sopt.add %[[X]], %[[NB]] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, d1)>} : tensor<128x768xf32>
// CHECK-NEXT: %[[T:[^ ]+]] = sopt.add %[[S]], %[[BB]] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, d1)>, sopt.mapping = #sopt.mapping<kind = elementwise, rows = 98304, cols = 1, threads_per_block = 256, threads_per_row = 1, rows_per_block = 256, blocks_per_row = 1, vector_width = 4, grid = 96>} : tensor<128x768xf32>
// CHECK-NEXT: sopt.yield %[[T]] : tensor<128x768xf32>
func.func @index_map_broadcast(%x: tensor<128x768xf32>, %b: tensor<768xf32>) -> tensor<128x768xf32> {
  %bn = sopt.neg %b : tensor<768xf32>
  %bb = sopt.broadcast %bn dims = [1] : tensor<768xf32> -> tensor<128x768xf32>
  %bb2 = sopt.broadcast %b dims = [1] : tensor<768xf32> -> tensor<128x768xf32>
  %s = sopt.add %x, %bb : tensor<128x768xf32>
  %t = sopt.add %s, %bb2 : tensor<128x768xf32>
  return %t : tensor<128x768xf32>
}

// -----

// Through a keep_dims reduce: (d0, d1) -> (d0, 0) for the reduce and the
// row scalar after it; the keep-dims broadcast back is the identity, and the
// reduce's producer is evaluated on the whole space.
// CHECK-LABEL: func.func @index_map_keep_dims
// CHECK: ^bb0(%[[X:[^:]+]]: tensor<64x128xf32>):
// CHECK-NEXT: %[[E:[^ ]+]] = sopt.exp %[[X]] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, d1)>} : tensor<64x128xf32>
// CHECK-NEXT: %[[S:[^ ]+]] = sopt.reduce sum %[[E]] dims = [1] keep_dims {sopt.backbone, sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, 0)>, sopt.mapping = #sopt.mapping<kind = subwarp_rows, rows = 64, cols = 128, threads_per_block = 64, threads_per_row = 16, rows_per_block = 4, blocks_per_row = 1, vector_width = 4, grid = 16>} : tensor<64x128xf32> -> tensor<64x1xf32>
// CHECK-NEXT: %[[R:[^ ]+]] = sopt.reciprocal %[[S]] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, 0)>} : tensor<64x1xf32>
// CHECK-NEXT: %[[RB:[^ ]+]] = sopt.broadcast %[[R]] dims = [0, 1] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, d1)>} : tensor<64x1xf32> -> tensor<64x128xf32>
// CHECK-NEXT: %[[Y:[^ ]+]] = sopt.mul %[[E]], %[[RB]] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, d1)>} : tensor<64x128xf32>
// CHECK-NEXT: sopt.yield %[[Y]] : tensor<64x128xf32>
func.func @index_map_keep_dims(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %e = sopt.exp %x : tensor<64x128xf32>
  %s = sopt.reduce sum %e dims = [1] keep_dims : tensor<64x128xf32> -> tensor<64x1xf32>
  %r = sopt.reciprocal %s : tensor<64x1xf32>
  %b = sopt.broadcast %r dims = [0, 1] : tensor<64x1xf32> -> tensor<64x128xf32>
  %y = sopt.mul %e, %b : tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}

// -----

// Through a reduce without keep_dims: (d0, d1) -> (d0).
// CHECK-LABEL: func.func @index_map_drop_dims
// CHECK: ^bb0(%[[X:[^:]+]]: tensor<64x128xf32>):
// CHECK-NEXT: %[[M:[^ ]+]] = sopt.reduce max %[[X]] dims = [1] {sopt.backbone, sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0)>, sopt.mapping = #sopt.mapping<kind = subwarp_rows, rows = 64, cols = 128, threads_per_block = 64, threads_per_row = 16, rows_per_block = 4, blocks_per_row = 1, vector_width = 4, grid = 16>} : tensor<64x128xf32> -> tensor<64xf32>
// CHECK-NEXT: %[[N:[^ ]+]] = sopt.neg %[[M]] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0)>} : tensor<64xf32>
// CHECK-NEXT: %[[NB:[^ ]+]] = sopt.broadcast %[[N]] dims = [0] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, d1)>} : tensor<64xf32> -> tensor<64x128xf32>
// CHECK-NEXT: %[[Y:[^ ]+]] = sopt.add %[[X]], %[[NB]] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, d1)>} : tensor<64x128xf32>
// CHECK-NEXT: sopt.yield %[[Y]] : tensor<64x128xf32>
func.func @index_map_drop_dims(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %s = sopt.reduce max %x dims = [1] : tensor<64x128xf32> -> tensor<64xf32>
  %n = sopt.neg %s : tensor<64xf32>
  %b = sopt.broadcast %n dims = [0] : tensor<64xf32> -> tensor<64x128xf32>
  %y = sopt.add %x, %b : tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}

// -----

// Reduction over the leading dim: (d0, d1) -> (0, d1).
// CHECK-LABEL: func.func @index_map_columns
// CHECK: sopt.reduce sum %{{.+}} dims = [0] keep_dims {sopt.backbone, sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (0, d1)>,
// CHECK-NEXT: sopt.broadcast %{{.+}} dims = [0, 1] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, d1)>} : tensor<1x128xf32> -> tensor<64x128xf32>
func.func @index_map_columns(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %s = sopt.reduce sum %x dims = [0] keep_dims : tensor<64x128xf32> -> tensor<1x128xf32>
  %b = sopt.broadcast %s dims = [0, 1] : tensor<1x128xf32> -> tensor<64x128xf32>
  %y = sopt.div %x, %b : tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}

// -----

// Through a transpose in an elementwise group: the space is the first
// largest shape, [64x128]; the transposed values are at (d1, d0).
// CHECK-LABEL: func.func @index_map_transpose
// CHECK: ^bb0(%[[X:[^:]+]]: tensor<64x128xf32>):
// CHECK-NEXT: %[[A:[^ ]+]] = sopt.neg %[[X]] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, d1)>} : tensor<64x128xf32>
// CHECK-NEXT: %[[T:[^ ]+]] = sopt.transpose %[[A]] permutation = [1, 0] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d1, d0)>} : tensor<64x128xf32> -> tensor<128x64xf32>
// CHECK-NEXT: %[[Y:[^ ]+]] = sopt.exp %[[T]] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d1, d0)>, sopt.mapping = #sopt.mapping<kind = elementwise, rows = 8192, cols = 1, threads_per_block = 256, threads_per_row = 1, rows_per_block = 256, blocks_per_row = 1, vector_width = 4, grid = 8>} : tensor<128x64xf32>
// CHECK-NEXT: sopt.yield %[[Y]] : tensor<128x64xf32>
func.func @index_map_transpose(%x: tensor<64x128xf32>) -> tensor<128x64xf32> {
  %a = sopt.neg %x : tensor<64x128xf32>
  %t = sopt.transpose %a permutation = [1, 0] : tensor<64x128xf32> -> tensor<128x64xf32>
  %y = sopt.exp %t : tensor<128x64xf32>
  return %y : tensor<128x64xf32>
}

// -----

// Through a reshape in an elementwise group, forwards ([8x16] -> [128]: the
// row-major offset; its `mod 128` is dropped, since d0 < 8 and d1 < 16) ...
// CHECK-LABEL: func.func @index_map_reshape
// CHECK: ^bb0(%[[X:[^:]+]]: tensor<8x16xf32>):
// CHECK-NEXT: %[[A:[^ ]+]] = sopt.neg %[[X]] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, d1)>} : tensor<8x16xf32>
// CHECK-NEXT: %[[R:[^ ]+]] = sopt.reshape %[[A]] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0 * 16 + d1)>} : tensor<8x16xf32> -> tensor<128xf32>
// CHECK-NEXT: %[[Y:[^ ]+]] = sopt.exp %[[R]] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0 * 16 + d1)>, sopt.mapping = #sopt.mapping<kind = elementwise, rows = 128, cols = 1, threads_per_block = 256, threads_per_row = 1, rows_per_block = 256, blocks_per_row = 1, vector_width = 4, grid = 1>} : tensor<128xf32>
// CHECK-NEXT: sopt.yield %[[Y]] : tensor<128xf32>
func.func @index_map_reshape(%x: tensor<8x16xf32>) -> tensor<128xf32> {
  %a = sopt.neg %x : tensor<8x16xf32>
  %r = sopt.reshape %a : tensor<8x16xf32> -> tensor<128xf32>
  %y = sopt.exp %r : tensor<128xf32>
  return %y : tensor<128xf32>
}

// -----

// ... and splitting the space ([128] -> [8x16]; `(d0 floordiv 16) mod 8` is
// `d0 floordiv 16` since d0 < 128).
// CHECK-LABEL: func.func @index_map_reshape_split
// CHECK: ^bb0(%[[X:[^:]+]]: tensor<128xf32>, %[[Z:[^:]+]]: tensor<8x16xf32>):
// CHECK-NEXT: %[[A:[^ ]+]] = sopt.neg %[[X]] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0) -> (d0)>} : tensor<128xf32>
// CHECK-NEXT: %[[R:[^ ]+]] = sopt.reshape %[[A]] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0) -> (d0 floordiv 16, d0 mod 16)>} : tensor<128xf32> -> tensor<8x16xf32>
// CHECK-NEXT: %[[Y:[^ ]+]] = sopt.add %[[R]], %[[Z]] {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0) -> (d0 floordiv 16, d0 mod 16)>, sopt.mapping = #sopt.mapping<kind = elementwise, rows = 128,
func.func @index_map_reshape_split(%x: tensor<128xf32>, %z: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %a = sopt.neg %x : tensor<128xf32>
  %r = sopt.reshape %a : tensor<128xf32> -> tensor<8x16xf32>
  %y = sopt.add %r, %z : tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

// Two groups in one region, each with its own mapping on its backbone and
// index maps in its own space; the second space is the 1-D [64].
// CHECK-LABEL: func.func @two_groups
// CHECK: sopt.exp %{{.+}} {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0, d1)>} : tensor<64x128xf32>
// CHECK-NEXT: sopt.reduce sum %{{.+}} dims = [1] {sopt.backbone, sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0)>, sopt.mapping = #sopt.mapping<kind = subwarp_rows, rows = 64, cols = 128, threads_per_block = 64, threads_per_row = 16, rows_per_block = 4, blocks_per_row = 1, vector_width = 4, grid = 16>} : tensor<64x128xf32> -> tensor<64xf32>
// CHECK-NEXT: sopt.log %{{.+}} {sopt.group = 0 : i64, sopt.index_map = affine_map<(d0, d1) -> (d0)>} : tensor<64xf32>
// CHECK-NEXT: sopt.reduce sum %{{.+}} dims = [0] {sopt.backbone, sopt.group = 1 : i64, sopt.index_map = affine_map<(d0) -> ()>, sopt.mapping = #sopt.mapping<kind = subwarp_rows, rows = 1, cols = 64, threads_per_block = 64, threads_per_row = 8, rows_per_block = 8, blocks_per_row = 1, vector_width = 4, grid = 1>} : tensor<64xf32> -> tensor<f32>
// CHECK-NEXT: sopt.neg %{{.+}} {sopt.group = 1 : i64, sopt.index_map = affine_map<(d0) -> ()>} : tensor<f32>
func.func @two_groups(%x: tensor<64x128xf32>) -> tensor<f32> {
  %e = sopt.exp %x : tensor<64x128xf32>
  %r = sopt.reduce sum %e dims = [1] : tensor<64x128xf32> -> tensor<64xf32>
  %l = sopt.log %r : tensor<64xf32>
  %t = sopt.reduce sum %l dims = [0] : tensor<64xf32> -> tensor<f32>
  %n = sopt.neg %t : tensor<f32>
  return %n : tensor<f32>
}
