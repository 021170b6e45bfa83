//===- sparse_bench/report.h - the results as files -------------*- C++ -*-===//
//
// The run's results as Markdown (the summary table and the targets), JSON
// and CSV, with the versions and provenance they record.
//
// Part of sparse_bench.cu's program (SOPT_BENCH_UNIT 0 or 1): included once,
// in order, by that one translation unit, its definitions local to it (an
// anonymous namespace); not a header to include elsewhere.
//
//===----------------------------------------------------------------------===//

namespace {

// ----------------------------------------------------------------------------
// Output
// ----------------------------------------------------------------------------

std::string jsonEscape(const std::string &s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    case '\r': out += "\\r"; break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof(buf), "\\u%04x", c);
        out += buf;
      } else {
        out += char(c);
      }
    }
  }
  return out + "\"";
}

std::string num(double v, const char *format = "%.6g") {
  if (!std::isfinite(v))
    return "null";
  char buf[64];
  std::snprintf(buf, sizeof(buf), format, v);
  return buf;
}

std::string csvField(const std::string &s) {
  if (s.find_first_of(",\"\n") == std::string::npos)
    return s;
  std::string out = "\"";
  for (char c : s)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string csvNum(double v, const char *format = "%.6g") {
  return std::isfinite(v) ? num(v, format) : "";
}

struct Meta {
  std::string device, date, git, commandLine;
  int sms = 0, ccMajor = 0, ccMinor = 0;
  size_t l2Bytes = 0, memoryBytes = 0;
  int runtime = 0, driver = 0, cusparse = 0, cublas = 0;
};

std::string cudaVersionText(int v) {
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}
std::string cusparseVersionText(int v) {
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 100) + "." +
         std::to_string(v % 100);
}
std::string cublasVersionText(int v) {
  return std::to_string(v / 10000) + "." + std::to_string(v % 10000 / 100) + "." +
         std::to_string(v % 100);
}

void writeText(const fs::path &path, const std::string &text) {
  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f || std::fwrite(text.data(), 1, text.size(), f) != text.size() || std::fclose(f)) {
    std::fprintf(stderr, "sparse_bench: cannot write %s: %s\n", path.c_str(),
                 std::strerror(errno));
    return;
  }
}

/// What the tables show per (op, size, type).
struct Group {
  std::string op, type;
  int64_t size;
  /// SpMM first, then by size, f32 before f16.
  bool operator<(const Group &g) const {
    return std::make_tuple(op != "spmm", op, size, type != "f32", type) <
           std::make_tuple(g.op != "spmm", g.op, g.size, g.type != "f32", g.type);
  }
};

struct Row {
  const Measurement *ours = nullptr, *cusparse = nullptr, *cublas = nullptr, *tf32 = nullptr;
};

/// Sparsity from which "faster than dense" is judged (the DLMC 90% files
/// have 90.00006%; 1e-4 of slack for other sources' rounding).
constexpr double kDenseCheckSparsity = 0.9 - 1e-4;

double speedup(const Measurement *ours, const Measurement *peer) {
  if (!ours || !peer || !ours->usable() || !peer->timing.ok)
    return NAN;
  return peer->timing.medianUs / ours->timing.medianUs;
}

double geomean(const std::vector<double> &v) {
  double s = 0;
  int count = 0;
  for (double x : v)
    if (std::isfinite(x) && x > 0) {
      s += std::log(x);
      ++count;
    }
  return count ? std::exp(s / count) : NAN;
}

std::string ratio(double v) { return std::isfinite(v) ? num(v, "%.2f") + "×" : "–"; }
std::string micros(const Measurement *m) {
  if (!m)
    return "–";
  if (!m->timing.ok)
    return m->error.empty() ? "–"
           : m->error.find("not supported") != std::string::npos ? "unsupported"
                                                                 : "error";
  return num(m->timing.medianUs, m->timing.medianUs < 100 ? "%.2f" : "%.1f");
}

struct Summary {
  Group group;
  int matrices = 0, failed = 0;
  double vsSparse = NAN, vsDense = NAN, vsTf32 = NAN;
  int denseCount = 0, denseFaster = 0; // matrices >= 90% sparse; of them faster than dense
  std::string denseLabel;              // what "dense" is for the check (TF32 / HGEMM)
  double crossover = NAN; // lowest sparsity from which ours beats that dense on all
  int sparseMissing = 0;  // ours measured, cuSPARSE not
};

std::map<Group, std::map<int, Row>> groupRows(const Results &r) {
  std::map<Group, std::map<int, Row>> groups;
  for (const Measurement &m : r.measurements) {
    Row &row = groups[{m.op, m.type, m.size}][m.matrix];
    if (m.impl == "ours")
      row.ours = &m;
    else if (m.impl == "cusparse")
      row.cusparse = &m;
    else if (m.impl == "cublas")
      row.cublas = &m;
    else if (m.impl == "cublas_tf32")
      row.tf32 = &m;
  }
  return groups;
}

std::vector<Summary> summarize(const Results &r) {
  std::vector<Summary> out;
  for (const auto &[group, rows] : groupRows(r)) {
    Summary s;
    s.group = group;
    std::vector<double> sp, de, tf;
    std::vector<std::pair<double, bool>> denseBySparsity; // (sparsity, ours faster)
    s.denseLabel = group.type == "f32" ? "TF32" : "cuBLAS f16";
    for (const auto &[index, row] : rows) {
      if (!row.ours)
        continue;
      ++s.matrices;
      if (row.ours->check == "FAIL" || row.ours->check == "unchecked")
        ++s.failed;
      if (!row.cusparse || !row.cusparse->timing.ok)
        ++s.sparseMissing;
      sp.push_back(speedup(row.ours, row.cusparse));
      de.push_back(speedup(row.ours, row.cublas));
      tf.push_back(speedup(row.ours, row.tf32));
      const double vsDense = speedup(row.ours, group.type == "f32" ? row.tf32 : row.cublas);
      if (std::isfinite(vsDense)) {
        const double sparsity = r.matrices[index].sparsity;
        denseBySparsity.push_back({sparsity, vsDense > 1});
        if (sparsity >= kDenseCheckSparsity) {
          ++s.denseCount;
          s.denseFaster += vsDense > 1;
        }
      }
    }
    s.vsSparse = geomean(sp);
    s.vsDense = geomean(de);
    s.vsTf32 = geomean(tf);
    // The crossover: walking from the sparsest matrix down, the lowest
    // sparsity reached before the first matrix where dense is as fast.
    std::sort(denseBySparsity.begin(), denseBySparsity.end(),
              [](auto &a, auto &b) { return a.first > b.first; });
    for (auto &[sparsity, faster] : denseBySparsity) {
      if (!faster)
        break;
      s.crossover = sparsity;
    }
    out.push_back(s);
  }
  return out;
}

std::string sizeName(const std::string &op) { return op == "spmm" ? "N" : "K"; }

std::string percent(double v) { return std::isfinite(v) ? num(100 * v, "%.1f") + "%" : "–"; }

/// The summary table and the targets (also printed last on stdout).
std::string summaryMarkdown(const Results &r, const std::vector<Summary> &sums) {
  std::string md;
  md += "| op | size | type | matrices | ours / cuSPARSE | ours / cuBLAS | ours / TF32 | "
        "faster than dense at ≥ 90% sparsity | ours faster than dense from | checks |\n";
  md += "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const Summary &s : sums) {
    std::string dense = s.denseCount ? std::to_string(s.denseFaster) + " of " +
                                           std::to_string(s.denseCount) + " (vs " +
                                           s.denseLabel + ")"
                                     : "–";
    std::string checks = s.failed ? "**" + std::to_string(s.failed) + " FAILED**" : "ok";
    md += "| " + s.group.op + " | " + sizeName(s.group.op) + "=" + std::to_string(s.group.size) +
          " | " + s.group.type + " | " + std::to_string(s.matrices) + " | " +
          (std::isfinite(s.vsSparse) ? "**" + ratio(s.vsSparse) + "**" : "–") + " | " + ratio(s.vsDense) + " | " + ratio(s.vsTf32) + " | " +
          dense + " | " + (std::isfinite(s.crossover) ? percent(s.crossover) : "–") + " | " +
          checks + " |\n";
  }
  md += "\nRatios are speed-ups, the other's median time over ours (above 1: ours is "
        "faster), geometric means over the matrices where both ran and our check passed. "
        "cuBLAS is SGEMM for f32 and f16 GEMM (f32 accumulation) for f16; TF32 is cuBLAS "
        "with CUBLAS_COMPUTE_32F_FAST_TF32. \"from\": the lowest sparsity from which ours beats "
        "the dense product (TF32 for f32, f16 GEMM for f16) on every sparser matrix.\n\n";
  md += "Targets:\n\n";
  for (const Summary &s : sums) {
    const std::string name = s.group.op + " " + s.group.type + " " + sizeName(s.group.op) +
                             "=" + std::to_string(s.group.size);
    if (s.group.op == "spmm") {
      md += "- " + name + ": ≥ 1.7× cuSPARSE (geomean): " + ratio(s.vsSparse) + " — " +
            (std::isfinite(s.vsSparse) ? (s.vsSparse >= 1.7 ? "met" : "not met") : "n/a") +
            "\n";
      if (s.group.type == "f32")
        md += "- " + name + ": faster than dense TF32 from 90% sparsity: " +
              (s.denseCount ? std::to_string(s.denseFaster) + " of " +
                                  std::to_string(s.denseCount) + " matrices — " +
                                  (s.denseFaster == s.denseCount ? "met" : "not met")
                            : "n/a (no matrix ≥ 90% sparse with both measured)") +
              "\n";
    } else {
      md += "- " + name + ": ≥ 2× cuSPARSE (geomean): " + ratio(s.vsSparse) + " — " +
            (std::isfinite(s.vsSparse) ? (s.vsSparse >= 2.0 ? "met" : "not met")
                                       : "n/a (cuSPARSE did not run: see the errors)") +
            "\n";
    }
  }
  if (r.checkFailed)
    md += "\n**Some correctness checks FAILED or could not be made: see the tables and "
          "sparse.json; those rows are left out of the geometric means.**\n";
  if (!r.fatal.empty())
    md += "\n**The run stopped early: " + r.fatal + "**\n";
  return md;
}

std::string commonPrefix(const Results &r) {
  std::string prefix;
  bool first = true;
  for (const MatrixRecord &m : r.matrices) {
    if (!m.read)
      continue;
    if (first) {
      prefix = m.name.substr(0, m.name.rfind('/') + 1);
      first = false;
      continue;
    }
    size_t i = 0;
    while (i < prefix.size() && i < m.name.size() && prefix[i] == m.name[i])
      ++i;
    prefix = prefix.substr(0, i);
  }
  return prefix.substr(0, prefix.rfind('/') + 1);
}

std::string markdown(const Results &r, const Meta &meta, const Options &o,
                     const std::vector<Summary> &sums) {
  std::string md = "# Sparse products: SpMM and SDDMM against cuSPARSE and cuBLAS\n\n";
  md += meta.device + " (" + std::to_string(meta.sms) + " SMs), " + meta.date +
        "; CUDA runtime " + cudaVersionText(meta.runtime) + ", driver " +
        cudaVersionText(meta.driver) + ", cuSPARSE " + cusparseVersionText(meta.cusparse) +
        ", cuBLAS " + cublasVersionText(meta.cublas) + "; sparse-opt " + meta.git + ".\n\n";
  md += "Median of " + std::to_string(o.samples) + " samples per measurement, CUDA events " +
        (o.graphs ? "around CUDA-graph replays" : "around direct launches") +
        ", each sample ≥ " + num(o.minSampleUs, "%g") + " µs of back-to-back calls" +
        (o.flushL2 ? " (one call per sample after an L2 flush)" : "") +
        (o.dependentLaunch ? "; our kernels launched as programmatic dependent launches "
                             "(each waits for the kernels before it as it starts)"
                           : "; our kernels launched plainly (--no-dependent-launch)") +
        "; every implementation on the same inputs in this run. Random values in [-1, 1) "
        "for the sparse matrix and the dense operands (seed " + std::to_string(o.seed) +
        "). Our row order (longest rows first), the SDDMM dense blocks' column windows, "
        "the SDDMM tiles' entries' rows and their column-panel order are prepared once per "
        "matrix on the host and not timed; cuSPARSE's buffer is allocated and its "
        "preprocessing done before timing.\n\n";
  md += "## Summary\n\n" + summaryMarkdown(r, sums);

  const std::string prefix = commonPrefix(r);
  if (!prefix.empty())
    md += "\nMatrix names below are relative to `" + prefix + "`.\n";
  for (const auto &[group, rows] : groupRows(r)) {
    const bool spmm = group.op == "spmm";
    const char *title = spmm                      ? "SpMM"
                        : group.op == "sddmm_ab" ? "SDDMM (A · B) ⊙ S"
                                                 : "SDDMM";
    md += "\n## " + std::string(title) + " " + group.type + ", " + sizeName(group.op) + " = " +
          std::to_string(group.size) + "\n\n";
    if (spmm) {
      md += "| matrix | rows×cols | sparsity | ours µs | cuSPARSE µs | cuBLAS µs | TF32 µs | "
            "ours / cuSPARSE | ours / cuBLAS | ours / TF32 | schedule | check (rel. err) |\n";
      md += "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    } else {
      md += "| matrix | rows×cols | sparsity | ours µs | cuSPARSE µs | ours / cuSPARSE | "
            "schedule | check (rel. err) |\n";
      md += "|---|---|---|---|---|---|---|---|\n";
    }
    for (const auto &[index, row] : rows) {
      const MatrixRecord &mr = r.matrices[index];
      std::string name = mr.name.substr(prefix.size());
      std::string check = "–";
      if (row.ours) {
        check = row.ours->check.empty() ? (row.ours->error.empty() ? "–" : "error")
                                        : row.ours->check;
        if (check == "FAIL")
          check = "**FAIL**";
        if (std::isfinite(row.ours->relErr))
          check += " (" + num(row.ours->relErr, "%.1e") + ")";
      }
      md += "| " + name + " | " + std::to_string(mr.rows) + "×" + std::to_string(mr.cols) +
            " | " + percent(mr.sparsity) + " | " + micros(row.ours) + " | " +
            micros(row.cusparse) + " | ";
      if (spmm)
        md += micros(row.cublas) + " | " + micros(row.tf32) + " | " +
              ratio(speedup(row.ours, row.cusparse)) + " | " +
              ratio(speedup(row.ours, row.cublas)) + " | " +
              ratio(speedup(row.ours, row.tf32)) + " | ";
      else
        md += ratio(speedup(row.ours, row.cusparse)) + " | ";
      md += "`" + (row.ours ? row.ours->schedule : std::string()) + "` | " + check + " |\n";
    }
  }

  // Errors worth reading.
  std::string errors;
  for (const MatrixRecord &m : r.matrices)
    if (!m.error.empty())
      errors += "- " + m.name + ": " + m.error + "\n";
  std::map<std::string, int> libraryErrors;
  for (const Measurement &m : r.measurements)
    if (!m.error.empty())
      ++libraryErrors[m.op + " " + m.type + " " + m.impl + ": " + m.error];
  for (const auto &[text, count] : libraryErrors)
    errors += "- " + text + " (" + std::to_string(count) + " measurement" +
              (count > 1 ? "s" : "") + ")\n";
  if (!errors.empty())
    md += "\n## Errors and skipped inputs\n\n" + errors;

  if (!r.exploreSummaries.empty()) {
    md += "\n## Schedule exploration\n\nFor the explored matrices, the best valid schedule "
          "of the grid (see the README) against the heuristic's choice; `heuristic µs` is "
          "the main measurement, `best / heuristic` its time over the best's. Every "
          "schedule's time is in sparse_explore.csv.\n\n";
    std::map<Group, std::vector<double>> gains;
    md += "| op | size | type | matrix | heuristic | heuristic µs | best | best µs | "
          "heuristic / best |\n|---|---|---|---|---|---|---|---|---|\n";
    for (const ExploreSummary &s : r.exploreSummaries) {
      const double gain = s.heuristicUs / s.bestUs;
      gains[{s.op, s.type, s.size}].push_back(gain);
      md += "| " + s.op + " | " + sizeName(s.op) + "=" + std::to_string(s.size) + " | " +
            s.type + " | " + r.matrices[s.matrix].name.substr(prefix.size()) + " | `" +
            s.heuristicSchedule + "` | " + num(s.heuristicUs, "%.2f") + " | `" +
            s.bestSchedule + "` | " + num(s.bestUs, "%.2f") + " | " + ratio(gain) + " |\n";
    }
    md += "\nGeometric mean of heuristic / best per (op, size, type): ";
    bool first = true;
    for (const auto &[g, v] : gains) {
      md += (first ? "" : ", ") + g.op + " " + sizeName(g.op) + "=" + std::to_string(g.size) +
            " " + g.type + " " + ratio(geomean(v));
      first = false;
    }
    md += ".\n";
  }
  return md;
}

std::string timingJson(const Timing &t) {
  std::string j = "{\"median_us\": " + num(t.medianUs) + ", \"min_us\": " + num(t.minUs) +
                  ", \"max_us\": " + num(t.maxUs) + ", \"launches_per_sample\": " +
                  std::to_string(t.launches) + ", \"mode\": " + jsonEscape(t.mode) +
                  ", \"samples_us\": [";
  for (size_t i = 0; i < t.samplesUs.size(); ++i)
    j += (i ? ", " : "") + num(t.samplesUs[i], "%.5g");
  j += "]";
  if (!t.note.empty())
    j += ", \"note\": " + jsonEscape(t.note);
  return j + "}";
}

std::string json(const Results &r, const Meta &meta, const Options &o,
                 const std::vector<Summary> &sums) {
  std::string j = "{\n\"meta\": {";
  j += "\"device\": " + jsonEscape(meta.device) + ", \"sms\": " + std::to_string(meta.sms) +
       ", \"compute_capability\": \"" + std::to_string(meta.ccMajor) + "." +
       std::to_string(meta.ccMinor) + "\", \"l2_bytes\": " + std::to_string(meta.l2Bytes) +
       ", \"memory_bytes\": " + std::to_string(meta.memoryBytes) +
       ", \"cuda_runtime\": " + jsonEscape(cudaVersionText(meta.runtime)) +
       ", \"cuda_runtime_raw\": " + std::to_string(meta.runtime) +
       ", \"cuda_driver\": " + jsonEscape(cudaVersionText(meta.driver)) +
       ", \"cuda_driver_raw\": " + std::to_string(meta.driver) +
       ", \"cusparse\": " + jsonEscape(cusparseVersionText(meta.cusparse)) +
       ", \"cusparse_raw\": " + std::to_string(meta.cusparse) +
       ", \"cublas\": " + jsonEscape(cublasVersionText(meta.cublas)) +
       ", \"cublas_raw\": " + std::to_string(meta.cublas) +
       ", \"date\": " + jsonEscape(meta.date) + ", \"sparse_opt_git\": " +
       jsonEscape(meta.git) + ", \"command_line\": " + jsonEscape(meta.commandLine) +
       ", \"seed\": " + std::to_string(o.seed) + ", \"samples\": " +
       std::to_string(o.samples) + ", \"min_sample_us\": " + num(o.minSampleUs) +
       ", \"warmup_us\": " + num(o.warmupUs) + ", \"graphs\": " +
       (o.graphs ? "true" : "false") + ", \"flush_l2\": " + (o.flushL2 ? "true" : "false") +
       ", \"dependent_launch\": " + (o.dependentLaunch ? "true" : "false") +
       ", \"check_failed\": " + (r.checkFailed ? "true" : "false") +
       ", \"fatal\": " + (r.fatal.empty() ? "null" : jsonEscape(r.fatal)) + "},\n";

  j += "\"matrices\": [";
  for (size_t i = 0; i < r.matrices.size(); ++i) {
    const MatrixRecord &m = r.matrices[i];
    j += std::string(i ? "," : "") + "\n {\"index\": " + std::to_string(i) +
         ", \"name\": " + jsonEscape(m.name) + ", \"path\": " + jsonEscape(m.path);
    if (m.read)
      j += ", \"rows\": " + std::to_string(m.rows) + ", \"cols\": " + std::to_string(m.cols) +
           ", \"nnz\": " + std::to_string(m.nnz) + ", \"sparsity\": " +
           num(m.sparsity, "%.8g") + ", \"empty_rows\": " +
           std::to_string(m.stats.empty_rows) + ", \"max_row_length\": " +
           std::to_string(m.stats.max_length) + ", \"mean_row_length\": " +
           num(m.stats.mean_length) + ", \"stddev_row_length\": " +
           num(m.stats.stddev_length) + ", \"explored\": " + (m.explored ? "true" : "false");
    j += ", \"error\": " + (m.error.empty() ? std::string("null") : jsonEscape(m.error)) + "}";
  }
  j += "\n],\n\"measurements\": [";
  for (size_t i = 0; i < r.measurements.size(); ++i) {
    const Measurement &m = r.measurements[i];
    j += std::string(i ? "," : "") + "\n {\"matrix\": " + jsonEscape(r.matrices[m.matrix].name) +
         ", \"op\": " + jsonEscape(m.op) + ", \"type\": " + jsonEscape(m.type) + ", \"" +
         (m.op == "spmm" ? "n" : "k") + "\": " + std::to_string(m.size) +
         ", \"impl\": " + jsonEscape(m.impl);
    if (!m.scheduleJson.empty())
      j += ", \"schedule\": " + m.scheduleJson;
    j += ", \"check\": " + jsonEscape(m.check.empty() ? "none" : m.check) +
         ", \"rel_err\": " + num(m.relErr) + ", \"rel_err_after_timing\": " +
         num(m.relErrAfter) + ", \"tolerance\": " + num(m.tolerance) +
         ", \"reference\": " + jsonEscape(m.reference);
    if (m.timing.ok)
      j += ", \"timing\": " + timingJson(m.timing);
    j += ", \"error\": " + (m.error.empty() ? std::string("null") : jsonEscape(m.error));
    if (!m.note.empty())
      j += ", \"note\": " + jsonEscape(m.note);
    j += "}";
  }
  j += "\n],\n\"summary\": [";
  for (size_t i = 0; i < sums.size(); ++i) {
    const Summary &s = sums[i];
    j += std::string(i ? "," : "") + "\n {\"op\": " + jsonEscape(s.group.op) +
         ", \"type\": " + jsonEscape(s.group.type) + ", \"size\": " +
         std::to_string(s.group.size) + ", \"matrices\": " + std::to_string(s.matrices) +
         ", \"checks_failed\": " + std::to_string(s.failed) +
         ", \"geomean_vs_cusparse\": " + num(s.vsSparse) +
         ", \"geomean_vs_cublas\": " + num(s.vsDense) +
         ", \"geomean_vs_tf32\": " + num(s.vsTf32) + ", \"dense_check_against\": " +
         jsonEscape(s.denseLabel) + ", \"matrices_at_least_90pct\": " +
         std::to_string(s.denseCount) + ", \"faster_than_dense_at_least_90pct\": " +
         std::to_string(s.denseFaster) + ", \"faster_than_dense_from_sparsity\": " +
         num(s.crossover) + "}";
  }
  j += "\n],\n\"explore\": [";
  for (size_t i = 0; i < r.exploreSummaries.size(); ++i) {
    const ExploreSummary &s = r.exploreSummaries[i];
    j += std::string(i ? "," : "") + "\n {\"matrix\": " + jsonEscape(r.matrices[s.matrix].name) +
         ", \"op\": " + jsonEscape(s.op) + ", \"type\": " + jsonEscape(s.type) + ", \"" +
         (s.op == "spmm" ? "n" : "k") + "\": " + std::to_string(s.size) +
         ", \"schedules_tried\": " + std::to_string(s.tried) +
         ", \"schedules_timed\": " + std::to_string(s.passed) +
         ", \"schedules_failed_check\": " + std::to_string(s.failed) +
         ", \"heuristic\": {\"schedule\": " + s.heuristicScheduleJson +
         ", \"median_us\": " + num(s.heuristicUs) + ", \"median_us_in_grid\": " +
         num(s.heuristicInGridUs) + "}, \"best\": {\"schedule\": " +
         (s.bestScheduleJson.empty() ? "null" : s.bestScheduleJson) +
         ", \"median_us\": " + num(s.bestUs) + "}}";
  }
  j += "\n]\n}\n";
  return j;
}

std::string csv(const Results &r) {
  std::string c = "matrix,rows,cols,nnz,sparsity,op,type,size,impl,median_us,min_us,max_us,"
                  "samples,launches_per_sample,timing_mode,rel_err,rel_err_after_timing,"
                  "tolerance,check,reference,schedule,error\n";
  for (const Measurement &m : r.measurements) {
    const MatrixRecord &mr = r.matrices[m.matrix];
    c += csvField(mr.name) + "," + std::to_string(mr.rows) + "," + std::to_string(mr.cols) +
         "," + std::to_string(mr.nnz) + "," + csvNum(mr.sparsity, "%.8g") + "," + m.op + "," +
         m.type + "," + std::to_string(m.size) + "," + m.impl + "," +
         csvNum(m.timing.medianUs) + "," + csvNum(m.timing.minUs) + "," +
         csvNum(m.timing.maxUs) + "," + std::to_string(m.timing.samplesUs.size()) + "," +
         std::to_string(m.timing.launches) + "," + m.timing.mode + "," + csvNum(m.relErr) +
         "," + csvNum(m.relErrAfter) + "," + csvNum(m.tolerance) + "," + m.check + "," +
         csvField(m.reference) + "," + csvField(m.schedule) + "," + csvField(m.error) + "\n";
  }
  return c;
}

std::string exploreCsv(const Results &r) {
  std::string c = "matrix,sparsity,op,type,size,schedule,heuristic,median_us,rel_err,status\n";
  for (const ExploreRecord &e : r.explored)
    c += csvField(r.matrices[e.matrix].name) + "," +
         csvNum(r.matrices[e.matrix].sparsity, "%.8g") + "," + e.op + "," + e.type + "," +
         std::to_string(e.size) + "," + e.schedule + "," + (e.heuristic ? "1" : "0") + "," +
         csvNum(e.medianUs) + "," + csvNum(e.relErr) + "," + csvField(e.status) + "\n";
  return c;
}

std::string utcNow() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

} // namespace
