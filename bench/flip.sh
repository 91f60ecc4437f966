#!/usr/bin/env bash
# Flip benchmarks (docs/flip.md): large all-on boards solved by light chasing + M4RI, the
# coset minimum at several nullities, and whole-space explores. One run each (the machine
# is shared); prints a markdown table: wall time and peak memory from /usr/bin/time.
# Usage: bench/flip.sh [path/to/tansaku]
set -uo pipefail
bin=${1:-build/release/tansaku}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| command | exit | nullity | presses | optimal | wall s | peak RSS MiB |"
echo "|---|---|---|---|---|---|---|"
row() {
  /usr/bin/time -f "%e %M" -o "$tmp/time" "$bin" "$@" --json --quiet >"$tmp/out" 2>/dev/null
  local code=$?
  read -r wall rss < <(tail -n 1 "$tmp/time")
  python3 - "$tmp/out" "$code" "$wall" "$rss" "$*" <<'PY'
import json, sys
path, code, wall, rss, cmd = sys.argv[1:]
try:
    j = json.load(open(path))
except Exception:
    j = {}
if "histogram" in j:
    nul, length, opt = j.get("nullity", "-"), f"depth {j['depth']} ({j['farthest_count']})", "-"
else:
    nul, length, opt = j.get("nullity", "-"), j.get("length"), j.get("optimal", "-")
    length = "unsolvable" if length is None else length
print(f"| `tansaku {cmd}` | {code} | {nul} | {length} | {opt} | {wall} | {int(rss) / 1024:.0f} |")
PY
}
row solve flip:200x200 --rule eight
row solve flip:200x200 --rule lights-out
row solve flip:1000x1000 --rule eight
row solve flip:1000x1000 --rule lights-out
row solve flip:1002x1002 --rule eight
row solve flip:204x204 --rule lights-out
row solve flip:194x194 --rule lights-out
row solve flip:204x204 --rule eight
row solve flip:1024x1024 --rule lights-out
row solve flip:999x999 --rule eight
row solve flip:1023x1023 --rule eight
row solve flip:1000x1000 --rule lights-out --torus
row explore flip:5x5
row explore flip:5x5 --algorithm bfs
row explore flip:4x6
row explore flip:5x6 --rule lights-out
row explore flip:7x9
row explore flip:6x5 --rule lights-out --torus
