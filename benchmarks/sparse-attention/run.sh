#!/usr/bin/env bash
# Runs ON THE GPU MACHINE from the folder prepare.sh filled: the benchmark
# (bench.py) into OUT (default $OUT, else ./sparse-attention-out): bench.csv,
# split.csv, bench.log; and the plot if matplotlib is there. Options after
# OUT go to bench.py (e.g. --tokens 4096 --large-tokens 0).
#
#   run.sh [OUT [bench.py options...]]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-${OUT:-./sparse-attention-out}}
shift $(($# < 1 ? $# : 1))
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv \
  > "$out/device.txt" 2>&1 || true
PYTHONUNBUFFERED=1 python3 "$here/bench.py" --lib "$here/libsparse_attention.so" \
  --out "$out" "$@" 2>&1 | tee "$out/bench.log"
status=${PIPESTATUS[0]}
python3 "$here/plot.py" "$out/bench.csv" "$out/sparse-attention.png" 2>/dev/null || true
exit "$status"
