#!/usr/bin/env python3
"""How far each sparse product of a benchmark run is from the bound of its
formulation, and how close to it a target would have to come.

    bounds.py sparse.csv limits.json [OUT_PREFIX]

sparse.csv is sparse_bench's; limits.json is what `limits --json` measured
on the same GPU. Writes OUT_PREFIX.csv (default: bounds.csv beside
sparse.csv), OUT_PREFIX.md and, with matplotlib, OUT_PREFIX.png.

The model, for the gather formulation every one of our sparse schedules
uses at 90 % sparsity and above (and cuSPARSE's and Sputnik's kernels too):
each stored entry is multiplied by a row of the dense operand read from
shared memory or L1, at least once.

- SpMM C = A · B (A m x k sparse, B k x N): nnz * N elements of B.
- SDDMM (A · Bᵀ) ⊙ S (A m x K, B n x K): nnz * K elements of B, one row
  per output, and m * K of A, its rows read once.

A call then takes at least launch + bytes / W, W the best shared-memory
read bandwidth measured (limits.cu: no bank conflicts, nothing else in the
loop), launch the graph-replayed dependent launch of an empty kernel. That
is a floor, not a forecast: no kernel of this shape reads at W while it
also computes addresses, waits on L2 and writes its outputs. The fraction
of W a time implies, bytes / W / (time - launch), says how near the floor
a kernel runs; for a target time it says how near the floor a kernel must
run to meet it (above 1: no gather kernel can). Dense formulations
(tensor-core blocks) are not bound by it and do not pay below 90 %.

Targets (issue 4): f32 SpMM faster than cuBLAS TF32 from 90 % sparsity;
SDDMM at least 2x cuSPARSE (geomean; per case here: half its time).
"""

import csv
import importlib.util
import json
import math
import os
import sys
from collections import defaultdict

ELEMENT_BYTES = {"f32": 4, "f16": 2, "bf16": 2}
MIN_SPARSITY = 0.9  # the gather schedules' range (see the docstring)


def load_times(path):
    """(op, type, size, matrix) -> {impl: median µs, '_row': the ours row}."""
    cases = defaultdict(dict)
    with open(path) as f:
        for r in csv.DictReader(f):
            if not r.get("median_us"):
                continue
            if r["impl"] == "ours" and r.get("check") not in ("ok", "", None):
                continue  # a failed check has no time worth bounding
            key = (r["op"], r["type"], int(r["size"]), r["matrix"])
            cases[key][r["impl"]] = float(r["median_us"])
            if r["impl"] == "ours":
                cases[key]["_row"] = r
    return cases


def gather_bytes(op, row, size, dtype):
    nnz, rows = int(row["nnz"]), int(row["rows"])
    s = ELEMENT_BYTES[dtype]
    if op == "spmm":
        return nnz * size * s
    if op == "sddmm":
        return (nnz + rows) * size * s
    return None  # (A · B) ⊙ S gathers columns: not modelled here


def target_us(op, dtype, impls):
    """The time a case's target asks for, or None."""
    if op == "spmm" and dtype == "f32" and "cublas_tf32" in impls:
        return impls["cublas_tf32"]
    if op == "sddmm" and "cusparse" in impls:
        return impls["cusparse"] / 2
    return None


def middle(values):
    """The median of sorted `values` (the upper one of an even count)."""
    return values[len(values) // 2]


def fraction(bytes_, bandwidth, time_us, launch_us):
    """The share of `bandwidth` that moving `bytes_` in the time past the launch implies."""
    busy = time_us - launch_us
    return math.inf if busy <= 0 else bytes_ / bandwidth / (busy * 1e-6)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    times_path, limits_path = sys.argv[1], sys.argv[2]
    prefix = sys.argv[3] if len(sys.argv) == 4 else os.path.join(
        os.path.dirname(times_path) or ".", "bounds")
    with open(limits_path) as f:
        limits = json.load(f)
    try:
        bandwidth = 1e12 * max(limits[k] for k in limits if k.startswith("shared_read_"))
        launch = limits["launch_us"]
    except (KeyError, ValueError):
        sys.exit(f"bounds.py: {limits_path} lacks shared_read_*_tbs or launch_us "
                 "(write it with `limits --json`)")

    rows = []
    for (op, dtype, size, matrix), impls in sorted(load_times(times_path).items()):
        row = impls.get("_row")
        if row is None or dtype not in ELEMENT_BYTES or float(row["sparsity"]) < MIN_SPARSITY:
            continue
        moved = gather_bytes(op, row, size, dtype)
        if moved is None:
            continue
        target = target_us(op, dtype, impls)
        rows.append({
            "op": op, "type": dtype, "size": size, "matrix": matrix,
            "shape": f"{row['rows']}x{row['cols']}", "sparsity": float(row["sparsity"]),
            "nnz": int(row["nnz"]), "schedule": row.get("schedule", ""),
            "ours_us": impls["ours"], "bound_us": launch + moved / bandwidth * 1e6,
            "target_us": target,
            "ours_fraction": fraction(moved, bandwidth, impls["ours"], launch),
            "target_fraction": None if target is None else
            fraction(moved, bandwidth, target, launch),
        })
    if not rows:
        sys.exit(f"bounds.py: no case of {MIN_SPARSITY:.0%} sparsity or more in {times_path}")

    fields = ["op", "type", "size", "matrix", "shape", "sparsity", "nnz", "schedule", "ours_us",
              "bound_us", "target_us", "ours_fraction", "target_fraction"]
    with open(prefix + ".csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for r in rows:
            w.writerow({k: (f"{v:.4g}" if isinstance(v, float) else v) for k, v in r.items()})

    lines = [
        f"# Bounds of the gather formulation ({limits.get('device', '?')})", "",
        f"Shared-memory reads at most {bandwidth / 1e12:.1f} TB/s, a launch {launch:.2f} µs "
        f"(limits.cu); cases of {MIN_SPARSITY:.0%} sparsity and more. 'ours' and 'target': the "
        "share of that bandwidth the time implies (bounds.py says how).", "",
        "| op | type | size | cases | ours: median (range) | target needs: median (range) "
        "| target needs more than ours | target needs more than 1 |",
        "|---|---|---|---|---|---|---|---|",
    ]
    groups = defaultdict(list)
    for r in rows:
        groups[(r["op"], r["type"], r["size"])].append(r)
    for (op, dtype, size), group in sorted(groups.items()):
        ours = sorted(r["ours_fraction"] for r in group)
        needs = sorted(r["target_fraction"] for r in group if r["target_fraction"] is not None)
        need_text = f"{middle(needs):.2f} ({needs[0]:.2f}-{needs[-1]:.2f})" if needs else "–"
        short = sum(1 for r in group if r["target_fraction"] is not None
                    and r["target_fraction"] > r["ours_fraction"])
        beyond = sum(1 for r in group if r["target_fraction"] is not None
                     and r["target_fraction"] > 1)
        lines.append(f"| {op} | {dtype} | {size} | {len(group)} | {middle(ours):.2f} "
                     f"({ours[0]:.2f}-{ours[-1]:.2f}) | {need_text} | "
                     f"{short if needs else '–'} | {beyond if needs else '–'} |")
    summary = list(lines)
    beating = [r for r in rows if r["ours_fraction"] > 1]
    if beating:
        lines += ["", "Faster than the bound (not a gather schedule, or limits measured low): " +
                  ", ".join(f"{r['op']} {r['type']} {r['size']} {r['matrix']} ({r['schedule']})"
                            for r in beating)]
    lines += ["", "Cases whose target needs more than ours reaches:", "",
              "| op | type | size | matrix | shape | sparsity | ours µs | target µs | bound µs "
              "| ours | target needs |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in sorted(rows, key=lambda r: (r["op"], r["type"], r["size"], -(r["target_fraction"] or 0))):
        if r["target_fraction"] is not None and r["target_fraction"] > r["ours_fraction"]:
            name = r["matrix"].replace("transformer/", "")
            lines.append(f"| {r['op']} | {r['type']} | {r['size']} | {name} | {r['shape']} | "
                         f"{r['sparsity']:.0%} | {r['ours_us']:.2f} | {r['target_us']:.2f} | "
                         f"{r['bound_us']:.2f} | {r['ours_fraction']:.2f} | "
                         f"{r['target_fraction']:.2f} |")
    with open(prefix + ".md", "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(summary))
    print(f"bounds.py: wrote {prefix}.csv and {prefix}.md", file=sys.stderr)
    plot(groups, prefix + ".png", limits, bandwidth, launch)


def plot(groups, target, limits, bandwidth, launch):
    if importlib.util.find_spec("matplotlib") is None:
        print("bounds.py: no matplotlib, no plot", file=sys.stderr)
        return
    # plot.py's panels (it sets the Agg backend), from beside this script.
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from plot import panel_grid, panel_title, save_panels

    panels = [g for g in sorted(groups) if g[1] == "f32"]
    if not panels:
        return
    fig, axes = panel_grid(len(panels), 4.2)
    for ax, key in zip(axes.flat, panels):
        op, dtype, size = key
        group = groups[key]
        # The DLMC patterns come in a few sparsities: spread each column a little.
        spread = {}
        for i, r in enumerate(sorted(group, key=lambda r: r["ours_fraction"])):
            spread[id(r)] = (i % 9 - 4) * 0.12
        xs = [100 * r["sparsity"] + spread[id(r)] for r in group]
        ax.scatter(xs, [r["ours_fraction"] for r in group], s=16, color="tab:blue",
                   label="ours")
        with_target = [r for r in group if r["target_fraction"] is not None]
        # Each case's gap: red where the target asks more than ours sustains.
        for r in with_target:
            x = 100 * r["sparsity"] + spread[id(r)]
            short = r["target_fraction"] > r["ours_fraction"]
            ax.plot([x, x], [r["ours_fraction"], min(r["target_fraction"], 3.0)],
                    color="tab:red" if short else "tab:green", linewidth=0.8, alpha=0.6)
        if with_target:
            label = ("what beating cuBLAS TF32 needs" if op == "spmm"
                     else "what 2x cuSPARSE needs")
            if any(r["target_fraction"] > 3.0 for r in with_target):
                label += " (capped at 3)"
            ax.scatter([100 * r["sparsity"] + spread[id(r)] for r in with_target],
                       [min(r["target_fraction"], 3.0) for r in with_target], s=22,
                       marker="x", color="tab:red", label=label)
        ax.axhline(1.0, color="black", linewidth=1)
        ax.set_ylim(0, max(1.2, min(3.1, max(r["target_fraction"] or 0 for r in group) + 0.1)))
        ax.set_xlabel("sparsity (%)")
        ax.set_ylabel("share of shared-memory bandwidth")
        ax.set_title(panel_title(op, size, dtype))
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7, loc="upper left")
    save_panels(fig, axes, len(panels),
                f"Gather bound on {limits.get('device', '?')}: shared memory "
                f"{bandwidth / 1e12:.1f} TB/s, launch {launch:.2f} µs (1 = the bound)",
                target, "bounds.py")


if __name__ == "__main__":
    main()
