//===- sparse_bench/device.h - device memory, checks ------------*- C++ -*-===//
//
// DeviceBuffer, the helper kernels that fill operands, densify patterns and
// compare results, the poisoning of outputs before each call, and the
// element types' names and tolerances.
//
// Part of sparse_bench.cu's program (SOPT_BENCH_UNIT 0 or 1): included once,
// in order, by that one translation unit, its definitions local to it (an
// anonymous namespace); not a header to include elsewhere.
//
//===----------------------------------------------------------------------===//

namespace {

// ----------------------------------------------------------------------------
// Device memory and helper kernels
// ----------------------------------------------------------------------------

class DeviceBuffer {
public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes) { allocate(bytes); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  DeviceBuffer(DeviceBuffer &&other) noexcept { *this = std::move(other); }
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept {
    std::swap(data_, other.data_);
    std::swap(bytes_, other.bytes_);
    return *this;
  }
  ~DeviceBuffer() {
    if (data_)
      cudaFree(data_);
  }
  void allocate(size_t bytes) {
    if (data_)
      cudaFree(data_);
    data_ = nullptr;
    bytes_ = bytes;
    // At least one byte, so that empty arrays still have a valid address.
    CUDA_TRY(cudaMalloc(&data_, std::max<size_t>(bytes, 16)));
  }
  template <typename T> T *as() const { return static_cast<T *>(data_); }
  void *get() const { return data_; }
  size_t bytes() const { return bytes_; }

private:
  void *data_ = nullptr;
  size_t bytes_ = 0;
};

unsigned gridFor(int64_t count, int threads = 256) {
  int64_t blocks = (count + threads - 1) / threads;
  return unsigned(std::clamp<int64_t>(blocks, 1, 132 * 32));
}

__device__ __forceinline__ uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// Uniform values in [-1, 1), a function of (seed, index) alone: the f16
/// inputs are the f32 inputs of the same seed, rounded.
template <typename T> __global__ void fillUniformKernel(T *data, int64_t count, uint64_t seed) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x) {
    const uint64_t bits = mix64(seed ^ mix64(uint64_t(i)));
    const float u = float(bits >> 40) * (1.0f / 16777216.0f);
    data[i] = sopt::fromFloat<T>(2.0f * u - 1.0f);
  }
}

template <typename T> void fillUniform(T *data, int64_t count, uint64_t seed, cudaStream_t s) {
  if (count == 0)
    return;
  fillUniformKernel<T><<<gridFor(count), 256, 0, s>>>(data, count, seed);
  CUDA_TRY(cudaGetLastError());
}

/// dense[row * cols + column] = value for every entry (dense zeroed first).
template <typename T>
__global__ void densifyKernel(const int32_t *positions, const int32_t *coordinates,
                              const T *values, int64_t rows, int64_t cols, T *dense) {
  for (int64_t row = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; row < rows;
       row += int64_t(gridDim.x) * blockDim.x)
    for (int32_t e = positions[row]; e < positions[row + 1]; ++e)
      dense[row * cols + coordinates[e]] = values[e];
}

template <typename T> __global__ void toFloatKernel(const T *in, float *out, int64_t count) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x)
    out[i] = sopt::toFloat(in[i]);
}

/// sums[0] += Σ (x - r)², sums[1] += Σ r², r = ref · scale (scale optional),
/// in double. A NaN or Inf anywhere makes the result NaN/Inf.
template <typename X, typename R, typename S>
__global__ void errorNormsKernel(const X *x, const R *ref, const S *scale, int64_t count,
                                 double *sums) {
  double diff2 = 0, ref2 = 0;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x) {
    double r = sopt::toFloat(ref[i]);
    if (scale)
      r *= sopt::toFloat(scale[i]);
    const double d = double(sopt::toFloat(x[i])) - r;
    diff2 += d * d;
    ref2 += r * r;
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    diff2 += __shfl_down_sync(0xffffffffu, diff2, offset);
    ref2 += __shfl_down_sync(0xffffffffu, ref2, offset);
  }
  if (threadIdx.x % 32 == 0) {
    atomicAdd(&sums[0], diff2);
    atomicAdd(&sums[1], ref2);
  }
}

/// ‖x − ref·scale‖ / ‖ref·scale‖ over `count` elements.
template <typename X, typename R, typename S = float>
double relativeError(const X *x, const R *ref, int64_t count, cudaStream_t stream,
                     const S *scale = nullptr) {
  static DeviceBuffer sums(2 * sizeof(double));
  CUDA_TRY(cudaMemsetAsync(sums.get(), 0, 2 * sizeof(double), stream));
  if (count > 0) {
    errorNormsKernel<X, R, S><<<gridFor(count), 256, 0, stream>>>(x, ref, scale, count,
                                                                   sums.as<double>());
    CUDA_TRY(cudaGetLastError());
  }
  double host[2];
  CUDA_TRY(cudaMemcpyAsync(host, sums.get(), sizeof(host), cudaMemcpyDeviceToHost, stream));
  CUDA_TRY(cudaStreamSynchronize(stream));
  if (host[1] == 0)
    return host[0] == 0 ? 0.0 : INFINITY;
  return std::sqrt(host[0]) / std::sqrt(host[1]);
}

/// Fills our outputs with all-ones bytes: NaN in f32 and f16 alike, so that
/// an element our kernel never writes fails the check.
void poison(void *data, size_t bytes, cudaStream_t stream) {
  CUDA_TRY(cudaMemsetAsync(data, 0xff, bytes, stream));
}

/// Fills a library's output with large finite values (0x7b bytes: about
/// 1.3e36 in f32, 60800 in f16) before its checked call: an element it
/// never writes still shows as a mismatch, and a library that computes
/// beta·C with beta = 0 still gets 0 (NaN·0 would not).
void poisonFinite(void *data, size_t bytes, cudaStream_t stream) {
  CUDA_TRY(cudaMemsetAsync(data, 0x7b, bytes, stream));
}

// ----------------------------------------------------------------------------
// Types
// ----------------------------------------------------------------------------

template <typename T> struct TypeInfo;
template <> struct TypeInfo<float> {
  static constexpr const char *name = "f32";
  static constexpr cudaDataType cuda = CUDA_R_32F;
  static constexpr double tolerance = 1e-3;
};
template <> struct TypeInfo<__half> {
  static constexpr const char *name = "f16";
  static constexpr cudaDataType cuda = CUDA_R_16F;
  static constexpr double tolerance = 1e-2;
};

/// Tolerances of the dense baselines against cuSPARSE.
constexpr double kTf32Tolerance = 1e-2;

} // namespace
