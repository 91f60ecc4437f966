#!/usr/bin/env bash
# Optimal solves of the small permutation puzzles with their cached tables (issue #25's
# target: under 10 ms each once the tables exist; docs/perm.md, "Speed";
# figures in docs/benchmarks.md, "The small puzzles"). Builds the tables of each
# puzzle once (`tansaku pdb build perm:P`, its default set: data/perm/P.pat when there is
# one), then solves N random positions (`tansaku random perm:P --seed 3 --count N`), each
# RUNS times as separate processes, and prints per position the length, the nodes, the
# solve's own `seconds` (best run) and the whole process's wall time (start to exit, as a
# user sees it: best and worst run), then the load (`uptime`).
# Usage: bench/small_solves.sh [path/to/tansaku] [N (default 3)]
#   env RUNS (default 5), PUZZLES (default "2x2x2 pyraminx skewb"), TANSAKU_PDB_DIR (the
#   tables' directory; default a fresh temporary one).
set -euo pipefail
bin=${1:-build/release/tansaku}
count=${2:-3}
runs=${RUNS:-5}
puzzles=${PUZZLES:-"2x2x2 pyraminx skewb"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TANSAKU_PDB_DIR=${TANSAKU_PDB_DIR:-$tmp/tables}
echo "load before: $(uptime)"
for p in $puzzles; do
  /usr/bin/time -f "%e" -o "$tmp/tb" "$bin" pdb build "perm:$p" --quiet >/dev/null
  echo "perm:$p tables built in $(cat "$tmp/tb") s"
done
echo
echo "| puzzle | position | length | nodes | solve seconds (best) | process wall ms (best - worst of $runs) |"
echo "|---|---|---|---|---|---|"
for p in $puzzles; do
  "$bin" random "perm:$p" --seed 3 --count "$count" >"$tmp/positions"
  python3 - "$bin" "$p" "$runs" "$tmp/positions" <<'PY'
import json, subprocess, sys, time
binary, puzzle, runs, positions = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
for i, start in enumerate(l.strip() for l in open(positions) if l.strip()):
    walls, secs, j = [], [], None
    for _ in range(runs):
        t = time.perf_counter()
        out = subprocess.run([binary, "solve", f"perm:{puzzle}", "--start", start, "--json", "--quiet"],
                             capture_output=True, text=True, check=True).stdout
        walls.append((time.perf_counter() - t) * 1000)
        j = json.loads(out)
        secs.append(j["seconds"])
    print(f"| {puzzle} | {i + 1} | {j['length']} | {j['nodes']:,} | {min(secs) * 1000:.1f} ms | "
          f"{min(walls):.1f} - {max(walls):.1f} |")
PY
done
echo
echo "load after: $(uptime)"
