#!/usr/bin/env bash
# sparse-opt's one entry point for people and CI. Each command installs what
# is missing (Debian packages, idempotent), configures, builds, then:
#
#   utils/dev.sh example [FILE]  compile FILE (default: the shipped transformer
#                                block) to CUDA, nvcc-compile it, and run the
#                                example when a GPU is present
#   utils/dev.sh check           run the whole lit suite (what .ci/run does)
#   utils/dev.sh sanitize        build with ASan + UBSan (clang, its own build
#                                dir) and run the lit suite but its nvcc tests
#   utils/dev.sh fuzz [SECONDS]  build the libFuzzer targets there and run each
#                                from the tests' seeds for SECONDS (default 120),
#                                then 200 graphs of extreme shapes and 300
#                                edits of prepared IR
#
# Environment: SPARSE_OPT_BUILD_DIR (default ./build), SPARSE_OPT_FUZZ_BUILD_DIR
# (default ./build-fuzz, for sanitize and fuzz), SPARSE_OPT_JOBS,
# SPARSE_OPT_TORCH=0 (check leaves PyTorch out: test/Python is UNSUPPORTED).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${SPARSE_OPT_BUILD_DIR:-$root/build}
llvm_version=22
packages=(cmake ninja-build g++ python3 python3-venv llvm-$llvm_version-dev
          libmlir-$llvm_version-dev mlir-$llvm_version-tools
          llvm-$llvm_version-tools)

fuzz_build=${SPARSE_OPT_FUZZ_BUILD_DIR:-$root/build-fuzz}
fuzz_packages=(clang-$llvm_version libclang-rt-$llvm_version-dev)

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

# One build instrumented for libFuzzer coverage, ASan and UBSan
# (docs/Fuzzing.md): the fuzz targets and the sanitized lit run share it.
configure_and_build_sanitized() {
  packages+=("${fuzz_packages[@]}")
  ensure_packages
  local llvm=/usr/lib/llvm-$llvm_version
  if [ ! -f "$fuzz_build/build.ninja" ]; then
    log "configuring $fuzz_build (clang, ASan + UBSan, libFuzzer)"
    # -O1: about half the compile time of -O3, and stacks that still say
    # where a report comes from.
    cmake -G Ninja -S "$root" -B "$fuzz_build" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG" \
      -DCMAKE_C_COMPILER="$llvm/bin/clang" -DCMAKE_CXX_COMPILER="$llvm/bin/clang++" \
      -DSPARSE_OPT_FUZZ=ON -DMLIR_DIR="$llvm/lib/cmake/mlir" \
      -DLLVM_EXTERNAL_LIT="$llvm/bin/lit"
  fi
  log "building $fuzz_build"
  cmake --build "$fuzz_build" ${SPARSE_OPT_JOBS:+-j "$SPARSE_OPT_JOBS"} "$@"
}

# Leaks are not findings here (MLIR keeps its registries to exit); user
# poisoning is off because Debian's libMLIR.so is not instrumented while the
# LLVM allocator code we inline poisons slabs it shares (fuzz/FuzzCompile.cpp);
# every UBSan report stops the process with a stack.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allow_user_poisoning=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# The PyTorch front end's tests (test/Python, lit features `torch` and
# `transformers`) need them: a venv in the build tree, from the package
# index, once.
ensure_torch() {
  [ "${SPARSE_OPT_TORCH:-1}" = 0 ] && return 0
  local venv=$build/torch-venv
  "$venv/bin/python3" -c 'import torch' 2>/dev/null && return 0
  log "installing PyTorch into $venv"
  /usr/bin/python3 -m venv "$venv"
  "$venv/bin/pip" install -q "torch==${SPARSE_OPT_TORCH_VERSION:-2.11.*}" numpy \
    "transformers==${SPARSE_OPT_TRANSFORMERS_VERSION:-5.24.*}"
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
      log "nvcc -arch=${arch/sm_/compute_} -code=$arch $stem.cu ${stem}_main.cu -> $out/$stem"
      nvcc -std=c++17 -O3 -arch="${arch/sm_/compute_}" -code="$arch" -I"$root/include" -I"$out" \
        "$out/$stem.cu" "$main" -lcublas -o "$out/$stem"
      if nvidia-smi -L >/dev/null 2>&1; then
        log "running $out/$stem"
        "$out/$stem"
      else
        log "no GPU here: built $out/$stem without running it"
      fi
    else
      log "nvcc -arch=${arch/sm_/compute_} -code=$arch -c $stem.cu -> $out/$stem.o"
      nvcc -std=c++17 -O3 -arch="${arch/sm_/compute_}" -code="$arch" -I"$root/include" -I"$out" \
        -c "$out/$stem.cu" -o "$out/$stem.o"
    fi
    ;;
  check)
    ensure_packages
    configure_and_build
    ensure_torch
    log "running the test suite"
    cmake --build "$build" --target check-sparse-opt
    ;;
  sanitize)
    # The GPU tests' CUDA is generated by the instrumented sparse-opt too.
    configure_and_build_sanitized --target all sopt-gpu-test-sources
    log "running the test suite under ASan + UBSan (nvcc tests left out)"
    # Embedding/ builds a separate project against the installed package,
    # which would need the sanitizer flags in its own build: left out.
    "/usr/lib/llvm-$llvm_version/bin/lit" -sv --param nvcc=off --filter-out '^SPARSE_OPT :: Embedding/' \
      "$fuzz_build/test"
    ;;
  fuzz)
    seconds=${2:-120}
    configure_and_build_sanitized --target sopt-fuzz-compile sopt-fuzz-sparse-io sparse-opt
    work=$fuzz_build/fuzz
    python3 "$root/utils/fuzz-seeds.py" "$work/seeds"
    status=0
    for target in compile:mlir sparse-io:sparse; do
      name=sopt-fuzz-${target%%:*} seeds=$work/seeds/${target##*:}
      corpus=$work/corpus-${target%%:*} crashes=$work/crashes-${target%%:*}
      mkdir -p "$corpus" "$crashes"
      dict=()
      [ "$name" = sopt-fuzz-compile ] && dict=(-dict="$root/fuzz/mlir.dict")
      log "$name for ${seconds}s (corpus $corpus, findings in $crashes)"
      # -timeout: an input taking 20 s is a hang; -rss_limit_mb: runaway memory.
      "$fuzz_build/bin/$name" "$corpus" "$seeds" "${dict[@]}" -max_total_time="$seconds" \
        -timeout=20 -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 \
        -artifact_prefix="$crashes/" || status=1
    done
    log "extreme shapes: 200 graphs through the instrumented sparse-opt"
    python3 "$root/fuzz/extreme-shapes.py" "$fuzz_build/bin/sparse-opt" 200 "${SPARSE_OPT_FUZZ_SEED:-$RANDOM}" \
      || status=1
    log "prepared IR: 300 edits of --emit=mlir output emitted with --skip-pipeline"
    python3 "$root/fuzz/prepared-ir.py" "$fuzz_build/bin/sparse-opt" 300 "${SPARSE_OPT_FUZZ_SEED:-$RANDOM}" \
      || status=1
    exit $status
    ;;
  *)
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
