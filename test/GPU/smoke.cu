// The GPU plumbing: nvcc builds a kernel for the target, it runs, and its
// result matches a float64 reference on an awkward size.
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/smoke | FileCheck %s
// CHECK: smoke: {{.*}} n=1000003 rel_err={{.*}} PASS

#include "Harness.h"

__global__ void saxpy(int n, float a, const float *x, const float *y,
                      float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1000003; // not a multiple of the block or of 4
  const float a = 1.7f;
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<float> x(n), y(n), out(n);
  for (int i = 0; i < n; ++i) {
    x[i] = dist(rng);
    y[i] = dist(rng);
  }

  float *dx, *dy, *dout;
  CHECK_CUDA(cudaMalloc(&dx, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dy, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dout, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dout, 0xff, n * sizeof(float))); // poison: NaNs

  saxpy<<<(n + 255) / 256, 256>>>(n, a, dx, dy, dout);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));

  double errSq = 0, refSq = 0;
  for (int i = 0; i < n; ++i) {
    double ref = double(a) * x[i] + y[i];
    double diff = out[i] - ref; // NaN from an unwritten element fails below
    errSq += diff * diff;
    refSq += ref * ref;
  }
  double relErr = std::sqrt(errSq / refSq);
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  bool pass = relErr < 1e-6; // one fused multiply-add per element
  std::printf("smoke: %s sm_%d%d n=%d rel_err=%.3e %s\n", prop.name, prop.major,
              prop.minor, n, relErr, pass ? "PASS" : "FAIL");
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dout);
  return pass ? 0 : 1;
}
