#!/usr/bin/env bash
# Soak: many random instances per family under small timeouts and memory budgets. Every
# run must end with exit 0 (solved, verified before printing), 1 (proved unsolvable) or 3
# (a limit stopped it) - never 2 on valid input, 4 (a verifier failure or a crash), or a
# signal - and no run may use much more memory than its budget.
# Usage: bench/soak.sh [BIN] [COUNT per puzzle, default 1000]
set -uo pipefail
bin=${1:-build/release/tansaku}
count=${2:-1000}
budget_mb=256
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 runs=0

# One run: the command after "--"; checks the exit code and peak RSS.
check() {
  local label=$1
  shift
  /usr/bin/time -f %M -o "$tmp/rss" "$@" >"$tmp/out" 2>"$tmp/err"
  local code=$?
  runs=$((runs + 1))
  local rss_kb
  rss_kb=$(tail -1 "$tmp/rss" 2>/dev/null || echo 0)
  if [[ $code -ne 0 && $code -ne 1 && $code -ne 3 ]]; then
    echo "FAIL ($label): exit $code: $* :: $(head -c 300 "$tmp/err")"
    fail=$((fail + 1))
  elif [[ $rss_kb =~ ^[0-9]+$ ]] && ((rss_kb > budget_mb * 1024 * 5 / 4 + 64 * 1024)); then
    echo "FAIL ($label): peak RSS ${rss_kb} KB over the ${budget_mb} MB budget: $*"
    fail=$((fail + 1))
  fi
}

# Puzzles whose random positions come from `tansaku random`, solved under a budget.
soak_random() {
  local puzzle=$1
  shift
  "$bin" random "$puzzle" --seed 20261123 --count "$count" "$@" >"$tmp/starts" || {
    echo "FAIL: random $puzzle"
    fail=$((fail + 1))
    return
  }
  local n=0
  while IFS= read -r start; do
    check "$puzzle" "$bin" solve "$puzzle" "$@" --start "$start" --timeout 1 --memory ${budget_mb}M --json --quiet
    n=$((n + 1))
  done <"$tmp/starts"
  echo "$puzzle: $n random starts"
}

start_s=$(date +%s)
soak_random 8-puzzle
soak_random 15-puzzle
soak_random rotating-slide
soak_random flip:5x5 --rule lights-out
soak_random flip:7x7
soak_random sliding:3x4

# Families whose instances are drawn here: peg vacancies, knight-tour squares, colouring
# counts, square-sum sizes, blocks metrics, permutation scrambles.
holes=$("$bin" show peg:english --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["start"]))')
for ((i = 0; i < count / 10; i++)); do
  check peg "$bin" solve peg:english --empty $((RANDOM % holes)) --timeout 1 --memory ${budget_mb}M --json --quiet
  check knight-tour "$bin" solve knight-tour:$((RANDOM % 30 + 1))x$((RANDOM % 30 + 1)) --from 0 --timeout 1 --memory ${budget_mb}M --json --quiet
  check coloring "$bin" solve coloring:myciel4 --colors $((RANDOM % 6 + 1)) --timeout 1 --memory ${budget_mb}M --json --quiet
  check square-sum "$bin" solve square-sum --n $((RANDOM % 2000 + 1)) --timeout 1 --memory ${budget_mb}M --json --quiet
  metrics=(step line path)
  check blocks "$bin" solve blocks:klotski --metric ${metrics[$((RANDOM % 3))]} --timeout 1 --memory ${budget_mb}M --json --quiet
  moves=(U U2 "U'" F F2 "F'" R R2 "R'")
  scramble=""
  for ((k = 0; k < 12; k++)); do scramble+="${moves[$((RANDOM % 9))]} "; done
  check perm "$bin" solve perm:2x2x2 --scramble "$scramble" --timeout 1 --memory ${budget_mb}M --json --quiet
done
echo "peg, knight-tour, coloring, square-sum, blocks, perm: $((count / 10)) runs each"

echo "soak: $runs runs, $fail failures, $(($(date +%s) - start_s)) s"
[[ $fail -eq 0 ]]
