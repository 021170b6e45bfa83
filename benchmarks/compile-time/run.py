#!/usr/bin/env python3
"""Compile-time benchmark: how long sparse-opt takes from a whole model to
CUDA, and nvcc from that CUDA to an object file.

    benchmarks/compile-time/run.py [--sparse-opt BIN] [--baseline BIN]
        [--blocks 36,179,357,1786] [--repeats 3] [--nvcc-blocks 36]
        [--split 2] [--out DIR]

Graphs are stacks of BERT-base blocks (make_bert_stack.py, 28 ops a block:
36 blocks ~ 1k ops, 357 ~ 10k, 1786 ~ 50k). Each is compiled with
`sparse-opt --emit=cuda` REPEATS times and the median CPU time (user +
system of the child) is kept; --baseline times a second binary on the same
graphs (one run each: the quadratic one takes minutes at 50k ops). nvcc then
builds the --nvcc-blocks stack as one translation unit and, with
--split-kernels=SPLIT, as parallel ones (wall time, all jobs at once), and
the baseline's source for the same stack with the old -arch=sm_90a. Writes
compile_time.json and a markdown table (stdout and compile_time.md in OUT).
"""

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OPS_PER_BLOCK = 28


def run_timed(cmd, **kwargs):
    """Runs cmd; returns (wall seconds, CPU seconds of the child)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, **kwargs)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f"run.py: {' '.join(cmd)} failed ({proc.returncode})")
    return wall, usage.ru_utime + usage.ru_stime


def compile_graph(binary, graph, out_cu, extra=()):
    return run_timed([binary, graph, "--emit=cuda", "-o", out_cu, *extra])


def count_kernels(path):
    with open(path) as f:
        return sum(1 for line in f if line.startswith('extern "C" __global__ void __launch_bounds__'))


SM90A_ONLY = ["-gencode", "arch=compute_90a,code=sm_90a"]
# What the generated file asked for before: also compute_90 PTX, a second cicc.
SM90A_AND_PTX = ["-arch=sm_90a"]


def time_nvcc(nvcc, sources, obj_dir, target=SM90A_ONLY):
    """Compiles every source at once (one nvcc each); returns (wall, CPU)."""
    flags = ["-std=c++17", "-O3", *target, f"-I{ROOT}/include"]
    start = time.perf_counter()
    procs = [subprocess.Popen([nvcc, *flags, "-c", src, "-o",
                               os.path.join(obj_dir, os.path.basename(src) + ".o")])
             for src in sources]
    cpu = 0.0
    for proc in procs:
        _, status, usage = os.wait4(proc.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"run.py: nvcc failed on {proc.args}")
        cpu += usage.ru_utime + usage.ru_stime
    return time.perf_counter() - start, cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sparse-opt", default=os.path.join(ROOT, "build", "bin", "sparse-opt"))
    parser.add_argument("--baseline", help="another sparse-opt to time on the same graphs")
    parser.add_argument("--baseline-max-blocks", type=int, default=10**9,
                        help="time the baseline only up to this many blocks")
    parser.add_argument("--blocks", default="36,179,357,1786")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--nvcc", default=shutil.which("nvcc"))
    parser.add_argument("--nvcc-blocks", type=int, default=36)
    parser.add_argument("--split", type=int, default=2,
                        help="kernel sources for the parallel nvcc build (0: skip)")
    parser.add_argument("--out", default=".")
    args = parser.parse_args()

    os.makedirs(args.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="sopt-compile-time-")
    rows, record = [], {"machine": platform.node(), "cpus": os.cpu_count(),
                        "sparse_opt": args.sparse_opt, "baseline": args.baseline,
                        "repeats": args.repeats, "graphs": []}
    for blocks in (int(b) for b in args.blocks.split(",")):
        graph = os.path.join(work, f"bert{blocks}.mlir")
        subprocess.run([sys.executable, os.path.join(HERE, "make_bert_stack.py"),
                        str(blocks), "-o", graph], check=True)
        out_cu = os.path.join(work, f"bert{blocks}.cu")
        cpu = [compile_graph(args.sparse_opt, graph, out_cu)[1] for _ in range(args.repeats)]
        entry = {"blocks": blocks, "ops": blocks * OPS_PER_BLOCK, "cpu_s": cpu,
                 "kernels": count_kernels(out_cu), "cu_bytes": os.path.getsize(out_cu)}
        if args.baseline and blocks <= args.baseline_max_blocks:
            base_cu = os.path.join(work, f"bert{blocks}.baseline.cu")
            entry["baseline_cpu_s"] = compile_graph(args.baseline, graph, base_cu)[1]
            entry["baseline_kernels"] = count_kernels(base_cu)
            entry["baseline_cu_bytes"] = os.path.getsize(base_cu)
        record["graphs"].append(entry)
        print(f"{blocks} blocks: {statistics.median(cpu):.3f} s CPU", file=sys.stderr)

    if args.nvcc:
        graph = os.path.join(work, f"nvcc{args.nvcc_blocks}.mlir")
        subprocess.run([sys.executable, os.path.join(HERE, "make_bert_stack.py"),
                        str(args.nvcc_blocks), "-o", graph], check=True)
        single = os.path.join(work, "single", "graph.cu")
        os.makedirs(os.path.dirname(single))
        compile_graph(args.sparse_opt, graph, single)
        wall, cpu = time_nvcc(args.nvcc, [single], os.path.dirname(single))
        record["nvcc"] = {"blocks": args.nvcc_blocks, "kernels": count_kernels(single),
                          "single_wall_s": wall, "single_cpu_s": cpu}
        if args.split:
            split = os.path.join(work, "split", "graph.cu")
            os.makedirs(os.path.dirname(split))
            compile_graph(args.sparse_opt, graph, split, [f"--split-kernels={args.split}"])
            sources = [split] + [split[:-3] + f".{i}.cu" for i in range(1, args.split + 1)]
            wall, cpu = time_nvcc(args.nvcc, sources, os.path.dirname(split))
            record["nvcc"].update(split=args.split, split_wall_s=wall, split_cpu_s=cpu)
        if args.baseline:
            before = os.path.join(work, "baseline", "graph.cu")
            os.makedirs(os.path.dirname(before))
            compile_graph(args.baseline, graph, before)
            wall, cpu = time_nvcc(args.nvcc, [before], os.path.dirname(before), SM90A_AND_PTX)
            record["nvcc"].update(baseline_kernels=count_kernels(before),
                                  baseline_wall_s=wall, baseline_cpu_s=cpu)
        print(f"nvcc: {record['nvcc']}", file=sys.stderr)

    lines = ["| blocks | ops | kernels | .cu KB | sparse-opt CPU s | µs/op |"
             + (" baseline CPU s | baseline kernels | baseline .cu KB |" if args.baseline else ""),
             "|---|---|---|---|---|---|" + ("---|---|---|" if args.baseline else "")]
    for g in record["graphs"]:
        med = statistics.median(g["cpu_s"])
        line = (f"| {g['blocks']} | {g['ops']} | {g['kernels']} | {g['cu_bytes'] / 1024:.0f} "
                f"| {med:.3f} | {med / g['ops'] * 1e6:.1f} |")
        if args.baseline:
            if "baseline_cpu_s" in g:
                line += (f" {g['baseline_cpu_s']:.2f} | {g['baseline_kernels']} "
                         f"| {g['baseline_cu_bytes'] / 1024:.0f} |")
            else:
                line += " - | - | - |"
        lines.append(line)
    if "nvcc" in record:
        n = record["nvcc"]
        lines.append("")
        lines.append(f"nvcc, {n['blocks']}-block stack ({n['kernels']} kernels): one source "
                     f"{n['single_wall_s']:.1f} s wall / {n['single_cpu_s']:.1f} s CPU"
                     + (f"; split into host + {n['split']} kernel sources, compiled at once: "
                        f"{n['split_wall_s']:.1f} s wall / {n['split_cpu_s']:.1f} s CPU"
                        if "split" in n else "")
                     + (f"; baseline's source ({n['baseline_kernels']} kernels) with -arch=sm_90a: "
                        f"{n['baseline_wall_s']:.1f} s wall / {n['baseline_cpu_s']:.1f} s CPU"
                        if "baseline_kernels" in n else ""))
    table = "\n".join(lines) + "\n"
    print(table)
    with open(os.path.join(args.out, "compile_time.json"), "w") as f:
        json.dump(record, f, indent=1)
    with open(os.path.join(args.out, "compile_time.md"), "w") as f:
        f.write(table)
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
