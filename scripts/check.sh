#!/usr/bin/env bash
# `make check` (CI: .ci/run): every phase of the full gate in turn, each timed, stopping at
# the first that fails; the times are printed as each phase ends and again at the end, so a
# slow gate shows where its minutes went.
set -uo pipefail
cd "$(dirname "$0")/.."
# A fresh Release tree is configured for a unity build (TANSAKU_UNITY: the library's files
# compiled in batches, about a third less CPU for a whole build; the sanitizer presets set it
# too); a tree already configured keeps its setting.
[ -f build/release/CMakeCache.txt ] || cmake --preset release -DTANSAKU_UNITY=ON >/dev/null
# The Release tree builds and runs only the test programs whose cases must run optimised: the
# command line's, and those holding slow cases or cases the sanitizer run leaves out
# (TEST_SUBSET, tests/CMakeLists.txt); the library's own test programs run in the sanitizer
# tree (make sanitize). A later `make test` builds and runs them all again.
phases=(format-check test test-slow check-package sanitize fuzz-ci tsan)
summary=()
start=$(date +%s)
for p in "${phases[@]}"; do
  t0=$(date +%s)
  make --no-print-directory TEST_SUBSET=ON "$p"
  rc=$?
  t=$(( $(date +%s) - t0 ))
  summary+=("$(printf '%-14s %5d s' "$p" "$t")")
  echo "== make check: $p $( [ $rc -eq 0 ] && echo passed || echo FAILED ) in $t s"
  if [ $rc -ne 0 ]; then
    printf '%s\n' "${summary[@]}"
    exit $rc
  fi
done
printf '%s\n' "${summary[@]}"
echo "== make check: passed in $(( $(date +%s) - start )) s"
