#!/usr/bin/env bash
# Korf's 100 random 15-puzzle instances (goal: blank top-left), solved optimally in one batch
# with the best pattern databases available, and checked: 100 solved, sum of lengths 5305.
#   bench/korf100.sh                  build the 7-8 tables if missing (once: minutes, ~2 GiB), then solve
#   bench/korf100.sh --no-build       solve with whatever is in the cache (else 5-5-5 in memory: slow)
#   BIN=... THREADS=N bench/korf100.sh
# Prints the summary line and writes every instance's line to build/korf100.jsonl.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BIN:-build/release/tansaku}
threads=${THREADS:-$(nproc)}
goal="0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"
if [ "${1:-}" != "--no-build" ]; then
  "$bin" pdb build 15-puzzle --threads "$threads" >&2
fi
out=build/korf100.jsonl
mkdir -p build
start=$(date +%s.%N)
"$bin" solve 15-puzzle --batch data/sliding/korf100.txt --goal "$goal" --threads "$threads" --json --quiet > "$out"
end=$(date +%s.%N)
summary=$(tail -n 1 "$out")
echo "$summary"
echo "wall clock (process, including table loading): $(awk "BEGIN{print $end - $start}") s"
grep -q '"solved":100' <<<"$summary" || { echo "FAIL: not every instance solved" >&2; exit 1; }
grep -q '"sum_length":5305' <<<"$summary" || { echo "FAIL: sum of lengths is not 5305" >&2; exit 1; }
echo "OK: 100 solved, sum of lengths 5305"
