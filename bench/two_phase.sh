#!/usr/bin/env bash
# The 3x3x3 by two-phase (docs/perm.md, "Two-phase solving"; figures in docs/benchmarks.md):
# N random cubes (`tansaku random perm:3x3x3 --seed 1 --count N`), each solved as a separate
# process by `solve cube --algorithm two-phase --json` (plus ARGS, e.g. --max-length 24),
# after one solve that builds the tables into the cache directory; prints the lengths
# (mean, range, distribution), the solve's own `seconds` and the whole process's wall and
# user seconds (median, mean, max), then the load (`uptime`).
# Usage: bench/two_phase.sh [path/to/tansaku] [N (default 100)] [ARGS...]
#   env TANSAKU_PDB_DIR: the tables' directory (default a fresh temporary one).
set -euo pipefail
bin=${1:-build/release/tansaku}
count=${2:-100}
shift $(( $# < 2 ? $# : 2 ))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TANSAKU_PDB_DIR=${TANSAKU_PDB_DIR:-$tmp/tables}
echo "load before: $(uptime)"
"$bin" random perm:3x3x3 --seed 1 --count "$count" > "$tmp/cubes.txt"
/usr/bin/time -f "tables built in %e s wall, %U s user" "$bin" solve cube --scramble "R" --algorithm two-phase --quiet > /dev/null
while read -r start; do
  /usr/bin/time -f "%e %U" -o "$tmp/time.txt" "$bin" solve cube --start "$start" --algorithm two-phase --json --quiet "$@" > "$tmp/out.json"
  python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
wall, user = open(sys.argv[2]).read().split()
print(j["length"], j["seconds"], wall, user)' "$tmp/out.json" "$tmp/time.txt" >> "$tmp/rows.txt"
done < "$tmp/cubes.txt"
python3 - "$tmp/rows.txt" "$*" <<'EOF'
import collections, statistics as st, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1])]
length, solve, wall, user = zip(*rows)
print(f"{len(rows)} cubes, two-phase {sys.argv[2]}".rstrip())
print(f"length: mean {st.mean(length):.2f}, {int(min(length))}..{int(max(length))}, "
      f"{sorted(collections.Counter(int(x) for x in length).items())}")
for name, v in (("solve seconds", solve), ("process wall s", wall), ("process user s", user)):
    print(f"{name}: median {st.median(v):.3f}, mean {st.mean(v):.3f}, max {max(v):.3f}")
EOF
echo "load after: $(uptime)"
