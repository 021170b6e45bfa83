//===- sopt-sparse-info.cpp - row statistics of sparse matrix files -------===//
//
// Prints, per file, the statistics a sparse schedule uses:
//
//   FILE: rows=R cols=C nnz=N empty_rows=E row_len_mean=M row_len_stddev=S
//         row_len_max=X
//
// (one line; the standard deviation is the population one, and a matrix
// without rows has mean, deviation and maximum 0). --csr also prints the CSR
// arrays. --schedules also prints the schedules sopt-schedule-sparse would
// give an SpMM `A · B` (A the file, B of --size columns) and an SDDMM
// `(A · Bᵀ) ⊙ S` (S the file, an inner dimension of --size) in --type, as
// the attributes to paste into the IR, and how many 64 x 64 blocks hold
// entries and the density the dense-block rules weigh
// (sopt::blockDensity):
//
//   spmm n=256 f32: #sopt.spmm_schedule<tile_columns = 128, ...>
//   sddmm k=256 f32: #sopt.sddmm_schedule<tiling = nonzeros, ...>
//   blocks 64x64: 94 of 1024 hold entries, 17.5 % dense
//
// A file that cannot be read gets its "<file>:<line>: <message>" on
// stderr; the others are still read, and the exit status is then 1. With more
// than 10 files, a progress line per file goes to stderr.
//
// Plain C++17 on SOptRuntime: no LLVM/MLIR.
//
//===----------------------------------------------------------------------===//

#include "sparse-opt/Runtime/Pattern/SparseIO.h"
#include "sparse-opt/Runtime/Schedule/SparseSchedule.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

void usage(FILE *stream) {
  std::fprintf(stream,
               "usage: sopt-sparse-info [--csr] [--schedules [--size=N] [--type=T]] FILE...\n"
               "  FILE         a Matrix Market (.mtx) or DLMC (.smtx) sparse matrix\n"
               "  --csr        also print the CSR arrays (positions, coordinates, "
               "values)\n"
               "  --schedules  also print the SpMM and SDDMM schedules the compiler "
               "chooses for the pattern\n"
               "  --size=N     the dense operands' columns (SpMM) / inner dimension "
               "(SDDMM) for them (default 256)\n"
               "  --type=T     their element type: f32 (default), f16 or bf16\n");
}

/// What --schedules prints them for.
struct ScheduleQuery {
  bool enabled = false;
  int64_t size = 256;
  const char *type = "f32";
  int elementBytes = 4;
};

void printSchedules(const sopt_csr &m, const ScheduleQuery &query) {
  const sopt::SparsityStats stats =
      sopt::sparsityStats(m.positions, m.coordinates, m.rows, m.cols);
  const sopt::SpmmSchedule spmm = sopt::chooseSpmmSchedule(stats, query.size, query.elementBytes);
  const sopt::SddmmSchedule sddmm =
      sopt::chooseSddmmSchedule(stats, query.size, /*transposeRhs=*/true, query.elementBytes);
  std::printf("  spmm n=%" PRId64 " %s: #sopt.spmm_schedule<%s>\n", query.size, query.type,
              sopt::formatSchedule(spmm).c_str());
  // A schedule the kernels cannot run (an f64 SDDMM of a k too long) is
  // printed with the reason, as the pass would report it.
  const std::string invalid =
      sopt::checkSddmmSchedule(sddmm, query.size, /*transposeRhs=*/true, query.elementBytes);
  std::printf("  sddmm k=%" PRId64 " %s: #sopt.sddmm_schedule<%s>%s%s\n", query.size,
              query.type, sopt::formatSchedule(sddmm).c_str(), invalid.empty() ? "" : " -- ",
              invalid.c_str());
  // What the dense-block rules weigh: a banded pattern fills few blocks,
  // densely.
  const int64_t blocks = (m.rows + 63) / 64 * ((m.cols + 63) / 64);
  if (stats.occupiedBlocks64 > 0)
    std::printf("  blocks 64x64: %" PRId64 " of %" PRId64 " hold entries, %.1f %% dense\n",
                stats.occupiedBlocks64, blocks, 100.0 * sopt::blockDensity(stats));
}

void printStatistics(const char *path, const sopt_csr &m) {
  int64_t emptyRows = 0, maxLength = 0;
  double mean = m.rows ? static_cast<double>(m.nnz) / m.rows : 0.0;
  double squares = 0;
  for (int64_t r = 0; r < m.rows; ++r) {
    int64_t length = m.positions[r + 1] - m.positions[r];
    emptyRows += length == 0;
    maxLength = std::max(maxLength, length);
    squares += (length - mean) * (length - mean);
  }
  double stddev = m.rows ? std::sqrt(squares / m.rows) : 0.0;
  std::printf("%s: rows=%" PRId64 " cols=%" PRId64 " nnz=%" PRId64
              " empty_rows=%" PRId64 " row_len_mean=%.4f "
              "row_len_stddev=%.4f row_len_max=%" PRId64 "\n",
              path, m.rows, m.cols, m.nnz, emptyRows, mean, stddev, maxLength);
}

void printArrays(const sopt_csr &m) {
  std::printf("  positions:");
  for (int64_t r = 0; r <= m.rows; ++r)
    std::printf(" %" PRId32, m.positions[r]);
  std::printf("\n  coordinates:");
  for (int64_t k = 0; k < m.nnz; ++k)
    std::printf(" %" PRId32, m.coordinates[k]);
  std::printf("\n  values:");
  for (int64_t k = 0; k < m.nnz; ++k)
    std::printf(" %g", m.values[k]);
  std::printf("\n");
}

} // namespace

int main(int argc, char **argv) {
  bool arrays = false;
  ScheduleQuery query;
  std::vector<const char *> files;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--csr")) {
      arrays = true;
    } else if (!std::strcmp(argv[i], "--schedules")) {
      query.enabled = true;
    } else if (!std::strncmp(argv[i], "--size=", 7)) {
      char *end = nullptr;
      const long long size = std::strtoll(argv[i] + 7, &end, 10);
      if (end == argv[i] + 7 || *end != '\0' || size < 1 || size > (1ll << 30)) {
        std::fprintf(stderr, "sopt-sparse-info: --size expects an integer from 1 to 2^30, "
                             "got '%s'\n", argv[i] + 7);
        return 2;
      }
      query.size = size;
    } else if (!std::strncmp(argv[i], "--type=", 7)) {
      const char *type = argv[i] + 7;
      if (!std::strcmp(type, "f32"))
        query.elementBytes = 4;
      else if (!std::strcmp(type, "f16") || !std::strcmp(type, "bf16"))
        query.elementBytes = 2;
      else {
        std::fprintf(stderr, "sopt-sparse-info: --type expects f32, f16 or bf16, got '%s'\n",
                     type);
        return 2;
      }
      query.type = type;
    } else if (!std::strcmp(argv[i], "-h") || !std::strcmp(argv[i], "--help")) {
      usage(stdout);
      return 0;
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      std::fprintf(stderr, "sopt-sparse-info: unknown option '%s'\n", argv[i]);
      usage(stderr);
      return 2;
    } else {
      files.push_back(argv[i]);
    }
  }
  if (files.empty()) {
    usage(stderr);
    return 2;
  }

  bool failed = false;
  char error[1024];
  for (size_t i = 0; i < files.size(); ++i) {
    if (files.size() > 10) {
      std::fprintf(stderr, "[%zu/%zu] %s\n", i + 1, files.size(), files[i]);
      std::fflush(stderr);
    }
    sopt_csr m;
    if (sopt_csr_read(files[i], &m, error, sizeof(error))) {
      std::fflush(stdout);
      std::fprintf(stderr, "%s\n", error);
      failed = true;
      continue;
    }
    printStatistics(files[i], m);
    if (arrays)
      printArrays(m);
    if (query.enabled)
      printSchedules(m, query);
    std::fflush(stdout);
    sopt_csr_free(&m);
  }
  return failed ? 1 : 0;
}
