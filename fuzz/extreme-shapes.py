#!/usr/bin/env python3
"""Compiles sopt graphs built from templates with extents at the edges of
what the compiler indexes (0, 1, 2^31 +- 1, 2^32, 2^47, 2^62, ...) and
reports every run of `sparse-opt --emit=cuda` that neither succeeds nor
fails with a located error: a signal, a timeout, or exit 1 without
`file:line:col: error:`. libFuzzer's byte mutations rarely reach such
shapes; this does so directly (docs/Fuzzing.md).

  fuzz/extreme-shapes.py SPARSE_OPT [COUNT] [SEED]
"""

import os
import random
import sys
import tempfile

from outcome import Tally, compile_outcome

EXTENTS = [0, 1, 2, 3, 7, 8, 31, 32, 33, 1024, 65535, 65536, 2**31 - 1, 2**31,
           2**32, 2**32 + 1, 2**40, 2**47, 2**48, 2**62, 2**63 - 1]
ELEMENTS = ["f32", "f16", "bf16"]
CSR = ("#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), "
       "posWidth = 32, crdWidth = 32 }>")


def t(shape, element, sparse=False):
    dims = "x".join(str(d) for d in shape)
    return f"tensor<{dims}x{element}{', #CSR' if sparse else ''}>"


def graph(rng):
    e = rng.choice(ELEMENTS)
    m, n, k, b = (rng.choice(EXTENTS) for _ in range(4))
    kind = rng.randrange(9)
    if kind == 0:
        x, y = t([m, n], e), t([m, n], e)
        return f"func.func @f(%x: {x}) -> {x} {{\n  %0 = sopt.softmax %x dim = {rng.randrange(2)} : {x}\n  return %0 : {x}\n}}\n"
    if kind == 1:
        x, r = t([m, n], e), t([m], e)
        op = rng.choice(["sum", "max", "mean"])
        return f"func.func @f(%x: {x}) -> {r} {{\n  %0 = sopt.reduce {op} %x dims = [1] : {x} -> {r}\n  return %0 : {r}\n}}\n"
    if kind == 2:
        x, r = t([m, n], e), t([n], e)
        return f"func.func @f(%x: {x}) -> {r} {{\n  %0 = sopt.reduce sum %x dims = [0] : {x} -> {r}\n  return %0 : {r}\n}}\n"
    if kind == 3:
        a, w, c = t([b, m, k], e), t([b, k, n], e), t([b, m, n], e)
        return f"func.func @f(%a: {a}, %w: {w}) -> {c} {{\n  %0 = sopt.matmul %a, %w : {a}, {w} -> {c}\n  return %0 : {c}\n}}\n"
    if kind == 4:
        x = t([m, n], e)
        eps = rng.choice(["1.0e-05", "0.0", "1.0e400", "1.0e308"])
        return f"func.func @f(%x: {x}) -> {x} {{\n  %0 = sopt.layer_norm %x epsilon = {eps} : {x}\n  %1 = sopt.exp %0 : {x}\n  return %1 : {x}\n}}\n"
    if kind == 5:
        a, w, c = t([m, k], e, True), t([k, n], e), t([m, n], e)
        return f"#CSR = {CSR}\nfunc.func @f(%a: {a}, %w: {w}) -> {c} {{\n  %0 = sopt.spmm %a, %w : {a}, {w} -> {c}\n  return %0 : {c}\n}}\n"
    if kind == 6:
        a, w, s = t([m, k], e), t([n, k], e), t([m, n], e, True)
        return f"#CSR = {CSR}\nfunc.func @f(%a: {a}, %w: {w}, %s: {s}) -> {s} {{\n  %0 = sopt.sddmm %a, %w, %s transpose_rhs : {a}, {w}, {s} -> {s}\n  return %0 : {s}\n}}\n"
    if kind == 7:
        x = t([m, n], e)
        value = rng.choice(["0.5", "0.0", "-1.0e38"])
        return f"func.func @f(%x: {x}) -> {x} {{\n  %c = sopt.constant dense<{value}> : {x}\n  %0 = sopt.add %x, %c : {x}\n  %1 = sopt.relu %0 : {x}\n  return %1 : {x}\n}}\n"
    q, kv = t([b, m, k], e), t([b, n, k], e)
    return f"func.func @f(%q: {q}, %k: {kv}) -> {q} {{\n  %0 = sopt.attention %q, %k, %k : {q}, {kv}, {kv} -> {q}\n  return %0 : {q}\n}}\n"


def main():
    tool = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 0)
    tally = Tally()
    with tempfile.TemporaryDirectory() as work:
        source, out = os.path.join(work, "g.mlir"), os.path.join(work, "g.cu")
        for i in range(count):
            text = graph(rng)
            with open(source, "w") as f:
                f.write(text)
            tally.add(compile_outcome([tool, source, "--emit=cuda", "-o", out]), i, text)
    print(f"{count} graphs: {tally.summary()}")
    return 1 if tally.findings else 0


if __name__ == "__main__":
    sys.exit(main())
