#!/usr/bin/env bash
# The figures of docs/knights.md: each command timed once (wall clock) on this machine.
# Usage: bench/knights.sh [path/to/tansaku]
set -euo pipefail
bin=${1:-build/release/tansaku}
t() {
  local start end
  start=$(date +%s.%N)
  "$bin" "$@" --quiet --json >/tmp/knights-bench.json || true
  end=$(date +%s.%N)
  printf '%-62s %8.3f s  %s\n' "$*" "$(echo "$end - $start" | bc)" \
    "$(python3 -c 'import json;j=json.load(open("/tmp/knights-bench.json"));print({k:j[k] for k in ("length","count","states","depth","nodes") if k in j and j[k] is not None})')"
}
t solve knight-tour:1000x1000
t solve knight-tour:1000x1000 --closed
t solve knight-tour:1000x1000 --from 500500
t solve knight-tour:999x999 --from 0
t solve knight-tour:3x1000
t solve knight-tour:6x6 --count
t solve knight-tour:6x6 --count --closed
t solve knight-tour:5x5 --count
t solve knight-tour:5x5 --count --algorithm dp
t solve knight-tour:6x6 --count --algorithm dp
t solve knight-tour:6x6 --count --from 0
t solve knight-tour:3x16 --count
t solve knight-tour:5x8 --count
t solve knight-tour:6x8 --count --closed
t solve knight-swap:4x3
t solve knight-swap:4x3 --algorithm bfs
t solve knight-swap:4x3 --algorithm idastar
t solve knight-swap:4x3 --count
t explore knight-swap:4x3
t solve guarini
t solve guarini --count
