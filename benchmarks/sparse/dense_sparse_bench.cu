// Dense × sparse, Y[m, n] = X[m, k] · S[k, n], as the generated code runs it
// ((Sᵀ · Xᵀ)ᵀ on the CSR SpMM kernel) against the alternatives, to decide
// how the dense transposes are done (docs/Sparse.md, "Dense × sparse"):
//
//   xt        the tiled transpose X -> Xᵀ (launchTranspose)
//   fused     SpMM of Sᵀ · Xᵀ storing Y = Cᵀ directly (TransposeC)
//   rowmajor  the same SpMM storing Cᵀ row-major, then
//   yt        the tiled transpose Cᵀ -> Y
//   cusparse  cusparseSpMM on Sᵀ (CSR) with X and Y as column-major Xᵀ / Yᵀ
//             (no copies: the library's own dense × sparse)
//
// Uniform random patterns, CUDA-event medians of 15 samples of 5 launches.
// Prints one line per case and the ratios; checks that the three results
// agree. Build: nvcc -std=c++17 -O3 -arch=sm_90a -Iinclude
//   the sources of lib/Runtime but CsrTranspose.cpp
//   benchmarks/sparse/dense_sparse_bench.cu -lcusparse

#include "sparse-opt/Runtime/Pattern/RowOrder.h"
#include "sparse-opt/Runtime/Kernels/SparseDispatch.cuh"
#include "sparse-opt/Runtime/Kernels/Transpose.cuh"

#include <cusparse.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <vector>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t e_ = (call);                                                          \
    if (e_ != cudaSuccess) {                                                          \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)
#define CHECK_SPARSE(call)                                                            \
  do {                                                                                \
    if ((call) != CUSPARSE_STATUS_SUCCESS) {                                          \
      std::printf("cuSPARSE error at %s:%d\n", __FILE__, __LINE__);                   \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

namespace {

template <typename T> T *upload(const std::vector<T> &v) {
  T *d = nullptr;
  CHECK(cudaMalloc(&d, std::max<size_t>(v.size(), 1) * sizeof(T)));
  CHECK(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

double medianUs(const std::function<void()> &run) {
  for (int i = 0; i < 3; ++i)
    run();
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<double> samples;
  for (int s = 0; s < 15; ++s) {
    CHECK(cudaEventRecord(start));
    for (int i = 0; i < 5; ++i)
      run();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    samples.push_back(ms * 1000.0 / 5);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

template <typename T> float toHost(T x) { return float(x); }
template <> float toHost(__half x) { return __half2float(x); }

template <typename T> T fromHost(float x) { return T(x); }
template <> __half fromHost(float x) { return __float2half_rn(x); }

template <typename T> struct TypeInfo;
template <> struct TypeInfo<float> {
  static constexpr cudaDataType kType = CUDA_R_32F;
  static constexpr const char *kName = "f32";
};
template <> struct TypeInfo<__half> {
  static constexpr cudaDataType kType = CUDA_R_16F;
  static constexpr const char *kName = "f16";
};

template <typename T>
double maxRelDiff(const T *a, const T *b, size_t count) {
  std::vector<T> x(count), y(count);
  CHECK(cudaMemcpy(x.data(), a, count * sizeof(T), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(y.data(), b, count * sizeof(T), cudaMemcpyDeviceToHost));
  double diff = 0, norm = 0;
  for (size_t i = 0; i < count; ++i) {
    double d = toHost(x[i]) - toHost(y[i]);
    diff += d * d;
    norm += double(toHost(y[i])) * toHost(y[i]);
  }
  return norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff);
}

template <typename T> int runCase(int64_t m, int64_t k, int64_t n, double density) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> u(0, 1), v(-1, 1);
  // Sᵀ (n x k) in CSR: S in CSC.
  std::vector<int32_t> positions{0}, coordinates;
  std::vector<T> values;
  for (int64_t r = 0; r < n; ++r) {
    for (int64_t c = 0; c < k; ++c)
      if (u(rng) < density) {
        coordinates.push_back(int32_t(c));
        values.push_back(fromHost<T>(v(rng)));
      }
    positions.push_back(int32_t(coordinates.size()));
  }
  const int64_t nnz = int64_t(coordinates.size());
  std::vector<T> x(m * k);
  for (T &e : x)
    e = fromHost<T>(v(rng));
  std::vector<int32_t> order(n);
  sopt_csr_row_order(positions.data(), n, order.data());

  int32_t *dPos = upload(positions), *dCrd = upload(coordinates), *dOrder = upload(order);
  T *dVal = upload(values), *dX = upload(x);
  T *dXt, *dY, *dCt, *dY2, *dY3;
  for (T **p : {&dXt, &dY, &dCt, &dY2, &dY3})
    CHECK(cudaMalloc(p, size_t(std::max(m * k, m * n)) * sizeof(T)));
  sopt::CsrMatrix<T> st{n, k, nnz, dPos, dCrd, dVal};
  ::sopt::SparsityStats stats = ::sopt::sparsityStats(positions.data(), n, k);
  ::sopt::SpmmSchedule s = ::sopt::chooseSpmmSchedule(stats, m, sizeof(T));

  const double tXt = medianUs([&] { CHECK(sopt::launchTranspose(dX, m, k, dXt, 0)); });
  const double tFused = medianUs(
      [&] { CHECK((sopt::runSpmm<T, true>(s, st, dXt, m, dY, dOrder, 0))); });
  const double tRow = medianUs(
      [&] { CHECK((sopt::runSpmm<T, false>(s, st, dXt, m, dCt, dOrder, 0))); });
  const double tYt = medianUs([&] { CHECK(sopt::launchTranspose(dCt, n, m, dY2, 0)); });

  cusparseHandle_t handle;
  CHECK_SPARSE(cusparseCreate(&handle));
  cusparseSpMatDescr_t a;
  cusparseDnMatDescr_t b, c;
  CHECK_SPARSE(cusparseCreateCsr(&a, n, k, nnz, dPos, dCrd, dVal, CUSPARSE_INDEX_32I,
                                 CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                 TypeInfo<T>::kType));
  CHECK_SPARSE(cusparseCreateDnMat(&b, k, m, k, dX, TypeInfo<T>::kType, CUSPARSE_ORDER_COL));
  CHECK_SPARSE(cusparseCreateDnMat(&c, n, m, n, dY3, TypeInfo<T>::kType, CUSPARSE_ORDER_COL));
  const float one = 1, zero = 0;
  size_t bytes = 0;
  CHECK_SPARSE(cusparseSpMM_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                       CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, b, &zero, c,
                                       CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, &bytes));
  void *buffer = nullptr;
  CHECK(cudaMalloc(&buffer, std::max<size_t>(bytes, 1)));
  const double tCusparse = medianUs([&] {
    CHECK_SPARSE(cusparseSpMM(handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                              CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, b, &zero, c,
                              CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, buffer));
  });
  CHECK(cudaDeviceSynchronize());
  const double d2 = maxRelDiff(dY2, dY, size_t(m * n)), d3 = maxRelDiff(dY3, dY, size_t(m * n));
  const bool agree = d2 < 1e-6 && d3 < (sizeof(T) == 2 ? 2e-3 : 1e-5);

  const double ours = tXt + tFused, separate = tXt + tRow + tYt;
  std::printf("%s m=%-5lld k=%-5lld n=%-5lld density=%.2f nnz=%-8lld tile=%d/%d vec=%d | "
              "xt %7.1f fused %7.1f rowmajor %7.1f yt %7.1f cusparse %7.1f us | "
              "fused/separate %.2fx cusparse/ours %.2fx xt share %.0f%% | diff %.1e %.1e %s\n",
              TypeInfo<T>::kName, (long long)m, (long long)k, (long long)n, density,
              (long long)nnz, s.tileColumns, s.threadsPerTile, s.vectorWidth, tXt, tFused, tRow,
              tYt, tCusparse, separate / ours, tCusparse / ours, 100 * tXt / ours, d2, d3,
              agree ? "ok" : "MISMATCH");
  cusparseDestroySpMat(a);
  cusparseDestroyDnMat(b);
  cusparseDestroyDnMat(c);
  cusparseDestroy(handle);
  for (void *p : {(void *)dPos, (void *)dCrd, (void *)dOrder, (void *)dVal, (void *)dX,
                  (void *)dXt, (void *)dY, (void *)dCt, (void *)dY2, (void *)dY3, buffer})
    cudaFree(p);
  return agree ? 0 : 1;
}

} // namespace

int main() {
  int failures = 0;
  // Transformer-like weights (DLMC: 512 x 2048 and 2048 x 512 at 70-90 %
  // sparsity), a batch of m tokens.
  for (int64_t m : {256, 1024})
    for (auto [k, n] : {std::pair<int64_t, int64_t>{512, 2048}, {2048, 512}})
      for (double density : {0.1, 0.3}) {
        failures += runCase<float>(m, k, n, density);
        failures += runCase<__half>(m, k, n, density);
      }
  std::printf("%s\n", failures ? "MISMATCHES" : "all agree");
  return failures ? 1 : 0;
}
