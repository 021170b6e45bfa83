#!/usr/bin/env python3
"""Writes a chain of N fusible adds with a matmul off every link, and a second
chain summing the matmuls:

    make_tapped_chain.py N

    c_i = add(c_{i-1}, x)    m_i = matmul(c_i, w)    s_i = add(s_{i-1}, m_i)

The c chain is one region and the s chain another: nothing leads from the
matmuls back into the c chain. Each merge into the c chain asks whether a
cluster with N exits reaches the new op: the forward search alone would scan
every exit, the backward one from the new op is done at once.
"""

import sys

T = "tensor<16x16xf32>"


def main():
    n = int(sys.argv[1])
    print(f"func.func @tapped_chain(%x: {T}, %w: {T}) -> ({T}, {T}) {{")
    c = "%x"
    for i in range(n):
        print(f"  %c{i} = sopt.add {c}, %x : {T}")
        print(f"  %m{i} = sopt.matmul %c{i}, %w : {T}, {T} -> {T}")
        c = f"%c{i}"
    s = "%m0"
    for i in range(1, n):
        print(f"  %s{i} = sopt.add {s}, %m{i} : {T}")
        s = f"%s{i}"
    print(f"  return {c}, {s} : {T}, {T}\n}}")


if __name__ == "__main__":
    main()
