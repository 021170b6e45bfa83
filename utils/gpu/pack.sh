#!/usr/bin/env bash
# Runs here (where LLVM/MLIR and nvcc live): builds the GPU tests' binaries
# (target sopt-gpu-tests: the generated CUDA and every test harness, each
# shared object compiled once) and packs what the GPU machine needs to run
# them into .carry/ (git-ignored): gpu-tests.tar.xz (the binaries, lit,
# FileCheck/not/count and the shared libraries they need that a CUDA image
# lacks) and the matrix files. Carry `.carry` with the device run, then run
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

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib"
cp "$llvm_bin"/{FileCheck,not,count} "$stage/bin/"
cp -r "$lit_dir" "$stage/lit"
for lib in libz3.so.4 libzstd.so.1; do
  cp -L "$(ldconfig -p | awk -v l="$lib" '$1 == l { print $NF; exit }')" "$stage/lib/"
done
cp -r "$build/test/GPU/bin" "$stage/gpu-bin"
# One archive with a dictionary larger than the binaries together: a test
# that links several kernel objects then costs little more than its harness
# (a device call carries at most 64 MiB, the checkout included).
rm -rf "$carry/bin" "$carry/lib" "$carry/lit" "$carry/gen" "$carry/gpu-bin.tar.xz"
mkdir -p "$carry"
tar -C "$stage" -cf - bin lib lit gpu-bin | xz -T1 --lzma2=preset=6,dict=256MiB \
  >"$carry/gpu-tests.tar.xz"
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
