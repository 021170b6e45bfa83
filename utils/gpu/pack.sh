#!/usr/bin/env bash
# Runs here (where LLVM/MLIR and nvcc live): builds the GPU tests' binaries
# (target sopt-gpu-tests: the generated CUDA and every test harness, the
# shared kernel objects compiled once) and gathers what the GPU machine needs
# to run them into .carry/ (git-ignored): the binaries, lit,
# FileCheck/not/count and the shared libraries they need that a CUDA image
# lacks, and the matrix files. Carry `.carry` with the device run, then run
# utils/gpu/run-tests.sh there; it compiles nothing.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
carry=$root/.carry
llvm_bin=$(llvm-config-22 --bindir 2>/dev/null || echo /usr/lib/llvm-22/bin)
lit_dir=$(dirname "$llvm_bin")/utils/lit

build=${SPARSE_OPT_BUILD_DIR:-$root/build}
start=$(date +%s)
cmake --build "$build" --target sopt-gpu-tests
echo "pack.sh: GPU test binaries up to date in $(($(date +%s) - start)) s"
rm -rf "$carry/bin" "$carry/lib" "$carry/lit" "$carry/gen" "$carry/gpu-bin.tar.xz"
mkdir -p "$carry/bin" "$carry/lib"
cp "$llvm_bin"/{FileCheck,not,count} "$carry/bin/"
cp -r "$lit_dir" "$carry/lit"
for lib in libz3.so.4 libzstd.so.1; do
  cp -L "$(ldconfig -p | awk -v l="$lib" '$1 == l { print $NF; exit }')" "$carry/lib/"
done
# The binaries compressed: each holds the kernels it links, several tens of
# MiB together, more than what a device call carries beside the rest.
tar -C "$build/test/GPU" -cf - bin | xz -T0 -6 >"$carry/gpu-bin.tar.xz"
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
du -sh "$carry"/* "$carry"
