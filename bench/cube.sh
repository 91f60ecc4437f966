#!/usr/bin/env bash
# Optimal 3x3x3 solving with cached tables (docs/perm.md: the patterns of data/perm/3x3x3.pat,
# reduced by symmetry, the largest that fits the memory budget): builds the tables once
# (`tansaku pdb build perm:3x3x3`, timed, peak RSS), then solves a 14-move scramble, the
# checkerboard and superflip (20 htm), each a command of its own under --timeout, and the
# first N random positions (`tansaku random perm:3x3x3 --seed 1 --count N`) as one
# `solve --batch` (the tables loaded once; its timeout N times the one of a solve); optionally
# the scrambles and the first ten positions by twsearch (--scramblealg or a scramble file;
# its own pruning tables, cached in $TW_CACHE, default /tmp/twcache: the first run builds
# them, 8 GiB). Prints a markdown table (length, nodes, wall and user seconds, peak RSS, or
# "timeout"; for the batch each position's own wall seconds, the first's with the tables'
# loading, then the batch's wall and user seconds and peak RSS), the random positions' mean, median and
# largest wall time and nodes per second, and the load (`uptime`) before and after: the
# machine may be shared, so user seconds say more than wall.
# Usage: bench/cube.sh [path/to/tansaku] [positions (default 10, up to 100)] [timeout s (default 600)] [twsearch dir]
#   TANSAKU_PDB_DIR: where the tables go (default the user's cache dir).
#   CUBE_CELLS="2 4": the whole run once per table size: `pdb build --cells N` (2: the
#     shipped pattern's 2-bit cells, about 1 GiB with its class and sym-move tables; 4: the
#     same pattern's exact cells, about 1.7 GiB, searched with lookups at the inverse), each
#     in its own folder of the table directory (cube-cells-N; default "2": the directory
#     itself).
#   CUBE_MEMORY="2G 18G": the whole run once per memory budget, `--memory` of the build and
#     the solves: the pattern is the largest of data/perm/3x3x3.pat's that fits it (2G: the
#     twist-flip-sortedslice pattern, about 1 GiB; from 3G: twist-flip-layers, about
#     2.5 GiB; from 18G: twist-flip-layers-pairs, 15.4 GiB), each in its own folder (cube-mem-M, or cube-cells-N-mem-M with CUBE_CELLS;
#     default: the default budget, three quarters of the memory).
#   CUBE_FIXED=0: the random positions only (no 14-move scramble, checkerboard, superflip).
#   CUBE_FROM=K: the random positions K to N only (a long run split in two: the same
#     positions, numbered as in the whole run).
#   TANSAKU_PERM_INVERSE=1: inverse lookups too (docs/perm.md), for a paired comparison.
set -uo pipefail
bin=${1:-build/release/tansaku}
count=${2:-10}
limit=${3:-600}
twdir=${4:-}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
from=${CUBE_FROM:-1}
"$bin" random perm:3x3x3 --seed 1 --count "$count" >"$tmp/all" || exit 1
tail -n +"$from" "$tmp/all" >"$tmp/random"
batch=$(wc -l <"$tmp/random")  # the positions solved
[ "$batch" -gt 0 ] || { echo "CUBE_FROM=$from: beyond the $count positions" >&2; exit 2; }
solve() {  # label, then the tansaku arguments giving the start
  local label=$1
  shift
  /usr/bin/time -f "%e %U %M" -o "$tmp/t" "$bin" solve perm:3x3x3 "$@" ${memory:+--memory "$memory"} --timeout "$limit" \
    --json --quiet >"$tmp/o" 2>"$tmp/e"
  local code=$?
  read -r w u m < <(tail -n 1 "$tmp/t")
  local tw
  tw=$(twsearch_time "$@")
  if [ $code -eq 0 ]; then
    python3 -c "import json,sys; j=json.load(open('$tmp/o')); print(f\"| $label | {j['length']} | {j['nodes']:,} | $w ($u) | $((m / 1024)) | $tw |\")"
  else
    echo "| $label | - | - | stopped at ${limit} s: $(head -c 80 "$tmp/e") | $((m / 1024)) | $tw |"
  fi
}
twsearch_time() {  # the tansaku arguments giving the start: twsearch's wall (user) seconds, or "-"
  local tw="-"
  if [ -n "$twdir" ] && [ -x "$twdir/twsearch" ]; then
    # twsearch solves the same scramble (--scramblealg) or state (a scramble file: its
    # ScrambleState numbers pieces from 0) with its own pruning tables (-M 8192: 8 GiB),
    # cached in $TW_CACHE between runs (the first run builds them).
    mkdir -p "${TW_CACHE:-/tmp/twcache}"
    local what=(--scramblealg "$2" "$here/data/perm/3x3x3.tws")
    if [ "$1" = "--start" ]; then
      python3 - "$2" >"$tmp/pos.scr" <<'PY'
import sys
t = sys.argv[1].split()
out, i = ["ScrambleState pos"], 0
while i < len(t):
    name, j = t[i], i + 1
    while j < len(t) and not t[j].isalpha():
        j += 1
    nums = t[i + 1:j]
    n = len(nums) // 2
    out += [name, " ".join(str(int(x) - 1) for x in nums[:n]), " ".join(nums[n:])]
    i = j
print("\n".join(out + ["End"]))
PY
      what=("$here/data/perm/3x3x3.tws" "$tmp/pos.scr")
    fi
    /usr/bin/time -f "%e %U" -o "$tmp/t2" timeout "$limit" "$twdir/twsearch" -M 8192 -t 2 --cachedir "${TW_CACHE:-/tmp/twcache}" \
      "${what[@]}" >"$tmp/o2" 2>&1
    if grep -qE "^Found [0-9]+ solution" "$tmp/o2"; then read -r w2 u2 < <(tail -n 1 "$tmp/t2"); tw="$w2 ($u2)"; else tw="stopped at ${limit} s"; fi
  fi
  echo "$tw"
}
batch_random() {  # the random positions as one solve --batch: a row each, then the batch's totals
  /usr/bin/time -f "%e %U %M" -o "$tmp/tr" "$bin" solve perm:3x3x3 --batch "$tmp/random" ${memory:+--memory "$memory"} \
    --timeout "$((limit * batch))" --json --quiet >"$tmp/or" 2>"$tmp/er"
  local code=$?
  read -r w u m < <(tail -n 1 "$tmp/tr")
  python3 - "$tmp/or" "$tmp/walls" "$batch" "$from" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
with open(sys.argv[2], "a") as walls:
    for r in rows:
        if r.get("summary"):
            continue
        print(f"| random {int(r['instance']) + int(sys.argv[4]) - 1} | {r['length']} | {r['nodes']:,} | {r['seconds']:.2f} | | |")
        walls.write(f"{r['seconds']} {r['nodes']}\n")
    done = sum(1 for r in rows if not r.get("summary"))
    for _ in range(done, int(sys.argv[3])):  # not solved within the batch's timeout
        walls.write("-\n")
PY
  [ $code -eq 0 ] || echo "| (batch stopped: $(head -c 80 "$tmp/er")) | | | | | |"
  echo "| random $from-$count as one batch | | | $w ($u) | $((m / 1024)) | |"
  if [ -n "$twdir" ] && [ -x "$twdir/twsearch" ]; then
    echo
    echo "| position | twsearch wall s (user) |"
    echo "|---|---|"
    local i=0 pos
    while read -r pos && [ $i -lt 10 ]; do
      i=$((i + 1))
      echo "| random $((i + from - 1)) | $(twsearch_time --start "$pos") |"
    done <"$tmp/random"
  fi
}
run_size() {  # cells, memory budget (empty: the default): the table's build, then every solve with it
  local cells=$1
  memory=$2
  echo "== pattern table with ${cells}-bit cells, memory budget ${memory:-the default} (TANSAKU_PDB_DIR=${TANSAKU_PDB_DIR:-unset: the default cache directory})"
  echo "load before: $(uptime)"
  /usr/bin/time -f "%e %U %M" -o "$tmp/tb" "$bin" pdb build perm:3x3x3 --cells "$cells" ${memory:+--memory "$memory"} \
    --quiet >"$tmp/build" 2>&1 || { cat "$tmp/build"; exit 1; }
  cat "$tmp/build"
  read -r bw bu bm < "$tmp/tb"
  echo "tables: ${bw} s wall, ${bu} s user, peak RSS $((bm / 1024)) MiB"
  echo
  echo "| position | length | nodes | tansaku wall s (user) | RSS MiB | twsearch wall s (user) |"
  echo "|---|---|---|---|---|---|"
  rm -f "$tmp/walls"
  if [ "${CUBE_FIXED:-1}" != 0 ]; then
    solve "14-move scramble" --scramble "R U F D L B R2 U2 F' L2 D B' R U'"
    solve "checkerboard" --scramble "U2 D2 F2 B2 L2 R2"
    solve "superflip" --scramble "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2"
  fi
  batch_random
  echo
  if [ -s "$tmp/walls" ]; then  # the targets: mean at most 8 s with the ~1 GiB table, 1.5 s with the largest (figures: docs/benchmarks.md)
    python3 - "$tmp/walls" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
solved = [r for r in rows if len(r) > 1]
if solved:
    v = sorted(float(r[0]) for r in solved)
    nodes = sum(int(r[1]) for r in solved)
    print(f"random positions: {len(v)} solved, mean {statistics.mean(v):.1f} s, median {statistics.median(v):.1f} s wall, "
          f"max {v[-1]:.1f} s; {nodes / max(sum(v), 1e-9) / 1e6:.1f} M nodes/s"
          + (f"; {len(rows) - len(solved)} not solved within the timeout (left out)" if len(solved) < len(rows) else ""))
PY
  fi
  echo "load after: $(uptime)"
  echo
}
sizes=${CUBE_CELLS:-2}
memories=${CUBE_MEMORY:-}
for cells in $sizes; do
  case $cells in 2 | 4) ;; *) echo "bench/cube.sh: CUBE_CELLS takes 2 and 4, not $cells" >&2; exit 2 ;; esac
done
if [ "$sizes" = 2 ] && [ -z "$memories" ]; then
  run_size 2 ""
else
  base=${TANSAKU_PDB_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tansaku}
  for cells in $sizes; do
    for memory in ${memories:-default}; do
      folder=cube-cells-$cells
      [ "$memory" = default ] && memory="" || folder="$folder-mem-$memory"
      [ -z "${CUBE_CELLS:-}" ] && folder=cube-mem-$memory
      mkdir -p "$base/$folder"
      TANSAKU_PDB_DIR=$base/$folder run_size "$cells" "$memory"
    done
  done
fi
