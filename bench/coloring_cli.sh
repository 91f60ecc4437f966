#!/usr/bin/env bash
# Times the colouring CLI on the shipped instances and the shared DIMACS set; prints a
# markdown table (the one in docs/coloring.md). Usage: bench/coloring_cli.sh [BIN] [DIR]
set -uo pipefail
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
bin=${1:-build/release/tansaku}
dir=${2:-../../shared/data/coloring}
[ -d "$dir" ] || dir=/work/shared/data/coloring
echo "| instance | n | edges | χ | proved by | nodes | seconds |"
echo "|---|---|---|---|---|---|---|"
row() {  # label, then tansaku arguments
  local label=$1; shift
  local t0 t1
  t0=$(date +%s.%N)
  "$bin" solve "$@" --json --quiet >"$tmp" 2>/dev/null
  local rc=$?
  t1=$(date +%s.%N)
  if [ $rc -ne 0 ]; then echo "| $label | | | (exit $rc) | | | $(echo "$t1 - $t0" | bc) |"; return; fi
  python3 - "$label" "$(echo "$t1 - $t0" | bc)" "$tmp" <<'PY'
import json, sys
label, secs, j = sys.argv[1], float(sys.argv[2]), json.load(open(sys.argv[3]))
chi = j["length"] if j["optimal"] else f'{j["lower_bound"]}..{j["upper_bound"]}'
print(f'| {label} | {j["vertices"]} | {j["edges"]} | {chi} | {j["lower_bound_by"]} | {j["nodes"]} | {secs:.3f} |')
PY
}
row map12 coloring:map12
for f in myciel3 myciel4 myciel5 myciel6 queen5_5 queen6_6 queen7_7 queen8_8; do row "$f" "coloring:$f"; done
row "myciel5 (dsatur only)" coloring:myciel5 --algorithm dsatur
row "queen8_8 (sat only)" coloring:queen8_8 --algorithm sat
for f in anna david huck jean games120 miles250 miles500 homer mulsol.i.1 zeroin.i.1 fpsol2.i.1 le450_5a le450_15a le450_25a queen8_12; do
  row "$f" "coloring:$dir/$f.col"
done
