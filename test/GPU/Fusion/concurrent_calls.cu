// The generated transformer block (cuBLAS matmuls, fused kernels, pooled
// temporaries) called from four host threads at once, each on a stream of
// its own: every call's output must equal, bit for bit, that of one call
// made alone. A cuBLAS handle shared by the threads would let one thread's
// products run on another's stream (out of order with the kernels that
// read them) and share one workspace between streams.
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/concurrent_calls | FileCheck %s
// CHECK-COUNT-4: thread {{[0-3]}}: 40 calls {{.*}} PASS
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "BlockInputs.h"

#include <cstring>
#include <string>
#include <thread>

using namespace harness;

namespace {
constexpr int kThreads = 4, kCalls = 40;
} // namespace

int main() {
  Report report;
  const BlockInputs in;
  const size_t th = BlockInputs::kOutput;
  Tensor<float> alone(th);
  auto call = [&](float *out, cudaStream_t stream) { return in.call(out, stream); };
  alone.poison();
  CHECK_CUDA(call(alone.device, cudaStream_t(0)));
  CHECK_CUDA(cudaDeviceSynchronize());
  alone.download();

  // Each thread: its own stream and output, kCalls calls back to back, the
  // output poisoned between calls so that a stale one cannot pass.
  std::vector<std::vector<float>> outputs(kThreads, std::vector<float>(th));
  std::vector<cudaError_t> status(kThreads, cudaSuccess);
  std::vector<int> mismatches(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      cudaStream_t stream = nullptr;
      float *out = nullptr;
      status[t] = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
      if (status[t] == cudaSuccess)
        status[t] = cudaMalloc(&out, th * sizeof(float));
      for (int i = 0; i < kCalls && status[t] == cudaSuccess; ++i) {
        status[t] = cudaMemsetAsync(out, 0xff, th * sizeof(float), stream);
        if (status[t] == cudaSuccess)
          status[t] = call(out, stream);
        if (status[t] == cudaSuccess)
          status[t] = cudaMemcpyAsync(outputs[t].data(), out, th * sizeof(float),
                                      cudaMemcpyDeviceToHost, stream);
        if (status[t] == cudaSuccess)
          status[t] = cudaStreamSynchronize(stream);
        if (status[t] == cudaSuccess)
          mismatches[t] += std::memcmp(outputs[t].data(), alone.host.data(),
                                       th * sizeof(float)) != 0;
      }
      cudaFree(out);
      if (stream)
        cudaStreamDestroy(stream);
    });
  for (std::thread &t : threads)
    t.join();
  for (int t = 0; t < kThreads; ++t) {
    if (status[t] != cudaSuccess)
      std::printf("thread %d: %s\n", t, cudaGetErrorString(status[t]));
    // The fraction of calls whose output differs from the lone call's.
    report.check("thread " + std::to_string(t) + ": " + std::to_string(kCalls) + " calls",
                 status[t] == cudaSuccess ? double(mismatches[t]) / kCalls : INFINITY, 0.0);
  }
  return report.exitCode();
}
