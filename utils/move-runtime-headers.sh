#!/usr/bin/env bash
# Lays out the runtime by role (issue 43, item 3): moves the headers of
# include/sparse-opt/Runtime/ and the sources of lib/Runtime/ into folders,
#
#   Kernels/   device kernels and the schedule-to-kernel dispatch
#   Device/    device primitives: mma, wgmma, TMA, reductions, conversions,
#              CSR row loads, occupied-block grids
#   Host/      host runtime: launches, temporaries' pool, library handles,
#              pattern tables on each device
#   Pattern/   the C pattern API: .mtx/.smtx reading, row statistics and
#              orders, CSR transpose, column-panel order
#   Schedule/  the schedules and the compiler's schedule heuristics
#
# with git mv, and rewrites every path that names them in the repository
# (#include lines, strings the emitter writes, lit CHECK lines, docs, CMake
# source lists, test/lit.cfg.py). Run it from a clean checkout of the merged
# tree, then build and run the lit tests; it commits nothing.
#
# Not rewritten: benchmarks/results/ and docs/benchmarks/history.md, which
# record what was run at the time, with the paths of the time.
#
#   utils/move-runtime-headers.sh            # move and rewrite
#   utils/move-runtime-headers.sh --dry-run  # print the moves only

set -euo pipefail

root=$(git rev-parse --show-toplevel)
cd "$root"

dry_run=0
[ "${1:-}" = --dry-run ] && dry_run=1

# "folder file" for include/sparse-opt/Runtime/.
headers=(
  "Kernels Spmm.cuh"
  "Kernels SpmmSlices.cuh"
  "Kernels SpmmBlocks.cuh"
  "Kernels Sddmm.cuh"
  "Kernels SddmmPanels.cuh"
  "Kernels SddmmDirect.cuh"
  "Kernels SddmmBlocks.cuh"
  "Kernels SddmmBlockChunks.cuh"
  "Kernels SddmmBlocksKernel.cuh"
  "Kernels SddmmBlocksTmaKernel.cuh"
  "Kernels Transpose.cuh"
  "Kernels StoredEntries.cuh"
  "Kernels SparseDispatch.cuh"
  "Kernels Fill.cuh"
  "Device TensorCore.cuh"
  "Device Warpgroup.cuh"
  "Device Tma.cuh"
  "Device Reduce.cuh"
  "Device Convert.cuh"
  "Device SparseRow.cuh"
  "Device OccupiedBlocks.cuh"
  "Host Launch.cuh"
  "Host TemporaryPool.h"
  "Host LibraryHandle.h"
  "Host Cublas.h"
  "Host Cusparse.h"
  "Host CaptureMode.h"
  "Host DeviceInfo.h"
  "Host PatternTables.h"
  "Pattern SparseIO.h"
  "Pattern RowOrder.h"
  "Pattern CsrTranspose.h"
  "Pattern PanelOrder.h"
  "Schedule SparseSchedule.h"
)

# "folder file" for lib/Runtime/, mirroring the headers.
sources=(
  "Pattern SparseIO.cpp"
  "Pattern RowOrder.cpp"
  "Pattern CsrTranspose.cpp"
  "Schedule SparsityStats.cpp"
  "Schedule SpmmScheduleRules.cpp"
  "Schedule SddmmScheduleRules.cpp"
  "Schedule ScheduleChecks.cpp"
  "Schedule ScheduleRuleHelpers.h"
)

if [ "$dry_run" = 0 ] && [ -n "$(git status --porcelain)" ]; then
  echo "move-runtime-headers.sh: the checkout has changes; commit or stash them first" >&2
  exit 1
fi

# Every file the moves must exist before anything moves.
missing=0
for entry in "${headers[@]}"; do
  set -- $entry
  [ -f "include/sparse-opt/Runtime/$2" ] ||
    { echo "missing: include/sparse-opt/Runtime/$2" >&2; missing=1; }
done
for entry in "${sources[@]}"; do
  set -- $entry
  [ -f "lib/Runtime/$2" ] || { echo "missing: lib/Runtime/$2" >&2; missing=1; }
done
[ "$missing" = 0 ] || { echo "move-runtime-headers.sh: nothing moved" >&2; exit 1; }

# Headers not in the table stay where they are; say so, since a new header
# belongs in a folder too.
for path in include/sparse-opt/Runtime/*.h include/sparse-opt/Runtime/*.cuh; do
  [ -f "$path" ] || continue
  name=$(basename "$path")
  printf '%s\n' "${headers[@]}" | grep -q " $name\$" ||
    echo "move-runtime-headers.sh: $path is not in the table, left in place" >&2
done

sed_script=$(mktemp)
cmake_script=$(mktemp)
lit_script=$(mktemp)
trap 'rm -f "$sed_script" "$cmake_script" "$lit_script"' EXIT

escape() { printf '%s' "$1" | sed 's/[.]/\\./g'; }

for entry in "${headers[@]}"; do
  set -- $entry
  folder=$1 name=$2 pattern=$(escape "$2")
  echo "include/sparse-opt/Runtime/$name -> include/sparse-opt/Runtime/$folder/$name"
  # "Runtime/Spmm.cuh" wherever it is not preceded by a name character:
  # sparse-opt/Runtime/Spmm.cuh, include/sparse-opt/Runtime/Spmm.cuh,
  # `Runtime/Spmm.cuh` in prose. lib/Runtime holds no header of these names.
  printf 's#\\(^\\|[^A-Za-z0-9_]\\)Runtime/%s\\b#\\1Runtime/%s/%s#g\n' \
    "$pattern" "$folder" "$name" >>"$sed_script"
done
for entry in "${sources[@]}"; do
  set -- $entry
  folder=$1 name=$2 pattern=$(escape "$2")
  echo "lib/Runtime/$name -> lib/Runtime/$folder/$name"
  printf 's#lib/Runtime/%s\\b#lib/Runtime/%s/%s#g\n' "$pattern" "$folder" "$name" >>"$sed_script"
  # The source list of lib/Runtime/CMakeLists.txt names them bare.
  printf 's#^\\([[:space:]]*\\)%s$#\\1%s/%s#\n' "$pattern" "$folder" "$name" >>"$cmake_script"
  # test/lit.cfg.py names the host runtime's sources as strings.
  printf 's#"%s"#"%s/%s"#g\n' "$pattern" "$folder" "$name" >>"$lit_script"
done

[ "$dry_run" = 1 ] && exit 0

for entry in "${headers[@]}"; do
  set -- $entry
  mkdir -p "include/sparse-opt/Runtime/$1"
  git mv "include/sparse-opt/Runtime/$2" "include/sparse-opt/Runtime/$1/$2"
done
for entry in "${sources[@]}"; do
  set -- $entry
  mkdir -p "lib/Runtime/$1"
  git mv "lib/Runtime/$2" "lib/Runtime/$1/$2"
done

# Every tracked text file that names a moved path, but the records of the
# past.
git grep -lI -e 'Runtime/' -- . ':!benchmarks/results' ':!docs/benchmarks/history.md' \
  ':!utils/move-runtime-headers.sh' |
  while IFS= read -r file; do
    sed -i -f "$sed_script" "$file"
  done
sed -i -f "$cmake_script" lib/Runtime/CMakeLists.txt
[ -f test/lit.cfg.py ] && sed -i -f "$lit_script" test/lit.cfg.py

# The private header lib/Runtime/Schedule/ScheduleRuleHelpers.h is included
# as "ScheduleRuleHelpers.h" from its own folder: nothing to rewrite.

# What still names a runtime header at its old place (should be nothing).
left=$(
  for entry in "${headers[@]}"; do
    set -- $entry
    git grep -nI -e "sparse-opt/Runtime/$2" -- . ':!benchmarks/results' \
      ':!docs/benchmarks/history.md' ':!utils/move-runtime-headers.sh' || true
  done
)
if [ -n "$left" ]; then
  echo "move-runtime-headers.sh: old paths left:" >&2
  echo "$left" >&2
  exit 1
fi
echo "move-runtime-headers.sh: moved; now build, run the lit tests and the nvcc compile tests"
