#!/usr/bin/env python3
"""Writes a chain of UNITS copies of a graph that traps a careless cycle check.

    make_cycle_traps.py UNITS [--skip K]

Unit i reads the previous unit's result %p (the argument %x for the first):

    m = matmul(p, w)       a = exp(m)        b = neg(p)
    g = matmul(a, w)       c = add(g, b)     d = sub(a, b)
    s = add(d, a of unit i-K)                p' = mul(c, s)

a -> g -> c and b -> d: a region {a, d} beside {b, c} would need each other
first (a cycle of regions, though no path of ops leaves a region and comes
back), and a -> g -> c -> p' ... is a diamond through two matmuls. The edge
from unit i-K is long: every unit between lies on a path from it.
"""

import argparse

T = "tensor<64x64xf32>"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("units", type=int)
    parser.add_argument("--skip", type=int, default=3,
                        help="how many units back the long edge reaches")
    args = parser.parse_args()
    print(f"func.func @cycle_traps(%x: {T}, %w: {T}) -> {T} {{")
    p = "%x"
    for i in range(args.units):
        far = f"%a{i - args.skip}" if i >= args.skip else "%x"
        for line in (
                f"%m{i} = sopt.matmul {p}, %w : {T}, {T} -> {T}",
                f"%a{i} = sopt.exp %m{i} : {T}",
                f"%b{i} = sopt.neg {p} : {T}",
                f"%g{i} = sopt.matmul %a{i}, %w : {T}, {T} -> {T}",
                f"%c{i} = sopt.add %g{i}, %b{i} : {T}",
                f"%d{i} = sopt.sub %a{i}, %b{i} : {T}",
                f"%s{i} = sopt.add %d{i}, {far} : {T}",
                f"%p{i} = sopt.mul %c{i}, %s{i} : {T}"):
            print(f"  {line}")
        p = f"%p{i}"
    print(f"  return {p} : {T}\n}}")


if __name__ == "__main__":
    main()
