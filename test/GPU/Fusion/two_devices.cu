// The generated transformer block on two GPUs of one host, alternately:
// device 0, device 1, device 0 again, on the same inputs. Each call must
// succeed and all three outputs must be equal bit for bit (same GPU model):
// the host code's cuBLAS handles and temporaries' pools are per device.
// With one handle per process the second device's call ran its matmuls
// through a handle of the first.
//
// REQUIRES: cuda-multi-gpu
// RUN: %nvcc -I%sopt_src_root/include -I%S/../lib -I%sopt_gen %sopt_gen/transformer_block.cu %s -lcublas -o %t
// RUN: %t | FileCheck %s
// CHECK: device 0 again
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "Harness.h"
#include "transformer_block.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <memory>
#include <tuple>

using namespace harness;

namespace {
constexpr int kTokens = 128, kHidden = 768, kMlp = 3072;
constexpr size_t kSizes[] = {size_t(kTokens) * kHidden, size_t(kHidden) * kHidden,
                             size_t(kHidden) * kHidden, size_t(kHidden) * kHidden,
                             size_t(kHidden) * kHidden, kHidden, kHidden,
                             size_t(kHidden) * kMlp, kMlp, size_t(kHidden) * kMlp,
                             kHidden, kHidden, kHidden};

/// The block's thirteen inputs and its output on the current device.
struct Operands {
  std::vector<std::unique_ptr<Tensor<float>>> in;
  Tensor<float> out{size_t(kTokens) * kHidden};
  explicit Operands(const std::vector<std::vector<float>> &host) {
    for (size_t i = 0; i < host.size(); ++i) {
      in.push_back(std::make_unique<Tensor<float>>(host[i].size()));
      CHECK_CUDA(cudaMemcpy(in.back()->device, host[i].data(), host[i].size() * sizeof(float),
                            cudaMemcpyHostToDevice));
    }
  }
  cudaError_t call() {
    out.poison();
    auto p = [&](int i) { return in[i]->device; };
    cudaError_t status = transformer_block(p(0), p(1), p(2), p(3), p(4), p(5), p(6), p(7), p(8),
                                           p(9), p(10), p(11), p(12), out.device, 0);
    if (status == cudaSuccess)
      status = cudaDeviceSynchronize();
    if (status == cudaSuccess)
      out.download();
    return status;
  }
};
} // namespace

int main() {
  Report report;
  int devices = 0;
  CHECK_CUDA(cudaGetDeviceCount(&devices));
  if (devices < 2) {
    std::printf("FAIL: %d device(s), the test needs two\n", devices);
    return 1;
  }
  // Inputs scaled like a trained layer, the same on both devices.
  std::vector<std::vector<float>> host;
  std::mt19937 engine(20261125);
  const double scale = 1.0 / std::sqrt(double(kHidden));
  for (size_t i = 0; i < std::size(kSizes); ++i) {
    const bool weight = i >= 1 && i <= 4 || i == 7 || i == 9;
    const bool gain = i == 5 || i == 11;
    std::uniform_real_distribution<double> dist(weight ? -scale : gain ? 0.5 : -0.5,
                                                weight ? scale : gain ? 1.5 : 0.5);
    host.emplace_back(kSizes[i]);
    for (float &v : host.back())
      v = float(dist(engine));
  }
  CHECK_CUDA(cudaSetDevice(0));
  Operands first(host);
  CHECK_CUDA(cudaSetDevice(1));
  Operands second(host);
  std::vector<std::vector<float>> outputs;
  for (auto [device, operands, name] :
       {std::tuple{0, &first, "device 0"}, std::tuple{1, &second, "device 1"},
        std::tuple{0, &first, "device 0 again"}}) {
    CHECK_CUDA(cudaSetDevice(device));
    const cudaError_t status = operands->call();
    std::printf("%s: %s\n", name, cudaGetErrorString(status));
    outputs.push_back(operands->out.host);
    const bool finite = std::all_of(outputs.back().begin(), outputs.back().end(),
                                    [](float v) { return std::isfinite(v); });
    const bool same = std::memcmp(outputs.back().data(), outputs.front().data(),
                                  outputs.front().size() * sizeof(float)) == 0;
    // 0 when the call succeeded with finite outputs equal to the first's.
    report.check(std::string(name) + " equals device 0's first call",
                 status == cudaSuccess && finite && same ? 0.0 : 1.0, 0.0);
  }
  return report.exitCode();
}
