#!/usr/bin/env python3
"""Memory-bound fusion benchmark: sparse-opt's generated CUDA against a
device-to-device copy, PyTorch eager, torch.compile and JAX/XLA.

Every case is checked against a float64 reference before it is timed, then
timed on the same inputs in the same process. Run it through run.sh (which
builds the shared library); see README.md beside this file.
"""

import argparse
import csv
import ctypes
import datetime
import gc
import json
import math
import os
import platform
import re
import statistics
import subprocess
import sys
import time
import traceback
import warnings
from dataclasses import dataclass

# JAX would otherwise grab 75% of the GPU at import, starving torch.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

import torch
import torch._dynamo
import torch.nn.functional as F
from torch.profiler import DeviceType, ProfilerActivity, profile

# One profiler session per call is what we want; its warning says otherwise.
warnings.filterwarnings("ignore", message=".*Profiler clears events.*")

try:
    import jax
    import jax.numpy as jnp
    JAX_IMPORT_ERROR = None
except Exception as err:  # recorded per case; JAX is a peer, not a requirement
    jax = jnp = None
    JAX_IMPORT_ERROR = f"import jax failed: {err!r}"

IMPLS = ("copy", "ours", "eager", "compile", "xla")
PEERS = ("eager", "compile", "xla")
DTYPES = {"f32": torch.float32, "bf16": torch.bfloat16}
TOLERANCE = {"f32": 1e-5, "bf16": 2e-2}  # ||out - ref|| / ||ref||
# A graph replay costs the CPU ~10 us, so a graph holds K calls of one case,
# K = 1 or as many as fill GRAPH_US at 3 TB/s: replays then never wait on it.
GRAPH_US = 100
GRAPH_TIMING = ("CUDA events around R replays of a CUDA graph holding K calls (the same K "
                f"for all in a case: 1, or as many as take {GRAPH_US} us at 3 TB/s)")
XLA_TIMING = ("wall clock around R back-to-back calls and one block_until_ready "
              "(JAX cannot be captured in a torch CUDA graph)")


# --- The formulations ------------------------------------------------------
# PyTorch's serves eager mode, torch.compile and (in float64) the reference.

def ln_bias_gelu_residual(x, bias, residual, gamma, beta):
    h = F.gelu(x + bias) + residual  # erf GELU, as sopt.gelu
    return F.layer_norm(h, h.shape[-1:], gamma, beta, eps=1e-5)


def softmax(x):
    return torch.softmax(x, dim=-1)


def rms_norm(x, gamma):
    return F.rms_norm(x, x.shape[-1:], gamma, eps=1e-6)


def residual_layer_norm(x, residual, gamma, beta):
    return F.layer_norm(x + residual, x.shape[-1:], gamma, beta, eps=1e-5)


def _jax_layer_norm(h, gamma, beta, eps):
    mean = jnp.mean(h, axis=-1, keepdims=True)
    centred = h - mean
    var = jnp.mean(centred * centred, axis=-1, keepdims=True)
    return centred * jax.lax.rsqrt(var + eps) * gamma + beta


def jax_ln_bias_gelu_residual(x, bias, residual, gamma, beta):
    h = jax.nn.gelu(x + bias, approximate=False) + residual
    return _jax_layer_norm(h, gamma, beta, 1e-5)


def jax_softmax(x):
    return jax.nn.softmax(x, axis=-1)


def jax_rms_norm(x, gamma):
    return x * jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + 1e-6) * gamma


def jax_residual_layer_norm(x, residual, gamma, beta):
    return _jax_layer_norm(x + residual, gamma, beta, 1e-5)


def computed_in_f32(fn):
    """Upcasts the inputs and rounds the result once, as PyTorch's fused
    normalisation kernels do; XLA fuses the casts, so they move no bytes."""
    def wrapped(*args):
        return fn(*(a.astype(jnp.float32) for a in args)).astype(args[0].dtype)
    return wrapped


@dataclass(frozen=True)
class Kind:
    args: tuple      # argument names, in the order of the generated function
    torch_fn: object
    jax_fn: object


VECTOR_ARGS = {"bias", "gamma", "beta"}  # [cols]; every other argument is [rows, cols]
KINDS = {
    "ln_bias_gelu_residual": Kind(("x", "bias", "residual", "gamma", "beta"),
                                  ln_bias_gelu_residual, jax_ln_bias_gelu_residual),
    "softmax": Kind(("x",), softmax, jax_softmax),
    "rms_norm": Kind(("x", "gamma"), rms_norm, jax_rms_norm),
    "residual_layer_norm": Kind(("x", "residual", "gamma", "beta"),
                                residual_layer_norm, jax_residual_layer_norm),
}
SHAPES = [("ln_bias_gelu_residual", 16384, 1024), ("ln_bias_gelu_residual", 65536, 768),
          ("softmax", 16384, 4096), ("softmax", 65536, 512),
          ("rms_norm", 8192, 8192), ("residual_layer_norm", 2048, 1024)]


@dataclass(frozen=True)
class Case:
    kind: str
    dtype: str
    rows: int
    cols: int

    @property
    def name(self):  # the function in memory_bound.mlir
        return f"{self.kind}_{self.dtype}_{self.rows}x{self.cols}"

    @property
    def spec(self):
        return KINDS[self.kind]

    def arg_shapes(self):
        return [(self.cols,) if a in VECTOR_ARGS else (self.rows, self.cols)
                for a in self.spec.args]

    @property
    def bytes(self):
        """Every input read once plus the output written once."""
        elems = sum(math.prod(s) for s in self.arg_shapes()) + self.rows * self.cols
        return elems * DTYPES[self.dtype].itemsize


CASES = [Case(kind, dtype, rows, cols) for kind, rows, cols in SHAPES for dtype in DTYPES]


# --- Measuring -------------------------------------------------------------

def log(msg):
    print(msg, file=sys.stderr, flush=True)
    if LOG_FILE:
        LOG_FILE.write(msg + "\n")
        LOG_FILE.flush()


LOG_FILE = None


def relative_error(out, ref):
    out = out.double()
    if not torch.isfinite(out).all():
        return math.inf
    return (torch.linalg.vector_norm(out - ref) / torch.linalg.vector_norm(ref)).item()


def profile_call(fn):
    """Device operations (kernels, memcpys, memsets) of one un-captured call,
    as CUPTI sees them: it sees every library's launches, JAX's too. Returns
    their count, names and summed duration (us; for xla, the time without
    JAX's dispatch, from this one call)."""
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    ops = [e for e in prof.events()
           if e.device_type == DeviceType.CUDA and "sync" not in e.name.lower()]
    return {"launches": len(ops), "kernels": [e.name for e in ops],
            "profiled_device_us": sum(e.time_range.elapsed_us() for e in ops)}


def capture(fn, calls):
    """Captures `calls` calls of fn in a CUDA graph; returns the graph and
    the last call's (static) output. Warms up on a side stream first, as capture needs.
    Thread-local capture leaves JAX's runtime threads free to call CUDA."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, capture_error_mode="thread_local"):
        for _ in range(calls):
            out = fn()
    torch.cuda.synchronize()
    return graph, out


def sample_per_call(measure, args):
    """measure(reps) -> ms for reps back-to-back calls. Picks reps so that a
    measurement lasts about args.target_ms (over 1 ms), warms up, and returns
    the per-call times (ms) of args.repeats measurements and reps."""
    measure(3)
    reps = max(1, math.ceil(args.target_ms / (measure(10) / 10)))
    while measure(reps) < args.target_ms / 2:  # the estimate was high: go longer
        reps *= 2
    return [measure(reps) / reps for _ in range(args.repeats)], reps


def time_graph(graph, args):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)

    def measure(reps):
        start.record()
        for _ in range(reps):
            graph.replay()
        end.record()
        end.synchronize()
        return start.elapsed_time(end)

    return sample_per_call(measure, args)


def time_wallclock(fn, args):
    def measure(reps):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(reps):
            out = fn()
        out.block_until_ready()  # one stream: the last call finishing means all did
        return (time.perf_counter() - t0) * 1e3

    return sample_per_call(measure, args)


def timing_fields(per_call_ms, reps, method):
    us = [t * 1e3 for t in per_call_ms]
    return {"time_us": statistics.median(us), "time_us_min": min(us), "time_us_max": max(us),
            "samples_us": us, "reps_per_sample": reps, "timing": method}


# --- The implementations ---------------------------------------------------

def bench_graphed(fn, ref, tol, calls, args):
    """Checks fn() against ref, counts its launches, then times CUDA-graph
    replays of `calls` calls of it; the replayed output is poisoned and
    checked again."""
    out = fn()
    torch.cuda.synchronize()
    result = {"rel_err": relative_error(out, ref) if ref is not None else None}
    result.update(profile_call(fn))
    graph, static_out = capture(fn, calls)
    if ref is not None:
        static_out.fill_(math.nan)
    per_graph_ms, reps = time_graph(graph, args)
    result.update(timing_fields([t / calls for t in per_graph_ms], reps, GRAPH_TIMING))
    result["calls_per_graph"] = calls
    if ref is not None:
        result["rel_err_replay"] = relative_error(static_out, ref)
        result["ok"] = max(result["rel_err"], result["rel_err_replay"]) <= tol
    del graph, static_out
    return result


def ours_callable(lib, case, inputs):
    """The generated host function, called through ctypes on the current
    stream (inside a capture that is the capturing stream)."""
    fn = getattr(lib, case.name)
    fn.restype = ctypes.c_int
    fn.argtypes = [ctypes.c_void_p] * (len(inputs) + 2)
    out = torch.full((case.rows, case.cols), math.nan, dtype=DTYPES[case.dtype], device="cuda")
    ptrs = [t.data_ptr() for t in inputs] + [out.data_ptr()]

    def call():
        status = fn(*ptrs, torch.cuda.current_stream().cuda_stream)
        if status != 0:
            raise RuntimeError(f"{case.name} returned cudaError_t {status}")
        return out

    return call


COPY_GRANULE = 1 << 16


def bench_copy(case, calls, args):
    """Reads + writes case.bytes, rounded up to 64 KiB copied: a memcpy node
    in a CUDA graph is slower at sizes that are a multiple of 2 KiB but not
    of 4 KiB (benchmarks/fusion/README.md). TB/s counts the bytes actually
    moved."""
    size = -(-case.bytes // 2 // COPY_GRANULE) * COPY_GRANULE
    src = torch.empty(size, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    result = bench_graphed(lambda: dst.copy_(src), None, None, calls, args)
    result["bytes"] = 2 * size
    return result


def bench_compile(case, inputs, ref, calls, args):
    torch._dynamo.reset()  # a fresh, static-shape compilation per case
    compiled = torch.compile(case.spec.torch_fn, dynamic=False)
    return bench_graphed(lambda: compiled(*inputs), ref, TOLERANCE[case.dtype], calls, args)


def to_jax(t):
    """The same tensor for JAX: shared through DLPack, else copied through
    the host (bf16 -> f32 -> bf16 is exact)."""
    try:
        return jax.dlpack.from_dlpack(t), "dlpack"
    except Exception:
        dtype = jnp.bfloat16 if t.dtype == torch.bfloat16 else jnp.float32
        return jnp.asarray(t.float().cpu().numpy()).astype(dtype), "host copy"


def from_jax(a):
    try:
        return torch.from_dlpack(a)
    except Exception:
        return torch.from_numpy(jax.device_get(a.astype(jnp.float32))).cuda()


def bench_xla(case, inputs, ref, args):
    if jax is None:
        raise RuntimeError(JAX_IMPORT_ERROR)
    if jax.default_backend() != "gpu":
        raise RuntimeError(f"JAX has no GPU backend (default backend: {jax.default_backend()})")
    converted = [to_jax(t) for t in inputs]
    jargs = [a for a, _ in converted]
    fn = jax.jit(computed_in_f32(case.spec.jax_fn))
    call = lambda: fn(*jargs)
    out = call().block_until_ready()  # compiles
    rel_err = relative_error(from_jax(out), ref)
    del out
    result = {"rel_err": rel_err, "ok": rel_err <= TOLERANCE[case.dtype],
              "inputs_via": converted[0][1], **profile_call(lambda: call().block_until_ready())}
    result["launches"] = result["launches"] or None  # CUPTI saw nothing: n/a
    result.update(timing_fields(*time_wallclock(call, args), XLA_TIMING))
    return result


def make_inputs(case):
    dtype = DTYPES[case.dtype]
    return [torch.randn(shape, device="cuda", dtype=torch.float32).to(dtype)
            for shape in case.arg_shapes()]


def run_case(case, lib, args):
    """All implementations of one case, on the same inputs."""
    inputs = make_inputs(case)
    ref = case.spec.torch_fn(*[t.double() for t in inputs])
    tol = TOLERANCE[case.dtype]
    calls = max(1, int(GRAPH_US // (case.bytes / 3e6)))  # per graph; bytes / 3e6 = us at 3 TB/s
    benches = {
        "copy": lambda: bench_copy(case, calls, args),
        "ours": lambda: bench_graphed(ours_callable(lib, case, inputs), ref, tol, calls, args),
        "eager": lambda: bench_graphed(lambda: case.spec.torch_fn(*inputs), ref, tol, calls, args),
        "compile": lambda: bench_compile(case, inputs, ref, calls, args),
        "xla": lambda: bench_xla(case, inputs, ref, args),
    }
    results = {}
    for impl, bench in benches.items():
        if impl not in args.impls:  # copy and ours always run: the others compare with them
            results[impl] = {"error": "not run (--impls)"}
            finish(results[impl], case, impl, tol)
            continue
        try:
            results[impl] = bench()
        except Exception as err:
            if impl in ("copy", "ours", "eager"):  # the baseline itself: a bug, fatal
                raise
            log(f"  {impl} failed: {err!r}")
            results[impl] = {"error": f"{type(err).__name__}: {err}",
                             "traceback": traceback.format_exc()}
        finish(results[impl], case, impl, tol)
        torch.cuda.synchronize()
    copy_bw = results["copy"]["tbps"]
    for r in results.values():
        r["frac_copy"] = r["tbps"] / copy_bw if r.get("tbps") else None
    return results


def finish(result, case, impl, tol):
    result["impl"] = impl
    result["tol"] = tol if impl != "copy" else None
    if "time_us" in result:
        result["tbps"] = result.get("bytes", case.bytes) / (result["time_us"] * 1e-6) / 1e12
    result["status"] = ("error" if "error" in result else
                        "ok" if result.get("ok", True) else "FAIL")


# --- Reporting -------------------------------------------------------------

def best_peer(impls):
    """(name, TB/s) of the fastest peer that ran and passed its check."""
    ok = [(p, impls[p]["tbps"]) for p in PEERS if impls[p]["status"] == "ok"]
    return max(ok, key=lambda kv: kv[1]) if ok else (None, None)


def geomean(values):
    values = [v for v in values if v]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


def fmt(value, spec=".2f", missing="–"):
    return missing if value is None else format(value, spec)


def cell(r):
    if r["status"] == "error":
        return "error"
    return fmt(r["tbps"]) + (" FAIL" if r["status"] == "FAIL" else "")


def markdown_table(records):
    head = ("| case | dtype | rows×cols | MB | copy | ours | eager | compile | xla "
            "| ours µs | ours / best peer | ours / copy | launches o/e/c/x |")
    columns = head.count("|") - 1
    lines = [head, "|" + "---|" * columns]
    ratios, fractions = [], []
    for rec in records:
        impls = rec["impls"]
        peer, peer_bw = best_peer(impls)
        ratio = impls["ours"]["tbps"] / peer_bw if peer_bw else None
        ratios.append(ratio)
        fractions.append(impls["ours"]["frac_copy"])
        launches = "/".join(fmt(impls[i].get("launches"), "d", "n/a") for i in ("ours",) + PEERS)
        lines.append(
            f"| {rec['kind']} | {rec['dtype']} | {rec['rows']}×{rec['cols']} "
            f"| {rec['bytes'] / 1e6:.0f} | " + " | ".join(cell(impls[i]) for i in IMPLS)
            + f" | {fmt(impls['ours']['time_us'], '.1f')} "
            f"| {fmt(ratio, '.2f')}×{f' ({peer})' if peer else ''} "
            f"| {fmt(impls['ours']['frac_copy'], '.2f')} | {launches} |")
    lines.append("| **geomean** " + "| " * (columns - 4)
                 + f"| **{fmt(geomean(ratios), '.2f')}×** | {fmt(geomean(fractions), '.2f')} | |")
    return "\n".join(lines)


TABLE_NOTES = """\
TB/s = bytes / median time per call; bytes = every input read once + the output
written once (the copy moves the same bytes: half read, half written).
copy, ours, eager, compile: CUDA-graph replays timed with CUDA events (small
cases put several calls in one graph, to hide the replays' CPU cost).
xla: wall clock over back-to-back jitted calls ending in one block_until_ready
(JAX cannot run inside a torch CUDA graph), so it includes any dispatch gap
(the JSON's profiled_device_us has the kernels' time of one profiled call).
best peer = fastest of eager/compile/xla that passed its check. FAIL = failed
the float64 check (rel. error > 1e-5 f32, 2e-2 bf16). launches = device
operations of one un-captured call (torch.profiler/CUPTI); n/a = none seen."""


def write_markdown(path, records, meta):
    with open(path, "w") as f:
        f.write(f"# Memory-bound fusion benchmark\n\n{meta['device']}, {meta['date']}; "
                f"torch {meta['torch']} (CUDA {meta['torch_cuda']}), jax {meta['jax']}.\n\n")
        f.write("Achieved bandwidth in TB/s.\n\n" + markdown_table(records) + "\n\n")
        f.write("```\n" + TABLE_NOTES + "\n```\n")


CSV_FIELDS = ["date", "device", "torch", "torch_cuda", "jax", "nvcc", "case", "kind", "dtype",
              "rows", "cols", "bytes", "impl", "status", "rel_err", "rel_err_replay", "tol",
              "time_us", "time_us_min", "time_us_max", "tbps", "frac_copy", "launches", "profiled_device_us",
              "calls_per_graph", "reps_per_sample", "n_samples", "timing", "error", "kernels", "samples_us"]


def write_csv(path, records, meta):
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, CSV_FIELDS, extrasaction="ignore")
        writer.writeheader()
        for rec in records:
            for impl, r in rec["impls"].items():
                row = {**meta, **rec, **r, "n_samples": len(r.get("samples_us", []))}
                row["kernels"] = ";".join(r.get("kernels", []))
                row["samples_us"] = ";".join(f"{t:.3f}" for t in r.get("samples_us", []))
                writer.writerow(row)


def write_plot(path, records, meta):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bars = ("ours",) + PEERS
    colors = {"ours": "tab:red", "eager": "tab:blue", "compile": "tab:green", "xla": "tab:purple"}
    width = 0.8 / len(bars)
    fig, ax = plt.subplots(figsize=(max(10, 1.35 * len(records)), 6))
    for i, impl in enumerate(bars):
        xs, ys, failed = [], [], []
        for x, rec in enumerate(records):
            r = rec["impls"][impl]
            if r["status"] != "error":
                xs.append(x + (i - (len(bars) - 1) / 2) * width)
                ys.append(r["tbps"])
                failed.append(r["status"] == "FAIL")
        for bar, fail in zip(ax.bar(xs, ys, width, label=impl, color=colors[impl]), failed):
            if fail:
                bar.set_hatch("//")
    copy_x = range(len(records))
    ax.scatter(copy_x, [rec["impls"]["copy"]["tbps"] for rec in records], marker="_", s=900,
               linewidths=2.5, color="black", zorder=3, label="copy (same bytes)")
    ax.set_xticks(list(copy_x))
    ax.set_xticklabels([f"{r['kind']}\n{r['dtype']} {r['rows']}×{r['cols']}" for r in records],
                       fontsize=8, rotation=30, ha="right")
    ax.set_ylabel("achieved bandwidth (TB/s)")
    ax.set_title(f"Memory-bound fusion: {meta['device']} (hatched = failed check)")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=9, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)


# --- Driver ----------------------------------------------------------------

def metadata(args):
    def nvidia_smi(field):
        try:
            return subprocess.run(["nvidia-smi", f"--query-gpu={field}", "--format=csv,noheader"],
                                  capture_output=True, text=True, timeout=30).stdout.strip()
        except Exception:
            return None

    props = torch.cuda.get_device_properties(0)
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "device": torch.cuda.get_device_name(0),
        "sms": props.multi_processor_count,
        "driver": nvidia_smi("driver_version"),
        "torch": torch.__version__, "torch_cuda": torch.version.cuda,
        "jax": getattr(jax, "__version__", JAX_IMPORT_ERROR),
        "nvcc": os.environ.get("SOPT_NVCC_VERSION"),
        "python": platform.python_version(), "host": platform.node(),
        "seed": args.seed, "repeats": args.repeats, "target_ms": args.target_ms,
        "graph_timing": GRAPH_TIMING, "xla_timing": XLA_TIMING,
    }
    if jax is not None:
        meta["jax_devices"] = [str(d) for d in jax.devices()]
    if args.gen_dir and os.path.exists(os.path.join(args.gen_dir, "provenance.txt")):
        with open(os.path.join(args.gen_dir, "provenance.txt")) as f:
            meta["generated"] = f.read().strip()
    return meta


def kernel_summaries(gen_dir):
    """Function name -> the compiler's summary lines of its kernels."""
    path = os.path.join(gen_dir or "", "kernel_summary.txt")
    if not gen_dir or not os.path.exists(path):
        return {}
    with open(path) as f:
        lines = [l.strip() for l in f if l.strip()]
    return {c.name: [l for l in lines if l.startswith(c.name + "_kernel")] for c in CASES}


def warm_up_gpu(seconds=0.3):
    """Brings clocks up before the first case is timed."""
    a = torch.empty(1 << 28, dtype=torch.uint8, device="cuda")
    b = torch.empty_like(a)
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        for _ in range(20):
            b.copy_(a)
        torch.cuda.synchronize()


def progress(i, n, case, impls):
    parts = []
    for impl in IMPLS:
        r = impls[impl]
        if r["status"] == "error":
            parts.append(f"{impl} error")
        else:
            err = "" if impl == "copy" else f" err={r['rel_err']:.1e}{'' if r['status'] == 'ok' else ' FAIL'}"
            parts.append(f"{impl} {r['tbps']:.2f} TB/s{err}")
    log(f"[{i}/{n}] {case.name}: " + " | ".join(parts))


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lib", required=True, help="shared library built from memory_bound.cu")
    p.add_argument("--out", default="bench-out", help="output directory")
    p.add_argument("--gen-dir", help="directory of memory_bound.cu (kernel_summary.txt, provenance.txt)")
    p.add_argument("--cases", default=".", help="regex: run the cases whose name matches")
    p.add_argument("--impls", default="copy,ours,eager,compile,xla",
                   type=lambda s: set(s.split(",")) | {"copy", "ours"},
                   help="comma-separated implementations to time (copy and ours always run); "
                        "e.g. --impls ours for a quick sweep of compiler variants")
    p.add_argument("--repeats", type=int, default=30, help="timed measurements per implementation (>= 20)")
    p.add_argument("--target-ms", type=float, default=3.0, help="length of one measurement (> 1 ms)")
    p.add_argument("--seed", type=int, default=int.from_bytes(os.urandom(4), "little"))
    return p.parse_args()


def main():
    global LOG_FILE
    args = parse_args()
    os.makedirs(args.out, exist_ok=True)
    LOG_FILE = open(os.path.join(args.out, "memory_bound.log"), "w")
    torch.manual_seed(args.seed)
    lib = ctypes.CDLL(os.path.abspath(args.lib))
    cases = [c for c in CASES if re.search(args.cases, c.name)]
    meta = metadata(args)
    summaries = kernel_summaries(args.gen_dir)
    log(f"{meta['device']}; torch {meta['torch']}, jax {meta['jax']}; seed {args.seed}; "
        f"{len(cases)} cases")
    warm_up_gpu()

    records = []
    for i, case in enumerate(cases, 1):
        log(f"[{i}/{len(cases)}] {case.name} ({case.bytes / 1e6:.0f} MB) ...")
        impls = run_case(case, lib, args)
        records.append({"case": case.name, "kind": case.kind, "dtype": case.dtype,
                        "rows": case.rows, "cols": case.cols, "bytes": case.bytes,
                        "ours_kernels": summaries.get(case.name), "impls": impls})
        progress(i, len(cases), case, impls)
        gc.collect()
        torch.cuda.empty_cache()

    out = lambda name: os.path.join(args.out, name)
    with open(out("memory_bound.json"), "w") as f:
        json.dump({"meta": meta, "cases": records}, f, indent=1)
    write_csv(out("memory_bound.csv"), records, meta)
    write_markdown(out("memory_bound.md"), records, meta)
    try:
        write_plot(out("memory_bound.png"), records, meta)
    except Exception as err:  # the numbers matter more than the picture
        log(f"plot failed: {err!r}")

    failures = [f"{rec['case']} {impl}: rel_err {r['rel_err']:.3e}, after replay "
                f"{fmt(r.get('rel_err_replay'), '.3e')} > {r['tol']:g}"
                for rec in records for impl, r in rec["impls"].items() if r["status"] == "FAIL"]
    errors = [f"{rec['case']} {impl}: {r['error']}"
              for rec in records for impl, r in rec["impls"].items() if r["status"] == "error"]
    print(f"Results in {args.out}/memory_bound.{{json,csv,md,png,log}}")
    for line in errors:
        print(f"not run: {line}")
    for line in failures:
        print(f"CORRECTNESS FAILURE: {line}")
    print("\n" + TABLE_NOTES)
    print(f"\n{meta['device']}: achieved bandwidth (TB/s)\n")
    print(markdown_table(records), flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
