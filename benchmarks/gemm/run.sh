#!/usr/bin/env bash
# Builds (where nvcc is, unless the binaries are already there) and runs the
# f32 GEMM benchmark: ours vs cuBLAS SGEMM and TF32 on the same inputs.
#
#   benchmarks/gemm/run.sh [BIN_DIR [OUT_DIR [gemm_bench options...]]]
#
# BIN_DIR holds (or receives) gemm_bench (default .carry/gemm-bench);
# OUT_DIR receives gemm.csv and gemm.log (default $OUT if set, else
# ./gemm-out). Options go to gemm_bench (--explore, --reps=N,
# --families=square,bert,llama,skinny). Exits with gemm_bench's status
# (0 all checks passed, 1 a check failed, 2 usage or a CUDA/cuBLAS error,
# 3 no usable GPU).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-.carry/gemm-bench}
out=${2:-${OUT:-./gemm-out}}
shift $(($# < 2 ? $# : 2))
mkdir -p "$bin" "$out"
if [ ! -x "$bin/gemm_bench" ]; then
  nvcc -arch=sm_90a -O3 -std=c++17 -I"$root/include" -I"$root/test/GPU/lib" "$root/benchmarks/gemm/gemm_bench.cu" \
    -lcublas -o "$bin/gemm_bench" || exit 2
fi
"$bin/gemm_bench" --csv="$out/gemm.csv" "$@" 2>&1 | tee "$out/gemm.log"
exit "${PIPESTATUS[0]}"
