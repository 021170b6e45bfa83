//===- limits.cu - what the GPU's memory paths and launches allow ---------===//
//
// Measures the ceilings the sparse kernels run against, on the GPU at hand:
// the SM clock under load, shared-memory read bandwidth (4, 8 and 16 bytes
// a lane, no bank conflicts), L2 read bandwidth (a buffer L2 holds, read
// past L1; and every block reading the same 128 KB, as the staged slices
// of B do), DRAM read bandwidth, the f32 FMA rate, and the time a launch
// costs in a CUDA graph (an empty kernel, as a dependent launch the way
// every runtime kernel goes, and plainly). bounds.py turns these into lower
// bounds per matrix (docs/benchmarks/sparse.md, "How far from the bound").
//
//   limits [--json PATH] [--samples N]
//
// Every figure is a median of CUDA-event timings (default 15 samples, after
// a warm-up); bandwidths count the bytes the kernels ask for.
//
//===----------------------------------------------------------------------===//

#include "sparse-opt/Runtime/Host/Launch.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

constexpr int kThreads = 1024;

#define CHECK(call)                                                                        \
  do {                                                                                     \
    cudaError_t status_ = (call);                                                          \
    if (status_ != cudaSuccess) {                                                          \
      std::fprintf(stderr, "limits: %s:%d: %s: %s\n", __FILE__, __LINE__, #call,           \
                   cudaGetErrorString(status_));                                           \
      std::exit(3);                                                                        \
    }                                                                                      \
  } while (0)

__device__ __forceinline__ uint64_t globalNanoseconds() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ unsigned fold(unsigned x) { return x; }
__device__ __forceinline__ unsigned fold(uint2 x) { return x.x ^ x.y; }
__device__ __forceinline__ unsigned fold(uint4 x) { return x.x ^ x.y ^ x.z ^ x.w; }
__device__ __forceinline__ void mix(unsigned &acc, unsigned x) { acc += x; }
__device__ __forceinline__ void mix(uint2 &acc, uint2 x) { acc.x += x.x, acc.y += x.y; }
__device__ __forceinline__ void mix(uint4 &acc, uint4 x) {
  acc.x += x.x, acc.y += x.y, acc.z += x.z, acc.w += x.w;
}

// Shared-memory loads that neither NVVM nor ptxas may hoist out of a loop
// or merge (the same addresses every loop): volatile asm alone leaves ptxas
// free to drop repeated plain loads, and the count then comes out four
// times what the hardware can read.
__device__ __forceinline__ void sharedLoad(unsigned address, unsigned &x) {
  asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(x) : "r"(address));
}
__device__ __forceinline__ void sharedLoad(unsigned address, uint2 &x) {
  asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(x.x), "=r"(x.y) : "r"(address));
}
__device__ __forceinline__ void sharedLoad(unsigned address, uint4 &x) {
  asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(x.x), "=r"(x.y), "=r"(x.z), "=r"(x.w)
               : "r"(address));
}

/// Shared-memory reads: each step, every lane reads one V next to its
/// neighbours' (a warp's request is whole wavefronts, no conflicts); eight
/// steps a loop at constant offsets, so the loop is loads and adds. Block
/// 0's thread 0 records the clocks and nanoseconds its loop took.
template <typename V>
__global__ void __launch_bounds__(kThreads) sharedReads(int loops, unsigned *sink,
                                                         long long *clock) {
  constexpr int kElements = 8 * kThreads;
  extern __shared__ __align__(16) unsigned char sharedBytes[];
  V *tile = reinterpret_cast<V *>(sharedBytes);
  unsigned *words = reinterpret_cast<unsigned *>(sharedBytes);
  for (int i = threadIdx.x; i < kElements * int(sizeof(V) / 4); i += kThreads)
    words[i] = i * 2654435761u;
  __syncthreads();
  const long long c0 = clock64();
  const uint64_t t0 = globalNanoseconds();
  V acc{};
  const unsigned mine = unsigned(__cvta_generic_to_shared(tile + threadIdx.x));
  for (int l = 0; l < loops; ++l) {
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      V x;
      sharedLoad(mine + j * kThreads * unsigned(sizeof(V)), x);
      mix(acc, x);
    }
  }
  const long long c1 = clock64();
  const uint64_t t1 = globalNanoseconds();
  if (fold(acc) == 0x9e3779b9u) // practically never: keeps the loads alive
    *sink = fold(acc);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    clock[0] = c1 - c0;
    clock[1] = static_cast<long long>(t1 - t0);
  }
}

/// Reads `vectors` 16-byte vectors from `data` past L1 (ld.global.cg), every
/// thread of the grid a strided share, `passes` times over.
__global__ void __launch_bounds__(kThreads) l2Reads(const uint4 *__restrict__ data,
                                                     int64_t vectors, int passes,
                                                     unsigned *sink) {
  uint4 acc{};
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int p = 0; p < passes; ++p)
#pragma unroll 8 // eight loads in flight before their adds
    for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < vectors; i += stride)
      mix(acc, __ldcg(data + i));
  if (fold(acc) == 0x9e3779b9u)
    *sink = fold(acc);
}

/// Every block reads all of `data` (`vectors` 16-byte vectors) past L1,
/// `passes` times: many SMs pulling the same lines, as the blocks of one
/// staged slice of B do.
__global__ void __launch_bounds__(kThreads) sameLineReads(const uint4 *__restrict__ data,
                                                          int64_t vectors, int passes,
                                                          unsigned *sink) {
  uint4 acc{};
  for (int p = 0; p < passes; ++p)
#pragma unroll 8
    for (int64_t i = threadIdx.x; i < vectors; i += blockDim.x)
      mix(acc, __ldcg(data + i));
  if (fold(acc) == 0x9e3779b9u)
    *sink = fold(acc);
}

/// Reads `vectors` 16-byte vectors once, streaming (most from DRAM when the
/// buffer is many times L2).
__global__ void __launch_bounds__(kThreads) dramReads(const uint4 *__restrict__ data,
                                                       int64_t vectors, unsigned *sink) {
  uint4 acc{};
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
#pragma unroll 8
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < vectors; i += stride)
    mix(acc, __ldcs(data + i));
  if (fold(acc) == 0x9e3779b9u)
    *sink = fold(acc);
}

/// Eight independent f32 FMA chains a thread, `loops` times 8 FMAs each.
__global__ void __launch_bounds__(kThreads) fmaChains(int loops, float seed, float *sink) {
  float x[8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
    x[i] = seed + i;
  for (int l = 0; l < loops; ++l)
#pragma unroll
    for (int i = 0; i < 8; ++i)
      x[i] = fmaf(x[i], 0.999f, 0.001f);
  float sum = 0.f;
#pragma unroll
  for (int i = 0; i < 8; ++i)
    sum += x[i];
  if (sum == 12345.f)
    *sink = sum;
}

/// The least a runtime kernel does: wait for the kernels before it.
__global__ void emptyKernel() { sopt::awaitPrecedingKernels(); }

struct Options {
  std::string json;
  int samples = 15;
};

Options parse(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--json" && i + 1 < argc) {
      o.json = argv[++i];
    } else if (arg == "--samples" && i + 1 < argc) {
      o.samples = std::atoi(argv[++i]);
      if (o.samples < 1) {
        std::fprintf(stderr, "limits: --samples wants a positive count, got '%s'\n", argv[i]);
        std::exit(2);
      }
    } else {
      std::fprintf(stderr, "usage: limits [--json PATH] [--samples N]\n");
      std::exit(2);
    }
  }
  return o;
}

/// Median milliseconds of `samples` runs of `work` (after one warm-up),
/// timed by events on the default stream.
float medianMs(int samples, const std::function<void()> &work) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  work();
  CHECK(cudaDeviceSynchronize());
  std::vector<float> ms(samples);
  for (float &m : ms) {
    CHECK(cudaEventRecord(start));
    work();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaEventElapsedTime(&m, start, stop));
  }
  CHECK(cudaGetLastError());
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  std::nth_element(ms.begin(), ms.begin() + samples / 2, ms.end());
  return ms[samples / 2];
}

/// Microseconds a launch of the empty kernel takes in a replayed graph of
/// `launches` launches (the benchmark's way of timing short calls).
double launchMicroseconds(int samples, bool dependent, int launches) {
  sopt::setDependentLaunch(dependent);
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaGraph_t graph;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  for (int i = 0; i < launches; ++i)
    CHECK(sopt::launchKernel(emptyKernel, dim3(1), dim3(32), 0, stream));
  CHECK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  constexpr int kReplays = 20;
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  std::vector<float> ms(samples);
  for (float &m : ms) {
    CHECK(cudaEventRecord(start, stream));
    for (int r = 0; r < kReplays; ++r)
      CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaEventRecord(stop, stream));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaEventElapsedTime(&m, start, stop));
  }
  std::nth_element(ms.begin(), ms.begin() + samples / 2, ms.end());
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaStreamDestroy(stream));
  sopt::setDependentLaunch(true);
  return 1e3 * ms[samples / 2] / (kReplays * launches);
}

struct Figure {
  std::string key, text;
  double value;
};

} // namespace

int main(int argc, char **argv) {
  const Options o = parse(argc, argv);
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    std::fprintf(stderr, "limits: no usable CUDA device\n");
    return 3;
  }
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, device));
  const int sms = prop.multiProcessorCount;
  std::printf("device: %s, %d SMs, sm_%d%d, L2 %d MB\n", prop.name, sms, prop.major, prop.minor,
              prop.l2CacheSize >> 20);

  unsigned *sink;
  long long *clock;
  CHECK(cudaMalloc(&sink, 64));
  CHECK(cudaMalloc(&clock, 2 * sizeof(long long)));
  std::vector<Figure> figures;
  auto report = [&](const std::string &key, double value, const std::string &text) {
    figures.push_back({key, text, value});
    std::printf("%-44s %s\n", key.c_str(), text.c_str());
  };

  // Shared memory, 4/8/16 bytes a lane: one block of 1024 threads an SM.
  double clockMhz = 0, sharedBest = 0;
  auto sharedRun = [&](auto kernel, int bytes, const char *key) {
    constexpr int kLoops = 4096;
    const size_t tileBytes = size_t(8) * kThreads * bytes;
    CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               int(tileBytes)));
    const float ms = medianMs(o.samples, [&] {
      kernel<<<sms, kThreads, tileBytes>>>(kLoops, sink, clock);
    });
    long long c[2];
    CHECK(cudaMemcpy(c, clock, sizeof c, cudaMemcpyDeviceToHost));
    const double mhz = 1e3 * double(c[0]) / double(c[1]);
    clockMhz = std::max(clockMhz, mhz);
    const double bytesRead = double(sms) * kThreads * kLoops * 8 * bytes;
    const double tbs = bytesRead / (ms * 1e-3) / 1e12;
    // Per clock from the loop's own clocks (the launch ramp left out).
    const double perClock = double(kThreads) * kLoops * 8 * bytes / double(c[0]);
    sharedBest = std::max(sharedBest, tbs);
    char text[160];
    std::snprintf(text, sizeof text, "%.1f TB/s (%.1f B per clock and SM, clock %.0f MHz)", tbs,
                  perClock, mhz);
    report(key, tbs, text);
  };
  sharedRun(sharedReads<unsigned>, 4, "shared_read_4B_tbs");
  sharedRun(sharedReads<uint2>, 8, "shared_read_8B_tbs");
  sharedRun(sharedReads<uint4>, 16, "shared_read_16B_tbs");
  report("sm_clock_mhz", clockMhz, std::to_string(int(clockMhz + 0.5)) + " MHz under load");

  // Reads of a buffer of `bytes` (set once), `counted` bytes a launch.
  auto readRun = [&](int64_t bytes, double counted, const char *key, const char *what,
                     const std::function<void(const uint4 *)> &launch) {
    uint4 *data;
    CHECK(cudaMalloc(&data, bytes));
    CHECK(cudaMemset(data, 1, bytes));
    const float ms = medianMs(o.samples, [&] { launch(data); });
    const double tbs = counted / (ms * 1e-3) / 1e12;
    char text[96];
    std::snprintf(text, sizeof text, "%.2f TB/s (%s)", tbs, what);
    report(key, tbs, text);
    CHECK(cudaFree(data));
  };
  // L2: 16 MB (L2 holds it after the first pass), 8 passes a launch.
  constexpr int64_t kL2Bytes = 16 << 20;
  constexpr int kL2Passes = 8;
  readRun(kL2Bytes, double(kL2Bytes) * kL2Passes, "l2_read_tbs", "16 MB, past L1",
          [&](const uint4 *data) {
            l2Reads<<<sms * 2, kThreads>>>(data, kL2Bytes / 16, kL2Passes, sink);
          });
  // The same 128 KB read by a block on every SM, 16 passes.
  constexpr int64_t kSameBytes = 128 << 10;
  constexpr int kSamePasses = 16;
  readRun(kSameBytes, double(kSameBytes) * kSamePasses * sms, "l2_same_128k_read_tbs",
          "128 KB read by every SM, past L1", [&](const uint4 *data) {
            sameLineReads<<<sms, kThreads>>>(data, kSameBytes / 16, kSamePasses, sink);
          });
  // DRAM: 2 GB streamed once a launch.
  constexpr int64_t kDramBytes = int64_t(2) << 30;
  readRun(kDramBytes, double(kDramBytes), "dram_read_tbs", "2 GB streamed",
          [&](const uint4 *data) {
            dramReads<<<sms * 2, kThreads>>>(data, kDramBytes / 16, sink);
          });
  // f32 FMAs.
  {
    constexpr int kLoops = 1 << 14;
    const float ms = medianMs(o.samples, [&] {
      fmaChains<<<sms * 2, kThreads>>>(kLoops, 1.f, reinterpret_cast<float *>(sink));
    });
    const double tflops = 2.0 * sms * 2 * kThreads * kLoops * 8 / (ms * 1e-3) / 1e12;
    char text[96];
    std::snprintf(text, sizeof text, "%.1f TFLOP/s (%.0f FMAs per clock and SM at %.0f MHz)",
                  tflops, tflops * 1e12 / 2 / sms / (clockMhz * 1e6), clockMhz);
    report("f32_fma_tflops", tflops, text);
  }
  // Launches in a graph of four, as the benchmark replays short calls.
  {
    const double dependent = launchMicroseconds(o.samples, true, 4);
    const double plain = launchMicroseconds(o.samples, false, 4);
    char text[96];
    std::snprintf(text, sizeof text, "%.2f us (empty kernel, dependent launch, graph of 4)",
                  dependent);
    report("launch_us", dependent, text);
    std::snprintf(text, sizeof text, "%.2f us (the same launched plainly)", plain);
    report("launch_plain_us", plain, text);
  }

  if (!o.json.empty()) {
    FILE *f = std::fopen(o.json.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "limits: cannot write %s: %s\n", o.json.c_str(), std::strerror(errno));
      return 2;
    }
    std::fprintf(f, "{\n  \"device\": \"%s\",\n  \"sms\": %d,\n  \"sm\": \"sm_%d%d\"", prop.name,
                 sms, prop.major, prop.minor);
    for (const Figure &fig : figures)
      std::fprintf(f, ",\n  \"%s\": %.4g", fig.key.c_str(), fig.value);
    std::fprintf(f, "\n}\n");
    std::fclose(f);
  }
  CHECK(cudaFree(sink));
  CHECK(cudaFree(clock));
  return 0;
}
