#!/usr/bin/env bash
# sparse-opt's one entry point for people and CI. Each command installs what
# is missing (Debian packages, idempotent), configures, builds, then:
#
#   utils/dev.sh example [FILE]  compile FILE (default: the shipped transformer
#                                block) to CUDA, nvcc-compile it, and run the
#                                example when a GPU is present
#   utils/dev.sh check           run the whole lit suite (what .ci/run does)
#
# Environment: SPARSE_OPT_BUILD_DIR (default ./build), SPARSE_OPT_JOBS.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${SPARSE_OPT_BUILD_DIR:-$root/build}
llvm_version=22
packages=(cmake ninja-build g++ python3 llvm-$llvm_version-dev
          libmlir-$llvm_version-dev mlir-$llvm_version-tools
          llvm-$llvm_version-tools)

log() { printf '== %s\n' "$*" >&2; }

ensure_packages() {
  local missing=() p
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' \
      || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing ${missing[*]}"
  local sudo=
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
}

configure_and_build() {
  local mlir_dir=/usr/lib/llvm-$llvm_version/lib/cmake/mlir
  if [ ! -f "$build/build.ninja" ]; then
    log "configuring $build"
    cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
      -DMLIR_DIR="$mlir_dir" \
      -DLLVM_EXTERNAL_LIT="/usr/lib/llvm-$llvm_version/bin/lit"
  fi
  log "building"
  cmake --build "$build" ${SPARSE_OPT_JOBS:+-j "$SPARSE_OPT_JOBS"}
}

command=${1:-}
case "$command" in
  example)
    input=${2:-$root/examples/transformer_block.mlir}
    [ -f "$input" ] || { echo "utils/dev.sh: no such file: $input" >&2; exit 1; }
    ensure_packages
    configure_and_build
    stem=$(basename "${input%.mlir}")
    out=$build/examples
    mkdir -p "$out"
    log "sparse-opt $input --emit=cuda -o $out/$stem.cu"
    "$build/bin/sparse-opt" "$input" --emit=cuda -o "$out/$stem.cu" --kernel-summary \
      --fusion-dot="$out/$stem.dot"
    if ! command -v nvcc >/dev/null 2>&1; then
      log "nvcc not found: wrote $out/$stem.cu and $out/$stem.h, not compiled"
      exit 0
    fi
    arch=${SPARSE_OPT_CUDA_ARCH:-sm_90a}
    main=$root/examples/${stem}_main.cu
    if [ -f "$main" ]; then
      log "nvcc -arch=$arch $stem.cu ${stem}_main.cu -> $out/$stem"
      nvcc -std=c++17 -O3 -arch="${arch/sm_/compute_}" -code="$arch" -I"$root/include" -I"$out" \
        "$out/$stem.cu" "$main" -lcublas -o "$out/$stem"
      if nvidia-smi -L >/dev/null 2>&1; then
        log "running $out/$stem"
        "$out/$stem"
      else
        log "no GPU here: built $out/$stem without running it"
      fi
    else
      log "nvcc -arch=$arch -c $stem.cu -> $out/$stem.o"
      nvcc -std=c++17 -O3 -arch="${arch/sm_/compute_}" -code="$arch" -I"$root/include" -I"$out" \
        -c "$out/$stem.cu" -o "$out/$stem.o"
    fi
    ;;
  check)
    ensure_packages
    configure_and_build
    log "running the test suite"
    cmake --build "$build" --target check-sparse-opt
    ;;
  *)
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
