#!/usr/bin/env python3
"""Refits the SpMM heuristic's constants (lib/Runtime/Schedule/SpmmScheduleRules.cpp,
`SpmmFit`) on a schedule sweep of sparse_bench.

    benchmarks/sparse/fit_spmm.py SWEEP.csv[.xz]... [--matrices] DIR... [--top K]

Each SWEEP is the sparse_explore.csv of `run.sh ... --ops=spmm --explore-all`
(benchmarks/results/sweeps/spmm-split-sweep.csv.xz: the DLMC matrices,
spmm-suitesparse-sweep.csv.xz: the SuiteSparse ones); each --matrices DIR
holds swept .smtx/.mtx files under the names the CSVs give
(../shared/data/dlmc, and the folder holding matrix-market/). For each
element size it searches a grid of constants, models the heuristic's choice
for every (matrix, n) as chooseSpmmSchedule does, and scores the choice by
the geometric mean of (best explored time / time of the chosen schedule),
per collection of matrices (the first part of their names) and n; a fit
ranks by its worst collection. A choice outside the sweep's grid counts as
a miss. It prints the K best constant sets per
element size. The model below must follow chooseSpmmSchedule: change both
together (test/Transforms/sopt-schedule-sparse.mlir checks the C++).

With --blocks it instead fits when f32 products take dense tensor-core
blocks (`prefersSpmmDenseBlocks`, `kSpmmLargeBlocks`) on a sweep that timed
them (benchmarks/results/sweeps/spmm-blocks-sweep.csv.xz): the row tiles are
the ones the current SpmmFit constants choose, and each threshold set is
scored the same way.
"""
import argparse
import collections
import csv
import io
import itertools
import lzma
import math
import os
import sys

BUSY_THREADS = 132 * 1024  # kBusyThreads
BY_COLUMN_OUTPUTS = 1 << 21  # kByColumnOutputs
MAX_SPLITS = 8


def pow2_at_most(x):
    p = 1
    while p * 2 <= x:
        p *= 2
    return p


def pow2_at_least(x):
    p = 1
    while p < x:
        p *= 2
    return p


def row_stats(path):
    """rows, cols, mean and longest row length of a DLMC .smtx file or a
    coordinate Matrix Market file (symmetric ones mirrored)."""
    with open(path) as f:
        if path.endswith('.smtx'):
            header = f.readline()
            offsets = [int(v) for v in f.readline().split()]
            rows, cols = (int(v) for v in header.split(',')[:2])
            lengths = [offsets[i + 1] - offsets[i] for i in range(rows)]
        else:
            symmetric = f.readline().split()[-1].lower() == 'symmetric'
            line = f.readline()
            while line.startswith('%') or not line.strip():
                line = f.readline()
            rows, cols, _ = (int(v) for v in line.split())
            lengths = [0] * rows
            for line in f:
                if line.strip() and not line.startswith('%'):
                    i, j = (int(v) - 1 for v in line.split()[:2])
                    lengths[i] += 1
                    if symmetric and i != j:
                        lengths[j] += 1
    return rows, cols, (sum(lengths) / rows if rows else 0.0), max(lengths, default=0)


def collection(name):
    """The collection a swept matrix belongs to: its path's first part."""
    return name.split('/')[0]


def choose(rows, mean, longest, n, element_bytes, fit):
    """The schedule name chooseSpmmSchedule gives, for a known pattern."""
    (busy_scale, width_exp, length_exp, imbalance, split_budget,
     long_budget, long_share, block_threads) = fit
    outputs = rows * n
    work = outputs / (busy_scale * BUSY_THREADS * (n / 256) ** width_exp)
    known = mean > 0
    if known:
        work *= (mean / 64) ** length_exp
        if longest > imbalance * mean:
            work /= 2
    per = min(pow2_at_most(max(work, 1.0)), 16)
    while per > 1 and per * 4 > pow2_at_least(n):
        per //= 2
    widest = next((w for w in (4, 2) if n % w == 0 and w * element_bytes <= 16), 1)
    vector = min(widest, per)
    lanes = min(max(pow2_at_least(-(-n // per)), 4), 32)
    splits = 1
    while known and splits < MAX_SPLITS:
        after = outputs / per * splits * 2
        even = after <= split_budget * BUSY_THREADS and mean >= 4.0 * splits * 2
        long_row = after <= long_budget * BUSY_THREADS and longest > long_share * splits
        if not (even or long_row):
            break
        splits *= 2
    per_block = max(1, block_threads // (lanes * splits))
    order = 'by_length' if longest > mean else 'natural'
    name = f'tpt{lanes}/cpt{per}/vw{vector}/tpb{per_block}/{order}'
    if splits > 1:
        name += f'/split{splits}'
    if outputs >= BY_COLUMN_OUTPUTS:
        name += '/by_column'
    return name


# kSpmmFit32, the f32 row-tile constants the --blocks fit keeps.
FIT32 = (0.5, 0.5, 0.25, 3.0, 0.5, 2.0, 512, 64)
DENSE_WORK = 1 << 24  # kSpmmDenseBlocksWork
BLOCKS_GRID = {
    'density': [0.15, 0.2, 0.25, 0.3, 0.4],
    'skewed_density': [0.1, 0.15, 0.2, 1.0],
    'skew': [1.5, 2.0, 3.0],
    'large_blocks': [32, 64, 96, 128, 192],
}


def choose_blocks(rows, cols, mean, longest, n, rule):
    """The dense-block shape chooseSpmmSchedule gives, or None for row tiles."""
    density_min, skewed_min, skew, large = rule
    density = mean / cols if cols else 0.0
    if rows * cols * n < DENSE_WORK:
        return None
    if not (density >= density_min or (density >= skewed_min and longest >= skew * mean)):
        return None
    side = 64 if -(-rows // 64) * -(-n // 64) >= large else 32
    return f'dense_blocks{side}x{side}'


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values))


def score(cases, times, chooser):
    """Geomean of best explored / chosen time (per collection and n, then
    over n, then the worst collection) for the schedule names
    `chooser(case)` gives; None if one is not in the sweep. With several
    collections (DLMC, SuiteSparse, ...) the worst one's score ranks a fit,
    so that none is fitted at the others' expense."""
    ratios = collections.defaultdict(list)
    for k in cases:
        chosen = chooser(k)
        if chosen not in times[k]:
            return None
        ratios[(collection(k[0]), k[2])].append(min(times[k].values()) / times[k][chosen])
    per = {key: geomean(v) for key, v in ratios.items()}
    by_collection = {c: geomean([v for (cc, _), v in per.items() if cc == c])
                     for c in {c for c, _ in per}}
    return min(by_collection.values()), per


def print_best(title, scored, names, top):
    """The `top` best (score, per_n, parameters) of `scored`."""
    scored.sort(key=lambda s: -s[0])
    print(title)
    for overall, per, values in scored[:top]:
        by_n = ', '.join(f'{c} n={n}: {v:.3f}' for (c, n), v in sorted(per.items()))
        print(f'  {overall:.3f} ({by_n})  ' +
              ', '.join(f'{k}={v:g}' for k, v in zip(names, values)))


def fit_blocks(times, stats, top):
    cases = [k for k in times if k[1] == 'f32']

    def chooser(rule):
        def choose_case(k):
            rows, cols, mean, longest = stats[k[0]]
            return (choose_blocks(rows, cols, mean, longest, k[2], rule) or
                    choose(rows, mean, longest, k[2], 4, FIT32))
        return choose_case

    scored = []
    for rule in itertools.product(*BLOCKS_GRID.values()):
        result = score(cases, times, chooser(rule))
        if result:
            scored.append((*result, rule))
    print_best('f32 dense blocks: best / chosen (geomean), by n', scored, BLOCKS_GRID, top)


GRID = {
    'busy_scale': [0.125, 0.25, 0.5, 1.0],
    'width_exp': [0.0, 0.5, 1.0],
    'length_exp': [0.0, 0.25],
    'imbalance': [3.0, 1e30],
    'split_budget': [0.5, 1.0, 2.0],
    'long_budget': [0.0, 1.0, 2.0, 4.0],
    'long_share': [64, 128, 256, 512],
    'block_threads': [64, 128, 256],
}


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('sweep', nargs='+',
                   help='sweep CSVs; a folder among them is taken as --matrices')
    p.add_argument('--matrices', action='append', default=[],
                   help='a folder the swept matrices are named relative to (repeatable)')
    p.add_argument('--top', type=int, default=5)
    p.add_argument('--blocks', action='store_true',
                   help='fit the dense-block thresholds instead (f32)')
    a = p.parse_args()
    a.matrices += [x for x in a.sweep if os.path.isdir(x)]
    a.sweep = [x for x in a.sweep if not os.path.isdir(x)]
    if not a.matrices or not a.sweep:
        p.error('give at least one sweep and one folder of matrices')
    times = collections.defaultdict(dict)
    for sweep in a.sweep:
        raw = lzma.open(sweep, 'rt') if sweep.endswith('.xz') else open(sweep)
        for r in csv.DictReader(raw):
            if r['op'] == 'spmm' and r['status'] == 'ok':
                times[(r['matrix'], r['type'], int(r['size']))][r['schedule']] = float(
                    r['median_us'])
    if not times:
        sys.exit(f'fit_spmm.py: no SpMM measurements in {" ".join(a.sweep)}')
    stats = {}
    for name in {k[0] for k in times}:
        found = [os.path.join(d, name + ext) for d in a.matrices for ext in ('.smtx', '.mtx')]
        found = [f for f in found if os.path.exists(f)]
        if not found:
            sys.exit(f'fit_spmm.py: {name}.smtx/.mtx not found under {" ".join(a.matrices)}')
        stats[name] = row_stats(found[0])
    print(f'{len(times)} (matrix, type, n) cases, '
          f'{sum(len(v) for v in times.values())} measurements', file=sys.stderr)
    if a.blocks:
        fit_blocks(times, stats, a.top)
        return
    for element, element_bytes in (('f32', 4), ('f16', 2)):
        cases = [k for k in times if k[1] == element]
        if not cases:
            continue
        scored = []
        for fit in itertools.product(*GRID.values()):
            result = score(cases, times, lambda k: choose(
                stats[k[0]][0], *stats[k[0]][2:], k[2], element_bytes, fit))
            if result:
                scored.append((*result, fit))
        print_best(f'{element}: best / chosen (geomean), by n; constants as in SpmmFit',
                   scored, GRID, a.top)

if __name__ == '__main__':
    main()
