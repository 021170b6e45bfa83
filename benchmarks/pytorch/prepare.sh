#!/usr/bin/env bash
# Runs HERE, where sparse-opt is built (no GPU needed): compiles every graph
# of bench.py into a sparse_opt cache and stages what the GPU machine needs
# (the cache, the Python package, the runtime headers, the scripts) in DEST
# (default .carry/torchbench, git-ignored). Carry DEST and run run.sh there.
#
#   benchmarks/pytorch/prepare.sh [DEST]
#
# PYTHON: a Python with torch (default python3); SPARSE_OPT_BIN: the compiler
# (default build/bin/sparse-opt).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dest=${1:-$root/.carry/torchbench}
python=${PYTHON:-python3}
mkdir -p "$dest"
rm -rf "$dest/python" "$dest/include" "$dest/bench"
cp -r "$root/python" "$dest/python"
cp -r "$root/include" "$dest/include"
mkdir -p "$dest/bench"
cp "$root/benchmarks/pytorch/bench.py" "$root/benchmarks/pytorch/run.sh" \
   "$root/test/Python/Inputs/models.py" "$dest/bench/"
export SPARSE_OPT_CACHE_DIR=$dest/cache
export SPARSE_OPT_BIN=${SPARSE_OPT_BIN:-$root/build/bin/sparse-opt}
export SPARSE_OPT_CUDA_ARCH=${SPARSE_OPT_CUDA_ARCH:-sm_90a}
export PYTHONPATH=$root/python
"$python" "$root/benchmarks/pytorch/bench.py" --prepare
{
  echo "prepared from $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$root" diff --quiet HEAD 2>/dev/null || echo ' (tree with changes)')"
  echo "sparse-opt $(sha256sum "$SPARSE_OPT_BIN" | cut -c1-16)"
} >"$dest/provenance.txt"
echo "prepare.sh: staged $dest ($(du -sh "$dest" | cut -f1))"
