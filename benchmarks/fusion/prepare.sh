#!/usr/bin/env bash
# Runs HERE, where sparse-opt is built: compiles memory_bound.mlir to CUDA
# (memory_bound.cu/.h) in DEST (default .carry/bench, git-ignored), with the
# compiler's kernel summary (kernel_summary.txt) and where it came from
# (provenance.txt) beside them. Carry DEST to the GPU machine and run run.sh.
#
#   benchmarks/fusion/prepare.sh [DEST [sparse-opt options...]]
#
# Options after DEST go to sparse-opt, to compare variants, e.g.
#   prepare.sh .carry/bench16 --register-elements-per-thread=16
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dest=${1:-$root/.carry/bench}
shift $(($# > 0 ? 1 : 0))
sopt=${SPARSE_OPT:-${SPARSE_OPT_BUILD_DIR:-$root/build}/bin/sparse-opt}
mlir=$root/benchmarks/fusion/memory_bound.mlir

mkdir -p "$dest"
# The kernel summary goes to stderr, as do errors: show it all on failure.
if ! "$sopt" "$mlir" --emit=cuda -o "$dest/memory_bound.cu" --kernel-summary "$@" \
    2>"$dest/kernel_summary.txt"; then
  cat "$dest/kernel_summary.txt" >&2
  echo "prepare.sh: sparse-opt failed on $mlir" >&2
  exit 1
fi
{
  echo "generated $(date -u +%Y-%m-%dT%H:%M:%SZ) from $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$root" diff --quiet HEAD 2>/dev/null || echo ' (tree with changes)')"
  echo "memory_bound.mlir sha256 $(sha256sum "$mlir" | cut -d' ' -f1)"
  echo "sparse-opt $(sha256sum "$sopt" | cut -c1-16) ($sopt) $*"
} >"$dest/provenance.txt"
echo "prepare.sh: wrote $dest/{memory_bound.cu,memory_bound.h,kernel_summary.txt,provenance.txt}" \
  "($(grep -vc "^compile time:" "$dest/kernel_summary.txt") kernels)"
