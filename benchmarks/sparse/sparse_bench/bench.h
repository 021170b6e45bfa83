//===- sparse_bench/bench.h - the benchmark of one matrix -------*- C++ -*-===//
//
// DeviceMatrix (a pattern on the device, with the tables the schedules
// need) and Bench, which measures every product of one matrix: ours under
// the heuristic's schedule (and, with --explore, a grid of others),
// cuSPARSE, and the dense cuBLAS baselines. The SpMM and SDDMM members are
// defined in bench_spmm.h and bench_sddmm.h.
//
// Part of sparse_bench.cu's program (SOPT_BENCH_UNIT 0 or 1): included once,
// in order, by that one translation unit, its definitions local to it (an
// anonymous namespace); not a header to include elsewhere.
//
//===----------------------------------------------------------------------===//

namespace {

// ----------------------------------------------------------------------------
// The benchmark
// ----------------------------------------------------------------------------

/// A table prepared once per pattern on the host, copied into `buffer`
/// and complete on the device when this returns: a copy from pageable
/// memory may return before its DMA lands, and the products run on a
/// non-blocking stream that does not wait for the legacy stream (a panel
/// order prepared right before its first call was once read half copied).
void uploadTable(DeviceBuffer &buffer, const std::vector<int32_t> &host) {
  buffer.allocate(std::max<size_t>(host.size(), 1) * sizeof(int32_t));
  CUDA_TRY(cudaMemcpy(buffer.get(), host.data(), host.size() * sizeof(int32_t),
                      cudaMemcpyHostToDevice));
  CUDA_TRY(cudaDeviceSynchronize());
}

/// A matrix's pattern on the device, shared by every product measured on it.
struct DeviceMatrix {
  int index = 0;
  int64_t rows = 0, cols = 0, nnz = 0;
  DeviceBuffer positions, coordinates, rowOrder;
  /// sopt_csr_column_windows for the SDDMM dense blocks of 32 and 64, the
  /// blocks of each size holding entries (sopt_csr_occupied_blocks) and
  /// their windows (sopt_csr_block_windows).
  /// (Their number is in `stats`.)
  DeviceBuffer windows32, windows64, occupied32, occupied64, blockWindows32, blockWindows64;
  /// sopt_csr_entry_rows for the SDDMM tiles of nonzeros.
  DeviceBuffer entryRows;
  sopt::SparsityStats stats;
  /// The pattern's positions, columns and row order on the host, for the
  /// SpMM long rows' segments and the SDDMM tiles' column-panel orders
  /// (prepared on first use per segment length or panel, not timed).
  std::vector<int32_t> hostPositions, hostCoordinates, hostOrder;
  std::map<int, DeviceBuffer> panelOrders;
  struct Segments {
    DeviceBuffer table, partials;
    int64_t count = 0, rows = 0;
  };
  std::map<int, Segments> segments;

  /// The long rows' segments of `entries` entries for n output columns
  /// (none when no row is that long).
  sopt::RowSegments rowSegments(int entries, int64_t n) {
    if (entries <= 0)
      return {};
    auto [at, added] = segments.try_emplace(entries);
    Segments &g = at->second;
    if (added) {
      g.count = sopt_csr_row_segments(hostPositions.data(), hostOrder.data(), rows, entries,
                                      &g.rows, nullptr);
      std::vector<int32_t> table(2 * g.count + g.rows + 1);
      sopt_csr_row_segments(hostPositions.data(), hostOrder.data(), rows, entries, &g.rows,
                            table.data());
      uploadTable(g.table, table);
    }
    // Grown only between products of different n: no call holds the old one.
    const size_t partials = size_t(g.count) * size_t(n) * sizeof(float);
    if (g.partials.bytes() < partials || !g.partials.get())
      g.partials.allocate(partials);
    if (g.count == 0)
      return {};
    return {g.table.as<int32_t>(), g.count, g.rows, entries, g.partials.as<float>()};
  }

  /// sopt_csr_panel_order for panels of `panel` columns (none for 0).
  const int32_t *panelOrder(int panel) {
    if (panel <= 0)
      return nullptr;
    auto [at, added] = panelOrders.try_emplace(panel);
    if (added) {
      std::vector<int32_t> order(static_cast<size_t>(nnz));
      sopt_csr_panel_order(hostPositions.data(), hostCoordinates.data(), rows, cols, panel,
                           order.data());
      uploadTable(at->second, order);
    }
    return at->second.as<int32_t>();
  }

  /// The windows the dense blocks read: the listed blocks' with `occupied`.
  const int32_t *columnWindows(int blockSize, const sopt::OccupiedBlocks &occupied) const {
    if (occupied.given())
      return (blockSize == 32 ? blockWindows32 : blockWindows64).as<int32_t>();
    return (blockSize == 32 ? windows32 : windows64).as<int32_t>();
  }
  /// Given, as the generated code gives it, only where some blocks of the
  /// shape are empty (and every block index fits int32).
  sopt::OccupiedBlocks occupiedBlocks(int blockSize) const {
    const int64_t count = blockSize == 32 ? stats.occupiedBlocks32 : stats.occupiedBlocks64;
    if (!sopt::launchesOccupiedBlocks(count, rows, cols, blockSize))
      return {};
    return {(blockSize == 32 ? occupied32 : occupied64).as<int32_t>(), count};
  }
};

std::string cusparseMessage(const char *what, cusparseStatus_t s) {
  return std::string(what) + ": " + cusparseGetErrorString(s);
}

class Bench {
public:
  Bench(const Options &o, Results &r, cudaStream_t stream, size_t l2Bytes)
      : o(o), results(r), stream(stream), timer(o, stream, l2Bytes) {
    CUSPARSE_TRY(cusparseCreate(&sparse));
    CUSPARSE_TRY(cusparseSetStream(sparse, stream));
    CUBLAS_TRY(cublasCreate(&blas));
    CUBLAS_TRY(cublasSetStream(blas, stream));
    // A workspace of our own, so that captured GEMMs allocate nothing.
    blasWorkspace.allocate(64u << 20);
    CUBLAS_TRY(cublasSetWorkspace(blas, blasWorkspace.get(), blasWorkspace.bytes()));
  }
  ~Bench() {
    cublasDestroy(blas);
    cusparseDestroy(sparse);
  }

  int cusparseVersion() {
    int v = 0;
    cusparseGetVersion(sparse, &v);
    return v;
  }
  int cublasVersion() {
    int v = 0;
    cublasGetVersion(blas, &v);
    return v;
  }

  /// Every product of one matrix; a line of ratios for the progress report.
  /// An error in one product (say, memory for the dense baseline) is
  /// recorded and the next product goes on, unless the device is broken.
  std::string run(DeviceMatrix &m, bool explore) {
    std::string line;
    auto add = [&](const char *op, const char *type, int64_t size, auto &&product) {
      std::string part;
      try {
        part = product();
      } catch (const BenchError &e) {
        if (deviceBroken())
          throw;
        part = std::string(op) + " " + type + " " + (op[1] == 'p' ? "n" : "k") +
               std::to_string(size) + " ERROR";
        std::fprintf(stderr, "sparse_bench: %s %s %lld on %s: %s\n", op, type,
                     (long long)size, results.matrices[m.index].name.c_str(), e.what());
        bool marked = false;
        for (Measurement &meas : results.measurements)
          if (meas.matrix == m.index && meas.op == op && meas.type == type &&
              meas.size == size && !meas.timing.ok && meas.error.empty()) {
            meas.error = e.what();
            marked = true;
          }
        if (!marked)
          results.measurements[record(m, op, type, size, "ours")].error = e.what();
      }
      line += (line.empty() ? "" : " | ") + part;
    };
    if (o.spmm)
      for (int64_t n : o.ns) {
        if (o.f32)
          add("spmm", "f32", n, [&] { return spmm<float>(m, n, explore); });
        if (o.f16)
          add("spmm", "f16", n, [&] { return spmm<__half>(m, n, explore); });
      }
    if (o.sddmm)
      for (int64_t k : o.ks) {
        if (o.f32)
          add("sddmm", "f32", k, [&] { return sddmm<float>(m, k, explore); });
        if (o.f16)
          add("sddmm", "f16", k, [&] { return sddmm<__half>(m, k, explore); });
      }
    if (o.sddmmAb)
      for (int64_t k : o.ks) {
        if (o.f32)
          add("sddmm_ab", "f32", k, [&] { return sddmm<float>(m, k, explore, false); });
        if (o.f16)
          add("sddmm_ab", "f16", k, [&] { return sddmm<__half>(m, k, explore, false); });
      }
    return line;
  }

private:
  uint64_t seedFor(const DeviceMatrix &m, int purpose) const {
    return o.seed * 0x100000001b3ull ^ (uint64_t(m.index) << 8) ^ uint64_t(purpose);
  }

  /// Appends a measurement; its index (the vector may grow later, so
  /// measurements are referred to by index).
  size_t record(const DeviceMatrix &m, const char *op, const char *type, int64_t size,
                const std::string &impl) {
    Measurement meas;
    meas.matrix = m.index;
    meas.op = op;
    meas.type = type;
    meas.size = size;
    meas.impl = impl;
    results.measurements.push_back(meas);
    return results.measurements.size() - 1;
  }

  /// Sets the check fields of `meas` from a relative error.
  void judge(Measurement &meas, double err, double tolerance, const std::string &reference) {
    meas.relErr = err;
    meas.tolerance = tolerance;
    meas.reference = reference;
    meas.check = err <= tolerance ? "ok" : "FAIL";
    if (meas.check == "FAIL") {
      results.checkFailed = true;
      std::fprintf(stderr,
                   "sparse_bench: CHECK FAILED: %s %s %s=%lld %s on %s: relative error %.3g "
                   "> %.0e (vs %s)\n",
                   meas.op.c_str(), meas.type.c_str(), meas.op == "spmm" ? "N" : "K",
                   (long long)meas.size, meas.impl.c_str(),
                   results.matrices[meas.matrix].name.c_str(), err, tolerance,
                   reference.c_str());
    }
  }

  static std::string ratioText(const Measurement *ours, const Measurement *peer,
                               const char *label) {
    if (!ours || !peer || !ours->timing.ok || !peer->timing.ok)
      return "";
    char text[64];
    std::snprintf(text, sizeof(text), " %.2fx %s", peer->timing.medianUs / ours->timing.medianUs,
                  label);
    return text;
  }

  // SpMM: C[m, n] = A[m, k] · B[k, n], A in CSR, B and C row-major
  // (bench_spmm.h).
  template <typename T> std::string spmm(DeviceMatrix &m, int64_t n, bool explore);
  template <typename T, typename MakeCall>
  void exploreSpmm(DeviceMatrix &m, int64_t n, const SpmmSchedule &heuristic,
                   MakeCall &oursWith, DeviceBuffer &out, const DeviceBuffer &ref,
                   double heuristicUs);

  template <typename Check>
  void exploreOne(ExploreRecord &r, ExploreSummary &sum, const Call &call, DeviceBuffer &out,
                  Check relErr, double tolerance) {
    ++sum.tried;
    poison(out.get(), out.bytes(), stream);
    std::string e = call(stream);
    if (!e.empty()) {
      r.status = "refused: " + e;
      return;
    }
    CUDA_TRY(cudaStreamSynchronize(stream));
    r.relErr = relErr();
    if (!(r.relErr <= tolerance)) {
      r.status = "FAIL";
      ++sum.failed;
      results.checkFailed = true;
      std::fprintf(stderr, "sparse_bench: CHECK FAILED (explore): %s %s %lld %s on %s: %.3g\n",
                   r.op.c_str(), r.type.c_str(), (long long)r.size, r.schedule.c_str(),
                   results.matrices[r.matrix].name.c_str(), r.relErr);
      return;
    }
    Timing t = timer.time(call);
    if (!t.ok) {
      r.status = "error: " + t.error;
      return;
    }
    r.status = "ok";
    r.medianUs = t.medianUs;
    ++sum.passed;
  }

  void reportExplore(const ExploreSummary &sum) {
    std::fprintf(stderr,
                 "  explore %s %s %s=%lld: %d schedules (%d failed); heuristic %s %.2f us, "
                 "best %s %.2f us (%.2fx)\n",
                 sum.op.c_str(), sum.type.c_str(), sum.op == "spmm" ? "N" : "K",
                 (long long)sum.size, sum.tried, sum.failed, sum.heuristicSchedule.c_str(),
                 sum.heuristicUs, sum.bestSchedule.c_str(), sum.bestUs,
                 sum.heuristicUs / sum.bestUs);
    results.exploreSummaries.push_back(sum);
  }

  // SDDMM: D = (A · Bᵀ) ⊙ S, A[m, k] and B[n, k] row-major, S (m x n) CSR;
  // without `transposeRhs` D = (A · B) ⊙ S with B[k, n] row-major (op
  // "sddmm_ab") (bench_sddmm.h).
  template <typename T>
  std::string sddmm(DeviceMatrix &m, int64_t kdim, bool explore, bool transposeRhs = true);

  struct SparseSddmm;

  const Options &o;
  Results &results;
  cudaStream_t stream;
  Timer timer;
  cusparseHandle_t sparse = nullptr;
  cublasHandle_t blas = nullptr;
  DeviceBuffer blasWorkspace;
};

} // namespace
