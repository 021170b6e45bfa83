#!/usr/bin/env bash
# Runs HERE (CUDA 13 nvcc, cuSPARSE and cuBLAS installed; no GPU needed):
# builds sparse_bench for sm_90a and packs the sparse matrices beside it in
# DEST (default .carry/sparse-bench, git-ignored). Carry DEST to the GPU
# machine and run benchmarks/sparse/run.sh there.
#
#   benchmarks/sparse/prepare.sh [DEST] [--no-data]
#
# DEST receives sparse_bench, limits (the device's ceilings, for
# bounds.py), dlmc.tar.xz (every .smtx/.mtx under DLMC_DIR,
# default ../shared/data/dlmc beside the checkout; --no-data skips it) and
# provenance.txt. Environment: DLMC_DIR, NVCC, CXX, and NVCC_FLAGS (extra
# flags for every nvcc call).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dest=$root/.carry/sparse-bench
data=1
for arg in "$@"; do
  case $arg in
    --no-data) data=0 ;;
    -*) echo "prepare.sh: unknown option $arg" >&2; exit 2 ;;
    *) dest=$arg ;;
  esac
done
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
cxx=${CXX:-g++}
dlmc=${DLMC_DIR:-$root/../shared/data/dlmc}
src=$root/benchmarks/sparse/sparse_bench.cu
[ -x "$nvcc" ] || { echo "prepare.sh: no nvcc (set NVCC)" >&2; exit 1; }
if [ "$data" = 1 ] && [ ! -d "$dlmc" ]; then
  echo "prepare.sh: no matrices at $dlmc (set DLMC_DIR, or --no-data)" >&2
  exit 1
fi

git=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
# Uncommitted or untracked changes to what goes into the binary.
if [ -n "$(git -C "$root" status --porcelain -- benchmarks/sparse/sparse_bench.cu benchmarks/sparse/sparse_bench \
  benchmarks/sparse/limits.cu include/sparse-opt/Runtime lib/Runtime 2>/dev/null)" ]; then
  git="$git+changes"
fi

mkdir -p "$dest"
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT

# The host runtime with g++, the benchmark with nvcc in three units (the
# program, the f32 kernels, the f16 kernels), all at once: the kernel units
# take a minute or two each.
start=$(date +%s)
flags=(-O3 -std=c++17 -arch=sm_90a -I"$root/include" ${NVCC_FLAGS:-})
pids=()
# Every source of the host runtime but the CSR transpose, which the benchmark
# does not call (found by name, so that moving them into folders needs no edit).
units=$(cd "$root/lib/Runtime" && find . -name '*.cpp' ! -name CsrTranspose.cpp |
  sed 's|^\./||; s|\.cpp$||' | sort)
for unit in $units; do
  "$cxx" -O2 -std=c++17 -I"$root/include" -c "$root/lib/Runtime/$unit.cpp" \
    -o "$build/${unit//\//_}.o" &
  pids+=($!)
done
"$nvcc" "${flags[@]}" "$root/benchmarks/sparse/limits.cu" -o "$dest/limits" &
pids+=($!)
for unit in 1 2 3; do
  "$nvcc" "${flags[@]}" -DSOPT_BENCH_UNIT=$unit -DSOPT_BENCH_GIT="\"$git\"" \
    -c "$src" -o "$build/sparse_bench_$unit.o" &
  pids+=($!)
done
failed=0
for pid in "${pids[@]}"; do
  wait "$pid" || failed=1
done
[ "$failed" = 0 ] || { echo "prepare.sh: compilation failed" >&2; exit 1; }
"$nvcc" -arch=sm_90a "$build"/*.o -lcusparse -lcublas -o "$dest/sparse_bench"
echo "prepare.sh: built $dest/sparse_bench in $(($(date +%s) - start)) s" \
  "($(du -h "$dest/sparse_bench" | cut -f1))"

if [ "$data" = 1 ]; then
  # Compressed: the text files shrink several-fold, and a device call
  # carries at most 64 MiB.
  (cd "$dlmc" && find . -type f \( -name '*.smtx' -o -name '*.mtx' \) -print0 | sort -z |
    tar --null -T - -cf -) | xz -T0 -6 >"$dest/dlmc.tar.xz"
  count=$(xz -dc "$dest/dlmc.tar.xz" | tar -tf - | grep -c -E '\.(smtx|mtx)$' || true)
  echo "prepare.sh: packed $count matrices from $dlmc into $dest/dlmc.tar.xz" \
    "($(du -h "$dest/dlmc.tar.xz" | cut -f1))"
fi

{
  echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) from sparse-opt $git"
  echo "nvcc: $("$nvcc" --version | tail -n 1)"
  echo "flags: ${flags[*]} (units 1-3 of $src) -lcusparse -lcublas"
  echo "sparse_bench sha256 $(sha256sum "$dest/sparse_bench" | cut -d' ' -f1)"
  echo "limits sha256 $(sha256sum "$dest/limits" | cut -d' ' -f1)"
  if [ -f "$dest/dlmc.tar.xz" ]; then
    echo "dlmc.tar.xz sha256 $(sha256sum "$dest/dlmc.tar.xz" | cut -d' ' -f1)" \
      "(from $(cd "$dlmc" 2>/dev/null && pwd || echo "$dlmc"))"
  fi
} >"$dest/provenance.txt"
echo "prepare.sh: carry $(realpath --relative-to="$root" "$dest" 2>/dev/null || echo "$dest")" \
  "($(du -sh "$dest" | cut -f1)); on the GPU machine: benchmarks/sparse/run.sh"
