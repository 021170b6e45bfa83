#!/usr/bin/env bash
# Runs ON THE GPU MACHINE, in the folder prepare.sh staged (its bench/
# holds this script): the benchmark on the prepared cache, nothing compiled
# by sparse-opt (the machine has no LLVM). Writes pytorch.csv and
# pytorch.log to OUT (default $OUT, else ./bench-out).
#
#   cd .carry/torchbench && bench/run.sh [OUT [bench.py options...]]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-${OUT:-./bench-out}}
shift $(($# > 0 ? 1 : 0))
mkdir -p "$out"
export SPARSE_OPT_CACHE_DIR=$here/cache
export SPARSE_OPT_INCLUDE=$here/include
export PYTHONPATH=$here/python
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader \
  >"$out/device.txt" 2>&1 || true
python3 -c "import torch, triton; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'triton', triton.__version__)" \
  >>"$out/device.txt" 2>&1 || true
cp "$here/provenance.txt" "$out/" 2>/dev/null || true
set -o pipefail
python3 "$here/bench/bench.py" --out "$out" "$@" 2>&1 | tee "$out/pytorch.log"
