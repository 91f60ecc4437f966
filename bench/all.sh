#!/usr/bin/env bash
# Runs every benchmark behind docs/benchmarks.md, one after another, each script's output
# under a heading, into a log (default build/bench-all.log) as well as on stdout. Hours in
# all (the 2x7 explore alone is about an hour and 11 GB; the 24-puzzles, the knight's-tour
# counts and the cube take tens of minutes each): run it on a quiet machine.
# Usage: bench/all.sh [path/to/tansaku]
#   QUICK=1        only the short benchmarks (minutes): no 2x7, 24-puzzle, cube, 7x7 counts
#   LOG=FILE       where the log goes
#   TWSEARCH=DIR   a twsearch build to compare the permutation puzzles with (bench/perm.sh,
#                  bench/cube.sh); without it those comparisons are skipped
# A failing script (a wrong answer exits non-zero) is reported and the others still run;
# the exit code is the number of scripts that failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
bin=$(realpath "${1:-$root/build/release/tansaku}")
log=${LOG:-$root/build/bench-all.log}
[ -x "$bin" ] || { echo "bench/all.sh: no program at $bin (build it first: make run)" >&2; exit 2; }
mkdir -p "$(dirname "$log")"
: >"$log"
cd "$root"
failed=0

step() {  # step TITLE command... : one benchmark, its output into the log
  local title=$1
  shift
  printf '\n## %s\n$ %s\n' "$title" "$*" | tee -a "$log"
  local t0=$SECONDS
  if ! "$@" 2>&1 | tee -a "$log"; then
    echo "FAILED: $title" | tee -a "$log"
    failed=$((failed + 1))
  fi
  printf '(%d s)\n' $((SECONDS - t0)) | tee -a "$log"
}

echo "tansaku benchmarks: $("$bin" --version), $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$log"

step "bench signature" "$bin" bench
step "sliding puzzles" bash bench/sliding.sh "$bin"
step "Korf's 100" env BIN="$bin" bash bench/korf100.sh
step "peg solitaire" bash bench/peg.sh "$bin" ${QUICK:+--quick}
step "pagoda functions" bash bench/peg_pagoda.sh "$bin" ${QUICK:+--quick}
step "flip" bash bench/flip.sh "$bin"
step "knight's tours" bash bench/knights.sh "$bin"
step "knight's tour counts" bash bench/knights_count.sh "$bin" ${QUICK:+--small}
step "colouring" bash bench/coloring_cli.sh "$bin"
step "square sums" bash bench/square_sum_cli.sh "$bin"
step "sliding blocks" bash bench/blocks.sh "$bin"
step "small permutation puzzles" bash bench/small_solves.sh "$bin"
step "MPI and --spill" bash bench/mpi.sh "$bin"
step "web API overhead" bash bench/serve.sh "$bin"
if [ -d "$root/build/release/python" ]; then
  step "Python module" env PYTHONPATH="$root/build/release/python" /usr/bin/python3 bench/python.py
fi
if [ -n "${TWSEARCH:-}" ]; then
  step "permutation puzzles beside twsearch" bash bench/perm.sh "$bin" "$TWSEARCH"
fi
if [ -z "${QUICK:-}" ]; then
  step "24-puzzle (Korf and Felner's twelve easiest)" env BIN="$bin" bash bench/korf24.sh
  step "3x3x3 cube" bash bench/cube.sh "$bin" 10 600 ${TWSEARCH:-}
  step "2x7 God's number" bash bench/sliding_2x7.sh "$bin"
fi

echo "$failed failed; log in $log" | tee -a "$log"
exit "$failed"
