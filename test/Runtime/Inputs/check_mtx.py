"""Compares sopt-sparse-info --csr with a CSR built here from the same
Matrix Market files (matrix-market.test).

usage: check_mtx.py LIST OUTPUT
  LIST    the .mtx files given to sopt-sparse-info --csr, one per line
  OUTPUT  what it printed for them

An independent reading of the format's coordinate variants (real, integer
or pattern values; general or symmetric): entries mirrored across the
diagonal of a symmetric matrix, rows sorted by column, pattern values 1.
The statistics line must match the arrays (rows, cols, nnz, empty rows,
mean, population standard deviation and maximum of the row lengths), the
arrays must equal this reading's, and the values must agree to the
printed precision.
"""

import math
import sys

from check_report import finish, report


def read_mtx(path):
    with open(path) as f:
        header = f.readline().split()
        if len(header) != 5 or header[0] != "%%MatrixMarket" or header[2] != "coordinate":
            raise ValueError(f"{path}: not a coordinate Matrix Market file")
        field, symmetry = header[3].lower(), header[4].lower()
        line = f.readline()
        while line.startswith("%") or not line.strip():
            line = f.readline()
        rows, cols, count = (int(x) for x in line.split())
        entries = {}
        for line in f:
            if not line.strip() or line.startswith("%"):
                continue
            parts = line.split()
            i, j = int(parts[0]) - 1, int(parts[1]) - 1
            value = 1.0 if field == "pattern" else float(parts[2])
            entries[(i, j)] = value
            if symmetry == "symmetric" and i != j:
                entries[(j, i)] = value
        if count != sum(1 for (i, j) in entries if symmetry != "symmetric" or i >= j):
            raise ValueError(f"{path}: {count} entries announced")
    by_row = [[] for _ in range(rows)]
    for (i, j), value in entries.items():
        by_row[i].append((j, value))
    positions, coordinates, values = [0], [], []
    for row in by_row:
        row.sort()
        coordinates += [j for j, _ in row]
        values += [v for _, v in row]
        positions.append(len(coordinates))
    return rows, cols, positions, coordinates, values


def parse_output(path):
    """The blocks sopt-sparse-info --csr printed: name -> (stats, arrays)."""
    blocks, current = {}, None
    for line in open(path):
        line = line.rstrip("\n")
        if not line.startswith("  "):
            name, _, fields = line.partition(": ")
            current = {"stats": dict(f.split("=", 1) for f in fields.split())}
            blocks[name] = current
        else:
            key, _, items = line.strip().partition(":")
            current[key] = items.split()
    return blocks


def main():
    list_path, output_path = sys.argv[1:3]
    files = [line.strip() for line in open(list_path) if line.strip()]
    printed = parse_output(output_path)
    problems = []
    for path in files:
        block = printed.get(path)
        if block is None:
            problems.append(f"{path}: not printed")
            continue
        rows, cols, positions, coordinates, values = read_mtx(path)
        stats = block["stats"]
        lengths = [positions[r + 1] - positions[r] for r in range(rows)]
        mean = sum(lengths) / rows if rows else 0.0
        std = math.sqrt(sum((x - mean) ** 2 for x in lengths) / rows) if rows else 0.0
        checks = [
            ("rows", int(stats["rows"]) == rows),
            ("cols", int(stats["cols"]) == cols),
            ("nnz", int(stats["nnz"]) == len(coordinates)),
            ("empty_rows", int(stats["empty_rows"]) == lengths.count(0)),
            ("row_len_mean", abs(float(stats["row_len_mean"]) - mean) < 1e-4),
            ("row_len_stddev", abs(float(stats["row_len_stddev"]) - std) < 1e-4),
            ("row_len_max", int(stats["row_len_max"]) == max(lengths, default=0)),
            ("positions", [int(x) for x in block.get("positions", [])] == positions),
            ("coordinates", [int(x) for x in block.get("coordinates", [])] == coordinates),
        ]
        got = [float(x) for x in block.get("values", [])]
        # Stored in f32, printed to 6 significant digits.
        close = len(got) == len(values) and all(
            abs(a - b) <= 1e-5 * abs(b) + 1e-37 for a, b in zip(got, values))
        checks.append(("values", close))
        report(path, checks, problems)
    return finish(
        problems, f"checked {len(files)} Matrix Market files against an independent reading: all agree")


if __name__ == "__main__":
    sys.exit(main())
