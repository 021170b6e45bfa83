#!/usr/bin/env bash
# Runs on the GPU machine (no LLVM/MLIR there): the lit tests under test/GPU,
# each running a binary utils/gpu/pack.sh built (unpacked here into
# /tmp/sopt-gpu-tests/bin, afresh each time), with the tools it put in
# .carry/. Nothing is compiled here. Extra arguments go to lit (e.g.
# --time-tests, or --filter Sparse/).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
carry=$root/.carry
if [ ! -f "$carry/gpu-bin.tar.xz" ]; then
  echo "run-tests.sh: no $carry/gpu-bin.tar.xz: run utils/gpu/pack.sh where sparse-opt is built, and carry .carry" >&2
  exit 1
fi
bin_dir=/tmp/sopt-gpu-tests/bin
rm -rf "$bin_dir" && mkdir -p "$(dirname "$bin_dir")"
xz -dc "$carry/gpu-bin.tar.xz" | tar -C "$(dirname "$bin_dir")" -xf -
export PATH=$carry/bin:$PATH
export LD_LIBRARY_PATH=$carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
exec_root=${SOPT_GPU_EXEC_ROOT:-$(mktemp -d /tmp/sopt-gpu-lit.XXXXXX)}
# The DLMC matrices pack.sh archived, unpacked once per machine.
if [ -z "${SOPT_DLMC_DIR:-}" ] && [ -f "$carry/dlmc.tar.xz" ]; then
  [ -d /tmp/sopt-data/dlmc ] || { mkdir -p /tmp/sopt-data && tar -C /tmp/sopt-data -xJf "$carry/dlmc.tar.xz"; }
  export SOPT_DLMC_DIR=/tmp/sopt-data/dlmc
fi
if [ -z "${SOPT_MTX_DIR:-}" ] && [ -f "$carry/mtx.tar.xz" ]; then
  [ -d /tmp/sopt-data/mtx ] || {
    mkdir -p /tmp/sopt-data/mtx && tar -C /tmp/sopt-data/mtx --strip-components=1 -xJf "$carry/mtx.tar.xz"
  }
  export SOPT_MTX_DIR=/tmp/sopt-data/mtx
fi
nvidia-smi -L
echo "GPU test binaries built for $(cat "$bin_dir/cuda-arch")"
PYTHONPATH=$carry/lit python3 -c 'from lit.main import main; main()' -v "$root/test/GPU" \
  --param llvm_tools_dir="$carry/bin" --param exec_root="$exec_root" \
  --param sopt_gpu_bin_dir="$bin_dir" "$@"
