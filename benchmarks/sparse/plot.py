#!/usr/bin/env python3
"""Plots sparse_bench's results: our speed-up over cuSPARSE and over the
dense product (cuBLAS TF32 for f32, cuBLAS f16 GEMM for f16) against the
sparse matrix's sparsity, one panel per op and size, log y, a line at 1.

    plot.py sparse.json [sparse.png]
"""

import json
import math
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter  # noqa: E402


# Shared with bounds.py: a grid of panels, one per (op, size), two across.
OP_NAMES = {"spmm": "SpMM", "sddmm": "SDDMM (A · Bᵀ) ⊙ S", "sddmm_ab": "SDDMM (A · B) ⊙ S"}


def panel_grid(count, height):
    """A figure of `count` panels, two across, each `height` inches tall."""
    cols = min(2, count)
    rows = math.ceil(count / cols)
    return plt.subplots(rows, cols, figsize=(6.4 * cols, height * rows), squeeze=False)


def panel_title(op, size, dtype=""):
    """'SpMM f32, N = 256': the op, its type if given, and its size."""
    name = OP_NAMES.get(op, op) + (f" {dtype}" if dtype else "")
    return f"{name}, {'N' if op == 'spmm' else 'K'} = {size}"


def save_panels(fig, axes, used, title, target, tool):
    """Blanks the panels past `used`, titles the figure and writes it."""
    for ax in list(axes.flat)[used:]:
        ax.axis("off")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(target, dpi=130)
    print(f"{tool}: wrote {target}", file=sys.stderr)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    source = sys.argv[1]
    target = sys.argv[2] if len(sys.argv) == 3 else source.rsplit(".", 1)[0] + ".png"
    with open(source) as f:
        data = json.load(f)

    sparsity = {m["name"]: m.get("sparsity") for m in data["matrices"]}
    # (op, size) -> type -> matrix -> impl -> median µs (only usable times)
    times = defaultdict(lambda: defaultdict(lambda: defaultdict(dict)))
    failed = defaultdict(set)
    for m in data["measurements"]:
        size = m.get("n", m.get("k"))
        timing = m.get("timing")
        if m["impl"] == "ours" and m["check"] in ("FAIL", "unchecked"):
            failed[(m["op"], size, m["type"])].add(m["matrix"])
            continue
        if timing and timing.get("median_us"):
            times[(m["op"], size)][m["type"]][m["matrix"]][m["impl"]] = timing["median_us"]

    panels = sorted(times, key=lambda p: (p[0] != "spmm", p[1]))
    if not panels:
        sys.exit("plot.py: no measurements to plot")
    fig, axes = panel_grid(len(panels), 4.4)

    # (peer, type) -> label, colour, marker, x offset (the DLMC matrices
    # share a few sparsities: offsets keep the series apart).
    series = [
        ("cusparse", "f32", "over cuSPARSE, f32", "tab:blue", "o", -0.5),
        ("cusparse", "f16", "over cuSPARSE, f16", "tab:cyan", "s", -0.17),
        ("cublas_tf32", "f32", "over cuBLAS TF32 (dense), f32", "tab:orange", "^", 0.17),
        ("cublas", "f16", "over cuBLAS f16 (dense), f16", "tab:red", "v", 0.5),
    ]
    for ax, (op, size) in zip(axes.flat, panels):
        plotted = False
        for peer, dtype, label, colour, marker, offset in series:
            xs, ys = [], []
            for matrix, impls in times[(op, size)][dtype].items():
                if "ours" in impls and peer in impls and sparsity.get(matrix) is not None:
                    xs.append(100 * sparsity[matrix] + offset)
                    ys.append(impls[peer] / impls["ours"])
            if xs:
                plotted = True
                geo = math.exp(sum(map(math.log, ys)) / len(ys))
                ax.scatter(xs, ys, s=18, alpha=0.75, color=colour, marker=marker,
                           label=f"{label} (geomean {geo:.2f}×)")
        for dtype in ("f32", "f16"):
            if failed[(op, size, dtype)]:
                ax.text(0.01, 0.02, f"{dtype}: {len(failed[(op, size, dtype)])} failed checks "
                        "left out", transform=ax.transAxes, color="red", fontsize=8)
        if not plotted:
            ax.text(0.5, 0.5, "nothing to compare with\n(see sparse.md: errors)",
                    transform=ax.transAxes, ha="center", va="center", color="gray")
        ax.axhline(1.0, color="black", linewidth=1)
        if op == "spmm":
            ax.axvline(90, color="gray", linestyle="--", linewidth=0.8)
        ax.set_yscale("log")
        ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 1.5, 2.0, 3.0, 5.0, 7.0)))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}×"))
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("sparsity of the sparse operand (%)")
        ax.set_ylabel("speed-up of ours (their time / ours)")
        ax.set_title(panel_title(op, size))
        ax.grid(True, which="both", alpha=0.3)
        if plotted:
            ax.legend(fontsize=7, loc="best")
    meta = data.get("meta", {})
    save_panels(fig, axes, len(panels),
                f"sparse-opt SpMM/SDDMM on {meta.get('device', '?')}, {meta.get('date', '')} "
                f"(cuSPARSE {meta.get('cusparse', '?')}, cuBLAS {meta.get('cublas', '?')})",
                target, "plot.py")


if __name__ == "__main__":
    main()
