#!/usr/bin/env bash
# Builds (where nvcc is, unless the binary is already there) and runs the
# SpMV benchmark: the prepared SpMV against cuSPARSE on the same matrices,
# then report.py's summary (ratios last) and plot.
#
#   benchmarks/spmv/run.sh [BIN_DIR [OUT_DIR [MTX_DIR]]]
#
# BIN_DIR holds (or receives) spmv_bench (default .carry/spmv-bench);
# OUT_DIR receives spmv-h200.csv, bench.txt, report.txt and spmv.png
# (default $OUT if set, else ./spmv-out); MTX_DIR holds .mtx files to add
# (default ../shared/data/matrix-market beside the checkout).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-.carry/spmv-bench}
out=${2:-${OUT:-./spmv-out}}
mtx=${3:-$root/../shared/data/matrix-market}
mkdir -p "$bin" "$out"
if [ ! -x "$bin/spmv_bench" ]; then
  nvcc -std=c++17 -O2 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fopenmp \
    -I"$root/include" -I"$root/test/GPU/lib" -I"$root/test/GPU/Spmv" "$root/benchmarks/spmv/spmv_bench.cu" \
    "$root/lib/Runtime/Spmv/SpmvPlan.cu" "$root/lib/Runtime/Pattern/SparseIO.cpp" \
    -lcusparse -lgomp -o "$bin/spmv_bench" || exit 2
fi
"$bin/spmv_bench" "$out/spmv-h200.csv" "$mtx" 2>&1 | tee "$out/bench.txt"
status=${PIPESTATUS[0]}
python3 "$root/benchmarks/spmv/report.py" "$out/spmv-h200.csv" "$out/spmv.png" | tee "$out/report.txt"
exit "$status"
