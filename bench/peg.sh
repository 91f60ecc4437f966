#!/usr/bin/env bash
# Side-by-side timings of the peg family (the table in docs/peg.md):
#   - seed 001's own C program (Try-Try, centre -> centre and -> anywhere) vs tansaku;
#   - triangle5, Try-Try explore, and the English runs that are too long for unit tests:
#     the 18-move proof (automatic, layered, IDA*), the explore (23.5 M positions up to
#     symmetry) and the solution count.
# Small rows also give the run's own `seconds` (JSON), which excludes process start-up.
# Usage: bench/peg.sh [path/to/tansaku] [--quick]   (--quick skips the English runs)
set -euo pipefail
bin=${1:-build/release/tansaku}
quick=${2:-}
peers=$(mktemp -d)
trap 'rm -rf "$peers"' EXIT
/work/shared/peers/build.sh "$peers" >/dev/null

# row RUNS "problem" "fields" command... : best wall time of RUNS runs; for tansaku commands
# (given with --json) the answer is read from the JSON fields of the last run.
row() {
  local runs=$1 desc=$2 fields=$3
  shift 3
  local best="" out=""
  for _ in $(seq "$runs"); do
    local t0 t1 t
    t0=$(date +%s%N)
    out=$("$@")
    t1=$(date +%s%N)
    t=$(((t1 - t0) / 1000))
    if [[ -z $best ]] || ((t < best)); then best=$t; fi
  done
  local answer=$fields
  if [[ $fields == json:* ]]; then
    answer=$(python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print(', '.join(f'{k} {d[k]}' for k in sys.argv[1].split(',')))" \
      "${fields#json:}" <<<"$out")
  fi
  local cmd="$*"
  cmd=${cmd/#$bin/tansaku}
  cmd=${cmd/#$peers\//seed C: }
  printf '| %s | `%s` | %s | %d.%03d |\n' "$desc" "$cmd" "$answer" $((best / 1000000)) $((best / 1000 % 1000))
}

echo "| problem | command | answer | wall s |"
echo "|---|---|---|---|"
row 3 "Try-Try centre -> centre" "12 moves" "$peers/trytry"
row 5 "Try-Try centre -> centre" json:length,nodes,seconds "$bin" solve peg:trytry --finish 11 --quiet --json
row 3 "Try-Try centre -> anywhere" "11 moves" "$peers/trytry-any"
row 5 "Try-Try centre -> anywhere" json:length,nodes,seconds "$bin" solve peg:trytry --quiet --json
row 5 "triangle5, 12 -> 12" json:length,nodes,seconds "$bin" solve peg:triangle5 --finish 12 --quiet --json
row 5 "triangle5, 12 -> anywhere" json:length,nodes,seconds "$bin" solve peg:triangle5 --quiet --json
row 5 "triangle5 from a corner: jump sequences" json:count,seconds "$bin" solve peg:triangle5 --empty 0 --count --quiet --json
row 1 "Try-Try explore" json:states,states_symmetry_reduced,can_finish "$bin" explore peg:trytry --quiet --json
row 1 "French centre (no search: position classes)" json:solvable "$bin" solve peg:french --quiet --json || true
# process start-up alone (the wall times above include it; `seconds` in the answer does not)
row 5 "start-up: tansaku list" "-" "$bin" list
[[ $quick == --quick ]] && exit 0
row 1 "English centre -> centre (automatic)" json:length,nodes "$bin" solve peg:english --finish 16 --quiet --json
row 1 "English centre -> centre, layered" json:length,positions "$bin" solve peg:english --finish 16 --algorithm layered --quiet --json
row 1 "English centre -> centre, IDA*" json:length,nodes "$bin" solve peg:english --finish 16 --algorithm idastar --quiet --json
row 1 "English explore" json:states,states_symmetry_reduced,can_finish_at_symmetry_reduced "$bin" explore peg:english --finish 16 --quiet --json
row 1 "English centre -> centre: jump sequences" json:count "$bin" solve peg:english --finish 16 --count --quiet --json
