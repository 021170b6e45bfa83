#!/usr/bin/env bash
# Builds (where nvcc is, unless already built) and runs the attention
# benchmark: ours against PyTorch's SDPA (default and FlashAttention-2
# backends) and FlexAttention, on the same tensors.
#
#   benchmarks/attention/run.sh [BIN_DIR [OUT_DIR [bench.py options...]]]
#
# BIN_DIR holds (or receives) libsopt_attention_bench.so (default
# .carry/attention-bench); OUT_DIR receives attention.csv, attention.png
# and the log (default $OUT if set, else ./attention-out). Exits with
# bench.py's status (0 every check passed, 1 a check failed).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${1:-.carry/attention-bench}
out=${2:-${OUT:-./attention-out}}
shift $(($# < 2 ? $# : 2))
mkdir -p "$bin" "$out"
if [ ! -f "$bin/libsopt_attention_bench.so" ]; then
  nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -I"$root/include" \
    -DSOPT_ATTENTION_TILE_VARIANTS -shared -Xcompiler -fPIC \
    "$here/attention_ours.cu" -o "$bin/libsopt_attention_bench.so" || exit 2
fi
PYTHONUNBUFFERED=1 python3 "$here/bench.py" --lib "$bin/libsopt_attention_bench.so" \
  --out "$out" "$@" 2>&1 | tee "$out/attention.log"
exit "${PIPESTATUS[0]}"
