#!/usr/bin/env python3
"""Edits the decisions in prepared IR and emits it as given.

`sparse-opt --emit=mlir` prints every decision the CUDA follows (mappings,
reuse plans, sparse launches) as attributes, and `--skip-pipeline` emits
such IR without re-deriving them, so a user's edit reaches the emitter
directly. This prepares the GPU tests' graphs, then drops or changes one to
three `sopt.*` attributes at a time (numbers to 0, 1, -1, 2^31, ...) and
reports every run that neither succeeds nor fails with a located error: a
signal, a timeout, or exit 1 without `file:line:col: error:`
(docs/Fuzzing.md).

  fuzz/prepared-ir.py SPARSE_OPT [COUNT] [SEED]
"""

import glob
import os
import random
import re
import subprocess
import sys
import tempfile

from outcome import Tally, compile_outcome

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ATTRIBUTE = re.compile(r"sopt\.[a-z_]+ = (#sopt\.[a-z_]+<[^>]*>|\[[^\]]*\]|array<[^>]*>|"
                       r"-?\d+ : i64|\"[^\"]*\")")
NUMBERS = [0, 1, -1, 2, 3, 7, 2**31 - 1, 2**31, 2**62]


def mutate(text, rng):
    for _ in range(rng.randint(1, 3)):
        matches = list(ATTRIBUTE.finditer(text))
        if not matches:
            break
        m = rng.choice(matches)
        if rng.random() < 0.4:
            new = ""  # drop the attribute
        else:
            new = re.sub(r"-?\d+", lambda n: str(rng.choice(NUMBERS + [int(n.group(0)) + 1])),
                         m.group(0))
        text = text[:m.start()] + new + text[m.end():]
    # Tidy the attribute dictionaries a drop left behind.
    return re.sub(r",\s*,", ",", text).replace("{, ", "{").replace(", }", "}").replace(" {}", "")


def main():
    tool = os.path.abspath(sys.argv[1])
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 0)
    tally = Tally()
    with tempfile.TemporaryDirectory() as work:
        prepared = []
        for graph in sorted(glob.glob(os.path.join(ROOT, "test/GPU/*/Inputs/*.mlir"))):
            out = os.path.join(work, f"prepared{len(prepared)}.mlir")
            # Pattern files are named relative to the graph.
            run = subprocess.run([tool, graph, "--emit=mlir", "-o", out],
                                 cwd=os.path.dirname(graph), capture_output=True)
            if run.returncode == 0:
                prepared.append((graph, open(out).read()))
        source, out = os.path.join(work, "edited.mlir"), os.path.join(work, "edited.cu")
        for i in range(count):
            graph, text = rng.choice(prepared)
            text = mutate(text, rng)
            with open(source, "w") as f:
                f.write(text)
            outcome = compile_outcome([tool, source, "--emit=cuda", "--skip-pipeline", "-o", out],
                                      cwd=os.path.dirname(graph))
            tally.add(outcome, f"{i} from {graph}", text)
    print(f"{count} edited graphs from {len(prepared)} prepared: {tally.summary()}")
    return 1 if tally.findings else 0


if __name__ == "__main__":
    sys.exit(main())
