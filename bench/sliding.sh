#!/usr/bin/env bash
# Sliding-tile benchmarks (docs/benchmarks.md): seed 004's two explores side by side with the
# seed's own C programs, the 8-puzzle and rotating-slide explores, the 11-puzzle seed
# instance, and the full 3x4 / 2x6 explores (239,500,800 states at 2 bits per state).
# Best wall time of RUNS runs (default 3; the 3x4 and 2x6 explores run once), peak RSS
# from /usr/bin/time.   Usage: bench/sliding.sh [path/to/tansaku]   (RUNS=N to change)
set -euo pipefail
bin=${1:-build/release/tansaku}
runs=${RUNS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/work/shared/peers/build.sh "$tmp" >/dev/null 2>&1 || echo "(seed C programs not built: ../shared/peers missing)" >&2

# best N label command... -> "label | best wall s | peak RSS MiB | last line of output"
best() {
  local n=$1 label=$2
  shift 2
  local b="" rss=0
  for _ in $(seq "$n"); do
    /usr/bin/time -f "%e %M" -o "$tmp/time" "$@" >"$tmp/out" 2>/dev/null
    read -r wall kb < <(tail -n 1 "$tmp/time")
    if [[ -z $b ]] || awk "BEGIN{exit !($wall < $b)}"; then b=$wall; rss=$kb; fi
  done
  local answer
  answer=$(python3 -c "
import json,sys
t=open('$tmp/out').read()
try:
    j=json.loads(t.splitlines()[-1]) if t.strip() else {}
except Exception:
    j={}
if 'states' in j: print(f\"{j['states']:,} states, depth {j['depth']} ({j['farthest_count']} farthest)\")
elif 'length' in j: print(f\"{j['length']} moves, {j.get('algorithm','')}\")
else: print(' '.join(t.split()[-6:]))")
  echo "| $label | $b | $((rss / 1024)) | $answer |"
}

echo "| run | wall s | peak RSS MiB | result |"
echo "|---|---|---|---|"
if [[ -x $tmp/slide15-six ]]; then
  best "$runs" "seed 004 C, variant 1 (slide15-six)" "$tmp/slide15-six"
fi
best "$runs" "tansaku explore, variant 1" "$bin" explore sliding:4x4 --from "1 2 3 4 6 6 6 6 6 6 6 6 5 6 6 0" --json --quiet
if [[ -x $tmp/slide15-three ]]; then
  best "$runs" "seed 004 C, variant 2 (slide15-three)" "$tmp/slide15-three"
fi
best "$runs" "tansaku explore, variant 2" "$bin" explore sliding:4x4 --from "1 1 2 2 1 1 2 2 1 3 3 2 3 3 3 0" --json --quiet
best "$runs" "explore 8-puzzle" "$bin" explore 8-puzzle --json --quiet
best "$runs" "explore rotating-slide" "$bin" explore rotating-slide --json --quiet
best "$runs" "explore sliding:2x5" "$bin" explore sliding:2x5 --json --quiet
best "$runs" "solve 11-puzzle (default: PDB IDA*)" "$bin" solve 11-puzzle --json --quiet
best "$runs" "solve 11-puzzle --algorithm idastar (MD+LC)" "$bin" solve 11-puzzle --algorithm idastar --json --quiet
best 1 "explore sliding:3x4" "$bin" explore sliding:3x4 --json --quiet
best 1 "explore sliding:2x6" "$bin" explore sliding:2x6 --json --quiet
