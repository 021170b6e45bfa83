/* sopt_csr_column_windows, sopt_csr_occupied_blocks, sopt_csr_block_windows,
   sopt_csr_panel_order and sopt_csr_entry_rows from C (column-windows.test):
   prints each row's windows, the occupied blocks and their windows (four
   rows at most) and the entries in panel order for the block sizes given
   after the file, then every entry's row. */
#include "sparse-opt/Runtime/Pattern/RowOrder.h"
#include "sparse-opt/Runtime/Pattern/SparseIO.h"
#include "read_pattern.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  sopt_csr m;
  if (readPattern(argv[1], &m) != 0)
    return 1;
  for (int a = 2; a < argc; ++a) {
    const int64_t block = atoll(argv[a]);
    const int64_t size = sopt_csr_column_windows_size(m.rows, m.cols, block);
    int32_t *windows = malloc(sizeof(int32_t) * (size_t)(size > 0 ? size : 1));
    sopt_csr_column_windows(m.positions, m.coordinates, m.rows, m.cols, block, windows);
    printf("block %lld: %lld\n", (long long)block, (long long)size);
    const int64_t perRow = m.rows > 0 ? size / m.rows : 0;
    for (int64_t r = 0; r < m.rows; ++r) {
      printf("row %lld:", (long long)r);
      for (int64_t j = 0; j < perRow; ++j)
        printf(" %d", windows[r * perRow + j]);
      printf("\n");
    }
    free(windows);
    const int64_t occupied =
        sopt_csr_occupied_blocks(m.positions, m.coordinates, m.rows, m.cols, block, NULL);
    int32_t *blocks = malloc(sizeof(int32_t) * (size_t)(occupied > 0 ? occupied : 1));
    const int64_t listed =
        sopt_csr_occupied_blocks(m.positions, m.coordinates, m.rows, m.cols, block, blocks);
    printf("occupied %lld of %lld:", (long long)listed, (long long)block);
    for (int64_t i = 0; i < listed; ++i)
      printf(" %d", blocks[i]);
    printf("\n");
    /* Their windows, a block at a time: every row's first entry and end. */
    int32_t *bounds = malloc(sizeof(int32_t) * (size_t)(2 * block * (listed > 0 ? listed : 1)));
    sopt_csr_block_windows(m.positions, m.coordinates, m.rows, m.cols, block, blocks, listed,
                           bounds);
    for (int64_t i = 0; i < listed; ++i) {
      printf("block %d:", blocks[i]);
      for (int64_t r = 0; r < block && r < 4; ++r)
        printf(" %d-%d", bounds[2 * (i * block + r)], bounds[2 * (i * block + r) + 1]);
      printf("\n");
    }
    free(bounds);
    free(blocks);
    /* The entries by panels of `block` columns, each panel's in S's order. */
    int32_t *order = malloc(sizeof(int32_t) * (size_t)(m.nnz > 0 ? m.nnz : 1));
    sopt_csr_panel_order(m.positions, m.coordinates, m.rows, m.cols, block, order);
    printf("panel order %lld:", (long long)block);
    for (int64_t e = 0; e < m.nnz; ++e)
      printf(" %d", order[e]);
    printf("\n");
    free(order);
  }
  int32_t *rows = malloc(sizeof(int32_t) * (size_t)(m.nnz > 0 ? m.nnz : 1));
  sopt_csr_entry_rows(m.positions, m.rows, rows);
  printf("entry rows:");
  for (int64_t e = 0; e < m.nnz; ++e)
    printf(" %d", rows[e]);
  printf("\n");
  free(rows);
  printf("empty: %lld %lld\n", (long long)sopt_csr_column_windows_size(0, 5, 2),
         (long long)sopt_csr_column_windows_size(4, 5, 0));
  /* Block indices past int32 are refused before any array is read. */
  printf("occupied: %lld %lld\n",
         (long long)sopt_csr_occupied_blocks(NULL, NULL, 0, 5, 2, NULL),
         (long long)sopt_csr_occupied_blocks(NULL, NULL, 1LL << 40, 1LL << 40, 1, NULL));
  sopt_csr_free(&m);
  return 0;
}
