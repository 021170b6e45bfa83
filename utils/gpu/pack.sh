#!/usr/bin/env bash
# Runs here (where LLVM/MLIR live): gathers what the GPU machine needs to run
# the GPU tests into .carry/ (git-ignored): lit, FileCheck/not/count and the
# shared libraries they need that a CUDA image lacks, and the CUDA that
# sparse-opt generated for the tests (build it first: ninja -C build
# sopt-gpu-test-sources). Carry `.carry` with the device run, then run
# utils/gpu/run-tests.sh there.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
carry=$root/.carry
llvm_bin=$(llvm-config-22 --bindir 2>/dev/null || echo /usr/lib/llvm-22/bin)
lit_dir=$(dirname "$llvm_bin")/utils/lit

build=${SPARSE_OPT_BUILD_DIR:-$root/build}
rm -rf "$carry/bin" "$carry/lib" "$carry/lit" "$carry/gen"
mkdir -p "$carry/bin" "$carry/lib"
cp "$llvm_bin"/{FileCheck,not,count} "$carry/bin/"
cp -r "$lit_dir" "$carry/lit"
for lib in libz3.so.4 libzstd.so.1; do
  cp -L "$(ldconfig -p | awk -v l="$lib" '$1 == l { print $NF; exit }')" "$carry/lib/"
done
if [ -d "$build/test/GPU/gen" ]; then
  cp -r "$build/test/GPU/gen" "$carry/gen"
else
  echo "pack.sh: no generated GPU test sources in $build/test/GPU/gen" >&2
  exit 1
fi
# The DLMC matrices for test/GPU/Sparse/dlmc.test (and the sparse benchmark),
# compressed: the raw files would take half of what a device call carries;
# likewise the SuiteSparse Matrix Market files for matrix-market.test.
dlmc=${SOPT_DLMC_DIR:-$root/../shared/data/dlmc}
if [ -d "$dlmc" ] && [ ! "$carry/dlmc.tar.xz" -nt "$dlmc/dlmc.csv" ]; then
  tar -C "$(dirname "$dlmc")" -cJf "$carry/dlmc.tar.xz" "$(basename "$dlmc")"
fi
mtx=${SOPT_MTX_DIR:-$root/../shared/data/matrix-market}
if [ -d "$mtx" ]; then
  tar -C "$(dirname "$mtx")" -cJf "$carry/mtx.tar.xz" "$(basename "$mtx")"
fi
du -sh "$carry"
