//===- Passes.td - sparse-opt transformation passes ----------*- tablegen -*-===//

#ifndef SPARSE_OPT_TRANSFORMS_PASSES_TD
#define SPARSE_OPT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def DecomposeComposites : Pass<"sopt-decompose-composites"> {
  let summary = "Rewrite composite sopt layers into primitive sopt ops";
  let description = [{
    Expands softmax, layer_norm, rms_norm, gelu, mean reductions and attention
    into elementwise ops, explicit broadcasts, sum/max reductions and
    matmuls, so that the fusion passes see every memory-bound operation and
    the reductions that shape it. The element type is kept; numerically
    stable forms are used (softmax subtracts the row maximum).

    Before:

    ```mlir
    %y = sopt.softmax %x dim = 1 : tensor<4x8xf32>
    ```

    After:

    ```mlir
    %m  = sopt.reduce max %x dims = [1] keep_dims : tensor<4x8xf32> -> tensor<4x1xf32>
    %mb = sopt.broadcast %m dims = [0, 1] : tensor<4x1xf32> -> tensor<4x8xf32>
    %d  = sopt.sub %x, %mb : tensor<4x8xf32>
    %e  = sopt.exp %d : tensor<4x8xf32>
    %s  = sopt.reduce sum %e dims = [1] keep_dims : tensor<4x8xf32> -> tensor<4x1xf32>
    %r  = sopt.reciprocal %s : tensor<4x1xf32>
    %rb = sopt.broadcast %r dims = [0, 1] : tensor<4x1xf32> -> tensor<4x8xf32>
    %y  = sopt.mul %e, %rb : tensor<4x8xf32>
    ```

    Softmax divides once per row and multiplies each element (as the norms
    take one `rsqrt` per row): a division per element is slow enough to
    hold a memory-bound bf16 softmax below copy bandwidth
    ([history](../benchmarks/history.md#evidence-moved-out-of-code-comments)).

    `mean` becomes `sum` times a splat of `1/n`; `gelu` becomes its erf or
    tanh formula; `attention` becomes `matmul(softmax(scale·Q·Kᵀ + mask), V)`,
    with a causal mask built as a boolean constant. An `attention` with a
    `schedule` (from `sopt-schedule-attention`) is kept for the fused kernel.
  }];
  let dependentDialects = ["::mlir::sopt::SOptDialect"];
  let options = [
    Option<"keepAttention", "keep-attention", "bool", /*default=*/"false",
           "Leave sopt.attention intact for a fused attention schedule">,
  ];
}

def ScheduleAttention : Pass<"sopt-schedule-attention"> {
  let summary = "Give sopt.attention ops the fused attention kernel's tile schedule";
  let description = [{
    Gives every `sopt.attention` that the project's fused attention kernel
    can run, and that has no schedule yet, a `schedule`
    (`#sopt.attention_schedule`) chosen by the runtime's rule
    (`sopt::chooseAttentionTile` in
    `sparse-opt/Runtime/Schedule/AttentionSchedule.h`) from its head
    dimension. Such an op is then kept by `sopt-decompose-composites` and
    emitted as one launch of the kernel (f32 accumulation on tensor cores,
    scores never written to memory). The kernel runs f16 and bf16 without a
    `mask` operand, query and value head dimensions equal and one of 64, 80,
    96, 128, 256; other ops are left unscheduled and are decomposed into
    matmul → softmax → matmul as before. A schedule already present (set by
    hand) is kept.

    Before:

    ```mlir
    %o = sopt.attention %q, %k, %v causal
        : tensor<8x512x64xbf16>, tensor<8x512x64xbf16>, tensor<8x512x64xbf16> -> tensor<8x512x64xbf16>
    ```

    After:

    ```mlir
    %o = sopt.attention %q, %k, %v causal
        {schedule = #sopt.attention_schedule<block_m = 128, block_n = 64, warps = 4>}
        : tensor<8x512x64xbf16>, tensor<8x512x64xbf16>, tensor<8x512x64xbf16> -> tensor<8x512x64xbf16>
    ```
  }];
  let dependentDialects = ["::mlir::sopt::SOptDialect"];
}

def FormFusionRegions : Pass<"sopt-form-fusion-regions"> {
  let summary = "Cluster memory-bound subgraphs into sopt.fusion regions";
  let description = [{
    Compute-intensive ops (matmul, spmm, sddmm, spmv, attention) stay where
    they are. The fusible ops between them (elementwise, broadcast, reduce,
    reshape, transpose) are clustered along def-use edges into `sopt.fusion`
    regions, each of which becomes one kernel. A merge that would create a
    cycle through an op outside the cluster is refused, so a cluster never
    needs to run both before and after another kernel. Splat constants are
    cloned into the regions that use them; a cluster of reshapes alone stays
    outside (a reshape moves no data). Ops on the stored entries of CSR
    matrices, and broadcasts read only by them, are not clustered: a dense
    region's thread mapping covers every element of a dense shape, which
    they have none of (sopt-fuse-sparse-epilogues gives them regions of
    their own, usually inside an SDDMM). Ops are then re-sorted so every
    value is defined before use.

    Before:

    ```mlir
    %h = sopt.matmul %x, %w : tensor<128x768xf32>, tensor<768x3072xf32> -> tensor<128x3072xf32>
    %s = sopt.add %h, %b : tensor<128x3072xf32>
    %g = sopt.gelu %s : tensor<128x3072xf32>
    ```

    After:

    ```mlir
    %h = sopt.matmul %x, %w : tensor<128x768xf32>, tensor<768x3072xf32> -> tensor<128x3072xf32>
    %g = sopt.fusion ins(%h, %b : tensor<128x3072xf32>, tensor<128x3072xf32>) -> tensor<128x3072xf32> {
    ^bb0(%a0: tensor<128x3072xf32>, %a1: tensor<128x3072xf32>):
      %0 = sopt.add %a0, %a1 : tensor<128x3072xf32>
      %1 = sopt.gelu %0 : tensor<128x3072xf32>
      sopt.yield %1 : tensor<128x3072xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::sopt::SOptDialect"];
}

def GroupBackbones : Pass<"sopt-group-backbones"> {
  let summary = "Group the ops of each fusion region around reduce backbones";
  let description = [{
    Every reduce in a `sopt.fusion` region is a backbone. It is grouped with
    its producers and with the consumers working in its iteration space; a
    later reduce over the same iteration space that is linked to the group
    joins it as a sub-backbone (LayerNorm's variance after its mean). Reduces
    over different spaces start groups of their own, and ops linked to no
    reduce form groups without a backbone. An op larger than a group's space
    (a reduction's result broadcast back to a bigger shape) stays out of it,
    and an op that could join groups of different spaces joins the one
    computed last, so that no two groups read from each other (softmax over
    row sums is the second group, not part of the first). Each op gets `sopt.group`, each
    backbone `sopt.backbone`, each sub-backbone `sopt.sub_backbone`.

    ```mlir
    // Inside a fusion region, after the pass:
    %m = sopt.reduce max %x dims = [1] keep_dims {sopt.backbone, sopt.group = 0 : i64}
        : tensor<64x128xf32> -> tensor<64x1xf32>
    %mb = sopt.broadcast %m dims = [0, 1] {sopt.group = 0 : i64} : tensor<64x1xf32> -> tensor<64x128xf32>
    %d = sopt.sub %x, %mb {sopt.group = 0 : i64} : tensor<64x128xf32>
    %e = sopt.exp %d {sopt.group = 0 : i64} : tensor<64x128xf32>
    %s = sopt.reduce sum %e dims = [1] keep_dims {sopt.group = 0 : i64, sopt.sub_backbone}
        : tensor<64x128xf32> -> tensor<64x1xf32>
    ```
  }];
  let dependentDialects = ["::mlir::sopt::SOptDialect"];
}

def PropagateThreadMapping : Pass<"sopt-propagate-mapping"> {
  let summary = "Choose each fusion group's thread mapping and propagate it";
  let description = [{
    The backbone of each group picks its mapping from its iteration space
    (`rows` = product of parallel extents, `cols` = product of reduced ones)
    and the target: several short rows per warp (`subwarp_rows`), a row per
    warp (`warp_rows`), a row per block (`block_rows`), a long row split
    across blocks when too few rows would fill the SMs (`split_row`), or
    threads owning columns for reductions over the leading dimension
    (`columns`). Groups without a backbone get a vectorised `elementwise`
    mapping. The mapping is attached as `sopt.mapping` to the backbone (or
    the last op of an elementwise group), and every op of the group gets
    `sopt.index_map`: its result indices as a function of the group's
    iteration indices, so each index expression is formed once. The groups
    are read from the marks `sopt-group-backbones` left (run it first).

    A row mapping gives each thread 64 bytes of the row (16 f32 elements:
    the 512-wide rows below take a warp), 32 bytes when the group's
    estimated arithmetic per element is heavy (an `erf` and its neighbours),
    and twice the threads when the rows would fill under a quarter of the
    GPU's thread slots.

    ```mlir
    %m = sopt.reduce sum %x dims = [1] keep_dims {sopt.backbone, sopt.group = 0 : i64,
        sopt.index_map = affine_map<(d0, d1) -> (d0, 0)>,
        sopt.mapping = #sopt.mapping<kind = warp_rows, rows = 4096, cols = 512,
            threads_per_block = 128, threads_per_row = 32, rows_per_block = 4,
            blocks_per_row = 1, vector_width = 4, grid = 1024>}
        : tensor<4096x512xf32> -> tensor<4096x1xf32>
    ```
  }];
  let dependentDialects = ["::mlir::sopt::SOptDialect"];
  let options = [
    Option<"smCount", "sm-count", "int64_t", /*default=*/"132",
           "Streaming multiprocessors of the target GPU">,
    Option<"sharedMemoryPerBlock", "shared-memory-per-block", "int64_t",
           /*default=*/"232448", "Shared memory a block may use, in bytes">,
    Option<"registerElementsPerThread", "register-elements-per-thread",
           "int64_t", /*default=*/"32",
           "Cap on the row elements a thread keeps in registers across a "
           "reduction (row mappings otherwise keep 64 bytes per thread)">,
  ];
}

def PlanReuse : Pass<"sopt-plan-reuse"> {
  let summary = "Decide where fused values live: registers, shared or global memory";
  let description = [{
    For each fusion region whose groups have mappings: a backbone's result
    reaches its consumers in registers (the row is owned by one thread or
    warp), shared memory (by one block) or global memory behind a grid-wide
    barrier (split across blocks). Row values read again after a reduction
    are cached in registers when a thread's share fits, else in shared
    memory, else re-read. Shared buffers are allocated by phase lifetime,
    reusing bytes between buffers that are never live together; the region
    reports `sopt.smem_bytes`. Values passed between groups go through global
    memory (`sopt.result_memory = #sopt.memory<global>`) with a grid-wide
    barrier when every grid can be resident at once — by threads, shared
    memory and 64 registers per thread; the region then records the blocks
    each SM must hold (`sopt.resident_blocks`), and its groups take one block
    size, the largest of theirs (more rows per block for the others).
    Otherwise the region is split into one kernel per side.

    Row sums of 256×128 and their total: both groups fit in one wave, so one
    kernel with one barrier; the row sums cross in global memory.

    ```mlir
    %0 = sopt.fusion ins(%x : tensor<256x128xf32>) attributes {
        sopt.arg_cache = [unit], sopt.grid_barriers = 1 : i64,
        sopt.resident_blocks = 1 : i64, sopt.smem_bytes = 0 : i64} -> tensor<f32> {
    ^bb0(%a: tensor<256x128xf32>):
      %1 = sopt.reduce sum %a dims = [1] {sopt.backbone, sopt.group = 0 : i64,
          sopt.mapping = #sopt.mapping<kind = subwarp_rows, ..., grid = 16>,
          sopt.result_memory = #sopt.memory<global>, ...}
      %2 = sopt.reduce sum %1 dims = [0] {sopt.backbone, sopt.group = 1 : i64, ...}
      sopt.yield %2 : tensor<f32>
    }
    ```

    Softmax over 512 rows of 8192 (one row per 256-thread block): both
    reductions go through shared scratch, live in overlapping phases, so they
    get separate slots; the input stays in registers between phases, and
    `exp` is recomputed from it where a later phase reads it.

    ```mlir
    %0 = sopt.fusion ins(%x : tensor<512x8192xf32>) attributes {
        sopt.arg_cache = [#sopt.memory<register>], sopt.grid_barriers = 0 : i64,
        sopt.smem_bytes = 96 : i64} -> tensor<512x8192xf32> {
    ^bb0(%a: tensor<512x8192xf32>):
      %1 = sopt.reduce max %a dims = [1] keep_dims {sopt.backbone, ...,
          sopt.result_memory = #sopt.memory<shared>, sopt.smem = array<i64: 0, 48>}
      ...
      %4 = sopt.exp %3 {sopt.group = 0 : i64, ...}
      %5 = sopt.reduce sum %4 dims = [1] keep_dims {...,
          sopt.result_memory = #sopt.memory<shared>, sopt.smem = array<i64: 48, 48>,
          sopt.sub_backbone}
      ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::sopt::SOptDialect"];
  let options = [
    Option<"smCount", "sm-count", "int64_t", /*default=*/"132",
           "Streaming multiprocessors of the target GPU">,
    Option<"sharedMemoryPerBlock", "shared-memory-per-block", "int64_t",
           /*default=*/"232448", "Shared memory a block may use, in bytes">,
    Option<"registerElementsPerThread", "register-elements-per-thread",
           "int64_t", /*default=*/"32",
           "Cap on the row elements a thread keeps in registers across a "
           "reduction (row mappings otherwise keep 64 bytes per thread)">,
  ];
}

def ScheduleSparse : Pass<"sopt-schedule-sparse"> {
  let summary = "Choose the tile schedules of SpMM and SDDMM kernels";
  let description = [{
    Gives every `sopt.spmm` whose `lhs` is CSR (sparse × dense) or whose
    `rhs` is CSR or CSC (dense × sparse), and every `sopt.sddmm`, a
    `schedule` attribute (`#sopt.spmm_schedule`, `#sopt.sddmm_schedule`),
    chosen by the host runtime's heuristics (`sopt::chooseSpmmSchedule`,
    `sopt::chooseSddmmSchedule` in `sparse-opt/Runtime/Schedule/SparseSchedule.h`)
    from the product's shape and element type. A dense × sparse product
    `X[m, k] · S[k, n]` runs as `Sᵀ · Xᵀ` on the CSR kernel, so its schedule
    is chosen for an `n x k` CSR matrix (`Sᵀ`) times `k x m`. A schedule
    already present (set by hand) is kept. Other spmm forms (CSC or BSR
    `lhs`, BSR `rhs`) get none.

    When the sparse operand is a function argument carrying
    `sopt.sparsity_pattern = "<file>"` (a `.mtx` or `.smtx` file: a pattern
    known ahead of time, such as a pruned weight), the file is read once per
    path, its rows and columns must match the argument's type, and its row
    lengths inform the choice: rows of different lengths are visited longest
    first (`row_order = by_length`), and rows long enough, or few enough to
    leave the GPU room, are split over several tile groups (`row_splits`;
    even f32 rows of 64 entries or more while the lanes fit a whole GPU);
    hub rows (the longest 16 times the mean and over 256 entries, as in a
    graph) are cut into segments of four mean rows (`row_segment`, 64 at
    least), each summed like a row of its own, with 8 columns per lane at
    most; skewed rows (the longest 4 times the mean and over 128 entries)
    of unsplit tiles that all run at once are cut into segments of a mean
    row (64 at least); 16-bit rows of 32 entries or more on average take 8
    columns per lane in tile groups of 16 lanes (`tile_columns = 128`), one
    group per block, unless skewed rows would get fewer lanes each, and
    from n = 256 only skewed rows (the longest twice the mean) are split
    for the longest row's sake; rows of 32 entries or more at n = 64 to
    128 take 2 columns per lane in 32-lane tiles, split as even rows (in
    16-bit before the 8-column tiles where the rows are skewed or n = 64);
    f32 row tiles whose `B` (the rows the pattern reads, times n) outgrows
    L2 (50 MB) take 8 lanes x 8 columns
    handed out by column slice (`tile_order = by_column`); before that, f32
    row tiles from n = 256 of a local pattern (a quarter or more of its
    64 x 64 blocks empty, 1 % or more dense in the others: a band, a
    stiffness matrix) keep the rows in order (`row_order = natural`) in
    tiles of 128 columns by column slice, 256 threads a block;
    an SpMM whose `k` is at most 512 and whose pattern gives 2^20 products
    (nnz * n) stages slices of `B` in shared memory
    (`tiling = staged_slices`: 64 columns wide in f32 up to 20 % density,
    32 at n = 64 to 128 up to 1024 rows, before dense blocks from n = 512;
    in 16-bit 128 columns from n = 512 up to 4096 rows where the density
    reaches 4 % or the rows are skewed, and so below n = 512 beyond 1024
    rows; 64 columns below n = 512 up to 1024 rows);
    an SpMM whose pattern is dense enough (25 %, in f32 also 15 % with a
    longest row twice the mean, and 2^24 products of the dense shape) runs
    on tensor cores instead (not with fewer than 48 blocks of 32 x 32, in
    16-bit only below 40 % density, nor in f32 with fewer than 96 where
    `k` >= 1024: each block walks all of `k`)
    (`tiling = dense_blocks`; in f16/bf16 also
    where it would stage slices), each block walking only its rows' window
    of `k`: with a pattern file that leaves a quarter or more of its 64 x 64
    blocks empty (a banded one), density and products count over the
    blocks holding entries and the blocks are 32 x 64 (32 x 128 in 16-bit
    from n = 128); 16-bit blocks elsewhere are 64 x 128 from 192 such
    blocks, else 32 x 128 from 96 (from n = 128); and so does an SDDMM
    whose pattern is dense enough (6 % in 16-bit, 8 % in f32; in f32 also
    15 % when the blocks fill the GPU; in 16-bit also 4 %, or 1.9 % from
    k = 1024, when 132 to 1024 blocks of 64 x 64 cover it, and from
    k = 1024 4 % whenever 64 or more do) for enough
    work, in blocks of 32 x 32 (`block_size = 32`) when 64 x 64 ones would
    not fill the GPU's SMs (in 16-bit with k >= 256: fewer than 64 of
    them, or in f32 fewer than 132 and k >= 512, where 32 x 32 blocks fed
    straight from global memory beat the split below), except that in
    16-bit 64 to 131 blocks of 64 x 64 split k in two from k = 1024
    (`k_splits = 2`: a cluster of two thread blocks per dense block); with
    a pattern file, only the blocks that hold entries count, for density
    and number alike (the generated code launches only those): a banded
    pattern such as a sliding-window attention mask is dense in the few
    blocks along its diagonal, and where blocks are left empty the blocks
    also need 10 % density below k = 1024, and 8.5 % from it in f32; a
    sparse SDDMM of at least 33792
    nonzeros (in f32 also 6e6 products) takes tiles of 32 nonzeros
    (`tile_nonzeros = 32`), a smaller one tiles of one (f32) or two (16-bit;
    one up to k = 128 where a lane loads more than one vector of k)
    outputs per lane group. With a pattern file, f32 tiles of 32 from 50688
    nonzeros (12 tiles per SM of a 132-SM GPU) take the entries by column panels
    (`column_panel`: 128 columns where a row of `B` takes 1 KB or less,
    else 64, twice that for patterns of 16 times as many rows as columns;
    twice the lanes per output while a lane keeps 16 elements of `k` (8
    lanes at least), one block per SM) where each row holds 3 entries or
    more per panel on average (counted over the 64 x 64 blocks that hold
    entries) and `B` spans two panels or more,
    so that each SM's L1 serves the rows of `B` it gathers (the order is
    made on the generated code's first call). An SDDMM without `transpose_rhs` (`B[k, n]`)
    gets the schedule of the transposed form with `transpose_rhs_first`
    (`B` copied into `Bᵀ` by the kernel's host code first), unless a known
    pattern has fewer entries than a tenth of `B`'s columns: then one lane
    per output gathers `B`'s columns.
    The file holds the arrays the caller
    passes: a CSR matrix's, or for a CSC argument those of its transpose in
    CSR (so an `n x k` file for a `k x n` CSC argument: `x · Wᵀ` takes `W`'s
    own file). For dense × sparse the statistics are those of `Sᵀ`'s rows (a
    CSR `S`'s file is transposed to get them). A relative path is resolved against the
    directory of the function's MLIR file, else the current directory. A
    file that cannot be read, a malformed file (the reader's
    `file:line: message` is reported), a size mismatch, or a product no
    schedule of the kernel can run is an error and fails the pass.

    A `sopt.spmv` (f32 or f64) whose CSR matrix is such an argument gets
    `sopt.prepared_spmv`: the emitter runs it through the prepared SpMV
    (the hash-blocked or row-vector kernel, chosen from the pattern when
    its plan is made at the first call) instead of cuSPARSE. With
    `spmm=false` it keeps cuSPARSE.

    Before:

    ```mlir
    func.func @layer(%w: tensor<512x2048xf32, #CSR> {sopt.sparsity_pattern = "w.smtx"},
                     %x: tensor<2048x256xf32>) -> tensor<512x256xf32> {
      %y = sopt.spmm %w, %x : tensor<512x2048xf32, #CSR>, tensor<2048x256xf32> -> tensor<512x256xf32>
      return %y : tensor<512x256xf32>
    }
    ```

    After (`w.smtx` is a DLMC weight at 90 % sparsity, rows of 205 entries
    on average and up to 670):

    ```mlir
    %y = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 32,
        threads_per_tile = 32, tiles_per_block = 1, vector_width = 1,
        row_order = by_length, row_splits = 2>}
        : tensor<512x2048xf32, #CSR>, tensor<2048x256xf32> -> tensor<512x256xf32>
    ```
  }];
  let options = [
    Option<"spmm", "spmm", "bool", /*default=*/"true",
           "Schedule SpMM products too (false leaves them unscheduled, so "
           "that the CUDA emitter calls cuSPARSE for them)">
  ];
  let dependentDialects = ["::mlir::sopt::SOptDialect"];
}

def ScheduleGemm : Pass<"sopt-schedule-gemm"> {
  let summary = "Put f32 matrix products on the project's GEMM kernel";
  let description = [{
    Gives every f32 `sopt.matmul` without one a `schedule`
    (`#sopt.gemm_schedule`): the block tile, K step and K slices of the
    register-tiled GEMM (`sparse-opt/Runtime/Kernels/GemmSimt.cuh`), chosen
    by the runtime's rule `sopt::chooseGemmSchedule` from `M`, `N`, `K` and
    the GPU's multiprocessors (tile by `M`; no split when the 128 x 128
    tiles fill every SM; otherwise K slices up to about 8 blocks per SM,
    each at least 96 deep; see docs/benchmarks/gemm.md). The matrices of a
    batched product share one grid, so their tiles count together. A
    schedule set by hand is kept. Products the kernel does not take keep
    none and go to cuBLAS: f16/bf16, an empty result or `K = 0` (a fill),
    sizes past 2^31 - 1. In `sopt-pipeline` the pass runs only under its
    `gemm-kernel` option (`sparse-opt --gemm-kernel`): cuBLAS is the default
    while it is the faster of the two.

    Before:

    ```mlir
    %y = sopt.matmul %x, %w : tensor<128x768xf32>, tensor<768x768xf32> -> tensor<128x768xf32>
    ```

    After:

    ```mlir
    %y = sopt.matmul %x, %w {schedule = #sopt.gemm_schedule<block_m = 64,
        block_n = 128, k_step = 8, k_splits = 8>}
        : tensor<128x768xf32>, tensor<768x768xf32> -> tensor<128x768xf32>
    ```
  }];
  let dependentDialects = ["::mlir::sopt::SOptDialect"];
  let options = [
    Option<"smCount", "sm-count", "int64_t", /*default=*/"132",
           "Streaming multiprocessors of the target GPU">,
  ];
}

def FuseSparseEpilogues : Pass<"sopt-fuse-sparse-epilogues"> {
  let summary = "Run elementwise work on an SpMM, SDDMM or GEMM result inside its kernel";
  let description = [{
    **SpMM.** A scheduled `sopt.spmm` writes every output element once, from
    the registers that accumulated it. A `sopt.fusion` region with one
    elementwise group (no reduction) over the product's `[m, n]` shape, one
    result of the product's type, that reads the product only at the element
    it computes (bias, activation, scaling, residual add) and is the
    product's only user becomes the product's epilogue: the region is marked
    `sopt.sparse_epilogue = <input index>`, and the product moves right
    before it so that the region's other inputs are ready when the fused
    kernel starts. The CUDA emitter then launches one kernel for both and
    never stores the product. Run after sopt-propagate-mapping (the index
    maps tell where the product is read) and sopt-schedule-sparse (only
    scheduled products have kernels of our own).

    Before:

    ```mlir
    %y = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<...>} : ...
    %r = sopt.fusion ins(%y, %b : tensor<512x256xf32>, tensor<256xf32>) {
    ^bb0(%p: tensor<512x256xf32>, %bias: tensor<256xf32>):
      %bb = sopt.broadcast %bias dims = [1] {sopt.index_map = ...} : ...
      %z = sopt.add %p, %bb {sopt.index_map = (d0, d1) -> (d0, d1)} : ...
      %g = sopt.gelu %z {sopt.index_map = (d0, d1) -> (d0, d1)} : ...
      sopt.yield %g : tensor<512x256xf32>
    } -> tensor<512x256xf32>
    ```

    After: the same IR, the region marked `{sopt.sparse_epilogue = 0 : i64}`.

    **GEMM.** The same holds for an f32 `sopt.matmul` scheduled on the
    project's GEMM kernel (`#sopt.gemm_schedule`) with one K slice and no
    batch dimension, whose elements are stored once from registers; the
    region's result may have another float element type (a cast), converted
    at the store. A split-K product adds partial sums atomically and keeps
    its consumers as a kernel of their own.

    **SDDMM.** Elementwise ops on the stored entries of a CSR matrix (kept
    out of dense regions by sopt-form-fusion-regions) go into regions over
    stored entries:

    - *Epilogue.* The ops that follow an SDDMM one after another, each the
      only reader of the one before (the first reads the SDDMM's result),
      with the broadcasts and splat constants they read, become one region
      marked `sopt.sparse_epilogue = <input index of the product>`; the
      SDDMM moves right before it. Its kernel evaluates the region at each
      entry, with the entry's row and column for sampled dense operands.
    - *Scale prologue.* A dense operand of the SDDMM that is `x * s`, with
      `s` a splat constant or a broadcast one-element tensor (a bare
      `sopt.mul` or a dense region holding only it) read by nothing but the
      SDDMM, is replaced by `x`, and `s` multiplies the product instead, as
      the first op of the epilogue (tagged `sopt.sddmm_prologue = "lhs"` or
      `"rhs"`). The product is then rounded once more differently: the
      scale multiplies the f32 dot product instead of each element of `x`
      before it (exact when `s` is a power of two and nothing overflows).
    - Other ops on stored entries (their input is read twice, or is a
      function argument) get regions of their own, unmarked: the emitter
      runs them as a kernel over the stored entries.

    Before:

    ```mlir
    %c = sopt.constant dense<0.125> : tensor<512x64xf32>
    %qs = sopt.mul %q, %c : tensor<512x64xf32>
    %d = sopt.sddmm %qs, %k, %s transpose_rhs : ... -> tensor<512x512xf32, #CSR>
    %e = sopt.exp %d : tensor<512x512xf32, #CSR>
    %y = sopt.mul %e, %mask : tensor<512x512xf32, #CSR>, tensor<512x512xf32> -> tensor<512x512xf32, #CSR>
    ```

    After:

    ```mlir
    %d = sopt.sddmm %q, %k, %s transpose_rhs : ... -> tensor<512x512xf32, #CSR>
    %y = sopt.fusion ins(%d, %mask : tensor<512x512xf32, #CSR>, tensor<512x512xf32>)
        attributes {sopt.sparse_epilogue = 0 : i64} -> tensor<512x512xf32, #CSR> {
    ^bb0(%p: tensor<512x512xf32, #CSR>, %m: tensor<512x512xf32>):
      %c = sopt.constant dense<0.125> : tensor<512x512xf32>
      %x = sopt.mul %p, %c {sopt.sddmm_prologue = "lhs"} : ...
      %e = sopt.exp %x : tensor<512x512xf32, #CSR>
      %r = sopt.mul %e, %m : ...
      sopt.yield %r : tensor<512x512xf32, #CSR>
    }
    ```
  }];
  let dependentDialects = ["::mlir::sopt::SOptDialect"];
}

def FuseSparseAttention : Pass<"sopt-fuse-sparse-attention"> {
  let summary = "Fold SDDMM, softmax over stored entries and SpMM into sparse attention";
  let description = [{
    Attention restricted to a CSR pattern, written as its three steps —
    `sopt.sddmm` of Q and K (transpose_rhs) at the pattern, optionally
    times a splat constant (the scale), `sopt.softmax` over each row's
    stored entries, `sopt.spmm` of the probabilities with V — becomes one
    `sopt.sparse_attention`, which the runtime computes in one kernel
    without writing the scores or probabilities. The scores and
    probabilities must have no other reader. A softmax over stored entries
    left outside such a chain is an error: nothing else computes it. Run
    before sopt-decompose-composites.

    Before:

    ```mlir
    %s = sopt.sddmm %q, %k, %pattern transpose_rhs
        : tensor<512x64xf32>, tensor<512x64xf32>, tensor<512x512xf32, #CSR> -> tensor<512x512xf32, #CSR>
    %c = sopt.constant dense<0.125> : tensor<512x512xf32>
    %x = sopt.mul %s, %c : tensor<512x512xf32, #CSR>, tensor<512x512xf32> -> tensor<512x512xf32, #CSR>
    %p = sopt.softmax %x dim = 1 : tensor<512x512xf32, #CSR>
    %o = sopt.spmm %p, %v : tensor<512x512xf32, #CSR>, tensor<512x64xf32> -> tensor<512x64xf32>
    ```

    After:

    ```mlir
    %o = sopt.sparse_attention %q, %k, %v, %pattern scale = 1.250000e-01
        : tensor<512x64xf32>, tensor<512x64xf32>, tensor<512x64xf32>,
          tensor<512x512xf32, #CSR> -> tensor<512x64xf32>
    ```
  }];
  let dependentDialects = ["::mlir::sopt::SOptDialect"];
}

def PrepareSparseEmission : Pass<"sopt-prepare-sparse-emission", "::mlir::ModuleOp"> {
  let summary = "Decide how every scheduled SpMM and SDDMM is launched, and hold the tables prepared from known patterns in the module";
  let description = [{
    Runs last, after `sopt-schedule-sparse`. Every scheduled `sopt.spmm` and
    `sopt.sddmm` gets `sopt.launch = #sopt.sparse_launch<...>`: what its
    launch does beyond the schedule, decided here rather than in the
    emitter — whether a dense × sparse kernel stores `Y` transposed itself
    or through a `Cᵀ` workspace and a tiled transpose, whether cuSPARSE
    transposes a CSR operand on every call, the workspaces (long rows'
    partial sums, `Bᵀ` for `transpose_rhs_first`, `B`'s TF32 planes), and
    the SDDMM tiles' warps and column-panel order as amended when no
    pattern is known.

    For a product whose sparse operand is a function argument with a
    `sopt.sparsity_pattern` file, the pass also reads the file (once per path; only a
    regular file of at most 4 GiB) and prepares, with the runtime's pattern
    functions (`sopt_csr_row_order`, `sopt_csr_row_segments`,
    `sopt_csr_column_windows`, `sopt_csr_occupied_blocks`,
    `sopt_csr_block_windows`, `sopt_csr_transpose`), exactly the tables the
    product's schedule launches with:

    - SpMM: the row order (`row_order = by_length`), the long rows'
      segments (`row_segment`; none when no row is that long) and, for a
      dense × CSR product, the pattern's transpose and the permutation of
      its values (the tables then describe `Sᵀ`, `transposed`);
    - SDDMM: the row order (gathered columns, `by_length`), the dense
      blocks' column windows, or the occupied blocks and their windows
      where launching only those pays (`dense_blocks`), the rows'
      positions (tiles: each entry's row and the column-panel order are
      made from them on the device);
    - `sopt.sparse_attention` (no schedule needed): its row plan, the rows
      split across a block and the others' order
      (`planSparseAttentionRows`, the runtime's rule; `split_rows` empty
      when no row is long).

    The tables go into one `sopt.pattern_tables` op before the function,
    which the product names with `sopt.pattern_tables = @name`; the CUDA
    emitter prints them and never opens a pattern file. A schedule that
    needs the pattern (`by_length`, `row_segment`) without one is an error
    here. A product that already has a `sopt.launch` is left alone, so the
    pass may run again on its own output.

    Before:

    ```mlir
    func.func @linear(%w: tensor<4x6xf32, #CSR> {sopt.sparsity_pattern = "w.smtx"},
                      %x: tensor<6x16xf32>) -> tensor<4x16xf32> {
      %y = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 16,
          threads_per_tile = 16, tiles_per_block = 4, vector_width = 1,
          row_order = by_length>} : ...
    ```

    After:

    ```mlir
    sopt.pattern_tables @linear_spmm0 of "/data/w.smtx" {cols = 6 : i64,
        nnz = 6 : i64, row_order = dense<[1, 3, 0, 2]> : tensor<4xi32>,
        rows = 4 : i64}
    func.func @linear(...) -> tensor<4x16xf32> {
      %y = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<...>,
                             sopt.launch = #sopt.sparse_launch<>,
                             sopt.pattern_tables = @linear_spmm0} : ...
    ```
  }];
  let options = [
    Option<"inlineTableLimit", "inline-table-limit", "int64_t", "64",
           "Tables of up to this many values are written inline (dense<...>), larger ones as dense_resource blobs">
  ];
  let dependentDialects = ["::mlir::sopt::SOptDialect"];
}

#endif // SPARSE_OPT_TRANSFORMS_PASSES_TD
