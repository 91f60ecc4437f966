#!/usr/bin/env bash
# Times the square-sum CLI; prints a markdown table (the one in docs/square_sum.md).
# Usage: bench/square_sum_cli.sh [BIN]
set -uo pipefail
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
bin=${1:-build/release/tansaku}
echo "| command | result | nodes | seconds |"
echo "|---|---|---|---|"
row() {
  local t0 t1
  t0=$(date +%s.%N)
  "$bin" solve square-sum "$@" --json --quiet >"$tmp" 2>/dev/null
  local rc=$?
  t1=$(date +%s.%N)
  python3 - "$*" "$(echo "$t1 - $t0" | bc)" "$rc" "$tmp" <<'PY'
import json, sys
args, secs, rc, out = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
j = json.load(open(out))
res = f'N={j["n"]}' + (f', count {j["count"]}' if "count" in j else '') + ('' if j["solvable"] else ' (none, exit 1)')
res += f', {j.get("algorithm","")}'
print(f'| `tansaku solve square-sum {args}` | {res} | {j["nodes"]} | {secs:.3f} |')
PY
}
row
row --ring
for n in 15 16 17 18 19 20 21 22 23; do row --n $n --count; done
row --n 30 --count
row --n 40 --count
row --n 40 --ring --count
row --n 1000
row --n 100000
row --n 100000 --ring
row --n 1000000
row --n 1000000 --ring
