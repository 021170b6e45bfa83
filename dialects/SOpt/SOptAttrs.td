//===- SOptAttrs.td - thread mappings and memory plans -------*- tablegen -*-===//
//
// Attributes the fusion passes attach: how a fusion group's iteration space
// is laid onto threads and blocks, and where values live between the phases
// of a fused kernel.
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

#endif // SOPT_ATTRS_TD
