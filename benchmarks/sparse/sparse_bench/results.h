//===- sparse_bench/results.h - what a run records --------------*- C++ -*-===//
//
// The records a run collects: matrices, measurements, explored schedules and
// their summaries.
//
// Part of sparse_bench.cu's program (SOPT_BENCH_UNIT 0 or 1): included once,
// in order, by that one translation unit, its definitions local to it (an
// anonymous namespace); not a header to include elsewhere.
//
//===----------------------------------------------------------------------===//

namespace {

// ----------------------------------------------------------------------------
// Results
// ----------------------------------------------------------------------------

struct MatrixRecord {
  std::string name, path, error;
  int64_t rows = 0, cols = 0, nnz = 0;
  double sparsity = NAN;
  sopt_row_stats stats{};
  bool read = false, explored = false;
};

struct Measurement {
  int matrix = -1;
  std::string op, type; // "spmm"/"sddmm"/"sddmm_ab", "f32"/"f16"
  int64_t size = 0;     // N (SpMM) or K (SDDMM)
  std::string impl;     // ours, cusparse, cublas, cublas_tf32
  std::string schedule, scheduleJson;
  Timing timing;
  double relErr = NAN, relErrAfter = NAN, tolerance = NAN;
  std::string reference; // what the output was compared with
  std::string check;     // ok, FAIL, unchecked
  std::string error, note;
  bool usable() const { return timing.ok && check != "FAIL"; }
};

struct ExploreRecord {
  int matrix = -1;
  std::string op, type;
  int64_t size = 0;
  std::string schedule, scheduleJson;
  bool heuristic = false;
  double medianUs = NAN, relErr = NAN;
  std::string status; // ok, FAIL, refused, error
};

struct ExploreSummary {
  int matrix = -1;
  std::string op, type;
  int64_t size = 0;
  int tried = 0, passed = 0, failed = 0;
  std::string heuristicSchedule, heuristicScheduleJson;
  double heuristicUs = NAN;          // the main measurement
  double heuristicInGridUs = NAN;    // the same schedule timed within the grid
  std::string bestSchedule, bestScheduleJson;
  double bestUs = NAN;
};

struct Results {
  std::vector<MatrixRecord> matrices;
  std::vector<Measurement> measurements;
  std::vector<ExploreRecord> explored;
  std::vector<ExploreSummary> exploreSummaries;
  bool checkFailed = false;
  std::string fatal;
};

} // namespace
