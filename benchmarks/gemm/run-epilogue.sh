#!/usr/bin/env bash
# Compiles benchmarks/gemm/epilogue.mlir twice with sparse-opt (ours with
# --gemm-kernel, and the default cuBLAS route with its functions renamed
# cublas_*), builds epilogue_bench with
# nvcc, and runs it where a GPU is:
#
#   benchmarks/gemm/run-epilogue.sh build BIN_DIR   (needs sparse-opt on PATH and nvcc)
#   benchmarks/gemm/run-epilogue.sh run BIN_DIR [OUT_DIR [epilogue_bench options...]]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
mode=$1 bin=$2
shift 2
if [ "$mode" = build ]; then
  mkdir -p "$bin"
  sparse-opt "$root/benchmarks/gemm/epilogue.mlir" --emit=cuda --gemm-kernel -o "$bin/epilogue_ours.cu"
  sparse-opt "$root/benchmarks/gemm/epilogue.mlir" --emit=cuda -o "$bin/epilogue_cublas.cu"
  sed -i 's/\blbg_/cublas_lbg_/g; s/epilogue_ours\.h/epilogue_cublas.h/' "$bin/epilogue_cublas.cu" "$bin/epilogue_cublas.h"
  flags=(-std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -I"$root/include" -I"$root/test/GPU/lib" -I"$bin")
  nvcc "${flags[@]}" -c "$bin/epilogue_ours.cu" -o "$bin/ours.o"
  nvcc "${flags[@]}" -c "$bin/epilogue_cublas.cu" -o "$bin/cublas.o"
  nvcc "${flags[@]}" -c "$root/benchmarks/gemm/epilogue_bench.cu" -o "$bin/bench.o"
  nvcc -arch=sm_90a "$bin/bench.o" "$bin/ours.o" "$bin/cublas.o" -lcublas -o "$bin/epilogue_bench"
  exit 0
fi
out=${1:-${OUT:-./epilogue-out}}
shift $(($# < 1 ? $# : 1))
mkdir -p "$out"
"$bin/epilogue_bench" --csv="$out/epilogue.csv" "$@" 2>&1 | tee "$out/epilogue.log"
exit "${PIPESTATUS[0]}"
