//===- sparse_bench/schedule_grid.h - schedule grids ------------*- C++ -*-===//
//
// Schedules as text and JSON, and the grids of schedules --explore times for
// SpMM and SDDMM.
//
// Part of sparse_bench.cu's program (SOPT_BENCH_UNIT 0 or 1): included once,
// in order, by that one translation unit, its definitions local to it (an
// anonymous namespace); not a header to include elsewhere.
//
//===----------------------------------------------------------------------===//

namespace {

// ----------------------------------------------------------------------------
// Schedules as text
// ----------------------------------------------------------------------------

std::string describe(const SpmmSchedule &s) {
  if (s.tiling == sopt::SpmmTiling::DenseBlocks)
    return "dense_blocks" + std::to_string(s.blockRows) + "x" + std::to_string(s.tileColumns);
  if (s.tiling == sopt::SpmmTiling::StagedSlices)
    return "staged_slices" + std::to_string(s.tileColumns) + "/vw" +
           std::to_string(s.vectorWidth) + "/tpb" + std::to_string(s.tilesPerBlock) + "/" +
           sopt::rowOrderName(s.rowOrder);
  std::string text = "tpt" + std::to_string(s.threadsPerTile) + "/cpt" +
                     std::to_string(s.columnsPerThread()) + "/vw" +
                     std::to_string(s.vectorWidth) + "/tpb" +
                     std::to_string(s.tilesPerBlock) + "/" + sopt::rowOrderName(s.rowOrder);
  if (s.rowSplits > 1)
    text += "/split" + std::to_string(s.rowSplits);
  if (s.tileOrder == sopt::TileOrder::ByColumn)
    text += "/by_column";
  if (s.rowSegment > 0)
    text += "/seg" + std::to_string(s.rowSegment);
  return text;
}

std::string toJson(const SpmmSchedule &s) {
  if (s.tiling == sopt::SpmmTiling::DenseBlocks)
    return "{\"tiling\": \"dense_blocks\", \"block_rows\": " + std::to_string(s.blockRows) +
           ", \"tile_columns\": " + std::to_string(s.tileColumns) + "}";
  if (s.tiling == sopt::SpmmTiling::StagedSlices)
    return "{\"tiling\": \"staged_slices\", \"tile_columns\": " + std::to_string(s.tileColumns) +
           ", \"vector_width\": " + std::to_string(s.vectorWidth) +
           ", \"tiles_per_block\": " + std::to_string(s.tilesPerBlock) +
           ", \"row_order\": \"" + sopt::rowOrderName(s.rowOrder) + "\"}";
  return "{\"tile_columns\": " + std::to_string(s.tileColumns) +
         ", \"threads_per_tile\": " + std::to_string(s.threadsPerTile) +
         ", \"columns_per_thread\": " + std::to_string(s.columnsPerThread()) +
         ", \"vector_width\": " + std::to_string(s.vectorWidth) +
         ", \"tiles_per_block\": " + std::to_string(s.tilesPerBlock) +
         ", \"threads_per_block\": " + std::to_string(s.threadsPerBlock()) +
         ", \"row_order\": \"" + sopt::rowOrderName(s.rowOrder) + "\"" +
         ", \"row_splits\": " + std::to_string(s.rowSplits) + ", \"tile_order\": \"" +
         (s.tileOrder == sopt::TileOrder::ByColumn ? "by_column" : "by_row") + "\"" +
         ", \"row_segment\": " + std::to_string(s.rowSegment) + "}";
}

std::string describe(const SddmmSchedule &s, bool transposeRhs = true) {
  // (A · B) ⊙ S: "bt+" when B is transposed first, "gather/..." otherwise.
  const std::string first = s.transposeRhsFirst ? "bt+" : "";
  if (!transposeRhs && !s.transposeRhsFirst)
    return "gather/tpb" + std::to_string(s.tilesPerBlock) + "/" +
           sopt::rowOrderName(s.rowOrder);
  if (s.tiling == sopt::SddmmTiling::DenseBlocks)
    return first + "dense_blocks" + std::to_string(s.blockSize) +
           (s.kSplits > 1 ? "/k_splits" + std::to_string(s.kSplits) : "");
  return first + "tpn" + std::to_string(s.threadsPerNonzero) + "/tile" +
         std::to_string(s.tileNonzeros) + "/vw" + std::to_string(s.vectorWidth) + "/tpb" +
         std::to_string(s.tilesPerBlock) + "/" + sopt::rowOrderName(s.rowOrder) +
         (s.columnPanel > 0 ? "/panel" + std::to_string(s.columnPanel) : "");
}

std::string toJson(const SddmmSchedule &s) {
  const std::string first =
      s.transposeRhsFirst ? ", \"transpose_rhs_first\": true}" : "}";
  if (s.tiling == sopt::SddmmTiling::DenseBlocks)
    return "{\"tiling\": \"dense_blocks\", \"block_size\": " + std::to_string(s.blockSize) +
           ", \"k_splits\": " + std::to_string(s.kSplits) + first;
  return "{\"tiling\": \"nonzeros\", \"threads_per_nonzero\": " + std::to_string(s.threadsPerNonzero) +
         ", \"tile_nonzeros\": " + std::to_string(s.tileNonzeros) +
         ", \"vector_width\": " + std::to_string(s.vectorWidth) +
         ", \"tiles_per_block\": " + std::to_string(s.tilesPerBlock) +
         ", \"row_order\": \"" + sopt::rowOrderName(s.rowOrder) + "\"" +
         (s.columnPanel > 0 ? ", \"column_panel\": " + std::to_string(s.columnPanel) : "") +
         first;
}

/// The grid --explore times for SpMM: every schedule checkSpmmSchedule
/// accepts with 8..32 lanes per tile, 1..16 columns per lane, the widest
/// vector those allow, blocks of 64, 128 or 256 threads,
/// rows split 1..8 ways, both tile orders; rows in `order` (exploreSpmm
/// passes the heuristic's, or each of --explore-row-orders: the DLMC
/// sweeps never preferred rows in order where they differ);
/// the dense tensor-core blocks of 32 or 64 rows and columns; and
/// staged slices of B 16 to 128 columns wide (in chunks of k where needed), in vectors of
/// 1, 2 or 4 (4 to 32 lanes a row), blocks of 256 or 1024 threads.
std::vector<SpmmSchedule> spmmGrid(int64_t n, int elementBytes, RowOrder order) {
  std::vector<SpmmSchedule> grid;
  for (int columns : {16, 32, 64, 128})
    for (int vector : {1, 2, 4})
      for (int block : {256, sopt::kMaxStagedSliceThreads}) {
        SpmmSchedule s;
        s.tiling = sopt::SpmmTiling::StagedSlices;
        s.tileColumns = columns;
        s.vectorWidth = vector;
        s.threadsPerTile = columns / vector;
        s.tilesPerBlock = block / std::max(s.threadsPerTile, 1);
        s.rowOrder = order;
        if (sopt::checkSpmmSchedule(s, n, elementBytes).empty())
          grid.push_back(s);
      }
  for (int rows : {32, 64})
    for (int columns : {32, 64, 128}) {
      const SpmmSchedule blocks = sopt::spmmDenseBlocks(rows, columns);
      if (sopt::checkSpmmSchedule(blocks, n, elementBytes).empty())
        grid.push_back(blocks);
    }
  for (int threads : {8, 16, 32})
    for (int columns : {1, 2, 4, 8, 16})
      for (int vector : {1, 2, 4})
        for (int block : {64, 128, 256})
          for (int splits : {1, 2, 4, 8})
            for (sopt::TileOrder tiles : {sopt::TileOrder::ByRow, sopt::TileOrder::ByColumn}) {
              SpmmSchedule s;
              s.threadsPerTile = threads;
              s.tileColumns = threads * columns;
              s.vectorWidth = vector;
              s.rowSplits = splits;
              s.tilesPerBlock = block / (threads * splits);
              s.rowOrder = order;
              s.tileOrder = tiles;
              const int widest = std::min({columns, 16 / elementBytes,
                                           n % 4 == 0 ? 4 : n % 2 == 0 ? 2 : 1});
              if (vector == widest && s.tilesPerBlock >= 1 &&
                  sopt::checkSpmmSchedule(s, n, elementBytes).empty())
                grid.push_back(s);
            }
  return grid;
}

/// The grid for SDDMM (B transposed): 1..32 lanes per output, tiles of one
/// or two outputs per lane group or of 32 nonzeros (one output per lane,
/// the transposed butterfly), vectors of 1, 2 or 4, 2/4/8 warps per
/// block, either row order; those checkSddmmSchedule accepts; and the dense
/// tensor-core blocks of 32 x 32 and 64 x 64, k whole or split in two.
/// For (A · B) ⊙ S (not `transposeRhs`): the gather, in both row orders and
/// with 2-8 warps per block, and each of those with B transposed first.
std::vector<SddmmSchedule> sddmmGrid(int64_t k, int elementBytes, bool transposeRhs = true) {
  std::vector<SddmmSchedule> grid;
  if (!transposeRhs) {
    for (int warps : {2, 4, 8})
      for (RowOrder order : {RowOrder::Natural, RowOrder::ByLength}) {
        SddmmSchedule gather;
        gather.threadsPerNonzero = 1;
        gather.vectorWidth = 1;
        gather.tilesPerBlock = warps;
        gather.rowOrder = order;
        grid.push_back(gather);
      }
    for (SddmmSchedule s : sddmmGrid(k, elementBytes)) {
      s.transposeRhsFirst = true;
      grid.push_back(s);
    }
    return grid;
  }
  for (int side : {32, 64})
    for (int splits : {1, 2}) {
      SddmmSchedule blocks;
      blocks.tiling = sopt::SddmmTiling::DenseBlocks;
      blocks.blockSize = side;
      blocks.kSplits = splits;
      grid.push_back(blocks);
    }
  for (int threads : {1, 2, 4, 8, 16, 32}) {
    for (int tile : sopt::dispatchedSddmmTiles(threads))
      for (int vector : {1, 2, 4})
        for (int warps : {2, 4, 8})
          for (RowOrder order : {RowOrder::Natural, RowOrder::ByLength}) {
            SddmmSchedule s;
            s.threadsPerNonzero = threads;
            s.tileNonzeros = tile;
            s.vectorWidth = vector;
            s.tilesPerBlock = warps;
            s.rowOrder = order;
            if (sopt::checkSddmmSchedule(s, k, true, elementBytes).empty())
              grid.push_back(s);
          }
  }
  // Tiles of 32 taken by column panels, one block per SM of 16 or 32 warps.
  for (int threads : {8, 16, 32})
    for (int panel : {64, 128, 256})
      for (int warps : {16, 32}) {
        SddmmSchedule s;
        s.threadsPerNonzero = threads;
        s.tileNonzeros = 32;
        s.vectorWidth = std::min(4, 16 / elementBytes);
        s.tilesPerBlock = warps;
        s.columnPanel = panel;
        if (sopt::checkSddmmSchedule(s, k, true, elementBytes).empty())
          grid.push_back(s);
      }
  return grid;
}

bool sameSchedule(const SpmmSchedule &a, const SpmmSchedule &b) {
  if (a.tiling != b.tiling)
    return false;
  if (a.tiling == sopt::SpmmTiling::DenseBlocks)
    return a.blockRows == b.blockRows && a.tileColumns == b.tileColumns;
  if (a.tiling == sopt::SpmmTiling::StagedSlices)
    return a.tileColumns == b.tileColumns && a.vectorWidth == b.vectorWidth &&
           a.tilesPerBlock == b.tilesPerBlock && a.rowOrder == b.rowOrder;
  return a.tileColumns == b.tileColumns && a.threadsPerTile == b.threadsPerTile &&
         a.tilesPerBlock == b.tilesPerBlock && a.vectorWidth == b.vectorWidth &&
         a.rowOrder == b.rowOrder && a.rowSplits == b.rowSplits &&
         a.tileOrder == b.tileOrder && a.rowSegment == b.rowSegment;
}
bool sameSchedule(const SddmmSchedule &a, const SddmmSchedule &b) {
  if (a.tiling != b.tiling || a.transposeRhsFirst != b.transposeRhsFirst)
    return false;
  if (a.tiling == sopt::SddmmTiling::DenseBlocks)
    return a.blockSize == b.blockSize && a.kSplits == b.kSplits;
  return a.tileNonzeros == b.tileNonzeros && a.threadsPerNonzero == b.threadsPerNonzero &&
         a.tilesPerBlock == b.tilesPerBlock && a.vectorWidth == b.vectorWidth &&
         a.rowOrder == b.rowOrder && a.columnPanel == b.columnPanel;
}

} // namespace
