#!/usr/bin/env python3
"""The PyTorch entry against eager PyTorch and torch.compile (inductor).

For each model, on the same inputs in one process: eager, `torch.compile`
(inductor, default mode) and `torch.compile(backend="sparse_opt")` (or
`sparse_opt.compile_exported` for CSR weights, which Dynamo does not
trace). Every output is checked against eager's before anything is timed.
Times are medians of CUDA-event intervals, each around INNER back-to-back
calls as a user makes them (Python and launch overhead included), taken
after the first call (compilation) and WARMUP more.

    bench.py --prepare            # where sparse-opt is built, no GPU: fills the cache
    bench.py --out DIR            # on the GPU, with that cache: writes DIR/pytorch.csv

--prepare runs the same graphs on CPU tensors with SPARSE_OPT_PREPARE=1, so
the cache (SPARSE_OPT_CACHE_DIR) holds every part's CUDA and library; a GPU
machine without LLVM then compiles nothing. See README.md beside this file."""

import argparse
import csv
import math
import os
import statistics
import sys
import time

PREPARE = "--prepare" in sys.argv
if PREPARE:
    os.environ["SPARSE_OPT_PREPARE"] = "1"

import torch  # noqa: E402
import torch._dynamo  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import sparse_opt  # noqa: E402
import sparse_opt.backend  # noqa: E402
from sparse_opt import ops  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "test", "Python", "Inputs"))
from models import Block  # noqa: E402  (the pre-norm block of the importer tests)

DEVICE = "cpu" if PREPARE else "cuda"
DTYPES = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}
TOLERANCE = {"f32": 2e-3, "bf16": 3e-2, "f16": 1e-2}  # ||out - eager|| / ||eager||
WARMUP, REPEATS, INNER = 3, 11, 10
FIELDS = ["family", "case", "dtype", "shape", "impl", "median_ms", "min_ms", "rel_err",
          "first_call_s", "note"]
torch._dynamo.config.cache_size_limit = 64

# What the backend says while a case compiles (fallbacks, refusals) goes
# into the case's note.
_messages = []
_log = sparse_opt.backend.log


def _record(message):
    _messages.append(message)
    _log(message)


sparse_opt.backend.log = _record


# --- Models -----------------------------------------------------------------

class LayerNormGelu(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.norm = nn.LayerNorm(width)

    def forward(self, x):
        return F.gelu(self.norm(x))


class RmsNorm(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.norm = nn.RMSNorm(width, eps=1e-6)

    def forward(self, x):
        return self.norm(x)


class Softmax(nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=-1)


class FeedForward(nn.Module):
    """A transformer's MLP: x + W2 · gelu(W1 · x + b1) + b2."""

    def __init__(self, width, hidden):
        super().__init__()
        self.up = nn.Linear(width, hidden)
        self.down = nn.Linear(hidden, width)

    def forward(self, x):
        return x + self.down(F.gelu(self.up(x)))


def random_csr(rows, cols, density):
    """Drawn on the CPU under a fixed seed: the pattern, compiled in, must be
    the one the cache was prepared with."""
    dense = torch.randn(rows, cols) * (torch.rand(rows, cols) < density) / cols ** 0.5
    return dense.to_sparse_csr()


class PrunedFeedForward(nn.Module):
    """FeedForward with both weights pruned to CSR (90 % zeros)."""

    def __init__(self, width, hidden, density, dtype, sparse=True):
        super().__init__()
        w1, w2 = random_csr(hidden, width, density), random_csr(width, hidden, density)
        self.b1 = nn.Parameter(torch.randn(hidden, dtype=dtype).to(DEVICE) * 0.1, requires_grad=False)
        for name, w in (("w1", w1), ("w2", w2)):
            w = w.to(dtype).to(DEVICE) if sparse else w.to_dense().to(DEVICE, dtype)
            setattr(self, name, nn.Parameter(w, requires_grad=False))

    def forward(self, x):
        return F.linear(torch.relu(F.linear(x, self.w1, self.b1)), self.w2) + x


# --- Cases -------------------------------------------------------------------
# Each case: (family, name, dtype, shape, {impl: callable}, inputs). The
# first impl is the reference every other is checked against.

def compiled_trio(module, x):
    return {"eager": module,
            "inductor": torch.compile(module, dynamic=False),
            "ours": torch.compile(module, backend="sparse_opt", dynamic=False)}


def layer_cases():
    rows, width = 8192, 4096
    for dtype in ("f32", "bf16"):
        for name, cls in (("layernorm_gelu", lambda: LayerNormGelu(width)),
                          ("rmsnorm", lambda: RmsNorm(width)), ("softmax", Softmax)):
            torch.manual_seed(1)
            module = cls().eval()
            for p in module.parameters():  # non-trivial affine parameters
                p.data.uniform_(0.5, 1.5)
            module = module.to(DEVICE, DTYPES[dtype])
            x = torch.randn(rows, width).to(DEVICE, DTYPES[dtype])
            yield "layers", name, dtype, f"{rows}x{width}", compiled_trio(module, x), (x,)


def block_cases():
    batch, seq, width = 8, 512, 768
    for dtype in ("f32", "bf16"):
        for name, make in (("mlp", lambda: FeedForward(width, 4 * width)),
                           ("transformer_block", lambda: Block(width=width, heads=12))):
            torch.manual_seed(2)
            module = make().eval().to(DEVICE, DTYPES[dtype])
            x = torch.randn(batch, seq, width).to(DEVICE, DTYPES[dtype])
            yield "blocks", name, dtype, f"{batch}x{seq}x{width}", compiled_trio(module, x), (x,)


def pruned_cases():
    tokens, width, hidden, density = 4096, 768, 3072, 0.1
    for dtype in ("f32", "f16"):
        torch.manual_seed(3)
        sparse = PrunedFeedForward(width, hidden, density, DTYPES[dtype]).eval()
        torch.manual_seed(3)
        dense = PrunedFeedForward(width, hidden, density, DTYPES[dtype], sparse=False).eval()
        x = torch.randn(tokens, width).to(DEVICE, DTYPES[dtype])
        impls = {"eager_dense": dense}
        if not PREPARE:
            impls["eager_sparse"] = sparse
            impls["inductor_dense"] = torch.compile(dense, dynamic=False)
        impls["ours"] = lambda x, sparse=sparse: _exported(sparse, x)(x)
        yield "pruned", "pruned_mlp_90pct", dtype, f"{tokens}x{width}->{hidden}", impls, (x,)


_exports = {}


def _exported(module, x):
    """compile_exported on first use (its cost is the first call's)."""
    if id(module) not in _exports:
        _exports[id(module)] = sparse_opt.compile_exported(torch.export.export(module, (x,)))
    return _exports[id(module)]


def spmm_cases():
    for rows, cols, n, density in ((4096, 4096, 256, 0.01), (16384, 16384, 128, 0.001)):
        for dtype in ("f32", "f16"):
            torch.manual_seed(4)
            a = random_csr(rows, cols, density)
            a = torch.sparse_csr_tensor(a.crow_indices().int(), a.col_indices().int(),
                                        a.values().to(DTYPES[dtype]), a.shape).to(DEVICE)
            x = torch.randn(cols, n).to(DEVICE, DTYPES[dtype])
            impls = {"torch_sparse": lambda a, x: torch.sparse.mm(a, x),
                     "eager_dense": lambda a, x, d=a.to_dense(): d @ x,
                     "ours": ops.spmm}
            yield ("spmm", f"spmm_{density * 100:g}pct", dtype, f"{rows}x{cols} n={n}", impls,
                   (a, x))


# The costliest to compile (inductor) and the most telling first: a run cut
# short still has them.
FAMILIES = {"blocks": block_cases, "pruned": pruned_cases, "spmm": spmm_cases,
            "layers": layer_cases}


# --- Measuring ----------------------------------------------------------------

def relative_error(out, ref):
    out, ref = out.double(), ref.double()
    if not torch.isfinite(out).all():
        return math.inf
    return ((out - ref).norm() / ref.norm().clamp_min(1e-30)).item()


def time_calls(fn, inputs):
    for _ in range(WARMUP):
        fn(*inputs)
    torch.cuda.synchronize()
    times = []
    for _ in range(REPEATS):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(INNER):
            fn(*inputs)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / INNER)
    return statistics.median(times), min(times)


def first_call(fn, inputs):
    _messages.clear()
    started = time.perf_counter()
    out = fn(*inputs)
    if DEVICE == "cuda":
        torch.cuda.synchronize()
    return out, time.perf_counter() - started, "; ".join(_messages)


def run_case(family, name, dtype, shape, impls, inputs, writer, failures):
    reference = None
    for impl, fn in impls.items():
        if PREPARE and impl != "ours":
            continue  # only our parts are compiled into the cache
        row = dict(family=family, case=name, dtype=dtype, shape=shape, impl=impl)
        try:
            with torch.no_grad():
                out, seconds, note = first_call(fn, inputs)
                if PREPARE:
                    continue
                if isinstance(out, torch.Tensor) and out.layout == torch.sparse_csr:
                    out = out.to_dense()
                if reference is None:
                    reference, err = out, 0.0
                else:
                    err = relative_error(out, reference)
                row.update(rel_err=f"{err:.2e}", first_call_s=f"{seconds:.3f}", note=note)
                if err > TOLERANCE[dtype]:
                    failures.append(f"{name} {dtype} {impl}")
                    row["note"] = (note + "; " if note else "") + "FAILED the check, not timed"
                else:
                    median, best = time_calls(fn, inputs)
                    row.update(median_ms=f"{median:.4f}", min_ms=f"{best:.4f}")
        except NotImplementedError as err:  # PyTorch's CPU lacks f16 CSR products
            if not PREPARE:
                row["note"] = f"unsupported: {str(err).splitlines()[0][:120]}"
        except Exception as err:  # noqa: BLE001  (one impl failing must not stop the run)
            row["note"] = f"error: {type(err).__name__}: {str(err).splitlines()[0][:160]}"
            failures.append(f"{name} {dtype} {impl}")
        if not PREPARE:
            print(",".join(str(row.get(f, "")) for f in FIELDS), flush=True)
            writer.writerow(row)


def ratios(path):
    """ours against each peer, time_peer / time_ours (> 1: ours faster)."""
    rows = list(csv.DictReader(open(path)))
    cases = {}
    for r in rows:
        if r["median_ms"]:
            cases.setdefault((r["family"], r["case"], r["dtype"], r["shape"]), {})[r["impl"]] = \
                float(r["median_ms"])
    print("\nspeed-up of ours (time of peer / time of ours; > 1 = ours faster)")
    by_peer = {}
    for key, times in cases.items():
        if "ours" not in times:
            print(f"  {' '.join(key)}: ours not timed")
            continue
        parts = []
        for peer, t in times.items():
            if peer != "ours":
                parts.append(f"{peer} {t / times['ours']:.2f}x")
                by_peer.setdefault((key[0], peer), []).append(t / times["ours"])
        print(f"  {key[1]} {key[2]} {key[3]}: ours {times['ours']:.3f} ms; " + ", ".join(parts))
    print("geomean per family")
    for (family, peer), values in by_peer.items():
        g = math.exp(sum(map(math.log, values)) / len(values))
        print(f"  {family}: ours / {peer} {g:.2f}x over {len(values)} cases")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--prepare", action="store_true")
    parser.add_argument("--out", default="bench-out")
    parser.add_argument("--families", default=",".join(FAMILIES))
    args = parser.parse_args()
    failures = []
    if PREPARE:
        path = os.devnull  # nothing is measured
    else:
        os.makedirs(args.out, exist_ok=True)
        path = os.path.join(args.out, "pytorch.csv")
    if not PREPARE:
        props = torch.cuda.get_device_properties(0)
        print(f"device {props.name} ({props.multi_processor_count} SMs), torch {torch.__version__}, "
              f"CUDA {torch.version.cuda}", flush=True)
        print(",".join(FIELDS), flush=True)
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, FIELDS)
        writer.writeheader()
        for family in args.families.split(","):
            for case in FAMILIES[family]():
                run_case(*case, writer, failures)
                f.flush()
    if PREPARE:
        print("prepared", os.environ.get("SPARSE_OPT_CACHE_DIR", "~/.cache/sparse_opt"))
        return 0
    ratios(path)
    print("FAILED: " + ", ".join(failures) if failures else "all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
