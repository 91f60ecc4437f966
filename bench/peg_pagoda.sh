#!/usr/bin/env bash
# Pagoda functions in the peg searches: every command twice, with the default (pagoda
# functions on where they help) and with TANSAKU_PEG_PAGODA=0 (no proof, no pruning).
# The table goes to docs/benchmarks.md (pagoda functions) and docs/peg.md.
# Usage: bench/peg_pagoda.sh [path/to/tansaku] [--quick]   (--quick skips the long runs)
set -euo pipefail
bin=${1:-build/release/tansaku}
quick=${2:-}

# run ENV command... -> "seconds|answer" from the JSON (wall time measured here).
run() {
  local env=$1
  shift
  local t0 t1 out
  t0=$(date +%s%N)
  out=$(env TANSAKU_PEG_PAGODA="$env" "$@" || true)
  t1=$(date +%s%N)
  local t=$(((t1 - t0) / 1000))
  local answer
  answer=$(python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
if not d["solvable"]:
    a = "impossible (" + ("pagoda" if d.get("algorithm") == "pagoda function" else "search") + ")"
elif d.get("count") is not None:
    a = "count %s" % d["count"]
else:
    a = "%s %s" % (d["length"], d.get("metric"))
work = d.get("positions") or d.get("nodes")
print("%s|%s|%s" % (a, work, d.get("pagoda_functions", 0)))' <<<"$out")
  printf '%d.%03d|%s' $((t / 1000000)) $((t / 1000 % 1000)) "$answer"
}

# row "problem" command... : one run with pagoda functions, one without.
row() {
  local desc=$1
  shift
  local on off
  on=$(run 1 "$@")
  off=$(run 0 "$@")
  IFS='|' read -r ton aon won fon <<<"$on"
  IFS='|' read -r toff aoff woff _ <<<"$off"
  local cmd="$*"
  cmd=${cmd/#$bin/tansaku}
  printf '| %s | `%s` | %s | %s | %s / %s | **%s** | %s |\n' "$desc" "$cmd" "$aon" "$fon" "$won" "$woff" "$ton" "$toff"
  [[ $aon == "$aoff" || $aon == "impossible (pagoda)" ]] || echo "MISMATCH: $aon vs $aoff" >&2
}

far=000000000000011111111110111111111  # English rows 3-6 but hole 23
echo "| problem | command | answer | functions | nodes or positions: on / off | wall s on | wall s off (TANSAKU_PEG_PAGODA=0) |"
echo "|---|---|---|---|---|---|---|"
row "triangle5, 12 -> 12" "$bin" solve peg:triangle5 --finish 12 --quiet --json
row "Try-Try centre -> centre" "$bin" solve peg:trytry --finish 11 --quiet --json
row "triangle6, 4 -> 4: jump sequences" "$bin" solve peg:triangle6 --empty 4 --finish 4 --count --quiet --json
row "Try-Try centre -> 3: jump sequences" "$bin" solve peg:trytry --finish 3 --count --quiet --json
row "English rows 3-6 but 23 -> 1" "$bin" solve peg:english --start $far --finish 1 --quiet --json
row "English rows 3-6 but 23 -> 16" "$bin" solve peg:english --start $far --finish 16 --quiet --json
row "English rows 3-6 but 23 -> 31" "$bin" solve peg:english --start $far --finish 31 --quiet --json
row "French, 5 empty: one peg at all?" "$bin" solve peg:french --empty 5 --metric jumps --quiet --json
row "French, 0 empty: one peg at all?" "$bin" solve peg:french --empty 0 --metric jumps --quiet --json
[[ $quick == --quick ]] && exit 0
row "triangle7 from 23: jump sequences" "$bin" solve peg:triangle7 --count --quiet --json
row "English centre -> centre (automatic)" "$bin" solve peg:english --finish 16 --quiet --json
row "English centre -> centre, layered" "$bin" solve peg:english --finish 16 --algorithm layered --quiet --json
row "English centre -> centre, IDA*" "$bin" solve peg:english --finish 16 --algorithm idastar --quiet --json
row "English centre -> anywhere" "$bin" solve peg:english --quiet --json
row "English centre -> centre: jump sequences" "$bin" solve peg:english --finish 16 --count --quiet --json
