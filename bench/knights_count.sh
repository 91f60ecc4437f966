#!/usr/bin/env bash
# Exact knight's-tour counts by the frontier dp (src/graph/frontier_dp.cpp) and, for tours of
# boards 7 or more wide, its split count (src/knights/tour_count.cpp): time and peak
# resident set of each run (/usr/bin/time -v), for the tables of docs/benchmarks.md and
# docs/knights.md.
# Usage: bench/knights_count.sh [path/to/tansaku] [--small | --big]
#   --small skips 7x8 closed and 7x7 (minutes); --big also counts 8x8 closed (OEIS A001230:
#   13,267,364,410,532) within --memory 16G: about an hour of CPU on the two cores, up to 14 GiB resident and
#   about 20 GiB of disk at the widest rows in ${KNIGHTS_CHECKPOINT:-/tmp/knights-8x8-checkpoint},
#   where its checkpoint goes too, so a run stopped half way resumes from its last finished row.
set -euo pipefail
bin=build/release/tansaku
big=0 small=0
for a in "$@"; do
  case $a in
    --big) big=1 ;;
    --small) small=1 ;;
    *) bin=$a ;;
  esac
done
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
printf '%-52s %22s %12s %10s %10s\n' command count states seconds 'peak RSS'
run() {
  /usr/bin/time -v "$bin" solve "$@" --count --algorithm "${alg:-dp}" --quiet --json >"$out" 2>"$err" || true
  local secs rss count states
  secs=$(awk -F': ' '/Elapsed \(wall clock\)/{n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' "$err")
  rss=$(awk -F': ' '/Maximum resident set size/{printf "%.0f MiB", $2/1024}' "$err")
  count=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j.get("count", "-"))' "$out" 2>/dev/null || echo "error")
  states=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j.get("nodes", "-"))' "$out" 2>/dev/null || echo "-")
  [[ $count == error ]] && count=$(grep -v '^\s' "$err" | head -1 | cut -c1-60)
  printf '%-52s %22s %12s %10s %10s\n' "solve $* --count --algorithm ${alg:-dp}" "$count" "$states" "$secs" "$rss"
}
run knight-tour:6x6            # 6,637,920 directed open tours (OEIS A165134)
run knight-tour:6x6 --closed   # 9,862 (OEIS A001230)
((small)) || run knight-tour:6x8 --closed  # 55,488,142 (the dp; the split count from 7 wide)
((small)) || run knight-tour:6x7             # 779,938,932 directed open tours: the dp ...
((small)) || alg=split run knight-tour:6x7   # ... and the split count, with a hub square
((small)) || run knight-tour:7x8 --closed  # 34,524,432,316 (OEIS A193054), by the split count
((small)) || run knight-tour:7x7  # 165,575,218,320 directed open tours (OEIS A165134), by the split count
if ((big)); then
  # 13,267,364,410,532 (OEIS A001230), by the split count.
  run knight-tour:8x8 --closed --memory 16G --checkpoint "${KNIGHTS_CHECKPOINT:-/tmp/knights-8x8-checkpoint}"
fi
