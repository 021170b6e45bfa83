#!/usr/bin/env python3
"""Writes graph-like and banded sparse patterns as Matrix Market files, for
sweeping and benchmarking the SpMM/SDDMM schedules beyond the DLMC weight
matrices.

    benchmarks/sparse/make_graphs.py OUT_DIR [--seed S] [--only graphs|bands]

GNN adjacency matrices have power-law row lengths (a few hubs of thousands
of entries, most rows a handful), unlike pruned weights. This writes, into
OUT_DIR/graphs/:

- rmat-S-E: R-MAT graphs (Graph500's a, b, c = 0.57, 0.19, 0.19) of 2^S
  vertices and about E * 2^S distinct directed edges, self loops kept;
- uniform-S-E: the same sizes with every edge's endpoints uniform (rows
  of nearly equal length), as a contrast.

Banded patterns, unlike both, fill only the blocks near the diagonal:
most 64 x 64 blocks are empty, the few occupied ones are dense. This writes,
into OUT_DIR/bands/:

- window-S-W: sliding-window (local) attention masks of 2^S tokens, each
  attending to the W before and the W after it (|i - j| <= W);
- band-S-W-P: finite-element-like bands, each entry with |i - j| <= W
  present with probability P percent, the diagonal always.

Each is `coordinate pattern general`, entries sorted by row then column.
The same seed writes the same files.
"""
import argparse
import os
import random

# (scale, edges per vertex) of the graphs written.
RMAT = [(12, 16), (14, 8), (14, 32), (16, 16)]
UNIFORM = [(14, 16)]
# (scale, half width) of the windows; (scale, half width, percent) of the bands.
WINDOWS = [(12, 64), (12, 256), (14, 128)]
BANDS = [(12, 64, 30), (13, 512, 4), (14, 256, 10)]


def rmat_edge(rng, scale, a=0.57, b=0.19, c=0.19):
    """One R-MAT edge: a quadrant of the adjacency matrix per bit."""
    row = col = 0
    for _ in range(scale):
        r = rng.random()
        row, col = row * 2, col * 2
        if r < a:
            pass
        elif r < a + b:
            col += 1
        elif r < a + b + c:
            row += 1
        else:
            row, col = row + 1, col + 1
    return row, col


def write(path, n, edges):
    entries = sorted(edges)
    write_sorted(path, n, entries)


def write_sorted(path, n, entries):
    with open(path, 'w') as f:
        f.write('%%MatrixMarket matrix coordinate pattern general\n')
        f.write(f'% written by benchmarks/sparse/make_graphs.py\n{n} {n} {len(entries)}\n')
        f.writelines(f'{i + 1} {j + 1}\n' for i, j in entries)


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('out')
    p.add_argument('--seed', type=int, default=20261125)
    p.add_argument('--only', choices=('graphs', 'bands'),
                   help='write only this family (default both)')
    a = p.parse_args()
    if a.only != 'bands':
        write_graphs(os.path.join(a.out, 'graphs'), a.seed)
    if a.only != 'graphs':
        write_bands(os.path.join(a.out, 'bands'), a.seed)


def write_bands(out, seed):
    os.makedirs(out, exist_ok=True)
    for scale, half in WINDOWS:
        n = 1 << scale
        entries = [(i, j) for i in range(n)
                   for j in range(max(0, i - half), min(n, i + half + 1))]
        path = os.path.join(out, f'window-{scale}-{half}.mtx')
        write_sorted(path, n, entries)
        print(f'{path}: {n} x {n}, {len(entries)} entries')
    for scale, half, percent in BANDS:
        rng = random.Random(f'{seed}-band-{scale}-{half}-{percent}')
        n = 1 << scale
        entries = [(i, j) for i in range(n)
                   for j in range(max(0, i - half), min(n, i + half + 1))
                   if i == j or rng.random() * 100 < percent]
        path = os.path.join(out, f'band-{scale}-{half}-{percent}.mtx')
        write_sorted(path, n, entries)
        print(f'{path}: {n} x {n}, {len(entries)} entries')


def write_graphs(out, seed):
    os.makedirs(out, exist_ok=True)
    for kind, sizes in (('rmat', RMAT), ('uniform', UNIFORM)):
        for scale, per_vertex in sizes:
            rng = random.Random(f'{seed}-{kind}-{scale}-{per_vertex}')
            n = 1 << scale
            edges = set()
            for _ in range(per_vertex * n):
                if kind == 'rmat':
                    edges.add(rmat_edge(rng, scale))
                else:
                    edges.add((rng.randrange(n), rng.randrange(n)))
            path = os.path.join(out, f'{kind}-{scale}-{per_vertex}.mtx')
            write(path, n, edges)
            print(f'{path}: {n} x {n}, {len(edges)} entries')


if __name__ == '__main__':
    main()
