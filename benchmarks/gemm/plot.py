"""Plots a gemm_bench CSV (TFLOP/s against the product's size, ours and
cuBLAS) and, when given, an epilogue_bench CSV (Linear + bias + GELU as
compiled, ours against cuBLAS + separate kernel).

    python3 benchmarks/gemm/plot.py GEMM_CSV [EPILOGUE_CSV] -o OUT.png
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

IMPLS = [("ours", "ours (GemmSimt, rule)", "tab:blue"),
         ("cublas_sgemm", "cuBLAS SGEMM", "tab:orange"),
         ("cublas_tf32", "cuBLAS TF32 (tensor cores)", "tab:gray")]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("gemm_csv")
    parser.add_argument("epilogue_csv", nargs="?")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()

    rows = list(csv.DictReader(open(args.gemm_csv)))
    device = rows[0]["device"] if rows else "?"
    panels = 2 if args.epilogue_csv else 1
    fig, axes = plt.subplots(1, panels, figsize=(7 * panels, 4.8), squeeze=False)
    ax = axes[0][0]
    for impl, label, color in IMPLS:
        points = sorted((2 * int(r["m"]) * int(r["n"]) * int(r["k"]) / 1e9, float(r["tflops"]))
                        for r in rows if r["impl"] == impl)
        ax.scatter([p[0] for p in points], [p[1] for p in points], s=14, label=label, color=color)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("product size, GFLOP (2·M·N·K)")
    ax.set_ylabel("TFLOP/s")
    shapes = len({(r["m"], r["n"], r["k"]) for r in rows})
    ax.set_title(f"f32 GEMM, {device}: {shapes} shapes")
    ax.legend(fontsize=8)
    ax.grid(True, which="both", alpha=0.3)

    if args.epilogue_csv:
        ax = axes[0][1]
        cases = list(csv.DictReader(open(args.epilogue_csv)))
        names = [f"{c['m']}x{c['n']}x{c['k']}" for c in cases]
        xs = range(len(cases))
        ax.bar([x - 0.2 for x in xs], [float(c["ours_tflops"]) for c in cases], 0.4,
               label="ours: GEMM + fused bias+GELU epilogue", color="tab:blue")
        ax.bar([x + 0.2 for x in xs], [float(c["cublas_tflops"]) for c in cases], 0.4,
               label="cuBLAS SGEMM + bias+GELU kernel", color="tab:orange")
        ax.set_xticks(list(xs))
        ax.set_xticklabels(names, rotation=30, ha="right", fontsize=8)
        ax.set_ylabel("TFLOP/s of the product, whole graph timed")
        ax.set_title("Linear + bias + GELU as sparse-opt compiles it")
        ax.legend(fontsize=8)
        ax.grid(True, axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.output, dpi=110)


if __name__ == "__main__":
    main()
