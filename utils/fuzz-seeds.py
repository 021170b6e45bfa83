#!/usr/bin/env python3
"""Writes the fuzzers' seed corpora from the test suite (docs/Fuzzing.md).

  utils/fuzz-seeds.py OUT_DIR

OUT_DIR/mlir: every .mlir file under test/ and examples/, split at the
`// -----` markers of -split-input-file tests (one seed per piece).
OUT_DIR/sparse: every .mtx and .smtx file under test/, prefixed with the
byte by which sopt-fuzz-sparse-io chooses the format (1: .smtx, 0: .mtx).
"""

import pathlib
import sys

root = pathlib.Path(__file__).resolve().parent.parent
out = pathlib.Path(sys.argv[1])
(out / "mlir").mkdir(parents=True, exist_ok=True)
(out / "sparse").mkdir(parents=True, exist_ok=True)

count = {"mlir": 0, "sparse": 0}
for directory in ("test", "examples"):
    for path in sorted((root / directory).rglob("*.mlir")):
        pieces = path.read_text(errors="replace").split("// -----")
        for i, piece in enumerate(pieces):
            name = f"{path.relative_to(root).as_posix().replace('/', '_')}.{i}"
            (out / "mlir" / name).write_text(piece)
            count["mlir"] += 1
for path in sorted((root / "test").rglob("*")):
    if path.suffix.lower() in (".mtx", ".smtx") and path.stat().st_size <= 1 << 20:
        prefix = b"\x01" if path.suffix.lower() == ".smtx" else b"\x00"
        name = path.relative_to(root).as_posix().replace("/", "_")
        (out / "sparse" / name).write_bytes(prefix + path.read_bytes())
        count["sparse"] += 1
print(f"seeds: {count['mlir']} .mlir pieces, {count['sparse']} sparse files in {out}")
