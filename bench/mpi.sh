#!/usr/bin/env bash
# Distributed and spilled explore (docs/scale.md): the same `tansaku explore PUZZLE` as one
# process (1 thread; all threads), under `mpirun -np K` for each K of RANKS with T threads a
# rank for each T of THREADS (hybrid; T > 1 runs with --bind-to none), and as one process with a quarter of the table's memory and --spill
# (then the same under mpirun -np K for the first K of RANKS: each rank's share spilled). Every answer
# must equal the first (JSON but for timing fields; exit 1 otherwise). Prints the work
# seconds the command reports, states per second (in all and per rank), peak RSS of the
# launcher's children (/usr/bin/time: for mpirun, the largest rank), and for MPI the bytes
# the ranks sent each other per state and the seconds each rank spent in collectives
# (waiting for the others, and the transfers; TANSAKU_MPI_STATS).
# Usage: bench/mpi.sh [path/to/tansaku] [PUZZLE] [extra explore options...]
#   env RANKS="2 3" (default 2), THREADS="1 2" (default 1), SPILL=0 to skip the spilled run.
set -euo pipefail
bin=${1:-build/release/tansaku}
puzzle=${2:-sliding:3x4}
shift $(( $# > 2 ? 2 : $# ))
extra=("$@")
ranks=${RANKS:-2}
threads=${THREADS:-1}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

field() { /usr/bin/python3 -c "import json,sys; print(json.load(open('$1'))['$2'])"; }
same() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
skip = {"seconds", "peak_rss_bytes", "table_bytes", "farthest_moves", "threads"}
bad = [k for k in set(a) | set(b) if k not in skip and a.get(k) != b.get(k)]
sys.exit(1 if bad else 0)
PY
}

# row LABEL RANKS -- command...
row() {
  local label=$1 k=$2
  shift 3
  /usr/bin/time -f "%M" -o "$tmp/time" "$@" --json >"$tmp/out" 2>"$tmp/err" || { echo "$label: failed: $(cat "$tmp/err")"; status=1; return; }
  [[ -f $tmp/ref ]] || cp "$tmp/out" "$tmp/ref"
  local ok=same
  same "$tmp/ref" "$tmp/out" || { ok=DIFFERENT; status=1; }
  local s states rss bytes
  s=$(field "$tmp/out" seconds)
  states=$(field "$tmp/out" states)
  rss=$(tail -n 1 "$tmp/time")
  bytes=$(sed -n 's/^mpi: [0-9]* ranks sent \([0-9]*\) bytes$/\1/p' "$tmp/err")
  local waited
  waited=$(sed -n 's/^mpi: seconds in collectives per rank: //p' "$tmp/err")
  /usr/bin/python3 -c "
s, n, k, rss, b = $s, $states, $k, $rss, '$bytes'
per = '%.2f' % (int(b) / n) if b else '-'
print(f'| $label | {s:.1f} | {n / s / 1e6:.2f} | {n / s / k / 1e6:.2f} | {rss / 1024:.0f} | {per} | ${waited:--} | $ok |')"
}

echo "tansaku explore $puzzle ${extra[*]}  ($(nproc) cores, $(date -u +%F))"
echo "| run | work s | M states/s | M states/s per rank | peak RSS MiB | bytes sent / state | s in collectives per rank | answer |"
echo "|---|---|---|---|---|---|---|---|"
row "1 process, 1 thread" 1 -- "$bin" explore "$puzzle" "${extra[@]}" --threads 1 --quiet
row "1 process, $(nproc) threads" 1 -- "$bin" explore "$puzzle" "${extra[@]}" --quiet
for k in $ranks; do
  for t in $threads; do
    if [[ $t == 1 ]]; then
      row "mpirun -np $k" "$k" -- env TANSAKU_MPI_STATS=1 mpirun -q --oversubscribe -x TANSAKU_MPI_STATS -np "$k" \
        "$bin" explore "$puzzle" "${extra[@]}" --quiet
    else
      row "mpirun -np $k, $t threads a rank" "$k" -- env TANSAKU_MPI_STATS=1 mpirun -q --oversubscribe --bind-to none \
        -x TANSAKU_MPI_STATS -np "$k" "$bin" explore "$puzzle" "${extra[@]}" --threads "$t" --quiet
    fi
  done
done
if [[ ${SPILL:-1} != 0 ]]; then
  table=$(field "$tmp/ref" table_bytes)
  mem=$(( table / 4 + (1 << 20) ))
  row "1 process, --memory $((mem >> 20))M --spill" 1 -- "$bin" explore "$puzzle" "${extra[@]}" --threads 1 --quiet \
    --memory "$mem" --spill "$tmp"
  k=${ranks%% *}
  row "mpirun -np $k, --memory $((mem >> 20))M --spill" "$k" -- env TANSAKU_MPI_STATS=1 mpirun -q --oversubscribe \
    -x TANSAKU_MPI_STATS -np "$k" "$bin" explore "$puzzle" "${extra[@]}" --threads 1 --quiet --memory "$mem" --spill "$tmp"
fi
exit $status
