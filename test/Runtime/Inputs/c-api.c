/* Exercises the SparseIO C API from C (c-api.test). */
#include "sparse-opt/Runtime/Pattern/SparseIO.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  char error[256] = "untouched";
  sopt_csr m;

  /* A good file: the whole CSR, and the error buffer emptied. */
  int status = sopt_csr_read(argv[1], &m, error, sizeof(error));
  printf("read %d: rows=%lld cols=%lld nnz=%lld error='%s'\n", status,
         (long long)m.rows, (long long)m.cols, (long long)m.nnz, error);
  for (int64_t r = 0; r < m.rows; ++r) {
    printf("row %lld:", (long long)r);
    for (int32_t k = m.positions[r]; k < m.positions[r + 1]; ++k)
      printf(" (%d, %g)", m.coordinates[k], m.values[k]);
    printf("\n");
  }
  sopt_csr_free(&m);
  printf("freed: rows=%lld positions=%s\n", (long long)m.rows,
         m.positions ? "set" : "null");
  sopt_csr_free(&m); /* twice is fine */
  sopt_csr_free(NULL);

  /* A bad file: non-zero, the result zeroed, the message located. */
  m.rows = 99;
  status = sopt_csr_read(argv[2], &m, error, sizeof(error));
  printf("missing %d: rows=%lld positions=%s\n", status, (long long)m.rows,
         m.positions ? "set" : "null");
  printf("error: %s\n", error);

  /* A short buffer is truncated and stays NUL-terminated; no buffer at all
     is fine too. */
  char small[8];
  memset(small, 'x', sizeof(small));
  status = sopt_csr_read(argv[2], &m, small, sizeof(small));
  printf("small %d: '%s' (%zu)\n", status, small, strlen(small));
  printf("no buffer %d\n", sopt_csr_read(argv[2], &m, NULL, 0));
  printf("no path %d\n", sopt_csr_read(NULL, &m, error, sizeof(error)));
  printf("error: %s\n", error);
  return 0;
}
