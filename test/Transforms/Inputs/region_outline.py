#!/usr/bin/env python3
"""Reads printed IR and writes one line per op of the function bodies, a
sopt.fusion region as `fusion: <its ops>`, so that FileCheck can check the
regions of a large graph by their shape.

    region_outline.py [--count] [--runs] < graph.mlir

With --count, each distinct line once, in order of first appearance, after
the number of times it occurs. With --runs, a run of the same op in a region
is written once with its length (`add*3000`)."""

import re
import sys

OP = re.compile(r"=\s*(\w+\.\w+)|^\s*(sopt\.yield|return)\b")


def runs(names):
    """`a a a b` as `a*3 b`."""
    out = []
    for name in names:
        if out and out[-1][0] == name:
            out[-1][1] += 1
        else:
            out.append([name, 1])
    return [name if n == 1 else f"{name}*{n}" for name, n in out]


def outline(lines, compress):
    region = None
    for line in lines:
        match = OP.search(line)
        name = match and (match.group(1) or match.group(2))
        if not name:
            continue
        name = name.removeprefix("sopt.")
        if region is not None:
            if name == "yield":
                yield "fusion: " + " ".join(runs(region) if compress else region)
                region = None
            else:
                region.append(name)
        elif name == "fusion":
            region = []
        else:
            yield name


def main():
    entries = outline(sys.stdin, "--runs" in sys.argv[1:])
    if "--count" not in sys.argv[1:]:
        for entry in entries:
            print(entry)
        return
    counts = {}
    for entry in entries:
        counts[entry] = counts.get(entry, 0) + 1
    for entry, count in counts.items():
        print(count, entry)


if __name__ == "__main__":
    main()
