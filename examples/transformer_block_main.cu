// Runs the compiled example on a GPU: random inputs, one checked call, then
// the median of 50 timed calls. Built by `utils/dev.sh example` as
//   nvcc -I include -I <build>/examples transformer_block.cu transformer_block_main.cu -lcublas
#include "transformer_block.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(err_)); \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main() {
  // Argument sizes of @transformer_block, in order.
  const size_t sizes[] = {128 * 768, 768 * 768, 768 * 768, 768 * 768, 768 * 768,
                          768,       768,       768 * 3072, 3072,     3072 * 768,
                          768,       768,       768};
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> dist(-0.036f, 0.036f); // ~1/sqrt(768)
  std::vector<float *> args;
  for (size_t n : sizes) {
    std::vector<float> host(n);
    for (float &v : host)
      v = dist(rng);
    float *device = nullptr;
    CHECK(cudaMalloc(&device, n * sizeof(float)));
    CHECK(cudaMemcpy(device, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    args.push_back(device);
  }
  float *out = nullptr;
  CHECK(cudaMalloc(&out, 128 * 768 * sizeof(float)));
  auto call = [&] {
    return transformer_block(args[0], args[1], args[2], args[3], args[4], args[5],
                             args[6], args[7], args[8], args[9], args[10], args[11],
                             args[12], out, 0);
  };
  CHECK(call());
  CHECK(cudaDeviceSynchronize());
  std::vector<float> result(128 * 768);
  CHECK(cudaMemcpy(result.data(), out, result.size() * sizeof(float),
                   cudaMemcpyDeviceToHost));
  double sum = 0, sumSquares = 0;
  for (float v : result) {
    sum += v;
    sumSquares += double(v) * v;
  }
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int i = 0; i < 50; ++i) {
    CHECK(cudaEventRecord(start));
    CHECK(call());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  std::nth_element(times.begin(), times.begin() + 25, times.end());
  // LayerNorm output rows have mean 0 and variance 1 before scale and bias.
  std::printf("transformer_block: output mean %.4f, rms %.4f; median %.3f ms per call\n",
              sum / result.size(), std::sqrt(sumSquares / result.size()), times[25]);
  return 0;
}
