//===- sparse_bench/bench_sddmm.h - measuring SDDMM -------------*- C++ -*-===//
//
// Bench::sddmm: one SDDMM of one matrix at one K, ours (the heuristic's
// schedule, and with --explore the grid) against cusparseSDDMM and dense
// cuBLAS, every output checked against cuSPARSE's; and Bench::SparseSddmm,
// cusparseSDDMM's descriptors and buffer for one pattern.
//
// Part of sparse_bench.cu's program (SOPT_BENCH_UNIT 0 or 1): included once,
// in order, by that one translation unit, its definitions local to it (an
// anonymous namespace); not a header to include elsewhere.
//
//===----------------------------------------------------------------------===//

namespace {

/// cusparseSDDMM set up for one pattern and dense operands: descriptors,
/// buffer (allocated here, outside timing) and the preprocessing call.
/// The operands are described as the task states them first (A row-major
/// m x k not transposed; B row-major n x k transposed, or with
/// `transposeRhs` false k x n not transposed); if cuSPARSE refuses that,
/// the same memory described column-major (Aᵀ k x m transposed; Bᵀ k x n
/// not transposed, or n x k transposed).
struct Bench::SparseSddmm {
  Bench &bench;
  sopt::CusparseCsr descC;
  sopt::CusparseDnMat descA, descB;
  cusparseOperation_t opA = CUSPARSE_OPERATION_NON_TRANSPOSE,
                      opB = CUSPARSE_OPERATION_TRANSPOSE;
  DeviceBuffer out, buffer;
  std::string error, note;
  const float alpha = 1.0f, beta = 0.0f;

  SparseSddmm(Bench &b, DeviceMatrix &m, int64_t rows, int64_t n, int64_t k,
              cudaDataType type, void *lhs, void *rhs, bool transposeRhs)
      : bench(b) {
    const size_t elementBytes = type == CUDA_R_32F ? 4 : 2;
    out.allocate(m.nnz * elementBytes);
    // beta = 0, but C's old values must not be NaN should they be read.
    CUDA_TRY(cudaMemsetAsync(out.get(), 0, out.bytes(), b.stream));
    cusparseStatus_t s = cusparseCreateCsr(
        &descC.descriptor, rows, n, m.nnz, m.positions.get(), m.coordinates.get(), out.get(),
        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, type);
    if (s != CUSPARSE_STATUS_SUCCESS) {
      error = cusparseMessage("cusparseCreateCsr", s);
      return;
    }
    std::string firstError;
    for (int layout = 0; layout < 2; ++layout) {
      if (descA.descriptor)
        cusparseDestroyDnMat(descA.descriptor);
      if (descB.descriptor)
        cusparseDestroyDnMat(descB.descriptor);
      descA.descriptor = descB.descriptor = nullptr;
      const cusparseOperation_t same = CUSPARSE_OPERATION_NON_TRANSPOSE,
                                swapped = CUSPARSE_OPERATION_TRANSPOSE;
      if (layout == 0) {
        opA = same;
        opB = transposeRhs ? swapped : same;
        s = cusparseCreateDnMat(&descA.descriptor, rows, k, k, lhs, type, CUSPARSE_ORDER_ROW);
        if (s == CUSPARSE_STATUS_SUCCESS)
          s = transposeRhs ? cusparseCreateDnMat(&descB.descriptor, n, k, k, rhs, type,
                                                 CUSPARSE_ORDER_ROW)
                           : cusparseCreateDnMat(&descB.descriptor, k, n, n, rhs, type,
                                                 CUSPARSE_ORDER_ROW);
      } else {
        opA = swapped;
        opB = transposeRhs ? same : swapped;
        s = cusparseCreateDnMat(&descA.descriptor, k, rows, k, lhs, type, CUSPARSE_ORDER_COL);
        if (s == CUSPARSE_STATUS_SUCCESS)
          s = transposeRhs ? cusparseCreateDnMat(&descB.descriptor, k, n, k, rhs, type,
                                                 CUSPARSE_ORDER_COL)
                           : cusparseCreateDnMat(&descB.descriptor, n, k, n, rhs, type,
                                                 CUSPARSE_ORDER_COL);
      }
      size_t bytes = 0;
      if (s == CUSPARSE_STATUS_SUCCESS)
        s = cusparseSDDMM_bufferSize(bench.sparse, opA, opB, &alpha, descA.descriptor,
                                     descB.descriptor, &beta, descC.descriptor, CUDA_R_32F,
                                     CUSPARSE_SDDMM_ALG_DEFAULT, &bytes);
      if (s != CUSPARSE_STATUS_SUCCESS) {
        std::string e = cusparseMessage(
            layout == 0 ? (transposeRhs ? "cusparseSDDMM (row-major A, Bᵀ)"
                                        : "cusparseSDDMM (row-major A, B)")
                        : (transposeRhs ? "cusparseSDDMM (column-major Aᵀ, Bᵀ)"
                                        : "cusparseSDDMM (column-major Aᵀ, B)"),
            s);
        firstError += (firstError.empty() ? "" : "; ") + e;
        continue;
      }
      buffer.allocate(bytes);
      s = cusparseSDDMM_preprocess(bench.sparse, opA, opB, &alpha, descA.descriptor,
                                   descB.descriptor, &beta, descC.descriptor, CUDA_R_32F,
                                   CUSPARSE_SDDMM_ALG_DEFAULT, buffer.get());
      // Preprocessing is optional: without it cusparseSDDMM still runs.
      if (s != CUSPARSE_STATUS_SUCCESS)
        note = cusparseMessage("cusparseSDDMM_preprocess (ignored)", s);
      if (layout == 1)
        note += std::string(note.empty() ? "" : "; ") + "row-major operands refused (" +
                firstError + "); timed with the same memory described column-major";
      error.clear();
      return;
    }
    error = firstError;
  }

  std::string call(cudaStream_t) {
    cusparseStatus_t s =
        cusparseSDDMM(bench.sparse, opA, opB, &alpha, descA.descriptor, descB.descriptor,
                      &beta, descC.descriptor, CUDA_R_32F, CUSPARSE_SDDMM_ALG_DEFAULT,
                      buffer.get());
    return s == CUSPARSE_STATUS_SUCCESS ? "" : cusparseMessage("cusparseSDDMM", s);
  }
};

template <typename T>
std::string Bench::sddmm(DeviceMatrix &m, int64_t kdim, bool explore, bool transposeRhs) {
  using Info = TypeInfo<T>;
  const int64_t rows = m.rows, n = m.cols, nnz = m.nnz;
  const char *type = Info::name;
  const char *op = transposeRhs ? "sddmm" : "sddmm_ab";

  DeviceBuffer sValues(nnz * sizeof(T)), lhs(size_t(rows) * kdim * sizeof(T)),
      rhs(size_t(n) * kdim * sizeof(T));
  fillUniform(sValues.as<T>(), nnz, seedFor(m, 3), stream);
  fillUniform(lhs.as<T>(), rows * kdim, seedFor(m, 4), stream);
  fillUniform(rhs.as<T>(), n * kdim, seedFor(m, 5), stream);
  sopt::CsrMatrix<T> pattern;
  pattern.rows = rows;
  pattern.cols = n;
  pattern.nnz = nnz;
  pattern.positions = m.positions.as<int32_t>();
  pattern.coordinates = m.coordinates.as<int32_t>();
  pattern.values = sValues.as<T>();

  const SddmmSchedule schedule =
      sopt::chooseSddmmSchedule(m.stats, kdim, transposeRhs, sizeof(T));
  DeviceBuffer outOurs(nnz * sizeof(T));
  const int32_t *order = m.rowOrder.as<int32_t>();
  // The workspace a schedule can use (f32 64 x 64 blocks: B split once
  // per call), allocated once like cuSPARSE's buffer; the split itself
  // runs inside every timed call. Sized for any schedule --explore tries.
  SddmmSchedule widest;
  widest.tiling = sopt::SddmmTiling::DenseBlocks;
  widest.blockSize = 64;
  widest.kSplits = 1;
  widest.transposeRhsFirst = !transposeRhs;
  DeviceBuffer workspace(sopt::sddmmWorkspaceElements(widest, n, kdim, sizeof(T)) * sizeof(T));
  auto oursWith = [&](const SddmmSchedule &s) -> Call {
    const int32_t *panelOrder = m.panelOrder(s.columnPanel); // prepared here, not timed
    return [&, s, panelOrder](cudaStream_t st) -> std::string {
      T *scratch = sopt::sddmmWorkspaceElements(s, n, kdim, sizeof(T)) > 0
                       ? workspace.as<T>()
                       : nullptr;
      const sopt::OccupiedBlocks occupied =
          o.everyBlock ? sopt::OccupiedBlocks{} : m.occupiedBlocks(s.blockSize);
      cudaError_t e = bench::oursSddmm<T>(s, pattern, lhs.as<T>(), rhs.as<T>(), kdim,
                                          transposeRhs, outOurs.as<T>(), order,
                                          m.columnWindows(s.blockSize, occupied),
                                          m.entryRows.as<int32_t>(), scratch, occupied,
                                          panelOrder, st);
      return e == cudaSuccess ? "" : "sopt::runSddmm: " + cudaMessage(e);
    };
  };
  const Call ours = oursWith(schedule);

  // --- cuSPARSE. It computes alpha·(op(A)·op(B)) ∘ spy(C) + beta·C: the
  // sampled product without S's values (beta = 0); the check multiplies
  // its output by S's values.
  SparseSddmm cus(*this, m, rows, n, kdim, Info::cuda, lhs.get(), rhs.get(), transposeRhs);
  std::string sparseError = cus.error;

  const size_t iOurs = record(m, op, type, kdim, "ours");
  const size_t iSparse = record(m, op, type, kdim, "cusparse");
  auto M = [&](size_t i) { return &results.measurements[i]; };
  M(iOurs)->schedule = describe(schedule, transposeRhs);
  M(iOurs)->scheduleJson = toJson(schedule);
  M(iSparse)->error = sparseError;
  M(iSparse)->note = cus.note;

  // --- Check.
  poison(outOurs.get(), outOurs.bytes(), stream);
  if (std::string e = ours(stream); !e.empty())
    M(iOurs)->error = e;
  if (sparseError.empty()) {
    poisonFinite(cus.out.get(), cus.out.bytes(), stream);
    if (std::string e = cus.call(stream); !e.empty())
      M(iSparse)->error = sparseError = e;
  }
  // cuSPARSE's CSR SDDMM may not take f16 operands: then the reference
  // is cuSPARSE in f32 on the f16 inputs converted to f32.
  std::unique_ptr<SparseSddmm> f32Ref;
  DeviceBuffer lhs32, rhs32;
  if (!sparseError.empty() && !std::is_same_v<T, float>) {
    lhs32.allocate(size_t(rows) * kdim * sizeof(float));
    rhs32.allocate(size_t(n) * kdim * sizeof(float));
    toFloatKernel<T><<<gridFor(rows * kdim), 256, 0, stream>>>(lhs.as<T>(), lhs32.as<float>(),
                                                                rows * kdim);
    toFloatKernel<T><<<gridFor(n * kdim), 256, 0, stream>>>(rhs.as<T>(), rhs32.as<float>(),
                                                             n * kdim);
    CUDA_TRY(cudaGetLastError());
    f32Ref = std::make_unique<SparseSddmm>(*this, m, rows, n, kdim, CUDA_R_32F, lhs32.get(),
                                           rhs32.get(), transposeRhs);
    if (f32Ref->error.empty()) {
      poisonFinite(f32Ref->out.get(), f32Ref->out.bytes(), stream);
      if (std::string e = f32Ref->call(stream); !e.empty())
        f32Ref->error = e;
    }
  }
  CUDA_TRY(cudaStreamSynchronize(stream));
  std::function<double()> oursError;
  std::string refName;
  if (sparseError.empty()) {
    refName = "cusparse x S values";
    oursError = [&] {
      return relativeError(outOurs.as<T>(), cus.out.as<T>(), nnz, stream, sValues.as<T>());
    };
  } else if (f32Ref && f32Ref->error.empty()) {
    refName = "cusparse f32 (on the f16 inputs) x S values";
    oursError = [&] {
      return relativeError(outOurs.as<T>(), f32Ref->out.as<float>(), nnz, stream,
                           sValues.as<T>());
    };
  }
  if (M(iOurs)->error.empty()) {
    if (oursError) {
      judge(*M(iOurs), oursError(), Info::tolerance, refName);
    } else {
      M(iOurs)->check = "unchecked";
      results.checkFailed = true;
      std::fprintf(stderr,
                   "sparse_bench: CHECK IMPOSSIBLE: %s %s K=%lld on %s: no reference ran\n",
                   op, type, (long long)kdim, results.matrices[m.index].name.c_str());
    }
  }
  if (sparseError.empty())
    M(iSparse)->check = "reference";

  // --- Time.
  if (M(iOurs)->error.empty()) {
    poison(outOurs.get(), outOurs.bytes(), stream);
    M(iOurs)->timing = timer.time(ours);
    if (!M(iOurs)->timing.ok)
      M(iOurs)->error = M(iOurs)->timing.error;
    else if (oursError) {
      M(iOurs)->relErrAfter = oursError();
      if (!(M(iOurs)->relErrAfter <= Info::tolerance)) {
        M(iOurs)->check = "FAIL";
        results.checkFailed = true;
        std::fprintf(stderr,
                     "sparse_bench: CHECK FAILED after timing: %s %s K=%lld on %s: %.3g\n",
                     op, type, (long long)kdim, results.matrices[m.index].name.c_str(),
                     M(iOurs)->relErrAfter);
      }
    }
  }
  if (sparseError.empty()) {
    const Call call = [&](cudaStream_t st) { return cus.call(st); };
    M(iSparse)->timing = timer.time(call);
    if (!M(iSparse)->timing.ok)
      M(iSparse)->error = M(iSparse)->timing.error;
  }

  if (explore && oursError) {
    ExploreSummary sum;
    sum.matrix = m.index;
    sum.op = op;
    sum.type = type;
    sum.size = kdim;
    sum.heuristicSchedule = describe(schedule, transposeRhs);
    sum.heuristicScheduleJson = toJson(schedule);
    sum.heuristicUs = M(iOurs)->timing.medianUs;
    for (const SddmmSchedule &s : sddmmGrid(kdim, sizeof(T), transposeRhs)) {
      ExploreRecord r;
      r.matrix = m.index;
      r.op = op;
      r.type = type;
      r.size = kdim;
      r.schedule = describe(s, transposeRhs);
      r.scheduleJson = toJson(s);
      r.heuristic = sameSchedule(s, schedule);
      exploreOne(r, sum, oursWith(s), outOurs, oursError, Info::tolerance);
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

  char head[64];
  std::snprintf(head, sizeof(head), "%s %s k%lld ours", op, type, (long long)kdim);
  std::string text = head;
  text += ratioText(M(iOurs), M(iSparse), "cuSPARSE");
  if (!sparseError.empty() && f32Ref)
    text += " (cuSPARSE: no f16)";
  if (M(iOurs)->check == "FAIL")
    text += " CHECK FAILED";
  if (!M(iOurs)->error.empty())
    text += " ERROR";
  return text;
}

} // namespace
