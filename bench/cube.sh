#!/usr/bin/env bash
# Optimal 3x3x3 solving with cached piece tables (docs/perm.md): builds the tables once
# (`tansaku pdb build perm:3x3x3`, timed, peak RSS), then solves the 14-move scramble of
# issue #25, the checkerboard, superflip (20 htm) and the first N of ten random positions
# (`tansaku random perm:3x3x3 --seed 1 --count 10`), each under --timeout; optionally the
# same positions by twsearch (-s: its own pruning tables, built on each run). Prints a
# markdown table (length, nodes, wall and user seconds, or "timeout") and the load
# (`uptime`) before and after: the machine may be shared, so user seconds say more than wall.
# Usage: bench/cube.sh [path/to/tansaku] [positions (default 10)] [timeout s (default 600)] [twsearch dir]
#   TANSAKU_PDB_DIR: where the tables go (default the user's cache dir).
set -uo pipefail
bin=${1:-build/release/tansaku}
count=${2:-10}
limit=${3:-600}
twdir=${4:-}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "load before: $(uptime)"
/usr/bin/time -f "%e %U %M" -o "$tmp/tb" "$bin" pdb build perm:3x3x3 --quiet >"$tmp/build" 2>&1 || { cat "$tmp/build"; exit 1; }
cat "$tmp/build"
read -r bw bu bm < "$tmp/tb"
echo "tables: ${bw} s wall, ${bu} s user, peak RSS $((bm / 1024)) MiB"
echo
"$bin" random perm:3x3x3 --seed 1 --count 10 >"$tmp/random" || exit 1
echo "| position | length | nodes | tansaku wall s (user) | twsearch wall s (user) |"
echo "|---|---|---|---|---|"
solve() {  # label, then the tansaku arguments giving the start
  local label=$1
  shift
  /usr/bin/time -f "%e %U" -o "$tmp/t" "$bin" solve perm:3x3x3 "$@" --timeout "$limit" --json --quiet >"$tmp/o" 2>"$tmp/e"
  local code=$?
  read -r w u < <(tail -n 1 "$tmp/t")
  local tw="-"
  if [ -n "$twdir" ] && [ -x "$twdir/twsearch" ]; then
    # twsearch reads the start as a ScrambleState of the same definition file.
    python3 - "$tmp/o" "$tmp/scr" "$@" <<'PY'
import json, sys
out, scr = sys.argv[1], sys.argv[2]
j = json.load(open(out)) if open(out).read().strip() else None
start = j["start"] if j else None
if start is None:
    sys.exit(0)
words = start.split()
sets, cur = {}, None
for w in words:
    if not w.lstrip("-").isdigit():
        cur = w; sets[cur] = []
    else:
        sets[cur].append(w)
with open(scr, "w") as f:
    f.write("ScrambleState bench\n")
    for name, vals in sets.items():
        n = len(vals) // 2
        f.write(f"{name}\n{' '.join(vals[:n])}\n{' '.join(vals[n:])}\n")
    f.write("End\n")
PY
    if [ -s "$tmp/scr" ]; then
      /usr/bin/time -f "%e %U" -o "$tmp/t2" timeout "$limit" "$twdir/twsearch" -t 2 -s "$here/data/perm/3x3x3.tws" "$tmp/scr" >"$tmp/o2" 2>&1
      if [ $? -eq 0 ]; then read -r w2 u2 < <(tail -n 1 "$tmp/t2"); tw="$w2 ($u2)"; else tw="timeout"; fi
    fi
  fi
  if [ $code -eq 0 ]; then
    python3 -c "import json,sys; j=json.load(open('$tmp/o')); print(f\"| $label | {j['length']} | {j['nodes']:,} | $w ($u) | $tw |\")"
  else
    echo "| $label | - | - | stopped at ${limit} s: $(head -c 80 "$tmp/e") | $tw |"
  fi
}
solve "14-move scramble" --scramble "R U F D L B R2 U2 F' L2 D B' R U'"
solve "checkerboard" --scramble "U2 D2 F2 B2 L2 R2"
solve "superflip" --start "EDGES 1 2 3 4 5 6 7 8 9 10 11 12 1 1 1 1 1 1 1 1 1 1 1 1"
i=0
while read -r pos && [ $i -lt "$count" ]; do
  i=$((i + 1))
  solve "random $i" --start "$pos"
done <"$tmp/random"
echo
echo "load after: $(uptime)"
