"""Plots bench.py's CSV: for each case, the speed-up of ours over each peer
(peer's time / ours; above 1 ours is faster), on a log scale.

    python3 benchmarks/pytorch/plot.py pytorch.csv -o pytorch.png
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

# Each peer's role (the pruned and spmm families name theirs by weight format).
ROLES = {"eager": "eager (dense)", "eager_dense": "eager (dense)", "inductor": "torch.compile (dense)",
         "inductor_dense": "torch.compile (dense)", "eager_sparse": "torch.sparse",
         "torch_sparse": "torch.sparse"}
COLOURS = {"eager (dense)": "tab:gray", "torch.compile (dense)": "tab:orange",
           "torch.sparse": "tab:green"}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("csv")
    parser.add_argument("-o", "--out", required=True)
    args = parser.parse_args()
    cases = {}
    for r in csv.DictReader(open(args.csv)):
        if r["median_ms"]:
            key = f"{r['case']}\n{r['dtype']} {r['shape']}"
            impl = ROLES.get(r["impl"], r["impl"])
            cases.setdefault(key, {})[impl] = float(r["median_ms"])
    labels = [k for k, t in cases.items() if "ours" in t]
    peers = [p for p in COLOURS if any(p in cases[k] for k in labels)]
    width = 0.8 / max(len(peers), 1)
    fig, ax = plt.subplots(figsize=(max(8, 0.9 * len(labels)), 5))
    for i, peer in enumerate(peers):
        xs = [j + (i - (len(peers) - 1) / 2) * width for j, k in enumerate(labels) if peer in cases[k]]
        ys = [cases[k][peer] / cases[k]["ours"] for k in labels if peer in cases[k]]
        ax.bar(xs, ys, width, label=f"ours vs {peer}", color=COLOURS[peer])
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_ylabel("speed-up of ours (peer time / our time)")
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=7)
    ax.set_title("sparse_opt's PyTorch entry against eager and torch.compile (H200, medians)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)


if __name__ == "__main__":
    main()
