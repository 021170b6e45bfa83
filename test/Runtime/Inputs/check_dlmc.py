"""Compares sopt-sparse-info's lines for DLMC files with dlmc.csv (dlmc.test).

usage: check_dlmc.py DLMC_DIR LIST OUTPUT
  LIST    the .smtx files given to sopt-sparse-info, one per line
  OUTPUT  what sopt-sparse-info printed for them

dlmc.csv (in DLMC_DIR) holds every matrix's rows, columns, nnz and the mean
and (population) standard deviation of its row lengths, keyed by the path
relative to DLMC_DIR's parent.
"""

import csv
import os
import sys

from check_report import finish, report


def main():
    dlmc_dir, list_path, output_path = sys.argv[1:4]
    data_dir = os.path.dirname(os.path.normpath(dlmc_dir))
    with open(os.path.join(dlmc_dir, "dlmc.csv")) as f:
        expected = {row["path"]: row for row in csv.DictReader(f)}
    files = [line.strip() for line in open(list_path) if line.strip()]
    lines = [line.rstrip("\n") for line in open(output_path) if line.strip()]
    problems = []
    if len(lines) != len(files):
        problems.append(f"{len(files)} files but {len(lines)} lines")
    for path, line in zip(files, lines):
        name, sep, fields = line.partition(": ")
        if not sep or name != path:
            problems.append(f"line for {name!r}, expected {path!r}")
            continue
        stats = dict(field.split("=", 1) for field in fields.split())
        key = os.path.relpath(path, data_dir)
        row = expected.get(key)
        if row is None:
            problems.append(f"{key}: not in dlmc.csv")
            continue
        rows, cols, nnz = int(stats["rows"]), int(stats["cols"]), int(stats["nnz"])
        mean, std = float(stats["row_len_mean"]), float(stats["row_len_stddev"])
        empty, longest = int(stats["empty_rows"]), int(stats["row_len_max"])
        checks = [
            ("rows", rows == int(row["nrows"])),
            ("cols", cols == int(row["ncols"])),
            ("nnz", nnz == int(float(row["nnz"]))),
            ("row_len_mean", abs(mean - float(row["mean_nnz_per_row"])) < 1e-3),
            ("row_len_stddev", abs(std - float(row["std_nnz_per_row"])) < 1e-3),
            ("empty_rows", 0 <= empty <= rows),
            ("row_len_max", mean <= longest <= cols),
        ]
        report(f"{key} ({line} / {row})", checks, problems)
    return finish(problems, f"checked {len(files)} matrices against dlmc.csv: all agree")


if __name__ == "__main__":
    sys.exit(main())
