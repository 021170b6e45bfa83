"""What the fuzzing scripts count: a compile that either succeeds or fails
with a located error is an outcome; anything else is a finding."""

import re
import subprocess

LOCATED = re.compile(r"\.mlir:\d+:\d+: error: ")


def compile_outcome(command, cwd=None, timeout=60):
    """Runs `command`; returns "compiled", "refused", or a finding's description
    (a signal, a timeout, or exit 1 without `file:line:col: error:`)."""
    try:
        run = subprocess.run(command, cwd=cwd, capture_output=True, text=True,
                             timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"timeout ({timeout} s)"
    if run.returncode == 0:
        return "compiled"
    if run.returncode == 1 and LOCATED.search(run.stderr):
        return "refused"
    return f"exit {run.returncode}: {run.stderr[-400:]}"


class Tally:
    """Counts outcomes and prints each finding with the input that made it."""

    def __init__(self):
        self.results = {"compiled": 0, "refused": 0}
        self.findings = 0

    def add(self, outcome, label, text):
        if outcome in self.results:
            self.results[outcome] += 1
            return
        self.findings += 1
        print(f"FINDING {label} ({outcome})\n{text}", flush=True)

    def summary(self):
        return (f"{self.results['compiled']} compiled, {self.results['refused']} refused "
                f"with a located error, {self.findings} findings")
