//===- sparse_bench/timer.h - timing one call -------------------*- C++ -*-===//
//
// Times one call of an implementation: CUDA-graph replays of a batch of
// launches, L2 flushed between samples, the median of the samples.
//
// Part of sparse_bench.cu's program (SOPT_BENCH_UNIT 0 or 1): included once,
// in order, by that one translation unit, its definitions local to it (an
// anonymous namespace); not a header to include elsewhere.
//
//===----------------------------------------------------------------------===//

namespace {

// ----------------------------------------------------------------------------
// Timing
// ----------------------------------------------------------------------------

/// One call of an implementation on `stream`; an empty string on success,
/// else what failed. Must only enqueue work (it may be captured in a graph).
using Call = std::function<std::string(cudaStream_t)>;

struct Timing {
  bool ok = false;
  std::string error;
  std::string mode; // "graph" or "stream"
  std::string note; // why a graph could not be used, if so
  int launches = 0; // calls per sample
  std::vector<double> samplesUs; // per-call time of each sample
  double medianUs = NAN, minUs = NAN, maxUs = NAN;
};

double median(std::vector<double> v) {
  if (v.empty())
    return NAN;
  std::sort(v.begin(), v.end());
  size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

class Timer {
public:
  Timer(const Options &o, cudaStream_t stream, size_t l2Bytes) : o(o), stream(stream) {
    if (o.flushL2)
      flush.allocate(std::max<size_t>(2 * l2Bytes, 64u << 20));
  }
  ~Timer() {
    for (cudaEvent_t e : events)
      cudaEventDestroy(e);
    destroyGraph();
  }

  Timing time(const Call &call) {
    Timing t;
    destroyGraph();
    // The first call: errors surface here, and module loading and library
    // set-up stay out of the samples.
    std::string error = call(stream);
    if (!error.empty()) {
      t.error = error;
      return t;
    }
    CUDA_TRY(cudaStreamSynchronize(stream));

    // Calls per sample: enough for a sample of at least minSampleUs (one
    // call per sample when the L2 is flushed before each).
    useGraph = o.graphs;
    int launches = 1, captured = 0;
    double sampleUs = 0;
    for (int attempt = 0;; ++attempt) {
      if (useGraph && captured != launches) {
        std::string why;
        if (capture(call, launches, why)) {
          captured = launches;
        } else {
          useGraph = false;
          t.note = "graph capture failed (" + why + "); timed direct launches";
        }
      }
      std::vector<double> trial;
      for (int r = 0; r < 3; ++r)
        trial.push_back(runSamples(call, launches, 1)[0]);
      sampleUs = median(trial);
      // (The samples below use the batch just measured.)
      if (o.flushL2 || sampleUs >= o.minSampleUs || launches >= o.maxLaunches || attempt >= 12)
        break;
      const double want = o.minSampleUs * 1.2 / std::max(sampleUs, 1e-3) * launches;
      launches = int(std::min<double>(o.maxLaunches,
                                      std::max<double>(2.0 * launches, std::ceil(want))));
    }
    // Warm-up, then the samples.
    const int warm =
        int(std::clamp(std::ceil(o.warmupUs / std::max(sampleUs, 1e-3)), 2.0, 1000.0));
    runSamples(call, launches, warm);
    std::vector<double> samples = runSamples(call, launches, o.samples);
    destroyGraph();
    for (double &s : samples)
      s /= launches;
    t.ok = true;
    t.mode = useGraph ? "graph" : "stream";
    t.launches = launches;
    t.samplesUs = samples;
    t.medianUs = median(samples);
    t.minUs = *std::min_element(samples.begin(), samples.end());
    t.maxUs = *std::max_element(samples.begin(), samples.end());
    return t;
  }

private:
  void destroyGraph() {
    if (exec)
      cudaGraphExecDestroy(exec);
    exec = nullptr;
  }

  /// Captures `launches` calls into `exec`; false (with the reason) when
  /// the calls cannot be captured.
  bool capture(const Call &call, int launches, std::string &why) {
    destroyGraph();
    cudaGraph_t graph = nullptr;
    cudaError_t e = cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
    if (e != cudaSuccess) {
      why = "cudaStreamBeginCapture: " + cudaMessage(e);
      cudaGetLastError();
      return false;
    }
    std::string error;
    for (int i = 0; i < launches && error.empty(); ++i)
      error = call(stream);
    e = cudaStreamEndCapture(stream, &graph);
    if (error.empty() && e == cudaSuccess && graph) {
      e = cudaGraphInstantiate(&exec, graph, 0);
      if (e != cudaSuccess) {
        exec = nullptr;
        error = "cudaGraphInstantiate: " + cudaMessage(e);
      }
    } else if (error.empty()) {
      error = "cudaStreamEndCapture: " + cudaMessage(e);
    }
    if (graph)
      cudaGraphDestroy(graph);
    cudaGetLastError(); // capture errors are not sticky
    if (!error.empty()) {
      why = error;
      return false;
    }
    return true;
  }

  void launchBatch(const Call &call, int launches) {
    if (useGraph) {
      CUDA_TRY(cudaGraphLaunch(exec, stream));
      return;
    }
    for (int i = 0; i < launches; ++i) {
      std::string error = call(stream);
      if (!error.empty())
        throw BenchError(error);
    }
  }

  /// `count` samples of `launches` calls each, enqueued back to back; the
  /// time of each sample in µs.
  std::vector<double> runSamples(const Call &call, int launches, int count) {
    while (events.size() < size_t(2 * count)) {
      cudaEvent_t e;
      CUDA_TRY(cudaEventCreate(&e));
      events.push_back(e);
    }
    for (int i = 0; i < count; ++i) {
      if (o.flushL2)
        CUDA_TRY(cudaMemsetAsync(flush.get(), i & 0xff, flush.bytes(), stream));
      CUDA_TRY(cudaEventRecord(events[2 * i], stream));
      launchBatch(call, launches);
      CUDA_TRY(cudaEventRecord(events[2 * i + 1], stream));
    }
    CUDA_TRY(cudaStreamSynchronize(stream));
    std::vector<double> us(count);
    for (int i = 0; i < count; ++i) {
      float ms = 0;
      CUDA_TRY(cudaEventElapsedTime(&ms, events[2 * i], events[2 * i + 1]));
      us[i] = 1000.0 * ms;
    }
    return us;
  }

  const Options &o;
  cudaStream_t stream;
  DeviceBuffer flush;
  std::vector<cudaEvent_t> events;
  cudaGraphExec_t exec = nullptr;
  bool useGraph = true;
};

} // namespace
