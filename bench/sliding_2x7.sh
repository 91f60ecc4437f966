#!/usr/bin/env bash
# The 2x7 God's number on one machine (docs/scale.md): `tansaku explore sliding:2x7` in
# memory (a 10.9 GB 2-bit table; refused up front below about 10.2 GiB of --memory), then
# checks the answer against OEIS A346736: 14!/2 states, depth 108, the single antipode
# 7 6 12 4 3 9 1 / _ 13 5 11 10 2 8, and the sequence's first counts. Prints wall time, CPU
# seconds and peak RSS (/usr/bin/time), and the load before and after: on a shared machine
# CPU seconds say more than wall. About an hour on 2 cores.
# Usage: bench/sliding_2x7.sh [path/to/tansaku] [threads (default: all)] [memory (default 12G)]
set -euo pipefail
bin=${1:-build/release/tansaku}
threads=${2:-0}
memory=${3:-12G}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "load before: $(uptime)"
/usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$bin" explore sliding:2x7 --threads "$threads" --memory "$memory" \
  --json >"$tmp/out"
read -r wall user sys rss <"$tmp/time"
echo "load after: $(uptime)"
echo "wall ${wall} s, CPU ${user} s user + ${sys} s system, peak RSS $((rss / 1024)) MiB"
/usr/bin/python3 - "$tmp/out" <<'PY'
import json, math, sys
j = json.load(open(sys.argv[1]))
h = j["histogram"]
# OEIS A346736, a(0)..a(38): the 2x7 counts per depth from a corner blank (Korf; Rokicki).
a346736 = [1, 2, 3, 6, 11, 20, 37, 67, 117, 198, 329, 557, 942, 1575, 2597, 4241, 6724, 10535, 16396,
           25515, 39362, 60532, 92089, 138969, 207274, 307725, 453000, 664240, 964874, 1392975, 1992353,
           2832063, 3988528, 5586275, 7756511, 10698721, 14621717, 19840724, 26676629]
checks = {
    "states = 14!/2": j["states"] == math.factorial(14) // 2 == sum(h),
    "depth 108": j["depth"] == 108 and len(h) == 109,
    "one antipode, A346736's": j["farthest_count"] == 1 and j["farthest"] == ["7 6 12 4 3 9 1 0 13 5 11 10 2 8"],
    "counts at depths 0-38 = A346736": h[:39] == a346736,
}
print(f"states {j['states']:,}, depth {j['depth']}, farthest {j['farthest']}, work {j['seconds']:.0f} s, "
      f"table {j['table_bytes']:,} bytes, peak RSS {j['peak_rss_bytes'] / 2**30:.2f} GiB")
for name, ok in checks.items():
    print(f"  {'ok  ' if ok else 'FAIL'} {name}")
sys.exit(0 if all(checks.values()) else 1)
PY
