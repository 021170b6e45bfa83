#!/usr/bin/env python3
"""Summarises a spmv_bench CSV: the automatic choice under the current
defaults, each kernel against cuSPARSE, the HBP/row-vector threshold fitted
on the `fit` family and scored on the held-out matrices, and a plot of
effective bandwidth against row-length spread.

usage: report.py <spmv-h200.csv> [plot.png]

"ours" is composed from the variants the benchmark measured in the same run:
the configuration the current defaults choose for each matrix (the HBP
kernel by tile with 8 entries a lane; the row-vector kernel with 8 entries a
lane in f32, 2 in f64), picked by the rule below.
"""
import csv
import math
import sys
from collections import defaultdict

# The defaults of lib/Runtime/Spmv/SpmvPlan.cu.
SMS = 132
TILE_ROWS = 256
MIN_TILES_PER_SM = 2
MAX_REGULAR_COV = 1.2


def hbp_variant(dtype):
    return "ours_hbp_by_tile"


def row_vector_variant(dtype):
    return "ours_row_vector_e2" if dtype == "f64" else "ours_row_vector"


def chooses_hbp(m, threshold):
    return m["cov"] > threshold and m["rows"] >= MIN_TILES_PER_SM * TILE_ROWS * SMS


def geomean(values):
    values = list(values)
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def load(path):
    cases = defaultdict(dict)
    info = {}
    for r in csv.DictReader(open(path)):
        key = (r["matrix"], r["type"])
        cases[key][r["impl"]] = float(r["median_us"])
        cases[key][r["impl"] + ":prep"] = float(r["prepare_us"])
        info[key] = {
            "family": r["family"], "rows": int(r["rows"]), "nnz": int(r["nnz"]),
            "cov": float(r["cov_length"]), "copy": float(r["copy_gbps"]),
            "gbps_per_us": float(r["effective_gbps"]) * float(r["median_us"]),
        }
    return cases, info


def fit_threshold(cases, info):
    """The interval of CoV thresholds that lose least (geomean of chosen /
    faster kernel) on the fit family, both types together: the default
    (MAX_REGULAR_COV) is to lie inside it."""
    fit = [k for k in cases if info[k]["family"] == "fit"]
    covs = sorted({info[k]["cov"] for k in fit})
    candidates = [(a + b) / 2 for a, b in zip(covs, covs[1:])] + [covs[-1] + 1]
    def loss(threshold, keys):
        ratios = []
        for k in keys:
            t = cases[k]
            hbp, rv = t[hbp_variant(k[1])], t[row_vector_variant(k[1])]
            chosen = hbp if chooses_hbp(info[k], threshold) else rv
            ratios.append(chosen / min(hbp, rv))
        return geomean(ratios)
    least = min(loss(c, fit) for c in candidates)
    best = [i for i, c in enumerate(candidates) if loss(c, fit) <= least + 1e-12]
    low = covs[best[0]]
    high = covs[best[-1] + 1] if best[-1] + 1 < len(covs) else float("inf")
    return (low, high), loss


def main():
    path = sys.argv[1]
    cases, info = load(path)
    (low, high), loss = fit_threshold(cases, info)
    threshold = MAX_REGULAR_COV
    held = [k for k in cases if info[k]["family"] != "fit"]
    fit = [k for k in cases if info[k]["family"] == "fit"]
    print(f"fit family (two row lengths): any threshold in [{low:.2f}, {high:.2f}) loses least;"
          f" the default {threshold} -> HBP above it")
    print(f"  time of the chosen kernel over the faster of the two: fit {loss(threshold, fit):.3f}, "
          f"held-out {loss(threshold, held):.3f} (1 = always the faster)")
    wrong = [f"{k[0]} {k[1]}" for k in held
             if (cases[k][hbp_variant(k[1])] < cases[k][row_vector_variant(k[1])])
             != chooses_hbp(info[k], threshold)]
    print(f"  held-out cases where the rule picks the slower kernel: {len(wrong)} of {len(held)}"
          + (": " + ", ".join(wrong) if wrong else ""))

    print()
    print(f"{'matrix':44} {'type':4} {'cov':>6} {'chosen':>10} {'ours us':>8} {'cuSP us':>8}"
          f" {'GB/s':>6} {'%copy':>6} {'prep/call':>9} {'x cuSP':>7}")
    groups = defaultdict(list)
    points = []
    for k, t in cases.items():
        m = info[k]
        hbp = chooses_hbp(m, threshold)
        variant = hbp_variant(k[1]) if hbp else row_vector_variant(k[1])
        ours = t[variant]
        cusparse = min(t["cusparse"], t["cusparse_alg2"])
        gbps = m["gbps_per_us"] / ours
        prep_calls = t[variant + ":prep"] / ours
        ratio = cusparse / ours
        print(f"{k[0][:44]:44} {k[1]:4} {m['cov']:6.2f} {'hbp' if hbp else 'row_vector':>10}"
              f" {ours:8.1f} {cusparse:8.1f} {gbps:6.0f} {100 * gbps / m['copy']:5.0f}%"
              f" {prep_calls:9.1f} {ratio:7.2f}")
        kind = "SuiteSparse .mtx" if m["family"] == "mtx" else (
            "irregular (cov > 1)" if m["cov"] > 1 else "regular (cov <= 1)")
        groups[(k[1], kind)].append(ratio)
        groups[(k[1], "all")].append(ratio)
        points.append((k[1], m["cov"], gbps, m["gbps_per_us"] / cusparse, m["family"]))
    print("\nspeedup of ours over the faster cuSPARSE algorithm (geomean):")
    for (dtype, kind), ratios in sorted(groups.items()):
        print(f"  {dtype} {kind:22} {geomean(ratios):5.2f}x over {len(ratios)}")

    if len(sys.argv) > 2:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
        for ax, dtype in zip(axes, ("f32", "f64")):
            for label, index, marker in (("ours", 2, "o"), ("cuSPARSE (faster alg.)", 3, "x")):
                xs = [max(p[1], 0.01) for p in points if p[0] == dtype and p[4] != "mtx"]
                ys = [p[index] for p in points if p[0] == dtype and p[4] != "mtx"]
                ax.scatter(xs, ys, marker=marker, label=label)
            ax.set_xscale("log")
            ax.set_title(f"SpMV {dtype}, generated 1-2 M-row matrices, H200")
            ax.set_xlabel("coefficient of variation of row length (0 shown at 0.01)")
            ax.axvline(threshold, color="gray", linestyle=":", label="HBP above this CoV")
            ax.grid(True, alpha=0.3)
        axes[0].set_ylabel("effective bandwidth, GB/s")
        axes[0].legend()
        fig.tight_layout()
        fig.savefig(sys.argv[2], dpi=110)
        print(f"\nplot: {sys.argv[2]}")


if __name__ == "__main__":
    main()
