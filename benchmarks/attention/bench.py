#!/usr/bin/env python3
"""Fused attention forward: ours against PyTorch's, on the same tensors.

Ours is the kernel of include/sparse-opt/Runtime/Kernels/Attention.cuh,
called through ctypes (attention_ours.cu built as a shared library) on
PyTorch's tensors and current stream. Peers: F.scaled_dot_product_attention
with its default backend choice (cuDNN on Hopper for bf16), its
FlashAttention-2 backend, and FlexAttention under torch.compile (causal as a
block mask), each on the same Q, K, V.

Grid: bf16, [batch, heads, seq, d] with batch x seq = 16k tokens and
heads x d = 2048 (FlashAttention's benchmark convention, enough blocks to
fill the GPU), seq 512..8192, d 64 and 128, causal and not: the cases the
tile rule (AttentionSchedule.h) was chosen on. A held-out family checks it
elsewhere: d 80 and 96 at seq 1536 and 6144 (16 heads), d 256 at 2048 and
8192 (8 heads), causal and not; FlexAttention runs on the grid only. Per case and
implementation: 3 warm-up calls, then the CUDA-event median of --reps calls.
TFLOP/s counts 4 * b * h * s^2 * d, halved under the causal mask. Every one
of our outputs is first compared with the FlashAttention-2 backend's
(relative Frobenius error must stay under 1e-2, else FAIL and exit status 1).

Writes attention.csv (raw: every implementation's median, min, max) and
attention.png into --out, and prints ratios last.
"""

import argparse
import csv
import ctypes
import math
import os
import statistics
import sys
import time

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

TOKENS = 16384
HIDDEN = 2048
SEQS = [512, 1024, 2048, 4096, 8192]
HEAD_DIMS = [64, 128]
# The cases the tile rule was chosen on ("grid": heads = HIDDEN / d), and a
# held-out family it was not (other head dimensions, lengths that are no
# power of two; 16 heads, 8 at d = 256).
GRID = [("grid", d, HIDDEN // d, seq, causal)
        for d in HEAD_DIMS for causal in (False, True) for seq in SEQS]
HELD_OUT = [("held-out", d, 16, seq, causal)
            for d in (80, 96) for causal in (False, True) for seq in (1536, 6144)] + \
           [("held-out", 256, 8, seq, causal) for causal in (False, True) for seq in (2048, 8192)]
# Tiles of kAttentionTileVariants (AttentionSchedule.h); (0, 0, 0) is the
# schedule's own choice.
TILES = [(128, 64, 4), (128, 64, 8), (128, 32, 4), (64, 64, 4)]


def time_call(fn, reps):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times), min(times), max(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lib", required=True, help="libsopt_attention_bench.so")
    parser.add_argument("--out", default=os.environ.get("OUT", "attention-out"))
    parser.add_argument("--reps", type=int, default=20)
    parser.add_argument("--flex-budget", type=float, default=90.0,
                        help="seconds FlexAttention may take (compiles included)")
    parser.add_argument("--baseline", default=None, metavar="NAME=LIB",
                        help="also time another build of ours (its default tiles) as NAME")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)

    lib = ctypes.CDLL(args.lib)
    run = lib.soptAttentionBf16
    run.restype = ctypes.c_int
    run.argtypes = [ctypes.c_void_p] * 4 + [ctypes.c_int] * 7 + [ctypes.c_float] + \
        [ctypes.c_int] * 3 + [ctypes.c_void_p]

    baseline = None
    if args.baseline:
        baseline_name, baseline_path = args.baseline.split("=", 1)
        baseline = ctypes.CDLL(baseline_path).soptAttentionBf16
        baseline.restype, baseline.argtypes = run.restype, run.argtypes

    flex = None
    try:
        from torch.nn.attention.flex_attention import create_block_mask, flex_attention
        flex = torch.compile(flex_attention)
    except Exception as error:  # noqa: BLE001 - a missing peer is reported, not fatal
        print(f"FlexAttention unavailable: {error}")
    flex_spent = 0.0

    device = torch.cuda.get_device_name()
    print(f"device: {device}, torch {torch.__version__}")
    rows = []
    failures = 0
    for family, d, heads, seq, causal in GRID + HELD_OUT:
        batch = TOKENS // seq
        shape = (batch, heads, seq, d)
        q, k, v = (torch.randn(shape, device="cuda", dtype=torch.bfloat16)
                   for _ in range(3))
        out = torch.full_like(q, float("nan"))
        scale = 1.0 / math.sqrt(d)
        flops = 4.0 * batch * heads * seq * seq * d / (2 if causal else 1)
        case = dict(family=family, d=d, seq=seq, batch=batch, heads=heads,
                    causal=int(causal))

        def ours(tile=(0, 0, 0), entry=run):
            status = entry(q.data_ptr(), k.data_ptr(), v.data_ptr(), out.data_ptr(),
                         batch, heads, heads, seq, seq, d, int(causal), scale, *tile,
                         torch.cuda.current_stream().cuda_stream)
            if status != 0:
                raise RuntimeError(f"ours: CUDA error {status}")

        with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
            reference = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        ours()
        torch.cuda.synchronize()
        err = ((out.float() - reference.float()).norm() /
               reference.float().norm()).item()
        ok = math.isfinite(err) and err < 1e-2
        failures += not ok
        print(f"check d{d} s{seq} causal={int(causal)}: ours vs flash2 rel_err={err:.2e}"
              f" {'PASS' if ok else 'FAIL'}")

        impls = {"ours": ours}
        if d <= 128:
            for tile in TILES:
                impls["ours-%dx%dw%d" % tile] = (lambda t=tile: ours(t))
        if baseline is not None:
            impls[baseline_name] = lambda: ours(entry=baseline)

        def sdpa_default():
            F.scaled_dot_product_attention(q, k, v, is_causal=causal)

        def sdpa_flash():
            with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
                F.scaled_dot_product_attention(q, k, v, is_causal=causal)

        impls["sdpa-default"] = sdpa_default
        impls["sdpa-flash2"] = sdpa_flash
        if flex is not None and family == "grid" and flex_spent < args.flex_budget:
            began = time.time()
            try:
                mask = None
                if causal:
                    mask = create_block_mask(lambda b, h, qi, ki: qi >= ki, None, None,
                                             seq, seq, device="cuda")
                flex(q, k, v, block_mask=mask)
                torch.cuda.synchronize()
                impls["flex"] = lambda m=mask: flex(q, k, v, block_mask=m)
            except Exception as error:  # noqa: BLE001
                print(f"flex d{d} s{seq}: {type(error).__name__}: {error}")
            flex_spent += time.time() - began
        for name, fn in impls.items():
            try:
                median, low, high = time_call(fn, args.reps)
            except Exception as error:  # noqa: BLE001
                print(f"{name} d{d} s{seq}: {type(error).__name__}: {error}")
                continue
            rows.append(dict(case, impl=name, median_ms=median, min_ms=low, max_ms=high,
                             tflops=flops / median / 1e9))
        del q, k, v, out, reference
        torch.cuda.empty_cache()

    with open(os.path.join(args.out, "attention.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        writer.writerows(rows)

    report(rows, args.out, args.baseline.split("=", 1)[0] if args.baseline else None)
    print(f"{'FAILED' if failures else 'PASSED'}: {failures} check failure(s)")
    return 1 if failures else 0


def report(rows, out, baseline_name):
    """The TFLOP/s table, the plot, the tile rule's share and the ratios."""
    table = {}
    for r in rows:
        table[(r["d"], r["causal"], r["seq"], r["impl"])] = r["tflops"]
    impls = sorted({r["impl"] for r in rows}, key=lambda n: (not n.startswith("ours"), n))
    print("\nTFLOP/s (bf16, [batch, heads, seq, d], batch x seq = 16k tokens)")
    print("family   d    causal seq   heads " + " ".join(f"{n:>16}" for n in impls))
    for family, d, heads, seq, causal in GRID + HELD_OUT:
        cells = [table.get((d, int(causal), seq, n)) for n in impls]
        print(f"{family:<8} {d:<4} {int(causal):<6} {seq:<5} {heads:<5} " +
              " ".join(f"{c:16.1f}" if c else f"{'-':>16}" for c in cells))

    plot(rows, out)

    print("\nthe tile rule against the best tile variant (ours / best variant, TFLOP/s)")
    for family in ("grid", "held-out"):
        shares = []
        for fam, d, heads, seq, causal in GRID + HELD_OUT:
            variants = [table[(d, int(causal), seq, "ours-%dx%dw%d" % t)] for t in TILES
                        if fam == family and (d, int(causal), seq, "ours-%dx%dw%d" % t) in table]
            if variants and (d, int(causal), seq, "ours") in table:
                shares.append(table[(d, int(causal), seq, "ours")] / max(variants))
        if shares:
            print(f"{family:<8} mean {statistics.mean(shares):.3f}  min {min(shares):.3f}"
                  f"  ({len(shares)} cases)")

    print("\nratios: ours / peer (TFLOP/s; geomean, then worst case)")
    for family in ("grid", "held-out"):
        cases = [(d, int(c), s) for f, d, _, s, c in GRID + HELD_OUT if f == family]
        peers = ("sdpa-default", "sdpa-flash2", "flex") + ((baseline_name,) if baseline_name else ())
        for peer in peers:
            ratios = [table[(d, c, s, "ours")] / table[(d, c, s, peer)] for d, c, s in cases
                      if (d, c, s, peer) in table and (d, c, s, "ours") in table]
            if ratios:
                geo = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
                print(f"{family:<8} ours / {peer:<18} geomean {geo:.3f}  min {min(ratios):.3f}"
                      f"  ({len(ratios)} cases)")


def plot(rows, out):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plot")
        return
    fig, axes = plt.subplots(1, 4, figsize=(18, 4.2), sharey=True)
    for ax, (d, causal) in zip(axes, [(d, c) for d in HEAD_DIMS for c in (0, 1)]):
        for impl in ("ours", "sdpa-default", "sdpa-flash2", "flex"):
            points = sorted((r["seq"], r["tflops"]) for r in rows
                            if r["family"] == "grid" and r["d"] == d and r["causal"] == causal
                            and r["impl"] == impl)
            if points:
                ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=impl)
        ax.set_xscale("log", base=2)
        ax.set_title(f"d={d}{' causal' if causal else ''}")
        ax.set_xlabel("sequence length")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("TFLOP/s (bf16)")
    axes[0].legend()
    fig.suptitle(f"Attention forward (bf16) on {torch.cuda.get_device_name()}, "
                 "16k tokens, heads x d = 2048")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "attention.png"), dpi=110)


if __name__ == "__main__":
    sys.exit(main())
