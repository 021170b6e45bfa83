// The generated transformer block on two GPUs of one host, alternately:
// device 0, device 1, device 0 again, on the same inputs. Each call must
// succeed and all three outputs must be equal bit for bit (same GPU model):
// the host code's cuBLAS handles and temporaries' pools are per device.
// With one handle per process the second device's call ran its matmuls
// through a handle of the first.
//
// REQUIRES: cuda-multi-gpu
// RUN: %gpu_bin/two_devices | FileCheck %s
// CHECK: device 0 again
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "BlockInputs.h"

#include <algorithm>
#include <cstring>
#include <tuple>

using namespace harness;

namespace {
/// The block's inputs and its output on the current device.
struct Operands {
  BlockInputs in;
  Tensor<float> out{BlockInputs::kOutput};
  Operands() = default;
  /// `other`'s inputs, on the current device.
  explicit Operands(Operands &other) : in(other.in) {}
  cudaError_t call() {
    out.poison();
    cudaError_t status = in.call(out.device, 0);
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
  // Inputs drawn on device 0, the same values copied to device 1.
  CHECK_CUDA(cudaSetDevice(0));
  Operands first;
  CHECK_CUDA(cudaSetDevice(1));
  Operands second(first);
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
