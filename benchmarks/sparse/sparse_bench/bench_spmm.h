//===- sparse_bench/bench_spmm.h - measuring SpMM ---------------*- C++ -*-===//
//
// Bench::spmm: one SpMM of one matrix at one N, ours (the heuristic's
// schedule, and with --explore the grid) against cusparseSpMM and dense
// cuBLAS, every output checked against cuSPARSE's.
//
// Part of sparse_bench.cu's program (SOPT_BENCH_UNIT 0 or 1): included once,
// in order, by that one translation unit, its definitions local to it (an
// anonymous namespace); not a header to include elsewhere.
//
//===----------------------------------------------------------------------===//

namespace {

template <typename T> std::string Bench::spmm(DeviceMatrix &m, int64_t n, bool explore) {
  using Info = TypeInfo<T>;
  const int64_t rows = m.rows, k = m.cols, nnz = m.nnz;
  const char *type = Info::name;
  const size_t cBytes = size_t(rows) * n * sizeof(T);

  DeviceBuffer values(nnz * sizeof(T)), b(size_t(k) * n * sizeof(T));
  fillUniform(values.as<T>(), nnz, seedFor(m, 1), stream);
  fillUniform(b.as<T>(), k * n, seedFor(m, 2), stream);
  sopt::CsrMatrix<T> a;
  a.rows = rows;
  a.cols = k;
  a.nnz = nnz;
  a.positions = m.positions.as<int32_t>();
  a.coordinates = m.coordinates.as<int32_t>();
  a.values = values.as<T>();

  // --- ours: the schedule the compiler would choose for this matrix.
  const SpmmSchedule schedule = sopt::chooseSpmmSchedule(m.stats, n, sizeof(T));
  DeviceBuffer cOurs(cBytes);
  const int32_t *order = m.rowOrder.as<int32_t>();
  auto oursWith = [&](const SpmmSchedule &s) -> Call {
    const sopt::RowSegments segments = m.rowSegments(s.rowSegment, n);
    return [&, s, segments](cudaStream_t st) -> std::string {
      cudaError_t e =
          bench::oursSpmm<T>(s, a, b.as<T>(), n, cOurs.as<T>(), order, segments, st);
      return e == cudaSuccess ? "" : "sopt::runSpmm: " + cudaMessage(e);
    };
  };
  const Call ours = oursWith(schedule);

  // --- cuSPARSE: CSR times row-major dense, ALG_DEFAULT, f32 compute.
  DeviceBuffer cSparse(cBytes), sparseBuffer;
  sopt::CusparseCsr descA;
  sopt::CusparseDnMat descB, descC;
  const float alpha = 1.0f, beta = 0.0f;
  std::string sparseError, sparseNote;
  {
    cusparseStatus_t s = cusparseCreateCsr(
        &descA.descriptor, rows, k, nnz, m.positions.get(), m.coordinates.get(),
        values.get(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
        Info::cuda);
    if (s == CUSPARSE_STATUS_SUCCESS)
      s = cusparseCreateDnMat(&descB.descriptor, k, n, n, b.get(), Info::cuda,
                              CUSPARSE_ORDER_ROW);
    if (s == CUSPARSE_STATUS_SUCCESS)
      s = cusparseCreateDnMat(&descC.descriptor, rows, n, n, cSparse.get(), Info::cuda,
                              CUSPARSE_ORDER_ROW);
    size_t bytes = 0;
    if (s == CUSPARSE_STATUS_SUCCESS)
      s = cusparseSpMM_bufferSize(sparse, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                  CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, descA.descriptor,
                                  descB.descriptor, &beta, descC.descriptor, CUDA_R_32F,
                                  CUSPARSE_SPMM_ALG_DEFAULT, &bytes);
    if (s != CUSPARSE_STATUS_SUCCESS) {
      sparseError = cusparseMessage("cusparseSpMM set-up", s);
    } else {
      sparseBuffer.allocate(bytes);
      s = cusparseSpMM_preprocess(sparse, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                  CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, descA.descriptor,
                                  descB.descriptor, &beta, descC.descriptor, CUDA_R_32F,
                                  CUSPARSE_SPMM_ALG_DEFAULT, sparseBuffer.get());
      if (s != CUSPARSE_STATUS_SUCCESS)
        sparseNote = cusparseMessage("cusparseSpMM_preprocess (ignored)", s);
    }
  }
  const Call cusparse = [&](cudaStream_t) -> std::string {
    cusparseStatus_t s = cusparseSpMM(
        sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
        descA.descriptor, descB.descriptor, &beta, descC.descriptor, CUDA_R_32F,
        CUSPARSE_SPMM_ALG_DEFAULT, sparseBuffer.get());
    return s == CUSPARSE_STATUS_SUCCESS ? "" : cusparseMessage("cusparseSpMM", s);
  };

  // --- cuBLAS on A densified. Row-major C = A·B is column-major
  // Cᵀ = Bᵀ·Aᵀ: GEMM of (n x k)·(k x m) with B and A as stored.
  DeviceBuffer dense, cDense, cTf32;
  auto gemm = [&](cublasComputeType_t compute, DeviceBuffer *out) -> Call {
    return [&, compute, out](cudaStream_t) -> std::string {
      cublasStatus_t s = cublasGemmEx(blas, CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(rows),
                                      int(k), &alpha, b.get(), Info::cuda, int(n),
                                      dense.get(), Info::cuda, int(k), &beta, out->get(),
                                      Info::cuda, int(n), compute, CUBLAS_GEMM_DEFAULT);
      return s == CUBLAS_STATUS_SUCCESS
                 ? ""
                 : std::string("cublasGemmEx: ") + cublasGetStatusString(s);
    };
  };
  const bool withTf32 = std::is_same_v<T, float>;
  if (o.dense) {
    dense.allocate(size_t(rows) * k * sizeof(T));
    CUDA_TRY(cudaMemsetAsync(dense.get(), 0, dense.bytes(), stream));
    densifyKernel<T><<<gridFor(rows), 256, 0, stream>>>(
        a.positions, a.coordinates, a.values, rows, k, dense.as<T>());
    CUDA_TRY(cudaGetLastError());
    cDense.allocate(cBytes);
    if (withTf32)
      cTf32.allocate(cBytes);
  }
  const Call gemmPlain = gemm(CUBLAS_COMPUTE_32F, &cDense);
  const Call gemmTf32 = gemm(CUBLAS_COMPUTE_32F_FAST_TF32, &cTf32);

  // --- Check: one call of each on poisoned outputs.
  const size_t iOurs = record(m, "spmm", type, n, "ours");
  const size_t iSparse = record(m, "spmm", type, n, "cusparse");
  const size_t iDense = o.dense ? record(m, "spmm", type, n, "cublas") : SIZE_MAX;
  const size_t iTf32 =
      o.dense && withTf32 ? record(m, "spmm", type, n, "cublas_tf32") : SIZE_MAX;
  auto M = [&](size_t i) -> Measurement * {
    return i == SIZE_MAX ? nullptr : &results.measurements[i];
  };
  M(iOurs)->schedule = describe(schedule);
  M(iOurs)->scheduleJson = toJson(schedule);
  M(iSparse)->error = sparseError;
  M(iSparse)->note = sparseNote;

  struct Impl {
    size_t index;
    const Call *call;
    DeviceBuffer *out;
  };
  std::vector<Impl> impls = {{iOurs, &ours, &cOurs}};
  if (sparseError.empty())
    impls.push_back({iSparse, &cusparse, &cSparse});
  if (iDense != SIZE_MAX)
    impls.push_back({iDense, &gemmPlain, &cDense});
  if (iTf32 != SIZE_MAX)
    impls.push_back({iTf32, &gemmTf32, &cTf32});
  for (Impl &impl : impls) {
    if (impl.index == iOurs)
      poison(impl.out->get(), cBytes, stream);
    else
      poisonFinite(impl.out->get(), cBytes, stream);
    std::string e = (*impl.call)(stream);
    if (e.empty()) {
      cudaError_t ce = cudaStreamSynchronize(stream);
      if (ce != cudaSuccess)
        throw BenchError("after " + M(impl.index)->impl + ": " + cudaMessage(ce));
    }
    if (!e.empty())
      M(impl.index)->error = e;
  }
  // The reference: cuSPARSE's output, or the dense GEMM's if cuSPARSE
  // could not run.
  const DeviceBuffer *ref = nullptr;
  std::string refName;
  if (M(iSparse)->error.empty()) {
    ref = &cSparse;
    refName = "cusparse";
  } else if (M(iDense) && M(iDense)->error.empty()) {
    ref = &cDense;
    refName = "cublas";
  }
  const int64_t cCount = rows * n;
  auto check = [&](size_t i, const DeviceBuffer &out, double tol) {
    Measurement *meas = M(i);
    if (!meas || !meas->error.empty())
      return;
    if (ref == &out)
      meas->check = "reference";
    else if (!ref)
      meas->check = "unchecked";
    else
      judge(*meas, relativeError(out.as<T>(), ref->as<T>(), cCount, stream), tol, refName);
  };
  check(iSparse, cSparse, Info::tolerance);
  check(iOurs, cOurs, Info::tolerance);
  check(iDense, cDense, Info::tolerance);
  check(iTf32, cTf32, kTf32Tolerance);
  if (!ref) {
    M(iOurs)->check = "unchecked";
    results.checkFailed = true;
    std::fprintf(stderr, "sparse_bench: CHECK IMPOSSIBLE: spmm %s N=%lld on %s: no reference ran\n",
                 type, (long long)n, results.matrices[m.index].name.c_str());
  }

  // --- Time.
  for (Impl &impl : impls) {
    Measurement *meas = M(impl.index);
    if (!meas->error.empty())
      continue;
    if (impl.index == iOurs)
      poison(cOurs.get(), cBytes, stream);
    meas->timing = timer.time(*impl.call);
    if (!meas->timing.ok && meas->error.empty())
      meas->error = meas->timing.error;
  }
  // Our output as the timed launches left it.
  if (M(iOurs)->timing.ok && ref)
    M(iOurs)->relErrAfter = relativeError(cOurs.as<T>(), ref->as<T>(), cCount, stream);
  if (M(iOurs)->timing.ok && ref && !(M(iOurs)->relErrAfter <= Info::tolerance)) {
    M(iOurs)->check = "FAIL";
    results.checkFailed = true;
    std::fprintf(stderr, "sparse_bench: CHECK FAILED after timing: spmm %s N=%lld on %s: %.3g\n",
                 type, (long long)n, results.matrices[m.index].name.c_str(),
                 M(iOurs)->relErrAfter);
  }

  // --- Explore other schedules of ours.
  if (explore && ref)
    exploreSpmm<T>(m, n, schedule, oursWith, cOurs, *ref, M(iOurs)->timing.medianUs);

  char head[64];
  std::snprintf(head, sizeof(head), "spmm %s n%lld ours", type, (long long)n);
  std::string text = head;
  text += ratioText(M(iOurs), M(iSparse), "cuSPARSE");
  text += ratioText(M(iOurs), M(iDense), withTf32 ? "SGEMM" : "HGEMM");
  text += ratioText(M(iOurs), M(iTf32), "TF32");
  if (M(iOurs)->check == "FAIL")
    text += " CHECK FAILED";
  if (!M(iOurs)->error.empty())
    text += " ERROR";
  return text;
}

template <typename T, typename MakeCall>
void Bench::exploreSpmm(DeviceMatrix &m, int64_t n, const SpmmSchedule &heuristic,
                        MakeCall &oursWith, DeviceBuffer &out, const DeviceBuffer &ref,
                        double heuristicUs) {
  using Info = TypeInfo<T>;
  ExploreSummary sum;
  sum.matrix = m.index;
  sum.op = "spmm";
  sum.type = Info::name;
  sum.size = n;
  sum.heuristicSchedule = describe(heuristic);
  sum.heuristicScheduleJson = toJson(heuristic);
  sum.heuristicUs = heuristicUs;
  const int64_t count = m.rows * n;
  // Row tiles in the order the heuristic would give them, their long
  // rows in the heuristic's segments (a hub row left whole sets every
  // schedule's time).
  // With --explore-segments, the unsplit row tiles once per listed
  // segment length instead (rows by length: segments need the order).
  const SpmmSchedule rowTiles = sopt::chooseSpmmRowTiles(m.stats, n, sizeof(T));
  std::vector<RowOrder> orders = o.exploreRowOrders;
  if (orders.empty())
    orders.push_back(rowTiles.rowOrder);
  std::vector<SpmmSchedule> candidates;
  for (size_t i = 0; i < orders.size(); ++i)
    for (const SpmmSchedule &s : spmmGrid(n, sizeof(T), orders[i]))
      // (The dense blocks take no row order: once.)
      if (i == 0 || s.tiling != sopt::SpmmTiling::DenseBlocks)
        candidates.push_back(s);
  std::vector<SpmmSchedule> grid;
  for (SpmmSchedule s : candidates) {
    if (s.tiling != sopt::SpmmTiling::RowTiles) {
      grid.push_back(s);
    } else if (o.exploreSegments.empty()) {
      if (s.rowOrder == RowOrder::ByLength)
        s.rowSegment = rowTiles.rowSegment;
      grid.push_back(s);
    } else if (s.rowSplits == 1 && s.tileOrder == sopt::TileOrder::ByRow) {
      s.rowOrder = RowOrder::ByLength;
      for (int segment : o.exploreSegments) {
        s.rowSegment = segment;
        if (sopt::checkSpmmSchedule(s, n, sizeof(T)).empty())
          grid.push_back(s);
      }
    }
  }
  for (const SpmmSchedule &s : grid) {
    ExploreRecord r;
    r.matrix = m.index;
    r.op = "spmm";
    r.type = Info::name;
    r.size = n;
    r.schedule = describe(s);
    r.scheduleJson = toJson(s);
    r.heuristic = sameSchedule(s, heuristic);
    exploreOne(r, sum, oursWith(s), out, [&] {
      return relativeError(out.as<T>(), ref.as<T>(), count, stream);
    }, Info::tolerance);
    if (r.status == "ok" && (std::isnan(sum.bestUs) || r.medianUs < sum.bestUs)) {
      sum.bestUs = r.medianUs;
      sum.bestSchedule = r.schedule;
      sum.bestScheduleJson = r.scheduleJson;
    }
    if (r.heuristic)
      sum.heuristicInGridUs = r.medianUs;
    results.explored.push_back(r);
  }
  reportExplore(sum);
}

} // namespace
