#!/usr/bin/env bash
# Sliding-block benchmarks (docs/benchmarks.md): Hakoiri-musume solved and fully explored in each
# metric, then large spaces: Hakoiri-musume with every piece distinct (--distinct: 14,950,080
# positions) in each metric and Century with every piece distinct (23,425,920), explored on 2
# threads. "work s" is the `seconds` the command reports (the work,
# without process start-up), best of RUNS runs (default 5; the large explore runs RUNS_BIG
# times, default 2); peak RSS from /usr/bin/time. Exits non-zero on a wrong answer.
# Usage: bench/blocks.sh [path/to/tansaku]
set -euo pipefail
bin=${1:-build/release/tansaku}
runs=${RUNS:-5}
runs_big=${RUNS_BIG:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

# row N label expected -- command...   expected: "length" or "states" value to check
row() {
  local n=$1 label=$2 key=$3 want=$4
  shift 5
  local best="" rss=0
  for _ in $(seq "$n"); do
    /usr/bin/time -f "%M" -o "$tmp/time" "$@" >"$tmp/out" 2>/dev/null
    local s
    s=$(python3 -c "import json; print(json.load(open('$tmp/out'))['seconds'])")
    if [[ -z $best ]] || awk "BEGIN{exit !($s < $best)}"; then best=$s; rss=$(tail -n 1 "$tmp/time"); fi
  done
  local got
  got=$(python3 -c "import json; print(json.load(open('$tmp/out'))['$key'])")
  local rate
  rate=$(python3 -c "
import json; j=json.load(open('$tmp/out'))
print(f\"{j['states']/$best/1e6:.1f} M/s\" if 'states' in j else '')")
  local mark=""
  if [[ $got != "$want" ]]; then mark=" WRONG (want $want)"; status=1; fi
  printf '| %s | %.4f | %s | %s %s%s | %s |\n' "$label" "$best" "$((rss / 1024))" "$got" "$key" "$mark" "$rate"
}

echo "| run | work s | peak RSS MiB | result | positions/s |"
echo "|---|---|---|---|---|"
for m in path line step; do
  case $m in path) len=81 ;; line) len=90 ;; step) len=116 ;; esac
  row "$runs" "solve klotski --metric $m" length "$len" -- "$bin" solve klotski --metric "$m" --json --quiet
done
for m in path line step; do
  row "$runs" "explore klotski --metric $m" states 25955 -- "$bin" explore klotski --metric "$m" --json --quiet
done
for m in path line step; do
  row "$runs_big" "explore klotski --distinct --metric $m --threads 2" states 14950080 -- \
    "$bin" explore klotski --distinct --metric "$m" --threads 2 --farthest 2 --json --quiet
done
row "$runs_big" "explore klotski --distinct --threads 1" states 14950080 -- \
  "$bin" explore klotski --distinct --threads 1 --farthest 2 --json --quiet
row "$runs_big" "explore century --distinct --threads 2" states 23425920 -- \
  "$bin" explore blocks:century --distinct --threads 2 --farthest 2 --json --quiet
exit $status
