#!/usr/bin/env bash
# Runs ON THE GPU MACHINE, from the repository root: builds the CUDA that
# prepare.sh generated into a shared library and runs bench.py on it.
#
#   benchmarks/fusion/run.sh [GEN_DIR [OUT_DIR [bench.py options...]]]
#
# GEN_DIR holds memory_bound.cu/.h (default .carry/bench); OUT_DIR receives
# memory_bound.{json,csv,md,png,log} and kernel_summary.txt (default $OUT if
# set, else ./bench-out). Options after OUT_DIR go to bench.py, e.g.
# --cases 'softmax_bf16' for a quick try. Exits non-zero if any check failed.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
gen=${1:-.carry/bench}
out=${2:-${OUT:-./bench-out}}
shift $(($# < 2 ? $# : 2))

nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
for f in memory_bound.cu memory_bound.h; do
  [ -f "$gen/$f" ] || { echo "run.sh: no $gen/$f (run benchmarks/fusion/prepare.sh where sparse-opt is built)" >&2; exit 1; }
done
mkdir -p "$out"
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT

echo "run.sh: building $gen/memory_bound.cu with $nvcc" >&2
"$nvcc" -std=c++17 -O3 -gencode arch=compute_90a,code=sm_90a -I"$root/include" -shared -Xcompiler -fPIC \
  "$gen/memory_bound.cu" -o "$build/libmemory_bound.so"
[ -f "$gen/kernel_summary.txt" ] && cp "$gen/kernel_summary.txt" "$out/"

export XLA_PYTHON_CLIENT_PREALLOCATE=false  # JAX must leave the GPU's memory to torch
export PYTHONUNBUFFERED=1
SOPT_NVCC_VERSION=$("$nvcc" --version | tail -n 1)
export SOPT_NVCC_VERSION
python3 "$root/benchmarks/fusion/bench.py" --lib "$build/libmemory_bound.so" \
  --gen-dir "$gen" --out "$out" "$@"
