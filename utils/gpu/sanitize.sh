#!/usr/bin/env bash
# Runs on the GPU machine after run-tests.sh: every GPU test binary lit built
# under compute-sanitizer's memcheck and racecheck. Argument: lit's exec root.
set -uo pipefail
exec_root=${1:?usage: sanitize.sh <lit exec root>}
status=0
for binary in $(find "$exec_root" -path '*/Output/*.tmp' -type f -perm -u+x | sort); do
  for tool in memcheck racecheck; do
    timeout "${SANITIZE_TIMEOUT:-120}" compute-sanitizer --tool "$tool" --error-exitcode 1 \
      "$binary" > /tmp/sanitize.log 2>&1
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
