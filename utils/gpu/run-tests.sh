#!/usr/bin/env bash
# Runs on the GPU machine (no LLVM/MLIR there): the lit tests under test/GPU,
# with the tools utils/gpu/pack.sh put in .carry/. Extra arguments go to lit.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
carry=$root/.carry
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
nvcc --version | tail -2
PYTHONPATH=$carry/lit python3 -c 'from lit.main import main; main()' -v "$root/test/GPU" \
  --param llvm_tools_dir="$carry/bin" --param exec_root="$exec_root" \
  --param sopt_gen_dir="$carry/gen" "$@"
