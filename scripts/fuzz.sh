#!/usr/bin/env bash
# `make fuzz`: builds the libFuzzer harnesses of fuzz/ with clang (build/fuzz) and runs each
# for FUZZ_SECONDS (default 60) on a copy of its seed corpus fuzz/corpus/<name>/ (new inputs
# go to build/fuzz/corpus/<name>/, crashes to build/fuzz/artifacts/). Exits non-zero when a
# harness finds a crash.
#   scripts/fuzz.sh [SECONDS]          fuzz every harness SECONDS seconds
#   scripts/fuzz.sh --corpus-only      run every harness once over its seed corpus
#   scripts/fuzz.sh --ci               the seed corpus, then a short bounded run of each:
#                                      FUZZ_CI_RUNS inputs (default 100000) from seed 1, at
#                                      most FUZZ_CI_SECONDS (15): `make check` runs this
#   FUZZ_ONLY=dimacs scripts/fuzz.sh   one harness
#   FUZZ_PARALLEL=1 scripts/fuzz.sh    one harness at a time (default: as many as there are cores)
#   FUZZ_TREE=build/asan scripts/fuzz.sh --ci
#                                      the harnesses of an existing clang build tree (the
#                                      asan preset builds them), instead of configuring build/fuzz
set -euo pipefail
cd "$(dirname "$0")/.."
mode=fuzz
seconds=${FUZZ_SECONDS:-60}
if [ "${1:-}" = "--corpus-only" ]; then mode=corpus
elif [ "${1:-}" = "--ci" ]; then mode=ci; seconds=${FUZZ_CI_SECONDS:-15}
elif [ -n "${1:-}" ]; then seconds=$1; fi
jobs=${FUZZ_BUILD_JOBS:-2}
tree=${FUZZ_TREE:-build/fuzz}
if [ -z "${FUZZ_TREE:-}" ]; then
  CC=clang CXX=clang++ cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -g1 -fno-omit-frame-pointer" -DTANSAKU_FUZZ=ON \
    -DTANSAKU_TESTS=OFF -DTANSAKU_BENCH=OFF -DTANSAKU_NATIVE=OFF >/dev/null
fi
harnesses=()
for src in fuzz/fuzz_*.cpp; do
  name=$(basename "$src" .cpp)
  name=${name#fuzz_}
  [ -n "${FUZZ_ONLY:-}" ] && [ "$FUZZ_ONLY" != "$name" ] && continue
  harnesses+=("$name")
done
targets=()
for h in "${harnesses[@]}"; do targets+=("fuzz_$h"); done
cmake --build "$tree" --target "${targets[@]}" -j"$jobs"
mkdir -p build/fuzz/artifacts
# One harness: its seed corpus, then its bounded (ci) or timed run; what it prints goes to
# build/fuzz/<name>.out and its status to build/fuzz/<name>.rc.
run_one() {
  local h=$1 bin=$tree/fuzz/fuzz_$1 seeds=fuzz/corpus/$1 log=build/fuzz/$1.log status=0
  if [ "$mode" != fuzz ]; then
    echo "== fuzz_$h: seed corpus ($(ls "$seeds" | wc -l) inputs)"
    "$bin" -runs=0 -rss_limit_mb=2048 "$seeds" >"build/fuzz/$h.corpus.log" 2>&1 || { tail -40 "build/fuzz/$h.corpus.log"; echo "fuzz_$h failed on its seed corpus (build/fuzz/$h.corpus.log)"; status=1; }
  fi
  if [ "$mode" != corpus ]; then
    mkdir -p "build/fuzz/corpus/$h"
    local bound=()
    if [ "$mode" = ci ]; then
      bound=(-seed=1 -runs="${FUZZ_CI_RUNS:-100000}")
      echo "== fuzz_$h: ${FUZZ_CI_RUNS:-100000} runs from seed 1, at most $seconds s"
    else
      echo "== fuzz_$h: $seconds s"
    fi
    local rc=0
    "$bin" "${bound[@]}" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=4096 -print_final_stats=1 \
      -artifact_prefix="build/fuzz/artifacts/$h-" "build/fuzz/corpus/$h" "$seeds" >"$log" 2>&1 || rc=$?
    grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+==ERROR|SUMMARY|Done)" "$log" || true
    [ $rc -eq 0 ] || { tail -40 "$log"; echo "fuzz_$h: exit $rc (see $log)"; status=1; }
  fi
  echo $status >"build/fuzz/$h.rc"
}
# FUZZ_PARALLEL harnesses at a time (default: the number of cores); each prints when all are done, in order.
parallel=${FUZZ_PARALLEL:-$(nproc)}
for h in "${harnesses[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
  run_one "$h" >"build/fuzz/$h.out" 2>&1 &
done
wait
status=0
for h in "${harnesses[@]}"; do
  cat "build/fuzz/$h.out"
  [ "$(cat "build/fuzz/$h.rc" 2>/dev/null)" = 0 ] || status=1
done
exit $status
