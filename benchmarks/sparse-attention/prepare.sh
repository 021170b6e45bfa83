#!/usr/bin/env bash
# Runs HERE (nvcc of CUDA 13; no GPU needed): builds libsparse_attention.so
# for sm_90a (the fused kernel, the three-kernel path and the row plan
# behind a C interface) and copies it with bench.py and run.sh into DEST
# (default .carry/sparse-attention, git-ignored). Carry DEST to the GPU
# machine and run DEST/run.sh there.
#
#   benchmarks/sparse-attention/prepare.sh [DEST]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/benchmarks/sparse-attention
dest=${1:-$root/.carry/sparse-attention}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$nvcc" ] || { echo "prepare.sh: no nvcc (set NVCC)" >&2; exit 1; }
mkdir -p "$dest"
"$nvcc" -std=c++17 -O2 -gencode=arch=compute_90a,code=sm_90a -I"$root/include" \
  -shared -Xcompiler -fPIC "$here/sparse_attention_lib.cu" "$here/unfused_attention.cu" \
  "$root"/lib/Runtime/Schedule/*.cpp "$root/lib/Runtime/Pattern/RowOrder.cpp" \
  -o "$dest/libsparse_attention.so"
cp "$here/bench.py" "$here/run.sh" "$here/plot.py" "$dest/"
git -C "$root" rev-parse --short HEAD > "$dest/provenance.txt" 2>/dev/null || true
echo "prepare.sh: $dest ready; on the GPU machine: $dest/run.sh [OUT]"
