//===- Harness.h - checking generated CUDA against float64 references -----===//
//
// The GPU tests call a host function that sparse-opt generated, on fresh
// random inputs and poisoned outputs, and compare every output with a float64
// reference computed here on the CPU (from the same rounded inputs) by
// ||out - ref|| / ||ref||. A NaN anywhere, e.g. an element the kernel never
// wrote, fails the check.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_TEST_GPU_HARNESS_H
#define SPARSE_OPT_TEST_GPU_HARNESS_H

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#define CHECK_CUDA(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,      \
                   cudaGetErrorString(err_));                                  \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

namespace harness {

inline double toDouble(float x) { return x; }
inline double toDouble(__half x) { return __half2float(x); }
inline double toDouble(__nv_bfloat16 x) { return __bfloat162float(x); }

template <typename T> T fromDouble(double x);
template <> inline float fromDouble<float>(double x) { return float(x); }
template <> inline __half fromDouble<__half>(double x) { return __float2half_rn(float(x)); }
template <> inline __nv_bfloat16 fromDouble<__nv_bfloat16>(double x) {
  return __float2bfloat16_rn(float(x));
}

/// Relative error a storage type may show: f32 rounding of the result, or
/// one rounding of the output to 16 bits (inputs are already rounded).
template <typename T> double tolerance();
template <> inline double tolerance<float>() { return 1e-5; }
template <> inline double tolerance<__half>() { return 2e-3; }
template <> inline double tolerance<__nv_bfloat16>() { return 1.6e-2; }

inline std::mt19937 &rng() {
  static std::mt19937 engine(std::random_device{}()); // fresh inputs every run
  return engine;
}

/// A device tensor with a host copy; `values` holds the host data widened
/// to double (exactly what the device sees).
template <typename T> struct Tensor {
  size_t size = 0;
  T *device = nullptr;
  std::vector<T> host;
  std::vector<double> values;

  explicit Tensor(size_t n) : size(n), host(n), values(n) {
    CHECK_CUDA(cudaMalloc(&device, std::max<size_t>(n, 1) * sizeof(T)));
  }
  Tensor(const Tensor &) = delete;
  ~Tensor() { cudaFree(device); }

  /// Uniform in [lo, hi), rounded to T, uploaded.
  void randomize(double lo = -1.0, double hi = 1.0) {
    std::uniform_real_distribution<double> dist(lo, hi);
    for (size_t i = 0; i < size; ++i) {
      host[i] = fromDouble<T>(dist(rng()));
      values[i] = toDouble(host[i]);
    }
    upload();
  }
  /// Element i set to x (rounded to T), uploaded.
  void set(size_t i, double x) {
    host[i] = fromDouble<T>(x);
    values[i] = toDouble(host[i]);
    upload();
  }
  /// Every element x (rounded to T), uploaded: a finite sentinel where a
  /// NaN poison would hide the NaN a test expects.
  void fill(double x) {
    const T rounded = fromDouble<T>(x);
    std::fill(host.begin(), host.end(), rounded);
    std::fill(values.begin(), values.end(), toDouble(rounded));
    upload();
  }
  /// `host` to the device (after changing it and `values` alike).
  void upload() {
    CHECK_CUDA(cudaMemcpy(device, host.data(), size * sizeof(T), cudaMemcpyHostToDevice));
  }
  /// All bytes 0xff: NaN in every float format.
  void poison() { CHECK_CUDA(cudaMemset(device, 0xff, size * sizeof(T))); }
  void download() {
    CHECK_CUDA(cudaMemcpy(host.data(), device, size * sizeof(T), cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < size; ++i)
      values[i] = toDouble(host[i]);
  }
};

/// ‖out − ref‖ / ‖scale‖, for sums whose exact value may cancel to near
/// zero (a single dot product of random signs): `scale` holds, per output,
/// the sum of its terms' magnitudes, to which the rounding error of a sum in
/// floating point is proportional. Infinite for a non-finite output.
inline double errorAgainstScale(const std::vector<double> &out, const std::vector<double> &ref,
                                const std::vector<double> &scale) {
  double err = 0, norm = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    if (!std::isfinite(out[i]))
      return INFINITY;
    err += (out[i] - ref[i]) * (out[i] - ref[i]);
    norm += scale[i] * scale[i];
  }
  return norm == 0 ? std::sqrt(err) : std::sqrt(err / norm);
}

/// ‖out − ref‖ / ‖ref‖ (infinite for a non-finite output).
inline double relativeError(const std::vector<double> &out,
                            const std::vector<double> &ref) {
  return errorAgainstScale(out, ref, ref);
}

/// A run whose inputs hold one special value (NaN, an infinity, or a
/// finite value so large that its products approach FLT_MAX) against the
/// float64 reference of the same inputs.
struct SpecialOutcome {
  /// Outputs whose class (NaN, +Inf, -Inf, finite) differs from the
  /// reference's, but for NaNs where the run may spread them.
  size_t misplaced = 0;
  /// The error of the finite outputs that read the special value and of
  /// all others, each against its terms' magnitudes (kept apart: sums near
  /// 1e38 would hide every other output's error).
  double readingError = 0, otherError = 0;
};

/// `reads(i)`: output i has the special value among its terms;
/// `mayBeNan(i)`: a NaN at output i is allowed where the reference is not
/// NaN, as the kernel under test documents it (docs/Sparse.md: a dense
/// block's stored zeros times B's infinity, the f32 blocks' TF32 split of
/// an infinity, the row tiles' padding beside an infinity the row reads).
template <typename Reads, typename MayBeNan>
SpecialOutcome compareWithSpecial(const std::vector<double> &out, const std::vector<double> &ref,
                                  const std::vector<double> &magnitude, Reads reads,
                                  MayBeNan mayBeNan) {
  SpecialOutcome outcome;
  std::vector<double> got[2], expected[2], scale[2];
  for (size_t i = 0; i < out.size(); ++i) {
    if (std::isfinite(ref[i]) && std::isfinite(out[i])) {
      const int group = reads(i) ? 0 : 1;
      got[group].push_back(out[i]);
      expected[group].push_back(ref[i]);
      scale[group].push_back(magnitude[i]);
      continue;
    }
    const bool sameClass = std::isnan(ref[i]) ? std::isnan(out[i]) : out[i] == ref[i];
    outcome.misplaced += !sameClass && !(std::isnan(out[i]) && mayBeNan(i));
  }
  outcome.readingError = errorAgainstScale(got[0], expected[0], scale[0]);
  outcome.otherError = errorAgainstScale(got[1], expected[1], scale[1]);
  return outcome;
}

/// The special values put in inputs: NaN, +Inf and, where the type holds
/// it, a value within 2^-12 of FLT_MAX (one that rounds up past FLT_MAX to
/// TF32 precision).
template <typename T> std::vector<double> specialValues() {
  std::vector<double> values{NAN, INFINITY};
  if (sizeof(T) == 4)
    values.push_back(std::nextafter(std::numeric_limits<float>::max(), 0.f));
  return values;
}

/// A special value as a check's name shows it.
inline std::string specialName(double x) {
  return std::isnan(x) ? "NaN" : std::isinf(x) ? "Inf" : "near FLT_MAX";
}

/// Counts failures; prints one line per check.
struct Report {
  int failures = 0;
  void check(const std::string &name, double err, double tol) {
    bool pass = err <= tol;
    std::printf("%-44s rel_err=%.3e tol=%.1e %s\n", name.c_str(), err, tol,
                pass ? "PASS" : "FAIL");
    failures += !pass;
  }
  int exitCode() const {
    std::printf("%s: %d failure(s)\n", failures ? "FAILED" : "PASSED", failures);
    return failures ? 1 : 0;
  }
};

/// `call(stream)` made inside a global stream capture on a stream of its
/// own, the graph replayed twice, then `call` made eagerly: true when every
/// step succeeded and the replays left `out` equal, bit for bit, to what
/// the eager call leaves. Prints the capture's status after `name`.
template <typename T, typename Call>
bool capturedCallEqualsEager(const std::string &name, Tensor<T> &out, Call call) {
  cudaGetLastError(); // an earlier case's error is not this one's
  cudaStream_t stream = nullptr;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  out.poison();
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  const cudaError_t captured = call(stream);
  const cudaError_t ended = cudaStreamEndCapture(stream, &graph);
  std::printf("%s: capture %s, end %s\n", name.c_str(), cudaGetErrorString(captured),
              cudaGetErrorString(ended));
  bool ok = captured == cudaSuccess && ended == cudaSuccess &&
            cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess;
  for (int i = 0; ok && i < 2; ++i)
    ok = cudaGraphLaunch(exec, stream) == cudaSuccess;
  ok = ok && cudaStreamSynchronize(stream) == cudaSuccess;
  std::vector<T> replayed;
  if (ok) {
    out.download();
    replayed = out.host;
    out.poison();
    ok = call(stream) == cudaSuccess && cudaStreamSynchronize(stream) == cudaSuccess;
  }
  if (ok) {
    out.download();
    ok = std::memcmp(replayed.data(), out.host.data(), replayed.size() * sizeof(T)) == 0;
  }
  if (exec)
    cudaGraphExecDestroy(exec);
  if (graph)
    cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
  return ok;
}

/// `host` copied to a new device allocation (at least one element, so that
/// an empty vector still gives a valid pointer); the caller frees it.
template <typename T> T *uploadVector(const std::vector<T> &host) {
  T *device = nullptr;
  CHECK_CUDA(cudaMalloc(&device, std::max<size_t>(host.size(), 1) * sizeof(T)));
  CHECK_CUDA(cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return device;
}

/// Runs a generated host function and waits for it.
template <typename Fn, typename... Args> void launch(Fn fn, Args... args) {
  CHECK_CUDA(fn(args..., cudaStream_t(0)));
  CHECK_CUDA(cudaDeviceSynchronize());
}

} // namespace harness

#endif // SPARSE_OPT_TEST_GPU_HARNESS_H
