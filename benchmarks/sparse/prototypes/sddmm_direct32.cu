// Prototype, kept for the next step (not built by CMake or CI; measured on
// the H100 on 2026-11-25, docs/benchmarks/sweeps/README.md): f32 SDDMM in 32 x 32 blocks whose
// warps load their mma fragments straight from global memory (no shared
// staging, no barrier until the final sum): warp w takes k chunks w, w + 8,
// ...; lanes read float4s (k permuted consistently for A and B), split each
// into TF32 parts, three mma.sync per product; the 8 warps' sums meet in
// shared memory once. Timed against sopt::launchSddmmBlocks<float, 32> and
// <float, 64, 2> on random 512 x 512 patterns, K = 256 and 1024. Build:
//   nvcc -std=c++17 -O3 -arch=sm_90a -Iinclude \
//     benchmarks/sparse/prototypes/sddmm_direct32.cu lib/Runtime/RowOrder.cpp -o proto
// (sddmm32Direct<3> spills at three blocks per SM. A variant that pipelined
// items of 16 k ran slower and was dropped from this file; its times are in
// the raw file's "pipelined" column.)
#include "sparse-opt/Runtime/SddmmBlocks.cuh"
#include "sparse-opt/Runtime/RowOrder.h"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>
#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { std::printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); std::exit(1); } } while (0)

using sopt::tensor_core::mmaTf32;
using sopt::tensor_core::splitTf32;

template <int MinBlocks>
__global__ void __launch_bounds__(256, MinBlocks)
    sddmm32Direct(sopt::CsrMatrix<float> s, const float *__restrict__ A, const float *__restrict__ B,
                  int k, float *__restrict__ out, const int32_t *__restrict__ windows) {
  __shared__ float partial[8][32][33];
  __shared__ int32_t wBegin[32], wEnd[32];
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  const int blocks = (int(s.cols) + 31) / 32;
  bool any = false;
  if (threadIdx.x < 32) {
    const int r = row0 + threadIdx.x;
    int b = 0, e = 0;
    if (r < s.rows) {
      b = windows[int64_t(r) * (blocks + 1) + blockIdx.x];
      e = windows[int64_t(r) * (blocks + 1) + blockIdx.x + 1];
    }
    wBegin[threadIdx.x] = b, wEnd[threadIdx.x] = e;
    any = b < e;
  }
  if (!__syncthreads_or(any))
    return;
  float acc[2][4][4] = {};
  const int chunks = (k + 31) / 32;
  for (int c = warp; c < chunks; c += 8) {
    const int k0 = c * 32;
    // Lane t holds k0 + 16h + 4t .. +3 of its rows (h = 0, 1).
    float4 a[2][2][2], b[4][2]; // [mi][row g / g+8][h], [ni][h]
#pragma unroll
    for (int mi = 0; mi < 2; ++mi)
#pragma unroll
      for (int half = 0; half < 2; ++half)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const int r = row0 + 16 * mi + g + 8 * half, kk = k0 + 16 * h + 4 * t;
          a[mi][half][h] = r < s.rows && kk < k ? *reinterpret_cast<const float4 *>(A + int64_t(r) * k + kk)
                                               : make_float4(0, 0, 0, 0);
        }
#pragma unroll
    for (int ni = 0; ni < 4; ++ni)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int col = col0 + 8 * ni + g, kk = k0 + 16 * h + 4 * t;
        b[ni][h] = col < s.cols && kk < k ? *reinterpret_cast<const float4 *>(B + int64_t(col) * k + kk)
                                          : make_float4(0, 0, 0, 0);
      }
    // (No separate per-chunk sum: with K = 256 a warp has one chunk.)
    float (&part)[2][4][4] = acc;
    // k8 step (h, q): lane t's two k are elements 2q, 2q + 1 of its float4 h.
#pragma unroll
    for (int h = 0; h < 2; ++h)
#pragma unroll
      for (int q = 0; q < 2; ++q) {
        uint32_t aBig[2][4], aSmall[2][4], bBig[4][2], bSmall[4][2];
#pragma unroll
        for (int mi = 0; mi < 2; ++mi) {
          const float4 &x0 = a[mi][0][h], &x1 = a[mi][1][h];
          splitTf32(q ? x0.z : x0.x, aBig[mi][0], aSmall[mi][0]);
          splitTf32(q ? x1.z : x1.x, aBig[mi][1], aSmall[mi][1]);
          splitTf32(q ? x0.w : x0.y, aBig[mi][2], aSmall[mi][2]);
          splitTf32(q ? x1.w : x1.y, aBig[mi][3], aSmall[mi][3]);
        }
#pragma unroll
        for (int ni = 0; ni < 4; ++ni) {
          const float4 &y = b[ni][h];
          splitTf32(q ? y.z : y.x, bBig[ni][0], bSmall[ni][0]);
          splitTf32(q ? y.w : y.y, bBig[ni][1], bSmall[ni][1]);
        }
#pragma unroll
        for (int mi = 0; mi < 2; ++mi)
#pragma unroll
          for (int ni = 0; ni < 4; ++ni) {
            mmaTf32(part[mi][ni], aSmall[mi], bBig[ni]);
            mmaTf32(part[mi][ni], aBig[mi], bSmall[ni]);
            mmaTf32(part[mi][ni], aBig[mi], bBig[ni]);
          }
      }
  }
#pragma unroll
  for (int mi = 0; mi < 2; ++mi)
#pragma unroll
    for (int ni = 0; ni < 4; ++ni) {
      partial[warp][16 * mi + g][8 * ni + 2 * t] = acc[mi][ni][0];
      partial[warp][16 * mi + g][8 * ni + 2 * t + 1] = acc[mi][ni][1];
      partial[warp][16 * mi + g + 8][8 * ni + 2 * t] = acc[mi][ni][2];
      partial[warp][16 * mi + g + 8][8 * ni + 2 * t + 1] = acc[mi][ni][3];
    }
  __syncthreads();
  // Warp w samples rows w, w + 8, ...: each entry's product is the sum of
  // the warps' partials, in warp order.
  for (int r = warp; r < 32; r += 8)
    for (int e = wBegin[r] + lane; e < wEnd[r]; e += 32) {
      const int col = s.coordinates[e] - col0;
      float sum = 0;
#pragma unroll
      for (int w = 0; w < 8; ++w)
        sum += partial[w][r][col];
      out[e] = sum * s.values[e];
    }
}

int main(int argc, char **argv) {
  const int n = 512;
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-1, 1);
  for (int K : {256, 1024})
    for (double density : {0.5, 0.3, 0.2, 0.1}) {
      std::vector<int32_t> pos(1, 0), col;
      std::bernoulli_distribution keep(density);
      for (int r = 0; r < n; ++r) {
        for (int c = 0; c < n; ++c)
          if (keep(rng)) col.push_back(c);
        pos.push_back(int32_t(col.size()));
      }
      const int nnz = int(col.size());
      std::vector<float> val(nnz), a(size_t(n) * K), b(size_t(n) * K);
      for (float &v : val) v = u(rng);
      for (float &v : a) v = u(rng);
      for (float &v : b) v = u(rng);
      std::vector<int32_t> win(sopt_csr_column_windows_size(n, n, 32)), win64(sopt_csr_column_windows_size(n, n, 64));
      sopt_csr_column_windows(pos.data(), col.data(), n, n, 32, win.data());
      sopt_csr_column_windows(pos.data(), col.data(), n, n, 64, win64.data());
      int32_t *dWin64; CHECK(cudaMalloc(&dWin64, win64.size() * 4)); CHECK(cudaMemcpy(dWin64, win64.data(), win64.size() * 4, cudaMemcpyHostToDevice));
      int32_t *dPos, *dCol, *dWin; float *dVal, *dA, *dB, *dOld, *dNew;
      CHECK(cudaMalloc(&dPos, pos.size() * 4)); CHECK(cudaMalloc(&dCol, nnz * 4)); CHECK(cudaMalloc(&dWin, win.size() * 4));
      CHECK(cudaMalloc(&dVal, nnz * 4)); CHECK(cudaMalloc(&dA, a.size() * 4)); CHECK(cudaMalloc(&dB, b.size() * 4));
      CHECK(cudaMalloc(&dOld, nnz * 4)); CHECK(cudaMalloc(&dNew, nnz * 4));
      CHECK(cudaMemcpy(dPos, pos.data(), pos.size() * 4, cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(dCol, col.data(), nnz * 4, cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(dWin, win.data(), win.size() * 4, cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(dVal, val.data(), nnz * 4, cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(dA, a.data(), a.size() * 4, cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(dB, b.data(), b.size() * 4, cudaMemcpyHostToDevice));
      CHECK(cudaMemset(dOld, 0xff, nnz * 4)); CHECK(cudaMemset(dNew, 0xff, nnz * 4));
      sopt::CsrMatrix<float> s; s.rows = n; s.cols = n; s.nnz = nnz; s.positions = dPos; s.coordinates = dCol; s.values = dVal;
      cudaStream_t st; CHECK(cudaStreamCreate(&st));
      auto runOld = [&] { return sopt::launchSddmmBlocks<float, 32>(s, dA, dB, K, dOld, st, sopt::ScaleByPattern{}, dWin); };
      auto runNew2 = [&] { sddmm32Direct<2><<<dim3(n / 32, n / 32), 256, 0, st>>>(s, dA, dB, K, dNew, dWin); return cudaGetLastError(); };
      auto runNew3 = [&] { sddmm32Direct<3><<<dim3(n / 32, n / 32), 256, 0, st>>>(s, dA, dB, K, dNew, dWin); return cudaGetLastError(); };
      auto runOld64 = [&] { return sopt::launchSddmmBlocks<float, 64, 2>(s, dA, dB, K, dOld, st, sopt::ScaleByPattern{}, dWin64); };
      CHECK(runOld()); CHECK(runNew2()); CHECK(cudaStreamSynchronize(st));
      std::vector<float> o(nnz), w(nnz);
      CHECK(cudaMemcpy(o.data(), dOld, nnz * 4, cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(w.data(), dNew, nnz * 4, cudaMemcpyDeviceToHost));
      // f64 reference on a sample of entries.
      double errOld = 0, errNew = 0, scale = 0;
      for (int r = 0; r < n; r += 7)
        for (int e = pos[r]; e < pos[r + 1]; ++e) {
          double ref = 0, mag = 0;
          for (int q = 0; q < K; ++q) { ref += double(a[size_t(r) * K + q]) * b[size_t(col[e]) * K + q]; mag += std::fabs(double(a[size_t(r) * K + q]) * b[size_t(col[e]) * K + q]); }
          ref *= val[e]; mag *= std::fabs(val[e]);
          errOld = std::max(errOld, std::fabs(o[e] - ref) / mag); errNew = std::max(errNew, std::fabs(w[e] - ref) / mag);
        }
      auto time = [&](auto run) {
        cudaGraph_t g; cudaGraphExec_t ge; cudaEvent_t e0, e1; CHECK(cudaEventCreate(&e0)); CHECK(cudaEventCreate(&e1));
        CHECK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
        for (int i = 0; i < 20; ++i) CHECK(run());
        CHECK(cudaStreamEndCapture(st, &g)); CHECK(cudaGraphInstantiate(&ge, g, 0));
        std::vector<float> ts;
        for (int rep = 0; rep < 15; ++rep) {
          CHECK(cudaEventRecord(e0, st)); CHECK(cudaGraphLaunch(ge, st)); CHECK(cudaEventRecord(e1, st)); CHECK(cudaEventSynchronize(e1));
          float ms; CHECK(cudaEventElapsedTime(&ms, e0, e1)); ts.push_back(ms * 1000 / 20);
        }
        std::sort(ts.begin(), ts.end()); return ts[7];
      };
      const float tOld = time(runOld), tNew2 = time(runNew2), tNew3 = time(runNew3), tOld2 = time(runOld), t64 = time(runOld64);
      std::printf("K=%4d density %.2f nnz %6d: blocks32 %6.2f / %6.2f us, blocks64 k_splits2 %6.2f us, direct %6.2f us, direct<3> %6.2f us -> %.2fx of the better committed; max err/|terms| blocks32 %.1e direct %.1e\n",
                  K, density, nnz, tOld, tOld2, t64, tNew2, tNew3, std::min({tOld, tOld2, t64}) / std::min(tNew2, tNew3), errOld, errNew);
    }
  return 0;
}
