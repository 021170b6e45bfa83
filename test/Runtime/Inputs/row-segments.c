/* sopt_csr_row_segments from C (row-segments.test): for each segment
   length given after the file, the long rows (over sopt_csr_row_order's
   order), the number of segments and the table. */
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
  int32_t *order = malloc(sizeof(int32_t) * (size_t)(m.rows > 0 ? m.rows : 1));
  sopt_csr_row_order(m.positions, m.rows, order);
  for (int a = 2; a < argc; ++a) {
    const int32_t segment = (int32_t)atoi(argv[a]);
    int64_t longRows = -1;
    const int64_t count =
        sopt_csr_row_segments(m.positions, order, m.rows, segment, &longRows, NULL);
    const int64_t size = 2 * count + longRows + 1;
    int32_t *table = malloc(sizeof(int32_t) * (size_t)size);
    int64_t again = -1;
    const int64_t filled =
        sopt_csr_row_segments(m.positions, order, m.rows, segment, &again, table);
    printf("segment %d: %lld segments of %lld long rows (again %lld, %lld):", (int)segment,
           (long long)count, (long long)longRows, (long long)filled, (long long)again);
    for (int64_t i = 0; i < size; ++i)
      printf(" %d", table[i]);
    printf("\n");
    free(table);
  }
  free(order);
  sopt_csr_free(&m);
  return 0;
}
