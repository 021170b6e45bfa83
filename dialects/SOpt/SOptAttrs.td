//===- SOptAttrs.td - thread mappings and memory plans -------*- tablegen -*-===//
//
// Attributes the fusion passes attach: how a fusion group's iteration space
// is laid onto threads and blocks, and where values live between the phases
// of a fused kernel. Attributes sopt-schedule-sparse attaches: the tile
// schedules of the SpMM and SDDMM kernels.
//
//===----------------------------------------------------------------------===//

#ifndef SOPT_ATTRS_TD
#define SOPT_ATTRS_TD

include "SOpt/SOptDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def SOpt_MappingKind : I32EnumAttr<"MappingKind",
    "how a fusion group's rows and columns map onto threads", [
    // No reduction: a flat, vectorised grid-stride loop over elements.
    I32EnumAttrCase<"Elementwise", 0, "elementwise">,
    // Short rows: several rows share one warp (threads_per_row < 32).
    I32EnumAttrCase<"SubwarpRows", 1, "subwarp_rows">,
    // One warp per row, several rows stitched into one block.
    I32EnumAttrCase<"WarpRows", 2, "warp_rows">,
    // One block per row (long rows).
    I32EnumAttrCase<"BlockRows", 3, "block_rows">,
    // Too few rows to fill the GPU: each row is split across blocks.
    I32EnumAttrCase<"SplitRow", 4, "split_row">,
    // Reduction over the leading dimension: threads own columns.
    I32EnumAttrCase<"Columns", 5, "columns">
  ]> {
  let cppNamespace = "::mlir::sopt";
  let genSpecializedAttr = 0;
}

def SOpt_MappingAttr : AttrDef<SOpt_Dialect, "Mapping"> {
  let mnemonic = "mapping";
  let summary = "thread mapping of a fusion group";
  let description = [{
    The group's iteration space seen as `rows × cols`: `rows` is the product
    of its parallel dimensions, `cols` the product of its reduced ones (1 for
    an elementwise group, whose `rows` is the element count). Threads of a
    block are `threads_per_row × rows_per_block`; a row spans
    `blocks_per_row` blocks; each thread moves `vector_width` consecutive
    elements per access; `grid` is the number of blocks launched.

    ```mlir
    #sopt.mapping<kind = warp_rows, rows = 16384, cols = 1024,
                  threads_per_block = 256, threads_per_row = 32,
                  rows_per_block = 8, blocks_per_row = 1, vector_width = 4,
                  grid = 2048>
    ```
  }];
  let parameters = (ins
    EnumParameter<SOpt_MappingKind>:$kind,
    "int64_t":$rows,
    "int64_t":$cols,
    "int64_t":$threads_per_block,
    "int64_t":$threads_per_row,
    "int64_t":$rows_per_block,
    "int64_t":$blocks_per_row,
    "int64_t":$vector_width,
    "int64_t":$grid);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def SOpt_MemoryLevel : I32EnumAttr<"MemoryLevel",
    "where a value lives between the phases of a fused kernel", [
    I32EnumAttrCase<"Register", 0, "register">,
    I32EnumAttrCase<"Shared", 1, "shared">,
    I32EnumAttrCase<"Global", 2, "global">
  ]> {
  let cppNamespace = "::mlir::sopt";
  let genSpecializedAttr = 0;
}
def SOpt_MemoryLevelAttr : EnumAttr<SOpt_Dialect, SOpt_MemoryLevel, "memory"> {
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Sparse schedules (mirror sopt::SpmmSchedule / sopt::SddmmSchedule of
// include/sparse-opt/Runtime/Schedule/SparseSchedule.h)
//===----------------------------------------------------------------------===//

def SOpt_RowOrder : I32EnumAttr<"RowOrder",
    "the order in which a sparse product visits its sparse operand's rows", [
    // Row 0 first: no preparation.
    I32EnumAttrCase<"Natural", 0, "natural">,
    // Longest rows first (a permutation prepared once per pattern).
    I32EnumAttrCase<"ByLength", 1, "by_length">
  ]> {
  let cppNamespace = "::mlir::sopt";
  let genSpecializedAttr = 0;
}

def SOpt_TileOrder : I32EnumAttr<"TileOrder",
    "the order in which an SpMM hands out its output tiles", [
    // All tiles of a row, then the next row's.
    I32EnumAttrCase<"ByRow", 0, "by_row">,
    // One column slice of every row, then the next slice.
    I32EnumAttrCase<"ByColumn", 1, "by_column">
  ]> {
  let cppNamespace = "::mlir::sopt";
  let genSpecializedAttr = 0;
}

/// `tile_order` may be left out: a row's tiles together.
def SOpt_TileOrderParameter : EnumParameter<SOpt_TileOrder> {
  let defaultValue = "::mlir::sopt::TileOrder::ByRow";
}

def SOpt_SpmmTiling : I32EnumAttr<"SpmmTiling",
    "how an SpMM kernel divides its work", [
    // 1-D tiles of output rows: one FMA per stored entry and output column.
    I32EnumAttrCase<"RowTiles", 0, "row_tiles">,
    // Dense blocks of C on tensor cores, A's chunks densified.
    I32EnumAttrCase<"DenseBlocks", 1, "dense_blocks">,
    // A slice of B staged whole in shared memory per block (short k).
    I32EnumAttrCase<"StagedSlices", 2, "staged_slices">
  ]> {
  let cppNamespace = "::mlir::sopt";
  let genSpecializedAttr = 0;
}

/// `tiling` may be left out: 1-D row tiles.
def SOpt_SpmmTilingParameter : EnumParameter<SOpt_SpmmTiling> {
  let defaultValue = "::mlir::sopt::SpmmTiling::RowTiles";
}

def SOpt_SddmmTiling : I32EnumAttr<"SddmmTiling",
    "how an SDDMM kernel divides its work", [
    // 1-D tiles of consecutive nonzeros: one dot product per output.
    I32EnumAttrCase<"Nonzeros", 0, "nonzeros">,
    // Dense blocks (block_size x block_size) of A · Bᵀ on tensor cores,
    // sampled at S's entries.
    I32EnumAttrCase<"DenseBlocks", 1, "dense_blocks">
  ]> {
  let cppNamespace = "::mlir::sopt";
  let genSpecializedAttr = 0;
}

/// `tiling` may be left out: tiles of nonzeros.
def SOpt_SddmmTilingParameter : EnumParameter<SOpt_SddmmTiling> {
  let defaultValue = "::mlir::sopt::SddmmTiling::Nonzeros";
}

def SOpt_SpmmScheduleAttr : AttrDef<SOpt_Dialect, "SpmmSchedule"> {
  let mnemonic = "spmm_schedule";
  let summary = "tile schedule of a CSR × dense SpMM kernel";
  let description = [{
    How the SpMM kernel computes `C[m, n] = A[m, k] · B[k, n]` with `A` in
    CSR and `B`, `C` dense and row-major:

    - `tile_columns`: each output row is cut into 1-D tiles of this many
      consecutive columns.
    - `threads_per_tile`: the lanes of one warp that compute a tile (4, 8,
      16 or 32; fewer than 32 is a subwarp, so a warp works on several rows).
      Each lane owns `tile_columns / threads_per_tile` columns, a power of
      two of at most 16 and a multiple of `vector_width`.
    - `tiles_per_block`: tiles per thread block; the block has
      `tiles_per_block * row_splits * threads_per_tile` threads, a multiple
      of 32 up to 256.
    - `vector_width`: elements per load and store of `B` and `C` (1, 2 or 4,
      at most 16 bytes); `n` must be a multiple of it. The group stages its
      row's column indices and values in shared memory,
      `threads_per_tile * vector_width` nonzeros at a time.
    - `row_order`: `natural` visits rows from row 0; `by_length` visits the
      longest rows first (a permutation prepared once per pattern), so that
      rows of similar length share a wave.
    - `row_splits` (default 1): tile groups of one block that share a tile,
      each summing an even share of the row's nonzeros; the partial sums meet
      in shared memory (1, 2, 4 or 8). Long rows finish sooner, and a matrix
      of few long rows still fills the GPU.
    - `tile_order` (default `by_row`): `by_row` hands out a row's tiles one
      after another; `by_column` hands out one column slice of every row
      before the next, so the blocks running at once read the same slice of
      `B` and find it in L1.
    - `tiling` (default `row_tiles`): `dense_blocks` computes dense blocks
      of `block_rows` x `tile_columns` elements of `C` (32 or 64 each; 128
      columns too in f16/bf16) on
      tensor cores (f32: three TF32 products per product for f32 accuracy;
      f16/bf16: one, f32 accumulation), with `A`'s rows densified in shared
      memory 64 columns at a time over the window of `k` the block's rows
      hold entries in: faster than one FMA per stored entry and output
      column when `A` is dense enough, where it holds entries (a banded
      pattern multiplies only its band). `row_order = natural`; the other
      fields do not apply.
      `staged_slices` has each block copy one slice of `B`, all `k` rows by
      `tile_columns` columns (16, 32, 64 or 128), into shared memory once and
      sum rows of `A` against it: `B` is read from L2 once per block instead
      of once per stored entry. A row's group is `threads_per_tile =
      tile_columns / vector_width` lanes, one vector each; a block has
      `tiles_per_block * threads_per_tile` threads, up to 1024; the blocks of
      a slice take the rows (in `row_order`) in turn. A `k` too long for the
      whole slice in a block's shared memory is staged in chunks of rows.
      `row_splits` and `tile_order` keep their defaults.
    - `block_rows` (default 64): rows of `C` per block with `dense_blocks`.
    - `row_segment` (default 0: none): with `row_tiles` and `by_length`,
      rows longer than this many entries are cut into segments of this many
      (prepared once per pattern), each summed by a tile group like a row of
      its own into a workspace, and a second kernel adds each long row's
      segments in order and applies the epilogue: a graph's hub rows of
      thousands of entries no longer set the kernel's time.

    The op verifier checks a schedule against the operand shapes and element
    type. `sopt-schedule-sparse` chooses one; a schedule written by hand is
    kept.

    ```mlir
    #sopt.spmm_schedule<tile_columns = 128, threads_per_tile = 32,
                        tiles_per_block = 2, vector_width = 4,
                        row_order = by_length, row_splits = 4,
                        tile_order = by_column>
    #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 32,
                        tiles_per_block = 1, vector_width = 1,
                        row_order = natural, tiling = dense_blocks,
                        block_rows = 32>
    #sopt.spmm_schedule<tile_columns = 128, threads_per_tile = 32,
                        tiles_per_block = 2, vector_width = 4,
                        row_order = by_length, row_segment = 64>
    ```
  }];
  let parameters = (ins
    AttrParameter<"int", "consecutive output columns per tile">:$tile_columns,
    AttrParameter<"int", "lanes per tile (4, 8, 16 or 32)">:$threads_per_tile,
    AttrParameter<"int", "tile groups per block">:$tiles_per_block,
    AttrParameter<"int", "elements per access of the dense rhs and result (1, 2 or 4)">:$vector_width,
    EnumParameter<SOpt_RowOrder>:$row_order,
    DefaultValuedParameter<"int", "1", "tile groups that share one tile's row (1, 2, 4 or 8)">:$row_splits,
    SOpt_TileOrderParameter:$tile_order,
    SOpt_SpmmTilingParameter:$tiling,
    DefaultValuedParameter<"int", "64", "rows of C per dense block (32 or 64)">:$block_rows,
    DefaultValuedParameter<"int", "0", "entries per segment of the long rows (0: none)">:$row_segment);
  let assemblyFormat = "`<` struct(params) `>`";
}

def SOpt_SddmmScheduleAttr : AttrDef<SOpt_Dialect, "SddmmSchedule"> {
  let mnemonic = "sddmm_schedule";
  let summary = "tile schedule of an SDDMM kernel";
  let description = [{
    How the SDDMM kernel computes `D = (A · Bᵀ) ⊙ S` (`transpose_rhs`,
    `B[n, k]`) or `D = (A · B) ⊙ S` (`B[k, n]`), `S` in CSR:

    - `tile_nonzeros`: each row of `S` is cut into 1-D tiles of this many
      consecutive nonzeros, one tile per warp; 1 to 8 times
      `32 / threads_per_nonzero`, or 32: one output per lane in the end,
      the lanes' partial sums exchanged in a transposed butterfly (each group
      computes `threads_per_nonzero` outputs and reduces them with
      `threads_per_nonzero - 1` shuffles per lane).
    - `threads_per_nonzero`: lanes that share one output (a power of two up
      to 32). Each holds a slice of `A`'s row in registers (at most 64
      elements: `k / threads_per_nonzero` must not exceed it) and the partial
      dot products meet through warp shuffles. Without `transpose_rhs`, `B`'s
      columns are gathered and one lane computes one output.
    - `tiles_per_block`: warps per thread block (1 to 8; with
      `column_panel` up to 32).
    - `vector_width`: elements of `B`'s row per load (1, 2 or 4, at most 16
      bytes); with `transpose_rhs`, `k` must be a multiple of it.
    - `row_order`: `natural` or `by_length` (longest rows of `S` first).
    - `tiling` (optional, default `nonzeros`): `dense_blocks` computes whole
      `block_size` x `block_size` blocks of `A · Bᵀ` on tensor cores (f32
      through three TF32 products per product) and keeps the entries `S`
      samples (with the pattern known at compile time, its rows' column
      windows are a table in the generated code and blocks without entries
      are skipped; otherwise the blocks search their rows and skip those
      whose rows are empty): faster than a dot product
      per nonzero when `S` is dense enough. Only with `transpose_rhs`,
      f32/f16/bf16, `row_order = natural`; the fields above do not apply.
    - `block_size` (default 64): the side of a dense block, 32 or 64. A
      32 x 32 block keeps its 8 warps busy by giving each of its two
      32 x 16 pieces four warps, one per quarter of each k chunk: four
      times the blocks for products too small to fill the GPU with 64 x 64.
    - `k_splits` (default 1): with `dense_blocks`, 1 or 2 thread blocks per
      dense block, each on its share of `k`; with 2 they form a cluster
      (sm_90 and newer) that adds the two products through distributed
      shared memory, so a long product with too few blocks to fill the GPU
      gets twice the blocks without a second pass. Before sm_90 one block
      does all of `k`.
    - `column_panel` (default 0: none): with tiles of 32 nonzeros and
      `transpose_rhs`, the tiles take `S`'s entries in column-panel order
      (those whose column lies in the first `column_panel` columns, row by
      row, then the next panel's, ...), one thread block of
      `tiles_per_block` warps (then up to 32, or 16 where a lane holds more
      than 16 elements of `A`) per SM over a contiguous run of that order:
      each SM then gathers the rows of `B` of one or two panels, which its
      L1 serves. The order is prepared once per pattern
      (`sopt_csr_panel_order`); with the pattern known at compile time the
      generated code prepares it on its first call on each device, and
      without a prepared order the tiles run in `S`'s order.
    - `transpose_rhs_first` (default false): for `(A · B) ⊙ S` only
      (without `transpose_rhs`): the kernel first copies `B[k, n]` into
      `Bᵀ[n, k]` (a temporary of `n k` elements, one transpose through
      shared memory), then every field above applies as for
      `transpose_rhs`, dense blocks included. Without it, `B`'s columns
      are gathered (one lane per output), which only pays for very short
      `k` or a pattern with far fewer entries than `B` has columns.

    ```mlir
    #sopt.sddmm_schedule<tile_nonzeros = 8, threads_per_nonzero = 8,
                         tiles_per_block = 4, vector_width = 4,
                         row_order = natural>
    #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32,
                         threads_per_nonzero = 8, tiles_per_block = 4,
                         vector_width = 4, row_order = natural,
                         block_size = 32>
    #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32,
                         threads_per_nonzero = 8, tiles_per_block = 4,
                         vector_width = 4, row_order = natural,
                         block_size = 64, k_splits = 2>
    #sopt.sddmm_schedule<tile_nonzeros = 32, threads_per_nonzero = 8,
                         tiles_per_block = 2, vector_width = 4,
                         row_order = natural, transpose_rhs_first = true>
    #sopt.sddmm_schedule<tile_nonzeros = 32, threads_per_nonzero = 16,
                         tiles_per_block = 16, vector_width = 4,
                         row_order = natural, column_panel = 128>
    ```
  }];
  let parameters = (ins
    SOpt_SddmmTilingParameter:$tiling,
    AttrParameter<"int", "consecutive nonzeros of a row per tile (one warp)">:$tile_nonzeros,
    AttrParameter<"int", "lanes per output (a power of two up to 32)">:$threads_per_nonzero,
    AttrParameter<"int", "warps per block (1 to 8; up to 32 with column_panel)">:$tiles_per_block,
    AttrParameter<"int", "elements per load of the rhs row (1, 2 or 4)">:$vector_width,
    EnumParameter<SOpt_RowOrder>:$row_order,
    DefaultValuedParameter<"int", "64", "side of a dense block (32 or 64)">:$block_size,
    DefaultValuedParameter<"int", "1", "blocks sharing a dense block's k (1 or 2)">:$k_splits,
    DefaultValuedParameter<"int", "0", "columns per panel of the tiles' entry order (0: S's order)">:$column_panel,
    DefaultValuedParameter<"bool", "false", "(A · B) ⊙ S: B copied into Bᵀ first">:$transpose_rhs_first);
  let assemblyFormat = "`<` struct(params) `>`";
}

def SOpt_SparseLaunchAttr : AttrDef<SOpt_Dialect, "SparseLaunch"> {
  let mnemonic = "sparse_launch";
  let summary = "how a scheduled sparse product is launched: its transposes, workspaces and amended schedule";
  let description = [{
    Set by `sopt-prepare-sparse-emission` on every scheduled `sopt.spmm` and
    `sopt.sddmm` (`sopt.launch = #sopt.sparse_launch<...>`): what the CUDA
    emitter launches beyond the schedule, decided from the schedule, the
    operand shapes and the tables prepared from a known pattern. Fields at
    their defaults are not printed.

    - `stores_transposed` (dense × sparse SpMM, run as `Sᵀ · Xᵀ`): the
      kernel stores `Y = Cᵀ` itself (dense blocks, or one element per
      access); else `result_workspace` elements hold `Cᵀ` row-major and a
      tiled transpose writes `Y`.
    - `transposes_sparse` (dense × CSR SpMM without a known pattern):
      cuSPARSE's csr2csc makes `Sᵀ` on every call (with the pattern known,
      the `sopt.pattern_tables` hold the transpose).
    - `segment_workspace`: f32 elements of the long rows' partial sums
      (`row_segment`, as many segments as the tables list, times `n`).
    - `transposes_rhs`, `rhs_workspace` (SDDMM `(A · B) ⊙ S` with
      `transpose_rhs_first`): `B` is copied into `rhs_workspace` elements
      of `Bᵀ` first and the `transpose_rhs` kernels run on it.
    - `planes_workspace` (SDDMM `dense_blocks` with prepared windows):
      elements of `B` split into TF32 parts and remainders, for the kernel
      fed by the tensor memory accelerator.
    - `warps_per_block`, `column_panels` (SDDMM tiles): the warps each
      block runs, and whether the tiles take the entries in column-panel
      order; without prepared positions a schedule's `column_panel` is
      dropped and its warps clamped to a plain block's.

    ```mlir
    sopt.launch = #sopt.sparse_launch<stores_transposed = true>
    sopt.launch = #sopt.sparse_launch<transposes_rhs = true, rhs_workspace = 6144, warps_per_block = 2>
    ```
  }];
  let parameters = (ins
    DefaultValuedParameter<"bool", "false", "dense x sparse: the kernel stores Y transposed">:$stores_transposed,
    DefaultValuedParameter<"int64_t", "0", "elements of the Cᵀ workspace (0: none)">:$result_workspace,
    DefaultValuedParameter<"bool", "false", "dense x CSR: Sᵀ by cuSPARSE on every call">:$transposes_sparse,
    DefaultValuedParameter<"int64_t", "0", "f32 elements of the row segments' partial sums">:$segment_workspace,
    DefaultValuedParameter<"bool", "false", "SDDMM (A · B) ⊙ S: B copied into Bᵀ first">:$transposes_rhs,
    DefaultValuedParameter<"int64_t", "0", "elements of the Bᵀ workspace">:$rhs_workspace,
    DefaultValuedParameter<"int64_t", "0", "elements of B's TF32 planes (0: none)">:$planes_workspace,
    DefaultValuedParameter<"int", "0", "SDDMM tiles: warps per block (0: not a tiles launch)">:$warps_per_block,
    DefaultValuedParameter<"bool", "false", "SDDMM tiles in column-panel order">:$column_panels);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Fused attention schedule (mirrors sopt::AttentionTile of
// include/sparse-opt/Runtime/Schedule/AttentionSchedule.h)
//===----------------------------------------------------------------------===//

def SOpt_AttentionScheduleAttr : AttrDef<SOpt_Dialect, "AttentionSchedule"> {
  let mnemonic = "attention_schedule";
  let summary = "tile schedule of the fused attention kernel";
  let description = [{
    How the project's fused attention kernel
    (`sparse-opt/Runtime/Kernels/AttentionForward.cuh`) runs a
    `sopt.attention`: each block keeps `block_m` query rows resident and
    walks the keys `block_n` at a time, `warps` warps each owning
    `block_m / warps` rows (16 or 32). `block_n` is 16, 32, 64 or 128;
    `warps` 2, 4 or 8; the shared memory of the tile (Q plus two stages of
    K and V) must fit a block (227 KiB). `sopt-schedule-attention` chooses
    one; a schedule written by hand is kept, and the op verifier checks it.

    ```mlir
    #sopt.attention_schedule<block_m = 128, block_n = 64, warps = 4>
    ```
  }];
  let parameters = (ins
    AttrParameter<"int", "query rows a block keeps resident">:$block_m,
    AttrParameter<"int", "keys per step of the loop over K and V">:$block_n,
    AttrParameter<"int", "warps per block">:$warps);
  let assemblyFormat = "`<` struct(params) `>`";
}

//===----------------------------------------------------------------------===//
// GEMM schedule (mirrors sopt::GemmSchedule of
// include/sparse-opt/Runtime/Schedule/GemmSchedule.h)
//===----------------------------------------------------------------------===//

def SOpt_GemmScheduleAttr : AttrDef<SOpt_Dialect, "GemmSchedule"> {
  let mnemonic = "gemm_schedule";
  let summary = "block tile, K step and K slices of the project's f32 GEMM kernel";
  let description = [{
    On an f32 `sopt.matmul` (`schedule = #sopt.gemm_schedule<...>`): the
    product runs on the project's register-tiled GEMM on CUDA cores
    (`sparse-opt/Runtime/Kernels/GemmSimt.cuh`) instead of cuBLAS.

    - `block_m` x `block_n`: the tile of `C` one thread block computes, each
      thread 8 x 8 of it; one of 128 x 128, 64 x 128, 64 x 64 and 32 x 128
      (the instances the kernel header compiles).
    - `k_step`: elements of `K` per shared-memory slice, 8 or 16 (16 only
      with the 128 x 128 tile).
    - `k_splits` (1 to 65535): slices of `K` computed by separate blocks and
      added into `C` with atomics (after `C` is zeroed); 1 is no split. Only
      a product of one slice can take an epilogue (an elementwise region
      applied before the single store of each element).

    `sopt-schedule-gemm` chooses one from the shape and the GPU's
    multiprocessors (`sopt::chooseGemmSchedule`); one written by hand is
    kept, and the op verifier checks it against the shape.

    ```mlir
    %c = sopt.matmul %a, %b {schedule = #sopt.gemm_schedule<block_m = 64,
        block_n = 128, k_step = 8, k_splits = 8>}
        : tensor<128x768xf32>, tensor<768x768xf32> -> tensor<128x768xf32>
    ```
  }];
  let parameters = (ins
    AttrParameter<"int", "rows of C per block">:$block_m,
    AttrParameter<"int", "columns of C per block">:$block_n,
    AttrParameter<"int", "elements of K per shared-memory slice">:$k_step,
    DefaultValuedParameter<"int", "1", "slices of K added atomically (1: no split)">:$k_splits);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // SOPT_ATTRS_TD
