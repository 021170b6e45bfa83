#!/usr/bin/env bash
# Runs ON THE GPU MACHINE, from the repository root: runs sparse_bench (built
# by prepare.sh) over the carried matrices, measures the device's ceilings
# and bounds each case by them, then plots the results if matplotlib is
# there.
#
#   benchmarks/sparse/run.sh [CARRY_DIR [OUT_DIR [sparse_bench options...]]]
#
# CARRY_DIR is what prepare.sh filled (default .carry/sparse-bench); OUT_DIR
# receives sparse.{json,csv,md,log,png}, sparse_explore.csv (with --explore),
# limits.{txt,json} and bounds.{csv,md,png} (the device's ceilings and each
# case against them: limits.cu, bounds.py) and provenance.txt (default $OUT
# if set, else ./sparse-out). Options after
# OUT_DIR go to sparse_bench (e.g. --explore, --types=f32, --n=256); paths
# among them replace the carried matrices. Exits with sparse_bench's status
# (0 all passed, 1 a check failed, 2 nothing measured, 3 no usable GPU).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
carry=${1:-.carry/sparse-bench}
out=${2:-${OUT:-./sparse-out}}
shift $(($# < 2 ? $# : 2))

bin=$carry/sparse_bench
if [ ! -x "$bin" ]; then
  echo "run.sh: no $bin: run benchmarks/sparse/prepare.sh where CUDA is installed and carry $carry" >&2
  exit 2
fi

# cuSPARSE and cuBLAS are linked dynamically: look in the CUDA toolkit and in
# the Python wheels too if the loader does not find them.
if ldd "$bin" | grep -q 'not found'; then
  extra=/usr/local/cuda/lib64
  for d in $(python3 -c 'import nvidia, os; [print(os.path.join(p, q, "lib")) for p in nvidia.__path__ for q in os.listdir(p)]' 2>/dev/null); do
    [ -d "$d" ] && extra=$extra:$d
  done
  export LD_LIBRARY_PATH=$extra${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  if ldd "$bin" | grep -q 'not found'; then
    echo "run.sh: $bin needs libraries this machine lacks:" >&2
    ldd "$bin" | grep 'not found' >&2
    exit 2
  fi
fi

# Inputs: paths among the options, else the carried matrices.
inputs=()
for arg in "$@"; do
  case $arg in --*) ;; *) inputs+=("$arg") ;; esac
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
data=()
if [ ${#inputs[@]} = 0 ]; then
  if [ -d "$carry/dlmc" ]; then
    data=("$carry/dlmc")
  elif [ -f "$carry/dlmc.tar.xz" ]; then
    mkdir -p "$tmp/dlmc"
    xz -dc "$carry/dlmc.tar.xz" | tar -C "$tmp/dlmc" -xf - || { echo "run.sh: cannot unpack $carry/dlmc.tar.xz" >&2; exit 2; }
    data=("$tmp/dlmc")
  elif [ -f "$root/.carry/dlmc.tar.xz" ]; then
    # The archive utils/gpu/pack.sh makes for the GPU tests (a dlmc/ folder).
    xz -dc "$root/.carry/dlmc.tar.xz" | tar -C "$tmp" -xf - || { echo "run.sh: cannot unpack $root/.carry/dlmc.tar.xz" >&2; exit 2; }
    data=("$tmp")
  else
    echo "run.sh: no matrices in $carry (dlmc.tar.xz or dlmc/) nor .carry/dlmc.tar.xz, and none named" >&2
    exit 2
  fi
fi

mkdir -p "$out"
[ -f "$carry/provenance.txt" ] && cp "$carry/provenance.txt" "$out/"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu \
  --format=csv 2>/dev/null | sed 's/^/run.sh: /' >&2 || true

# Progress (stderr) to the terminal and sparse.log; the summary (stdout),
# printed last, to the terminal.
status=0
{ "$bin" --out="$out" "$@" "${data[@]}" 2>&1 1>&3 3>&- | tee "$out/sparse.log" >&2; } 3>&1 ||
  status=$?

# The device's ceilings, and how far each case is from the bound they set
# (bounds.py): after the benchmark, so that they do not warm it.
if [ -x "$carry/limits" ] && [ -f "$out/sparse.csv" ]; then
  if "$carry/limits" --json "$out/limits.json" >"$out/limits.txt"; then
    python3 "$root/benchmarks/sparse/bounds.py" "$out/sparse.csv" "$out/limits.json" \
      "$out/bounds" >/dev/null || echo "run.sh: bounds.py failed" >&2
  else
    echo "run.sh: limits failed: no bounds" >&2
  fi
fi

if [ -f "$out/sparse.json" ]; then
  if python3 -c 'import matplotlib' 2>/dev/null; then
    python3 "$root/benchmarks/sparse/plot.py" "$out/sparse.json" "$out/sparse.png" ||
      echo "run.sh: plot.py failed" >&2
  else
    echo "run.sh: matplotlib is not installed here: no sparse.png" \
      "(run benchmarks/sparse/plot.py $out/sparse.json where it is)" >&2
  fi
fi
exit "$status"
