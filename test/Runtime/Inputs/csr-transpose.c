/* Exercises sopt_csr_transpose from C (csr-transpose.test). */
#include "sparse-opt/Runtime/Pattern/CsrTranspose.h"
#include "read_pattern.h"

#include <stdio.h>

static void print(const char *name, const sopt_csr *m) {
  printf("%s: rows=%lld cols=%lld nnz=%lld\n", name, (long long)m->rows,
         (long long)m->cols, (long long)m->nnz);
  for (int64_t r = 0; r < m->rows; ++r) {
    printf("row %lld:", (long long)r);
    for (int32_t k = m->positions[r]; k < m->positions[r + 1]; ++k)
      printf(" (%d, %g)", m->coordinates[k], m->values[k]);
    printf("\n");
  }
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  sopt_csr m, t, back;
  if (readPattern(argv[1], &m) != 0)
    return 1;
  int32_t permutation[64];
  if (m.nnz > 64)
    return 1;
  printf("transpose %d\n", sopt_csr_transpose(&m, &t, permutation));
  print("t", &t);
  printf("permutation:");
  for (int64_t q = 0; q < t.nnz; ++q)
    printf(" %d", permutation[q]);
  printf("\n");
  /* Twice is the input again; no permutation is fine. */
  printf("back %d\n", sopt_csr_transpose(&t, &back, NULL));
  print("back", &back);

  /* Inconsistent input is refused and the result zeroed. */
  m.coordinates[0] = (int32_t)m.cols;
  sopt_csr bad;
  bad.rows = 99;
  int status = sopt_csr_transpose(&m, &bad, NULL);
  printf("bad %d: rows=%lld positions=%s\n", status, (long long)bad.rows,
         bad.positions ? "set" : "null");
  printf("null %d %d\n", sopt_csr_transpose(NULL, &bad, NULL),
         sopt_csr_transpose(&t, NULL, NULL));
  sopt_csr_free(&m);
  sopt_csr_free(&t);
  sopt_csr_free(&back);
  return 0;
}
