#!/usr/bin/env python3
"""Time against density, one panel per pattern family and size, from the
bench.csv of bench.py:  plot.py bench.csv out.png"""

import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

STYLE = {
    "ours f32": ("C0", "-o"), "ours bf16": ("C0", "--o"),
    "ours 3 kernels f32": ("C2", "-s"), "torch chain f32": ("C3", "-^"),
    "sdpa f32": ("C1", "-d"), "sdpa bf16": ("C1", "--d"),
}


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    series = defaultdict(list)
    for r in rows:
        series[(int(r["tokens"]), r["family"], r["impl"])].append(
            (float(r["density"]), float(r["ms"])))
    sizes = sorted({k[0] for k in series})
    families = list(dict.fromkeys(r["family"] for r in rows))
    fig, axes = plt.subplots(len(sizes), len(families), squeeze=False,
                             figsize=(3.2 * len(families), 3.0 * len(sizes)))
    for i, n in enumerate(sizes):
        for j, family in enumerate(families):
            ax = axes[i][j]
            for impl, (color, fmt) in STYLE.items():
                points = sorted(series.get((n, family, impl), []))
                if points:
                    ax.plot([100 * p[0] for p in points], [p[1] for p in points], fmt,
                            color=color, label=impl, markersize=4)
            ax.set_yscale("log")
            ax.set_title(f"{family}, {n} tokens", fontsize=9)
            ax.set_xlabel("density (%)", fontsize=8)
            if j == 0:
                ax.set_ylabel("ms (8 heads, d 64)", fontsize=8)
            ax.grid(True, which="both", alpha=0.3)
    axes[0][0].legend(fontsize=7)
    fig.suptitle("Sparse attention on the H200: fused kernel against its peers", fontsize=10)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
