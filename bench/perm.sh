#!/usr/bin/env bash
# perm side by side with twsearch (T. Rokicki's God's-number tool, built from the peer
# tarball by /work/shared/peers/build-twsearch.sh): the God's number of the same definition
# files (data/perm/*.tws), one run each under nice (the machine is shared). Prints a
# markdown table with wall and CPU (user) seconds of each, and the ratio twsearch / tansaku
# of wall time (> 1: tansaku faster). Exits non-zero if the two disagree on the count or
# the depth. Usage: bench/perm.sh [path/to/tansaku] [twsearch build dir]
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
echo "| puzzle | moves | positions | depth | tansaku wall s (user) | twsearch wall s (user) | twsearch / tansaku |"
echo "|---|---|---|---|---|---|---|"
row() {  # name moves
  local name=$1 moves=$2 mopt=() tmopt=()
  [ -n "$moves" ] && mopt=(--moves "$moves") && tmopt=(--moves "$moves")
  /usr/bin/time -f "%e %U" -o "$tmp/t1" nice "$bin" explore "perm:$name" "${mopt[@]}" --farthest 0 --json --quiet >"$tmp/o1" 2>/dev/null
  /usr/bin/time -f "%e %U" -o "$tmp/t2" timeout 300 nice "$twdir/twsearch" -g "${tmopt[@]}" "$here/data/perm/$name.tws" >"$tmp/o2" 2>&1
  read -r w1 u1 < <(tail -n 1 "$tmp/t1")
  read -r w2 u2 < <(tail -n 1 "$tmp/t2")
  python3 - "$tmp/o1" "$tmp/o2" "$name" "${moves:-all}" "$w1" "$u1" "$w2" "$u2" <<'PY' || status=1
import json, re, sys
o1, o2, name, moves, w1, u1, w2, u2 = sys.argv[1:]
j = json.load(open(o1))
dists = re.findall(r"Dist (\d+) cnt (\d+) tot (\d+)", open(o2).read())
last = [d for d in dists if int(d[1]) > 0][-1]
tw_depth, tw_states = int(last[0]), int(last[2])
ok = tw_depth == j["depth"] and tw_states == j["states"]
print(f"| {name} | {moves} | {j['states']:,} | {j['depth']} | {float(w1):.2f} ({u1}) | {float(w2):.2f} ({u2}) | "
      f"{float(w2) / float(w1):.2f}{'' if ok else ' **DISAGREE: twsearch ' + str(tw_states) + ' / ' + str(tw_depth) + '**'} |")
sys.exit(0 if ok else 1)
PY
}
row 2x2x2 U,F,R
row skewb-fixed ""   # skewb.tws --moves ULB,UBR,UFL,DBL is the same puzzle, but twsearch sizes its table by
                    # the whole corner set there (minutes, 8 GB): the split file is the fair comparison
row 2x2x2 ""
row pyraminx ""
exit $status
