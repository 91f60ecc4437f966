#!/usr/bin/env bash
# perm side by side with twsearch (T. Rokicki's God's-number tool, built from the peer
# tarball by /work/shared/peers/build-twsearch.sh): the God's number of the same definition
# files (data/perm/*.tws), under nice (the machine is shared). tansaku runs as a user would
# (20 farthest positions, each with a move sequence; twsearch prints 20 antipodes), with
# --threads 1 and 2; twsearch with -t 1 and 2. Prints a
# markdown table of wall and CPU (user) seconds and the ratio twsearch / tansaku of user
# seconds with one thread (> 1: tansaku faster; user time, since wall time on a loaded
# machine measures the load). Exits non-zero if the two disagree on the count or the depth.
# Usage: bench/perm.sh [path/to/tansaku] [twsearch build dir]
set -uo pipefail
bin=${1:-build/release/tansaku}
twdir=${2:-/tmp/twsearch}
here=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -x "$twdir/twsearch" ]; then
  /work/shared/peers/build-twsearch.sh "$twdir" || { echo "cannot build twsearch into $twdir" >&2; exit 2; }
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
echo "| puzzle | moves | positions | depth | tansaku --threads 1: wall s (user) | tansaku --threads 2 | twsearch -t 1 | twsearch -t 2 | twsearch / tansaku (user, 1 thread) |"
echo "|---|---|---|---|---|---|---|---|---|"
row() {  # name moves
  local name=$1 moves=$2 mopt=()
  [ -n "$moves" ] && mopt=(--moves "$moves")
  /usr/bin/time -f "%e %U" -o "$tmp/t1" nice "$bin" explore "perm:$name" "${mopt[@]}" --threads 1 --json --quiet >"$tmp/o1" 2>/dev/null
  /usr/bin/time -f "%e %U" -o "$tmp/t3" nice "$bin" explore "perm:$name" "${mopt[@]}" --threads 2 --json --quiet >/dev/null 2>&1
  /usr/bin/time -f "%e %U" -o "$tmp/t2" timeout 300 nice "$twdir/twsearch" -t 1 -g "${mopt[@]}" "$here/data/perm/$name.tws" >"$tmp/o2" 2>&1
  /usr/bin/time -f "%e %U" -o "$tmp/t4" timeout 300 nice "$twdir/twsearch" -t 2 -g "${mopt[@]}" "$here/data/perm/$name.tws" >/dev/null 2>&1
  read -r w1 u1 < <(tail -n 1 "$tmp/t1")
  read -r w4 u4 < <(tail -n 1 "$tmp/t4")
  read -r w3 u3 < <(tail -n 1 "$tmp/t3")
  read -r w2 u2 < <(tail -n 1 "$tmp/t2")
  python3 - "$tmp/o1" "$tmp/o2" "$name" "${moves:-all}" "$w1" "$u1" "$w3" "$u3" "$w2" "$u2" "$w4" "$u4" <<'PY' || status=1
import json, re, sys
o1, o2, name, moves, w1, u1, w3, u3, w2, u2, w4, u4 = sys.argv[1:]
j = json.load(open(o1))
dists = re.findall(r"Dist (\d+) cnt (\d+) tot (\d+)", open(o2).read())
last = [d for d in dists if int(d[1]) > 0][-1]
tw_depth, tw_states = int(last[0]), int(last[2])
ok = tw_depth == j["depth"] and tw_states == j["states"]
ratio = float(u2) / max(float(u1), 0.005)
print(f"| {name} | {moves} | {j['states']:,} | {j['depth']} | {float(w1):.2f} ({u1}) | {float(w3):.2f} ({u3}) | "
      f"{float(w2):.2f} ({u2}) | {float(w4):.2f} ({u4}) | {ratio:.1f}{'' if ok else ' **DISAGREE: twsearch ' + str(tw_states) + ' / ' + str(tw_depth) + '**'} |")
sys.exit(0 if ok else 1)
PY
}
row 2x2x2 U,F,R
row skewb-fixed ""   # skewb.tws --moves ULB,UBR,UFL,DBL is the same puzzle, but twsearch sizes its table by
                    # the whole corner set there (minutes, 8 GB): the split file is the fair comparison
row 2x2x2 ""
row pyraminx ""
exit $status
