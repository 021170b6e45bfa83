#!/usr/bin/env bash
# Runs on the GPU machine (no LLVM/MLIR there): the lit tests under test/GPU,
# each running a binary utils/gpu/pack.sh built, with the tools it packed;
# all unpacked afresh into /tmp/sopt-gpu-tests. Nothing is compiled here.
# Extra arguments go to lit (e.g. --time-tests, or --filter Sparse/).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
carry=$root/.carry
if [ ! -f "$carry/gpu-tests.tar.xz" ]; then
  echo "run-tests.sh: no $carry/gpu-tests.tar.xz: run utils/gpu/pack.sh where sparse-opt is built, and carry .carry" >&2
  exit 1
fi
tools=/tmp/sopt-gpu-tests
rm -rf "$tools" && mkdir -p "$tools"
xz -dc "$carry/gpu-tests.tar.xz" | tar -C "$tools" -xf -
export PATH=$tools/bin:$PATH
export LD_LIBRARY_PATH=$tools/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
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
echo "GPU test binaries built for $(cat "$tools/gpu-bin/cuda-arch")"
PYTHONPATH=$tools/lit python3 -c 'from lit.main import main; main()' -v "$root/test/GPU" \
  --param llvm_tools_dir="$tools/bin" --param exec_root="$exec_root" \
  --param sopt_gpu_bin_dir="$tools/gpu-bin" "$@"
