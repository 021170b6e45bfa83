// The fused sparse attention kernel (Runtime/Kernels/SparseAttention*.cuh)
// against a float64 reference: O = softmax over each row's stored entries
// of (scale q·k + bias) times V, one CSR pattern shared by every head, f32,
// f16 and bf16 storage. Patterns: sliding window, window with global
// tokens, BigBird-like random blocks, uniform random, power-law graph
// adjacency with hub rows of thousands of entries, empty rows, one entry
// per row, nnz = 0, a single row, more keys than queries and fewer; head
// dimensions 32, 64, 128, 256, value dimension unlike the query's, an odd
// one (element-wise accesses); each with the rows split as the plan says,
// with every non-empty row split, with none split, and with the short rows
// by length; narrower accesses with more lanes per row. A bias shared by the
// heads and one per head, with masked (-inf) entries and a row whose
// entries are all masked (0); scores large enough that the running maximum
// matters; the pattern's values multiplying the scores (the compiler's
// sopt.sparse_attention). Outputs are NaN-poisoned before every run; invalid
// problems are refused. With --small, only small cases (for compute-sanitizer).
//
// REQUIRES: cuda-gpu
// RUN: %gpu_bin/sparse_attention | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASSED: 0 failure(s)

#include "Harness.h"

#include "sparse-opt/Runtime/Kernels/SparseAttentionDispatch.cuh"
#include "sparse-opt/Runtime/Kernels/SparseAttentionPlan.h"

#include <set>

using namespace harness;

namespace {

struct Pattern {
  std::string name;
  int64_t rows = 0, cols = 0;
  std::vector<int32_t> positions{0}, coordinates;
  void addRow(const std::set<int32_t> &columns) {
    coordinates.insert(coordinates.end(), columns.begin(), columns.end());
    positions.push_back(int32_t(coordinates.size()));
  }
  int64_t nnz() const { return int64_t(coordinates.size()); }
};

Pattern slidingWindow(int64_t n, int64_t half) {
  Pattern p{"window n=" + std::to_string(n) + " half=" + std::to_string(half), n, n};
  for (int64_t r = 0; r < n; ++r) {
    std::set<int32_t> row;
    for (int64_t c = std::max<int64_t>(0, r - half); c <= std::min(n - 1, r + half); ++c)
      row.insert(int32_t(c));
    p.addRow(row);
  }
  return p;
}

/// The first `global` tokens attend to and are attended by every token.
Pattern windowGlobal(int64_t n, int64_t half, int64_t global) {
  Pattern p{"window+global n=" + std::to_string(n), n, n};
  for (int64_t r = 0; r < n; ++r) {
    std::set<int32_t> row;
    const bool everywhere = r < global;
    for (int64_t c = 0; c < n; ++c)
      if (everywhere || c < global || (c >= r - half && c <= r + half))
        row.insert(int32_t(c));
    p.addRow(row);
  }
  return p;
}

/// Blocks of `block` tokens: each block row sees its neighbours, the first
/// block and `randomBlocks` others; the first block row sees everything.
Pattern bigBird(int64_t n, int64_t block, int64_t randomBlocks) {
  Pattern p{"bigbird n=" + std::to_string(n) + " block=" + std::to_string(block), n, n};
  const int64_t blocks = (n + block - 1) / block;
  std::uniform_int_distribution<int64_t> pick(0, blocks - 1);
  for (int64_t b = 0; b < blocks; ++b) {
    std::set<int64_t> seen{0, b, std::max<int64_t>(0, b - 1), std::min(blocks - 1, b + 1)};
    for (int64_t i = 0; i < randomBlocks; ++i)
      seen.insert(pick(rng()));
    if (b == 0)
      for (int64_t j = 0; j < blocks; ++j)
        seen.insert(j);
    for (int64_t r = b * block; r < std::min(n, (b + 1) * block); ++r) {
      std::set<int32_t> row;
      for (int64_t j : seen)
        for (int64_t c = j * block; c < std::min(n, (j + 1) * block); ++c)
          row.insert(int32_t(c));
      p.addRow(row);
    }
  }
  return p;
}

/// Each row keeps each column with probability `density`; `emptyShare` of
/// the rows are left empty.
Pattern uniformRandom(int64_t rows, int64_t cols, double density, double emptyShare = 0) {
  Pattern p{"random " + std::to_string(rows) + "x" + std::to_string(cols) +
                (emptyShare > 0 ? " with empty rows" : ""),
            rows, cols};
  std::uniform_real_distribution<double> u(0, 1);
  for (int64_t r = 0; r < rows; ++r) {
    std::set<int32_t> row;
    if (u(rng()) >= emptyShare)
      for (int64_t c = 0; c < cols; ++c)
        if (u(rng()) < density)
          row.insert(int32_t(c));
    p.addRow(row);
  }
  return p;
}

/// A graph's adjacency whose degrees follow a power law: row r (in a random
/// order) has about maxDegree / (rank + 1)^0.9 neighbours, so the first
/// rows are hubs with thousands of entries and most have a handful.
Pattern powerLaw(int64_t n, int64_t maxDegree) {
  Pattern p{"power-law n=" + std::to_string(n), n, n};
  std::vector<int64_t> rank(n);
  for (int64_t i = 0; i < n; ++i)
    rank[i] = i;
  std::shuffle(rank.begin(), rank.end(), rng());
  std::uniform_int_distribution<int32_t> column(0, int32_t(n - 1));
  for (int64_t r = 0; r < n; ++r) {
    const int64_t degree =
        std::max<int64_t>(1, int64_t(double(maxDegree) / std::pow(double(rank[r] + 1), 0.9)));
    std::set<int32_t> row;
    while (int64_t(row.size()) < std::min(degree, n))
      row.insert(column(rng()));
    p.addRow(row);
  }
  return p;
}

Pattern onePerRow(int64_t rows, int64_t cols) {
  Pattern p{"one per row", rows, cols};
  std::uniform_int_distribution<int32_t> column(0, int32_t(cols - 1));
  for (int64_t r = 0; r < rows; ++r)
    p.addRow({column(rng())});
  return p;
}

Pattern noEntries(int64_t rows, int64_t cols) {
  Pattern p{"nnz=0", rows, cols};
  for (int64_t r = 0; r < rows; ++r)
    p.addRow({});
  return p;
}

struct Dims {
  int64_t query, value;
};

/// What a run adds to the scores (PatternValues: the pattern's values
/// multiply them instead).
enum class Bias { None, Shared, PerHead, PatternValues };

/// O in float64 from the rounded inputs.
std::vector<double> reference(const Pattern &p, int64_t heads, Dims d,
                              const std::vector<double> &q, const std::vector<double> &k,
                              const std::vector<double> &v, const std::vector<double> *bias,
                              int64_t biasHeadStride, double scale,
                              const std::vector<double> *patternValues = nullptr) {
  std::vector<double> out(size_t(heads * p.rows * d.value), 0.0);
  std::vector<double> score;
  for (int64_t h = 0; h < heads; ++h)
    for (int64_t r = 0; r < p.rows; ++r) {
      const int64_t begin = p.positions[r], end = p.positions[r + 1];
      score.assign(size_t(end - begin), 0.0);
      double largest = -INFINITY;
      for (int64_t e = begin; e < end; ++e) {
        const int64_t c = p.coordinates[e];
        double dot = 0;
        for (int64_t i = 0; i < d.query; ++i)
          dot += q[(h * p.rows + r) * d.query + i] * k[(h * p.cols + c) * d.query + i];
        double s = patternValues ? scale * (*patternValues)[e] * dot
                                 : scale * dot + (bias ? (*bias)[h * biasHeadStride + e] : 0.0);
        score[e - begin] = s;
        largest = std::max(largest, s);
      }
      if (largest == -INFINITY)
        continue; // no entry, or all masked: 0
      double sum = 0;
      double *o = &out[(h * p.rows + r) * d.value];
      for (int64_t e = begin; e < end; ++e) {
        const double w = std::exp(score[e - begin] - largest);
        sum += w;
        const int64_t c = p.coordinates[e];
        for (int64_t j = 0; j < d.value; ++j)
          o[j] += w * v[(h * p.cols + c) * d.value + j];
      }
      for (int64_t j = 0; j < d.value; ++j)
        o[j] /= sum;
    }
  return out;
}

/// How a run splits rows.
enum class Split { Planned, Every, None, Sorted };
const char *splitName(Split s) {
  return s == Split::Planned ? "planned"
         : s == Split::Every ? "all split"
         : s == Split::None  ? "none split"
                             : "by length";
}

/// The device copy of a pattern and of its row lists for one split.
struct DevicePattern {
  int32_t *positions = nullptr, *coordinates = nullptr, *longRows = nullptr,
          *shortRows = nullptr;
  ::sopt::SparseAttentionRows rows;
  DevicePattern(const Pattern &p, Split split) {
    CHECK_CUDA(cudaMalloc(&positions, p.positions.size() * sizeof(int32_t)));
    CHECK_CUDA(cudaMemcpy(positions, p.positions.data(), p.positions.size() * sizeof(int32_t),
                          cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMalloc(&coordinates, std::max<size_t>(1, p.coordinates.size()) * 4));
    CHECK_CUDA(cudaMemcpy(coordinates, p.coordinates.data(), p.coordinates.size() * 4,
                          cudaMemcpyHostToDevice));
    ::sopt::SparseAttentionSplitRule rule;
    if (split == Split::Every)
      rule.splitFactor = 0, rule.minSplitEntries = 0;
    if (split == Split::None)
      rule.minSplitEntries = INT32_MAX, rule.sortSpread = INFINITY;
    if (split == Split::Sorted)
      rule.sortSpread = 0;
    const auto lists = ::sopt::planSparseAttentionRows(p.positions.data(), p.rows, rule);
    rows.longCount = int64_t(lists.longRows.size());
    rows.shortCount = p.rows - rows.longCount;
    longRows = upload(lists.longRows);
    shortRows = upload(lists.shortRows);
    rows.longRows = longRows;
    rows.shortRows = lists.shortRows.empty() ? nullptr : shortRows;
  }
  static int32_t *upload(const std::vector<int32_t> &list) {
    int32_t *device = nullptr;
    CHECK_CUDA(cudaMalloc(&device, std::max<size_t>(1, list.size()) * sizeof(int32_t)));
    CHECK_CUDA(cudaMemcpy(device, list.data(), list.size() * sizeof(int32_t),
                          cudaMemcpyHostToDevice));
    return device;
  }
  ~DevicePattern() {
    cudaFree(positions), cudaFree(coordinates), cudaFree(longRows), cudaFree(shortRows);
  }
};

template <typename T> const char *typeName();
template <> const char *typeName<float>() { return "f32"; }
template <> const char *typeName<__half>() { return "f16"; }
template <> const char *typeName<__nv_bfloat16>() { return "bf16"; }

template <typename T>
void check(Report &report, const Pattern &p, int64_t heads, Dims d, Split split, Bias biasKind,
           double scale, int minLanes = ::sopt::kSparseAttentionMinLanes) {
  Tensor<T> q(size_t(heads * p.rows * d.query)), k(size_t(heads * p.cols * d.query)),
      v(size_t(heads * p.cols * d.value)), out(size_t(heads * p.rows * d.value));
  q.randomize(), k.randomize(), v.randomize();
  const int64_t biasHeadStride = biasKind == Bias::PerHead ? p.nnz() : 0;
  Tensor<T> bias(size_t(std::max<int64_t>(1, biasKind == Bias::PerHead ? heads * p.nnz()
                                                                         : p.nnz())));
  if (biasKind == Bias::PatternValues) {
    bias.randomize(0.0, 2.0);
  } else if (biasKind != Bias::None) {
    bias.randomize(-2.0, 2.0);
    // Every seventh entry masked, and every entry of row 1 (when it exists).
    for (size_t i = 0; i < bias.size; i += 7)
      bias.host[i] = fromDouble<T>(-INFINITY), bias.values[i] = -INFINITY;
    if (p.rows > 1)
      for (int64_t h = 0; h < (biasKind == Bias::PerHead ? heads : 1); ++h)
        for (int64_t e = p.positions[1]; e < p.positions[2]; ++e)
          bias.host[h * biasHeadStride + e] = fromDouble<T>(-INFINITY),
                                     bias.values[h * biasHeadStride + e] = -INFINITY;
    bias.upload();
  }
  out.poison();
  DevicePattern device(p, split);
  ::sopt::SparseAttentionProblem<T> problem;
  problem.rows = p.rows, problem.cols = p.cols, problem.nnz = p.nnz(), problem.heads = heads;
  problem.queryDim = d.query, problem.valueDim = d.value;
  problem.positions = device.positions, problem.coordinates = device.coordinates;
  problem.q = q.device, problem.k = k.device, problem.v = v.device, problem.out = out.device;
  problem.bias = biasKind == Bias::None || biasKind == Bias::PatternValues ? nullptr : bias.device;
  problem.patternValues = biasKind == Bias::PatternValues ? bias.device : nullptr;
  problem.biasHeadStride = biasHeadStride;
  problem.scale = float(scale);
  CHECK_CUDA(::sopt::runSparseAttention(problem, device.rows, 0, minLanes));
  CHECK_CUDA(cudaDeviceSynchronize());
  out.download();
  const bool additive = biasKind == Bias::Shared || biasKind == Bias::PerHead;
  const std::vector<double> ref =
      reference(p, heads, d, q.values, k.values, v.values, additive ? &bias.values : nullptr,
                biasHeadStride, scale,
                biasKind == Bias::PatternValues ? &bias.values : nullptr);
  const char *biasName = biasKind == Bias::None         ? ""
                         : biasKind == Bias::Shared     ? " bias"
                         : biasKind == Bias::PerHead    ? " head-bias"
                                                        : " pattern values";
  char name[200];
  const ::sopt::SparseAttentionLayout layout = ::sopt::sparseAttentionLayout(problem, minLanes);
  std::snprintf(name, sizeof name, "%s %s h=%lld d=%lld/%lld %s%s %dx%dB", typeName<T>(),
                p.name.c_str(), (long long)heads, (long long)d.query, (long long)d.value,
                splitName(split), biasName, layout.group, layout.width * int(sizeof(T)));
  report.check(name, relativeError(out.values, ref), tolerance<T>());
}

/// Refused problems return cudaErrorInvalidValue and launch nothing.
void checkRefused(Report &report) {
  Pattern p = uniformRandom(5, 5, 0.5);
  DevicePattern device(p, Split::Planned);
  Tensor<float> q(5 * 512), out(5 * 512);
  ::sopt::SparseAttentionProblem<float> good;
  good.rows = good.cols = 5, good.nnz = p.nnz(), good.heads = 1;
  good.queryDim = good.valueDim = 8;
  good.positions = device.positions, good.coordinates = device.coordinates;
  good.q = good.k = good.v = q.device, good.out = out.device;
  auto refused = [&](const char *what, ::sopt::SparseAttentionProblem<float> bad) {
    const bool ok = ::sopt::runSparseAttention(bad, device.rows, 0) == cudaErrorInvalidValue &&
                    !::sopt::checkSparseAttention(bad).empty();
    report.check(std::string("refused: ") + what, ok ? 0.0 : 1.0, 0.0);
  };
  auto bad = good;
  bad.queryDim = 0;
  refused("query dim 0", bad);
  bad = good, bad.valueDim = 513; // past any lane layout (element-wise: 256)
  refused("value dim 513", bad);
  bad = good, bad.rows = -1;
  refused("negative rows", bad);
  bad = good, bad.k = nullptr;
  refused("missing K", bad);
  bad = good, bad.biasHeadStride = -1;
  refused("negative bias stride", bad);
}

template <typename T> void checkType(Report &report, bool small) {
  const std::vector<Dims> allDims{{32, 32}, {64, 64}, {128, 128}, {64, 128}, {33, 33}};
  std::vector<std::pair<Pattern, std::vector<Dims>>> cases;
  cases.push_back({slidingWindow(small ? 67 : 1001, 16), allDims});
  cases.push_back({windowGlobal(small ? 97 : 1500, 32, 3), allDims});
  cases.push_back({bigBird(small ? 100 : 1111, 16, 3), {{64, 64}, {128, 128}}});
  cases.push_back({uniformRandom(small ? 61 : 777, small ? 53 : 1234, 0.05), allDims});
  cases.push_back({uniformRandom(small ? 80 : 900, small ? 31 : 301, 0.2, 0.3),
                   {{32, 32}, {64, 128}, {33, 33}}});
  cases.push_back({powerLaw(small ? 600 : 6000, small ? 400 : 3000),
                   {{32, 32}, {64, 64}, {128, 128}}});
  cases.push_back({onePerRow(small ? 17 : 333, small ? 5 : 4099), {{64, 64}, {33, 33}}});
  cases.push_back({noEntries(small ? 9 : 129, 7), {{64, 64}}});
  cases.push_back({uniformRandom(1, small ? 300 : 5000, 0.5), {{128, 128}}});
  cases.back().first.name = "one row";
  for (const auto &[pattern, dims] : cases)
    for (Dims d : dims)
      for (Split split : {Split::Planned, Split::Every, Split::None, Split::Sorted})
        check<T>(report, pattern, 3, d, split, Bias::None, 1.0 / std::sqrt(double(d.query)));
  // Narrower accesses, more lanes per row.
  for (int lanes : {8, 16, 32})
    for (size_t c : {size_t(1), size_t(5)})
      for (Dims d : {Dims{32, 32}, Dims{64, 64}, Dims{64, 128}})
        check<T>(report, cases[c].first, 2, d, Split::Planned, Bias::None, 0.125, lanes);
  // Bias, peaky scores, one head and many heads; head dimension 256.
  const Pattern &graph = cases[5].first;
  check<T>(report, graph, 2, {64, 64}, Split::Planned, Bias::Shared, 0.125);
  check<T>(report, graph, 2, {64, 64}, Split::Every, Bias::PerHead, 0.125);
  check<T>(report, cases[1].first, 1, {64, 64}, Split::Planned, Bias::PerHead, 4.0);
  check<T>(report, cases[1].first, small ? 4 : 8, {32, 32}, Split::Planned, Bias::Shared, 2.0);
  check<T>(report, cases[3].first, 2, {256, 256}, Split::Planned, Bias::None, 0.0625);
  check<T>(report, graph, 2, {64, 64}, Split::Planned, Bias::PatternValues, 0.125);
  check<T>(report, cases[1].first, 3, {32, 32}, Split::Every, Bias::PatternValues, 0.25);
  check<T>(report, cases[3].first, 2, {256, 64}, Split::Every, Bias::None, 0.0625);
}

} // namespace

int main(int argc, char **argv) {
  const bool small = argc > 1 && std::string(argv[1]) == "--small";
  Report report;
  checkRefused(report);
  checkType<float>(report, small);
  checkType<__half>(report, small);
  checkType<__nv_bfloat16>(report, small);
  return report.exitCode();
}
