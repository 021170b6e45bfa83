// The fused attention kernel (Runtime/Kernels/Attention.cuh) against a
// float64 CPU reference, bf16 and f16, every instantiated head dimension
// (64, 80, 96, 128, 256): sq = 1, sk = 1, lengths that are multiples of no
// tile (17, 1000, 4097), sq != sk both ways, causal aligned at the top left
// and at the bottom right (rows that see no key must come out exactly 0),
// per-batch key lengths down to 0, grouped-query heads, a non-default
// scale, the token-major [b, s, h·d] layout and padded rows (the padding
// must keep its sentinel), every tile variant the benchmark compares;
// arguments it cannot take refused before a launch. Fresh random inputs
// every run, outputs poisoned with NaN before each call.
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/attention | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "AttentionReference.h"
#include "Harness.h"

#include "sparse-opt/Runtime/Kernels/Attention.cuh"

#include <optional>

using namespace harness;
using sopt::AttentionTile;
using sopt::attention::Arguments;
using sopt::attention::Strides;

namespace {

/// Bounds on ‖out − ref‖ / ‖ref‖ and on any element's |out − ref|: P is
/// rounded to the operand type before P·V and O once more when stored, each
/// about 2^-9 relative for bf16 and 2^-12 for f16, on outputs of magnitude
/// at most 1 (convex combinations of V in [-1, 1]).
template <typename T> double normTolerance();
template <> double normTolerance<__nv_bfloat16>() { return 1.6e-2; }
template <> double normTolerance<__half>() { return 2e-3; }
template <typename T> double elementTolerance();
template <> double elementTolerance<__nv_bfloat16>() { return 1.6e-2; }
template <> double elementTolerance<__half>() { return 2.5e-3; }

/// What padded rows and skipped outputs hold: must survive the call.
constexpr double kSentinel = 7.0;

enum class Diagonal { None, TopLeft, BottomRight };

struct Case {
  int headDim;
  int batch, queryHeads, keyHeads, queryLength, keyLength;
  Diagonal causal = Diagonal::None;
  std::vector<int32_t> keyLengths; ///< per batch, or empty
  double scale = 0;                ///< 0: 1/sqrt(headDim)
  bool tokenMajor = false;         ///< [b, s, h, d] instead of [b, h, s, d]
  int rowPad = 0;                  ///< elements past each stored row
  std::optional<AttentionTile> tile;
};

std::string describe(const Case &c) {
  char text[256];
  std::snprintf(text, sizeof text, "d%d b%d h%d/%d sq%d sk%d%s%s%s pad%d", c.headDim, c.batch,
                c.queryHeads, c.keyHeads, c.queryLength, c.keyLength,
                c.causal == Diagonal::TopLeft       ? " causal-tl"
                : c.causal == Diagonal::BottomRight ? " causal-br"
                                                    : "",
                c.keyLengths.empty() ? "" : " keylens", c.tokenMajor ? " bshd" : "", c.rowPad);
  std::string s = text;
  if (c.scale)
    s += " scale=" + std::to_string(c.scale);
  if (c.tile)
    s += " tile " + std::to_string(c.tile->blockM) + "x" + std::to_string(c.tile->blockN) + "w" +
         std::to_string(c.tile->warps);
  return s;
}

/// Strides of a [batch][heads][rows][width] operand, rows padded by `pad`.
Strides layout(const Case &c, int heads, int rows, int width) {
  const int64_t row = c.tokenMajor ? int64_t(heads) * (width + c.rowPad) : width + c.rowPad;
  if (c.tokenMajor)
    return {int64_t(rows) * row, width + c.rowPad, row};
  return {int64_t(heads) * rows * row, int64_t(rows) * row, row};
}

int64_t extent(const Strides &s, int batch) { return std::max<int64_t>(s.batch * batch, 1); }

/// Fills the stored elements with random values and the padding with
/// kSentinel.
template <typename T>
void fillOperand(Tensor<T> &t, const Strides &s, int batch, int heads, int rows, int width,
                 double lo, double hi) {
  t.fill(kSentinel);
  std::uniform_real_distribution<double> dist(lo, hi);
  for (int b = 0; b < batch; ++b)
    for (int h = 0; h < heads; ++h)
      for (int r = 0; r < rows; ++r)
        for (int x = 0; x < width; ++x) {
          const size_t i = b * s.batch + h * s.head + r * s.row + x;
          t.host[i] = fromDouble<T>(dist(rng()));
          t.values[i] = toDouble(t.host[i]);
        }
  t.upload();
}

int failures = 0;
/// --small: bf16 only, the cases of at most kSmallScores scores per head
/// (the compute-sanitizer runs).
bool smallOnly = false;
constexpr int64_t kSmallScores = 70000;

template <typename T> void run(const Case &c) {
  if (smallOnly && int64_t(c.queryLength) * c.keyLength > kSmallScores)
    return;
  const int d = c.headDim;
  const Strides qs = layout(c, c.queryHeads, c.queryLength, d);
  const Strides ks = layout(c, c.keyHeads, c.keyLength, d);
  const Strides os = qs;
  Tensor<T> q(extent(qs, c.batch)), k(extent(ks, c.batch)), v(extent(ks, c.batch)),
      o(extent(os, c.batch));
  // Wider Q and K than V: peaked softmax rows, so the rescaling matters.
  fillOperand(q, qs, c.batch, c.queryHeads, c.queryLength, d, -2, 2);
  fillOperand(k, ks, c.batch, c.keyHeads, c.keyLength, d, -2, 2);
  fillOperand(v, ks, c.batch, c.keyHeads, c.keyLength, d, -1, 1);
  // The padding must keep the sentinel, every stored output be written.
  o.fill(kSentinel);
  for (int b = 0; b < c.batch; ++b)
    for (int h = 0; h < c.queryHeads; ++h)
      for (int r = 0; r < c.queryLength; ++r)
        CHECK_CUDA(cudaMemset(o.device + b * os.batch + h * os.head + r * os.row, 0xff,
                              d * sizeof(T)));

  int32_t *keyLengths = nullptr;
  if (!c.keyLengths.empty()) {
    CHECK_CUDA(cudaMalloc(&keyLengths, c.keyLengths.size() * sizeof(int32_t)));
    CHECK_CUDA(cudaMemcpy(keyLengths, c.keyLengths.data(), c.keyLengths.size() * sizeof(int32_t),
                          cudaMemcpyHostToDevice));
  }
  const double scale = c.scale ? c.scale : 1.0 / std::sqrt(double(d));
  Arguments<T> args;
  args.query = q.device;
  args.key = k.device;
  args.value = v.device;
  args.output = o.device;
  args.queryStrides = qs;
  args.keyStrides = ks;
  args.valueStrides = ks;
  args.outputStrides = os;
  args.batch = c.batch;
  args.queryHeads = c.queryHeads;
  args.keyHeads = c.keyHeads;
  args.queryLength = c.queryLength;
  args.keyLength = c.keyLength;
  args.scale = float(scale);
  args.causal = c.causal != Diagonal::None;
  args.causalOffset = c.causal == Diagonal::BottomRight ? c.keyLength - c.queryLength : 0;
  args.keyLengths = keyLengths;
  const cudaError_t status =
      sopt::attention::runAttention(args, d, 0, c.tile ? &*c.tile : nullptr);
  CHECK_CUDA(cudaDeviceSynchronize());
  if (keyLengths)
    cudaFree(keyLengths);
  if (status != cudaSuccess) {
    std::printf("%-60s launch: %s FAIL\n", describe(c).c_str(), cudaGetErrorString(status));
    ++failures;
    return;
  }
  o.download();
  // The reference, in float64 from the same rounded inputs (scale rounded
  // to f32 as the kernel gets it).
  const double usedScale = double(float(scale));
  std::vector<double> got, expected;
  size_t emptyRowsWrong = 0, paddingWrong = 0;
  double worst = 0;
  std::vector<double> ref(d);
  for (int b = 0; b < c.batch; ++b) {
    const int keys = c.keyLengths.empty() ? c.keyLength
                                          : std::clamp<int>(c.keyLengths[b], 0, c.keyLength);
    for (int h = 0; h < c.queryHeads; ++h) {
      const int kh = h / (c.queryHeads / c.keyHeads);
      for (int i = 0; i < c.queryLength; ++i) {
        int visible = keys;
        if (args.causal)
          visible = int(std::clamp<int64_t>(i + args.causalOffset + 1, 0, keys));
        attention_reference::row(&q.values[b * qs.batch + h * qs.head + i * qs.row],
                                 &k.values[b * ks.batch + kh * ks.head], ks.row,
                                 &v.values[b * ks.batch + kh * ks.head], ks.row, visible, d,
                                 usedScale, ref.data());
        const double *oi = &o.values[b * os.batch + h * os.head + i * os.row];
        for (int x = 0; x < d; ++x) {
          if (visible == 0) { // no key: exactly 0, never NaN
            emptyRowsWrong += oi[x] != 0.0;
            continue;
          }
          got.push_back(oi[x]);
          expected.push_back(ref[x]);
          worst = std::isfinite(oi[x]) ? std::max(worst, std::abs(oi[x] - ref[x])) : INFINITY;
        }
        for (int x = d; x < d + c.rowPad; ++x)
          paddingWrong += oi[x] != kSentinel;
      }
    }
  }
  const double err = got.empty() ? 0.0 : relativeError(got, expected);
  const bool pass = err <= normTolerance<T>() && worst <= elementTolerance<T>() &&
                    emptyRowsWrong == 0 && paddingWrong == 0;
  std::printf("%-60s rel_err=%.2e max_abs=%.2e empty_wrong=%zu pad_wrong=%zu %s\n",
              describe(c).c_str(), err, worst, emptyRowsWrong, paddingWrong,
              pass ? "PASS" : "FAIL");
  failures += !pass;
}

/// A call runAttention must refuse (cudaErrorInvalidValue, nothing launched).
template <typename T> void refuse(const char *name, int headDim, Arguments<T> args) {
  const char *why = sopt::attention::rejectArguments(args, headDim);
  const cudaError_t status = sopt::attention::runAttention(args, headDim);
  const bool pass = why && status == cudaErrorInvalidValue;
  std::printf("refuses %-40s (%s) %s\n", name, why ? why : "accepted", pass ? "PASS" : "FAIL");
  failures += !pass;
}

template <typename T> void refusals() {
  Tensor<T> buffer(1 << 16);
  Arguments<T> good;
  good.query = good.key = good.value = buffer.device;
  good.output = buffer.device;
  good.batch = good.queryHeads = good.keyHeads = 1;
  good.queryLength = good.keyLength = 8;
  good.queryStrides = good.keyStrides = good.valueStrides = good.outputStrides = {512, 512, 64};
  Arguments<T> a = good;
  refuse("head dimension 48", 48, a);
  a.queryHeads = 3, a.keyHeads = 2;
  refuse("3 query heads over 2 key heads", 64, a);
  a = good, a.keyHeads = 0;
  refuse("no key heads", 64, a);
  a = good, a.key = buffer.device + 1;
  refuse("misaligned key", 64, a);
  a = good, a.valueStrides.row = 68;
  refuse("row stride not a multiple of 8", 64, a);
  a = good, a.scale = -1.0f;
  refuse("negative scale", 64, a);
  a = good, a.queryLength = -1;
  refuse("negative length", 64, a);
}

template <typename T> void suite(const char *typeName) {
  std::printf("--- %s\n", typeName);
  for (int d : sopt::kAttentionHeadDims) {
    run<T>({d, 1, 2, 2, 1, 1});
    run<T>({d, 2, 2, 2, 17, 33});
    run<T>({d, 1, 1, 1, 200, 1000, Diagonal::BottomRight});
    run<T>({d, 2, 4, 2, 130, 77, Diagonal::BottomRight}); // 53 rows see nothing
    run<T>({d, 1, 2, 1, 100, 257, Diagonal::TopLeft});
  }
  // The schedule's tiles against longer and odd sequences.
  run<T>({64, 1, 2, 2, 1000, 1000, Diagonal::TopLeft});
  run<T>({128, 1, 1, 1, 4097, 4097});
  run<T>({128, 1, 1, 1, 4097, 1031, Diagonal::BottomRight});
  run<T>({64, 1, 2, 1, 1, 4097, Diagonal::BottomRight}); // decode: one query, every key
  run<T>({128, 2, 1, 1, 1, 9});
  // Key padding down to 0 keys, with and without a diagonal.
  run<T>({64, 4, 2, 2, 70, 130, Diagonal::None, {130, 0, 1, 65}});
  run<T>({128, 3, 2, 1, 65, 129, Diagonal::BottomRight, {0, 129, 60}});
  run<T>({96, 2, 1, 1, 33, 200, Diagonal::TopLeft, {150, 7}});
  // Grouped-query heads (8 over 2), a scale of its own.
  run<T>({128, 2, 8, 2, 129, 300, Diagonal::None, {}, 0.3});
  run<T>({64, 1, 6, 1, 64, 64, Diagonal::TopLeft, {}, 0.05});
  // Token-major layout and padded rows.
  run<T>({64, 2, 3, 3, 150, 90, Diagonal::None, {}, 0, true});
  run<T>({128, 2, 4, 2, 77, 140, Diagonal::BottomRight, {}, 0, true, 8});
  run<T>({80, 1, 2, 2, 50, 50, Diagonal::TopLeft, {}, 0, false, 16});
  // sk = 0: every row sees nothing.
  run<T>({64, 1, 2, 2, 5, 0});
  // The tile variants the benchmark compares.
  for (AttentionTile tile : sopt::kAttentionTileVariants)
    for (int d : {64, 128}) {
      Case c{d, 2, 2, 1, 333, 517, Diagonal::BottomRight, {517, 300}};
      c.tile = tile;
      run<T>(c);
    }
  refusals<T>();
}

} // namespace

int main(int argc, char **argv) {
  smallOnly = argc > 1 && std::strcmp(argv[1], "--small") == 0;
  suite<__nv_bfloat16>("bf16");
  if (!smallOnly)
    suite<__half>("f16");
  std::printf("%s: %d failure(s)\n", failures ? "FAILED" : "PASSED", failures);
  return failures ? 1 : 0;
}
