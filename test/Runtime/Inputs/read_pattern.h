/* The C API tests' first argument: a sparse matrix file, read into `m`.
   Returns 0, or prints the reader's error and returns 1. */
#ifndef SOPT_TEST_READ_PATTERN_H
#define SOPT_TEST_READ_PATTERN_H

#include "sparse-opt/Runtime/Pattern/SparseIO.h"

#include <stdio.h>

static int readPattern(const char *path, sopt_csr *m) {
  char error[256];
  if (sopt_csr_read(path, m, error, sizeof(error)) != 0) {
    printf("error: %s\n", error);
    return 1;
  }
  return 0;
}

#endif
