//===- OccupiedBlocks.cuh - grids over the blocks a pattern fills -*- CUDA -*-===//
//
// The dense-block SDDMMs (SddmmBlocks.cuh, SddmmDirect.cuh) give every
// output block of a pattern's shape a thread block, which returns at once
// when its rows hold no entry there. On a banded pattern most blocks are
// such: a sliding-window attention mask of 16 k tokens and a window of 257
// fills 1274 of 65536 blocks of 64 x 64, and launching and retiring the
// empty ones costs more than the products of the full ones. Given the list of
// occupied blocks (sopt_csr_occupied_blocks, once per pattern), the grid is
// that list instead: thread block i computes output block list[i], and
// reads its rows' column windows from a table of the listed blocks'
// (sopt_csr_block_windows) instead of every row's for every block.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_OCCUPIEDBLOCKS_CUH
#define SPARSE_OPT_RUNTIME_OCCUPIEDBLOCKS_CUH

#include <cstdint>
#include <cuda_runtime.h>

namespace sopt {

/// The output blocks that hold entries, as sopt_csr_occupied_blocks lists
/// them (row block * column blocks + column block, for the kernel's block
/// size), in device memory; `list` null: every block of the shape.
struct OccupiedBlocks {
  const int32_t *list = nullptr;
  int64_t count = 0;
  bool given() const { return list != nullptr; }
};

/// Which output block a thread block computes: row block, column block,
/// the column blocks of a row, and its index in the list of occupied blocks
/// (-1 when every block is launched).
struct BlockPlace {
  int64_t row, column, columns, listed;

  /// Where row `r` of the block (rows of `Rows`) finds the bounds of its
  /// entries in the block's columns: in sopt_csr_block_windows' table for a
  /// listed block, else in sopt_csr_column_windows' (row0: the block's
  /// first row).
  template <int Rows>
  __device__ __forceinline__ const int32_t *window(const int32_t *windows, int64_t row0,
                                                   int r) const {
    if (listed >= 0)
      return windows + 2 * (listed * Rows + r);
    return windows + (row0 + r) * (columns + 1) + column;
  }
};

/// This thread block's output block: list[blockIdx.x] when `occupied` is
/// given (a 1-D grid of the listed blocks), else (blockIdx.y, blockIdx.x)
/// of a grid of every block, `columns` wide.
__device__ __forceinline__ BlockPlace placeOfBlock(const int32_t *__restrict__ occupied,
                                                  int64_t columns) {
  if (!occupied)
    return {int64_t(blockIdx.y), int64_t(blockIdx.x), columns, -1};
  const int64_t index = occupied[blockIdx.x];
  return {index / columns, index % columns, columns, int64_t(blockIdx.x)};
}

/// The grid of a dense-block launch: the listed blocks, or rowBlocks x
/// colBlocks; `depth` thread blocks of one cluster per output block along z.
inline dim3 gridOfBlocks(const OccupiedBlocks &occupied, int64_t rowBlocks, int64_t colBlocks,
                         unsigned depth = 1) {
  if (occupied.given())
    return dim3(unsigned(occupied.count), 1, depth);
  return dim3(unsigned(colBlocks), unsigned(rowBlocks), depth);
}

} // namespace sopt

#endif // SPARSE_OPT_RUNTIME_OCCUPIEDBLOCKS_CUH
