#!/usr/bin/env bash
# Runs on the GPU machine after run-tests.sh: every GPU test binary it
# unpacked (or those in the directory given) under compute-sanitizer's
# memcheck and racecheck,
# on the inputs its lit test gives it (the awkward patterns; the pruned
# pattern file for the tests that take one).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin_dir=${1:-/tmp/sopt-gpu-tests/gpu-bin}
# The pattern file each test's RUN line gives it; the harness finds the
# other patterns it reads beside it.
fusion_pattern=$root/test/GPU/Fusion/Inputs/pruned_300x257.smtx
sparse_pattern=$root/test/GPU/Sparse/Inputs/pruned_300x257.smtx
status=0
for binary in $(find "$bin_dir" -maxdepth 1 -type f -perm -u+x | sort); do
  args=()
  case $(basename "$binary") in
    sparse_kernels | capture_first_call) args=("$fusion_pattern") ;;
    dense_sparse | spmv_emitted) args=("$sparse_pattern") ;;
    sparse_attention_graph) args=("$root/test/GPU/SparseAttention/Inputs/hub_rows.smtx") ;;
    # Its long sequences (4097 x 4097) outlast the timeout under racecheck.
    attention) args=(--small) ;;
    sparse_attention) args=(--small) ;; # the full run's large patterns take minutes there
  esac
  for tool in memcheck racecheck; do
    timeout "${SANITIZE_TIMEOUT:-120}" compute-sanitizer --tool "$tool" --error-exitcode 1 \
      "$binary" "${args[@]}" > /tmp/sanitize.log 2>&1
    rc=$?
    if [ $rc -eq 0 ]; then
      echo "$tool clean: $(basename "$binary")"
    elif [ $rc -eq 124 ]; then
      echo "$tool TIMED OUT after ${SANITIZE_TIMEOUT:-120} s: $(basename "$binary")"
    else
      echo "$tool FAILED: $(basename "$binary")"; tail -20 /tmp/sanitize.log; status=1
    fi
  done
done
exit $status
