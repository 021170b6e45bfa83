#!/usr/bin/env python3
"""Fused sparse attention against its peers, on one GPU, same inputs.

For each pattern family (sliding window, window + global tokens, BigBird-like
random blocks, uniform random, power-law graph adjacency with hub rows) and
density, one CSR pattern shared by H heads of N tokens, head dim D, Q/K/V
drawn once per pattern. Timed (CUDA events around each call, median of
--reps after warm-ups, on the default stream):

  ours f32 / bf16     the fused kernel (libsparse_attention.so, its default
                      row plan, made once per pattern and not timed)
  ours 3 kernels f32  the project's SDDMM, a stored-entries softmax and its
                      SpMM, head by head (unfused_attention.cu), schedules
                      by the compiler's rules, chosen once per pattern
  torch chain f32     torch.sparse.sampled_addmm -> torch.sparse.softmax ->
                      sparse @ dense (batched over heads)
  sdpa f32 / bf16     dense F.scaled_dot_product_attention with the pattern
                      as a boolean mask (N x N)

and, for ours only, sweeps of the row plan (SparseAttentionPlan.h: split
factor, minimum split length, short rows by length or not) and of the lanes
per row (SparseAttentionDispatch.cuh), to fit them on some families and report
them on the others. Every run of ours is checked against a float64 SDPA
(f32 at the larger size).

Writes bench.csv and split.csv to --out, prints the table and the ratios
last. Run on the GPU machine: benchmarks/sparse-attention/run.sh.
"""

import argparse
import ctypes
import math
import os
import statistics
import sys

import torch
import torch.nn.functional as F

NEVER = 1e30
# (split factor, minimum split length, sort spread) of SparseAttentionPlan.h;
# None: its default rule.
PLANS = [None, (NEVER, 0, NEVER), (1, 0, 0.5), (2, 0, 0.5), (4, 0, 0.5), (8, 0, 0.5),
         (16, 0, 0.5), (2, 128, 0.5), (2, 256, 0.5), (8, 256, 0.5), (8, 256, 0),
         (8, 256, NEVER), (2, 0, 0), (2, 0, NEVER)]
MIN_LANES = [4, 8, 16, 32]
TYPES = {"f32": (0, torch.float32), "bf16": (2, torch.bfloat16)}


# --- patterns, as boolean N x N masks on the GPU ---------------------------


def band(n, half, device):
    i = torch.arange(n, device=device)
    return (i[:, None] - i[None, :]).abs() <= half


def window(n, density, gen, device):
    return band(n, max(0, round((density * n - 1) / 2)), device)


def window_global(n, density, gen, device, global_tokens=16):
    half = max(0, round((density * n - 2 * global_tokens - 1) / 2))
    mask = band(n, half, device)
    mask[:global_tokens, :] = True
    mask[:, :global_tokens] = True
    return mask


def bigbird(n, density, gen, device, block=8):
    blocks = n // block
    per_row = max(4, round(density * blocks))  # 3 window + 1 global + random
    b = band(blocks, 1, device)
    b[0, :] = True
    b[:, 0] = True
    picks = torch.randint(0, blocks, (blocks, per_row - 4), generator=gen, device=device)
    b.scatter_(1, picks, True)
    return b.repeat_interleave(block, 0).repeat_interleave(block, 1)


def uniform(n, density, gen, device):
    mask = torch.rand(n, n, generator=gen, device=device) < density
    mask |= torch.eye(n, dtype=torch.bool, device=device)  # no empty row (SDPA)
    return mask


def power_law(n, density, gen, device, exponent=0.8):
    """Degrees ~ (rank + 1)^-exponent in a random row order, mean density * n,
    hubs capped at n: a few rows hold thousands of entries."""
    rank = torch.randperm(n, generator=gen, device=device).double()
    weight = (rank + 1) ** -exponent
    degree = (weight * density * n * n / weight.sum()).clamp(max=n)
    mask = torch.rand(n, n, generator=gen, device=device, dtype=torch.float64) < (degree / n)[:, None]
    mask |= torch.eye(n, dtype=torch.bool, device=device)
    return mask


FAMILIES = {
    "window": window,
    "window+global": window_global,
    "bigbird": bigbird,
    "random": uniform,
    "power-law": power_law,
}


# --- ours through ctypes -----------------------------------------------------


class Ours:
    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        i64, p, f = ctypes.c_int64, ctypes.c_void_p, ctypes.c_float
        self.lib.sopt_sparse_attention.restype = ctypes.c_int
        self.lib.sopt_sparse_attention.argtypes = [
            ctypes.c_int, i64, i64, i64, i64, i64, i64, p, p, p, p, p, p, f, p, i64, p, i64,
            ctypes.c_int, p, i64]
        self.lib.sopt_sparse_attention_plan.restype = i64
        self.lib.sopt_sparse_attention_plan.argtypes = [
            p, i64, ctypes.c_double, i64, ctypes.c_double, p, p, p]
        self.lib.sopt_unfused_attention_prepare.restype = p
        self.lib.sopt_unfused_attention_prepare.argtypes = [
            p, p, p, i64, i64, i64, i64, i64, i64, f, p, i64]
        self.lib.sopt_unfused_attention.restype = ctypes.c_int
        self.lib.sopt_unfused_attention.argtypes = [p, p, p, p, p]
        self.lib.sopt_unfused_attention_release.restype = None
        self.lib.sopt_unfused_attention_release.argtypes = [p]

    def plan(self, positions_cpu, rows, rule, device):
        """Device (long rows or None, count, short rows or None, count) under
        `rule` (an entry of PLANS)."""
        factor, min_entries, sort_spread = rule if rule is not None else (-1.0, 0, 0.0)
        long_rows = torch.empty(max(rows, 1), dtype=torch.int32)
        short_rows = torch.empty(max(rows, 1), dtype=torch.int32)
        listed = ctypes.c_int(0)
        count = self.lib.sopt_sparse_attention_plan(
            positions_cpu.data_ptr(), rows, float(factor), int(min_entries), float(sort_spread),
            long_rows.data_ptr(), short_rows.data_ptr(), ctypes.addressof(listed))
        return (long_rows[:count].to(device) if count else None, count,
                short_rows[: rows - count].to(device) if listed.value else None, rows - count)

    def unfused(self, positions_cpu, pattern, q, k, v, scale):
        """The three-kernel path (unfused_attention.cu), prepared: (run, release,
        summary)."""
        positions, columns, rows, cols, nnz = pattern
        summary = ctypes.create_string_buffer(300)
        handle = self.lib.sopt_unfused_attention_prepare(
            positions_cpu.data_ptr(), positions.data_ptr(), columns.data_ptr(), rows, cols, nnz,
            q.shape[0], q.shape[2], v.shape[2], scale, ctypes.addressof(summary), len(summary))
        if not handle:
            raise RuntimeError("sopt_unfused_attention_prepare failed")

        def run(out):
            status = self.lib.sopt_unfused_attention(handle, q.data_ptr(), k.data_ptr(),
                                                     v.data_ptr(), out.data_ptr())
            if status != 0:
                raise RuntimeError(f"sopt_unfused_attention returned cudaError {status}")

        return run, lambda: self.lib.sopt_unfused_attention_release(handle), \
            summary.value.decode()

    def call(self, type_code, pattern, q, k, v, out, scale, plan, summary=None, min_lanes=0):
        positions, columns, rows, cols, nnz = pattern
        long_rows, long_count, short_rows, short_count = plan
        status = self.lib.sopt_sparse_attention(
            type_code, rows, cols, nnz, q.shape[0], q.shape[2], v.shape[2],
            positions.data_ptr(), columns.data_ptr(), q.data_ptr(), k.data_ptr(),
            v.data_ptr(), out.data_ptr(), scale,
            long_rows.data_ptr() if long_rows is not None else None, long_count,
            short_rows.data_ptr() if short_rows is not None else None, short_count, min_lanes,
            ctypes.addressof(summary) if summary is not None else None,
            len(summary) if summary is not None else 0)
        if status != 0:
            raise RuntimeError(f"sopt_sparse_attention returned cudaError {status}")


# --- timing ------------------------------------------------------------------


def median_ms(fn, reps, warmup=2):
    """Median over `reps` of the mean time of a run of back-to-back calls,
    each run long enough (about 1 ms) that the host's launch latency does
    not show in the short kernels' times."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    end.synchronize()
    calls = max(1, min(20, math.ceil(1.0 / max(start.elapsed_time(end), 1e-3))))
    times = []
    for _ in range(reps):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(calls):
            fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / calls)
    return statistics.median(times)


def torch_chain(mask_csr_batched, q, k, v, scale):
    scores = torch.sparse.sampled_addmm(mask_csr_batched, q, k.transpose(-1, -2), beta=0.0,
                                        alpha=scale)
    probabilities = torch.sparse.softmax(scores.to_sparse_coo(), dim=-1)
    return torch.bmm(probabilities, v)


def torch_chain_per_head(mask_csr, q, k, v, scale):
    """The same chain head by head, where the batched form is refused."""
    outs = []
    for head in range(q.shape[0]):
        scores = torch.sparse.sampled_addmm(mask_csr, q[head], k[head].t(), beta=0.0,
                                            alpha=scale)
        probabilities = torch.sparse.softmax(scores.to_sparse_coo(), dim=-1)
        outs.append(torch.sparse.mm(probabilities, v[head]))
    return torch.stack(outs)


def time_unfused(ours, positions_cpu, pattern, qkv, scale, reference, record, reps):
    """Checks and times our three-kernel path (f32) on one pattern."""
    q, k, v = qkv
    try:
        run, release, summary = ours.unfused(positions_cpu, pattern, q, k, v, scale)
        out = torch.full((q.shape[0], q.shape[1], v.shape[2]), float("nan"), device=q.device)
        run(out)
        torch.cuda.synchronize()
        err = (out.double() - reference).abs().max().item()
        record("ours 3 kernels f32", median_ms(lambda: run(out), reps), err, summary)
        release()
    except Exception as e:
        print(f"  ours 3 kernels: {type(e).__name__}: {e}", flush=True)


def run_case(args, ours, gen, device, n, family, build, density, bench, split, results):
    """Times every implementation on one pattern; rows to bench.csv and
    split.csv, times into `results` by (tokens, family, density, impl)."""
    h, d = args.heads, args.dim
    scale = 1.0 / math.sqrt(d)
    mask = build(n, density, gen, device)
    csr = mask.to_sparse_csr()
    positions = csr.crow_indices().to(torch.int32)
    columns = csr.col_indices().to(torch.int32)
    nnz = int(columns.numel())
    positions_cpu = positions.cpu()
    lengths = positions_cpu[1:] - positions_cpu[:-1]
    max_row = int(lengths.max())
    pattern = (positions, columns, n, n, nnz)
    q32 = torch.randn(h, n, d, device=device, generator=gen)
    k32 = torch.randn(h, n, d, device=device, generator=gen)
    v32 = torch.randn(h, n, d, device=device, generator=gen)
    key = (n, family, density)
    print(f"{n} {family} {density:g}: nnz {nnz} ({nnz / n / n:.3%}), "
          f"max row {max_row}", flush=True)

    def sdpa(q, k, v):
        return F.scaled_dot_product_attention(
            q[None], k[None], v[None], attn_mask=mask[None, None], scale=scale)[0]

    try:  # float64 where it fits, else f32 (then the errors are against f32)
        reference = sdpa(q32.double(), k32.double(), v32.double()) \
            if n <= 4096 else sdpa(q32, k32, v32).double()
    except Exception as e:
        print(f"  float64 reference: {type(e).__name__}: {e}", flush=True)
        reference = sdpa(q32, k32, v32).double()

    def record(impl, ms, err, summary=""):
        results[key + (impl,)] = ms
        bench.write(f"{n},{family},{density},{nnz},{max_row},{impl},{ms:.5f},"
                    f"{err:.3e},\"{summary}\"\n")
        bench.flush()
        print(f"  {impl:14s} {ms:9.4f} ms  max|err| {err:.2e}  {summary}",
              flush=True)

    plans = [ours.plan(positions_cpu, n, rule, device) for rule in PLANS]
    for tname, (code, dtype) in TYPES.items():
        q, k, v = (x.to(dtype).contiguous() for x in (q32, k32, v32))
        out = torch.full((h, n, d), float("nan"), device=device, dtype=dtype)
        summary = ctypes.create_string_buffer(200)
        ours.call(code, pattern, q, k, v, out, scale, plans[0], summary)
        torch.cuda.synchronize()
        err = (out.double() - reference).abs().max().item()
        ms = median_ms(lambda: ours.call(code, pattern, q, k, v, out, scale, plans[0]),
                       args.reps)
        record(f"ours {tname}", ms, err, summary.value.decode())
        # The sweeps: every plan with the default lanes, every lane count
        # with the default plan.
        sweep = [(rule, plan, 0) for rule, plan in zip(PLANS, plans)]
        sweep += [(None, plans[0], lanes) for lanes in MIN_LANES]
        if n > args.no_sweep_above:
            sweep = []
        for rule, plan, lanes in sweep:
            out.fill_(float("nan"))
            ours.call(code, pattern, q, k, v, out, scale, plan, None, lanes)
            torch.cuda.synchronize()
            err = (out.double() - reference).abs().max().item()
            ms = median_ms(lambda: ours.call(code, pattern, q, k, v, out, scale, plan, None,
                                             lanes), max(5, args.reps // 2))
            factor, min_entries, sort_spread = rule if rule else ("default",) * 3
            split.write(f"{n},{family},{density},{tname},{factor},{min_entries},{sort_spread},"
                        f"{lanes},{plan[1]},{int(plan[2] is not None)},{ms:.5f},{err:.3e}\n")
        split.flush()
        try:
            got = sdpa(q, k, v)
            err = (got.double() - reference).abs().max().item()
            record(f"sdpa {tname}", median_ms(lambda: sdpa(q, k, v), args.reps),
                   err)
        except Exception as e:  # a backend refusing the mask
            print(f"  sdpa {tname}: {type(e).__name__}: {e}", flush=True)

    time_unfused(ours, positions_cpu, pattern, (q32, k32, v32), scale, reference, record,
                 args.reps)

    if n <= args.no_chain_above:
        try:
            batched = torch.sparse_csr_tensor(
                csr.crow_indices().repeat(h, 1), csr.col_indices().repeat(h, 1),
                torch.zeros(h, nnz, device=device), size=(h, n, n))
            got = torch_chain(batched, q32, k32, v32, scale)
            err = (got.double() - reference).abs().max().item()
            record("torch chain f32",
                   median_ms(lambda: torch_chain(batched, q32, k32, v32, scale),
                             max(5, args.reps // 4)), err)
        except Exception as e:
            print(f"  torch chain (batched): {type(e).__name__}: {e}", flush=True)
            try:
                single = torch.sparse_csr_tensor(
                    csr.crow_indices(), csr.col_indices(),
                    torch.zeros(nnz, device=device), size=(n, n))
                got = torch_chain_per_head(single, q32, k32, v32, scale)
                err = (got.double() - reference).abs().max().item()
                record("torch chain f32",
                       median_ms(lambda: torch_chain_per_head(
                           single, q32, k32, v32, scale), max(5, args.reps // 4)),
                       err, "head by head")
            except Exception as e2:
                print(f"  torch chain (per head): {type(e2).__name__}: {e2}",
                      flush=True)
    del mask, csr
    torch.cuda.empty_cache()


def graph_csr(n, mean_degree, gen, device, exponent=0.8):
    """A power-law graph's adjacency too large for a dense mask: degrees as
    power_law's, neighbours drawn at random, duplicates removed; (positions,
    columns) int64, rows sorted by column."""
    rank = torch.randperm(n, generator=gen, device=device).double()
    weight = (rank + 1) ** -exponent
    degree = (weight * mean_degree * n / weight.sum()).clamp(min=1, max=n).long()
    rows = torch.repeat_interleave(torch.arange(n, device=device), degree)
    cols = torch.randint(0, n, (rows.numel(),), generator=gen, device=device)
    keys = torch.unique(rows * n + cols)
    rows, cols = keys // n, keys % n
    positions = torch.zeros(n + 1, dtype=torch.int64, device=device)
    positions[1:] = torch.cumsum(torch.bincount(rows, minlength=n), 0)
    return positions, cols


def run_graph(args, ours, gen, device, n, mean_degree, bench, results):
    """A GNN-sized graph (no dense mask: no SDPA): ours, our three kernels and
    the torch chain, errors against the chain in f32."""
    h, d = args.graph_heads, args.dim
    scale = 1.0 / math.sqrt(d)
    crow, col = graph_csr(n, mean_degree, gen, device)
    positions, columns = crow.to(torch.int32), col.to(torch.int32)
    nnz = int(columns.numel())
    positions_cpu = positions.cpu()
    max_row = int((positions_cpu[1:] - positions_cpu[:-1]).max())
    pattern = (positions, columns, n, n, nnz)
    q32, k32, v32 = (torch.randn(h, n, d, device=device, generator=gen) for _ in range(3))
    family = f"graph deg {mean_degree}"
    key = (n, family, mean_degree)
    print(f"{n} {family}: nnz {nnz}, max row {max_row}", flush=True)
    batched = torch.sparse_csr_tensor(crow.repeat(h, 1), col.repeat(h, 1),
                                      torch.zeros(h, nnz, device=device), size=(h, n, n))
    reference = torch_chain(batched, q32, k32, v32, scale).double()

    def record(impl, ms, err, summary=""):
        results[key + (impl,)] = ms
        bench.write(f"{n},{family},{mean_degree / n},{nnz},{max_row},{impl},{ms:.5f},"
                    f"{err:.3e},\"{summary}\"\n")
        bench.flush()
        print(f"  {impl:14s} {ms:9.4f} ms  max|err| {err:.2e}  {summary}", flush=True)

    plan = ours.plan(positions_cpu, n, None, device)
    for tname, (code, dtype) in TYPES.items():
        q, k, v = (x.to(dtype).contiguous() for x in (q32, k32, v32))
        out = torch.full((h, n, d), float("nan"), device=device, dtype=dtype)
        summary = ctypes.create_string_buffer(200)
        ours.call(code, pattern, q, k, v, out, scale, plan, summary)
        torch.cuda.synchronize()
        err = (out.double() - reference).abs().max().item()
        record(f"ours {tname}",
               median_ms(lambda: ours.call(code, pattern, q, k, v, out, scale, plan), args.reps),
               err, summary.value.decode())
    time_unfused(ours, positions_cpu, pattern, (q32, k32, v32), scale, reference, record,
                 args.reps)
    record("torch chain f32",
           median_ms(lambda: torch_chain(batched, q32, k32, v32, scale), max(5, args.reps // 4)),
           0.0, "the reference")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lib", required=True)
    parser.add_argument("--out", default=".")
    parser.add_argument("--tokens", type=int, nargs="+", default=[4096])
    parser.add_argument("--heads", type=int, default=8)
    parser.add_argument("--dim", type=int, default=64)
    parser.add_argument("--densities", type=float, nargs="+", default=[0.01, 0.02, 0.05])
    parser.add_argument("--large-tokens", type=int, default=16384,
                        help="a second, larger size, at the two lowest densities (0: none)")
    parser.add_argument("--reps", type=int, default=15)
    parser.add_argument("--graph-nodes", type=int, nargs="*", default=[131072],
                        help="GNN-sized power-law graphs (no dense mask)")
    parser.add_argument("--graph-degrees", type=int, nargs="*", default=[16, 64])
    parser.add_argument("--graph-heads", type=int, default=4)
    parser.add_argument("--no-sweep-above", type=int, default=4096,
                        help="sweep plans and lanes only up to this many tokens")
    parser.add_argument("--no-chain-above", type=int, default=8192,
                        help="skip the torch chain for more tokens than this")
    args = parser.parse_args()

    device = torch.device("cuda")
    ours = Ours(args.lib)
    gen = torch.Generator(device=device)
    gen.manual_seed(45)
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}", flush=True)

    bench = open(os.path.join(args.out, "bench.csv"), "w")
    bench.write("tokens,family,density,nnz,max_row,impl,ms,max_abs_err,summary\n")
    split = open(os.path.join(args.out, "split.csv"), "w")
    split.write("tokens,family,density,dtype,split_factor,min_split,sort_spread,min_lanes,"
                "long_rows,listed,ms,max_abs_err\n")
    results = {}

    def patterns(sizes):
        for n, densities in sizes:
            for family, build in FAMILIES.items():
                for density in densities:
                    try:
                        run_case(args, ours, gen, device, n, family, build, density, bench,
                                 split, results)
                    except Exception as e:  # keep the other cases
                        print(f"{n} {family} {density:g}: {type(e).__name__}: {e}", flush=True)

    # The small size first, then the graphs, then the large size: what a time
    # limit cuts is the last.
    patterns([(n, args.densities) for n in args.tokens])
    for n in args.graph_nodes:
        for degree in args.graph_degrees:
            try:
                run_graph(args, ours, gen, device, n, degree, bench, results)
            except Exception as e:
                print(f"{n} graph deg {degree}: {type(e).__name__}: {e}", flush=True)
    if args.large_tokens:
        patterns([(args.large_tokens, sorted(args.densities)[:2])])

    bench.close()
    split.close()
    print("\nratios (peer time / ours; > 1: ours faster)")
    peers = [("ours 3 kernels f32", "ours f32"), ("torch chain f32", "ours f32"),
             ("sdpa f32", "ours f32"), ("sdpa bf16", "ours bf16")]
    for peer, mine in peers:
        ratios = []
        for key in sorted({k[:3] for k in results}):
            if key + (peer,) in results and key + (mine,) in results:
                r = results[key + (peer,)] / results[key + (mine,)]
                ratios.append(r)
                print(f"  {key[0]:6d} {key[1]:14s} {key[2]:<5g} {peer:16s}/{mine:9s} {r:7.2f}x")
        if ratios:
            geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
            print(f"  geomean {peer} / {mine}: {geo:.2f}x over {len(ratios)} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
