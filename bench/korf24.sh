#!/usr/bin/env bash
# Korf & Felner's 24-puzzle instances (data/sliding/korf-felner-24.txt), solved optimally one
# by one with the complete known partitions in the cache ($TANSAKU_PDB_DIR: Korf & Felner's
# 6-6-6-6 + reflection, maxed with the 7-tile partitions built by `tansaku pdb build 24-puzzle
# --partition all`, about 80 min and 8.3 GB once; docs/pdb.md), against their
# published lengths and node counts. Default: the twelve with fewest published expansions.
#   bench/korf24.sh                 build the tables if missing (`pdb build 24-puzzle`: the known
#                                   partitions that fit the memory; all four take about 80 min once), then solve
#   bench/korf24.sh --no-build 38 40 25     only these instances, with whatever is in the cache
#   BIN=... THREADS=N TIMEOUT=SECONDS bench/korf24.sh   (TIMEOUT per instance; default none)
#   PRUNE=2 bench/korf24.sh         only never undo the last move, as Korf & Felner (default: the
#                                   solver's, redundant move strings of up to 16 moves skipped)
# One line per instance: our length, nodes expanded and generated, the published length and
# nodes (Korf & Felner count generated nodes), wall seconds; JSON lines in build/korf24.jsonl.
# Then the same instances beside the published counts of later heuristics (8-8-8, 9-9-6, the
# max of the large ones, zero-aware tables; bench/korf24_published.txt), in total too.
# Fails when a length differs from the published one.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/korf24_instance.sh
bin=${BIN:-build/release/tansaku}
threads=${THREADS:-$(nproc)}
data=data/sliding/korf-felner-24.txt
goal="0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24"
build=1
if [ "${1:-}" = "--no-build" ]; then build=0; shift; fi
ids=("$@")
[ ${#ids[@]} -gt 0 ] || ids=(38 40 25 32 44 37 30 13 1 28 36 5)
if [ $build = 1 ]; then
  start=$(date +%s.%N)
  "$bin" pdb build 24-puzzle --threads "$threads" --json >&2
  echo "tables ready in $(awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $start}") s" >&2
fi
timeout=()
[ -z "${TIMEOUT:-}" ] || timeout=(--timeout "$TIMEOUT")
prune=()
[ -z "${PRUNE:-}" ] || prune=(--prune-depth "$PRUNE")
mkdir -p build
out=build/korf24.jsonl
: > "$out"
printf '%4s %6s %14s %14s %16s %8s %9s  %s\n' '#' length expanded generated 'K&F generated' 'gen/K&F' seconds heuristic
fail=0
sum_gen=0 sum_pub=0 sum_secs=0
solved=()
for id in "${ids[@]}"; do
  korf24_instance "$id"
  t0=$(date +%s.%N)
  set +e
  json=$("$bin" solve 24-puzzle --start "$tiles" --goal "$goal" --threads "$threads" "${timeout[@]}" "${prune[@]}" --json --quiet)
  rc=$?
  set -e
  t1=$(date +%s.%N)
  secs=$(awk "BEGIN{printf \"%.1f\", $t1 - $t0}")
  if [ $rc -ne 0 ]; then
    printf '%4s %6s %14s %14s %16s %8s %9s  %s\n' "$id" "-" "-" "-" "$pub_nodes" "-" "$secs" "exit $rc (not solved)"
    continue
  fi
  echo "$json" >> "$out"
  read -r len exp gen alg < <(/usr/bin/python3 -c 'import json,sys; j=json.loads(sys.argv[1]); print(j["length"], j["nodes"], j["generated"], j["algorithm"] + ", prune depth " + str(j.get("prune_depth")))' "$json")
  ratio=$(awk "BEGIN{printf \"%.3f\", $gen / $pub_nodes}")
  printf '%4s %6s %14s %14s %16s %8s %9s  %s\n' "$id" "$len" "$exp" "$gen" "$pub_nodes" "$ratio" "$secs" "$alg"
  sum_gen=$((sum_gen + gen)); sum_pub=$((sum_pub + pub_nodes)); sum_secs=$(awk "BEGIN{print $sum_secs + $secs}")
  solved+=("$id $exp $gen")
  if [ "$len" != "$pub_len" ]; then
    echo "FAIL: #$id length $len, published $pub_len" >&2
    fail=1
  fi
done
if [ "$sum_pub" -gt 0 ]; then
  printf '%4s %6s %14s %14s %16s %8s %9s  %s\n' all "" "" "$sum_gen" "$sum_pub" "$(awk "BEGIN{printf \"%.3f\", $sum_gen / $sum_pub}")" \
    "$sum_secs" "the solved ones: $(awk "BEGIN{printf \"%.2f\", $sum_pub / ($sum_gen > 0 ? $sum_gen : 1)}")x fewer generated"
fi
# Beside the later, stronger heuristics' published counts (bench/korf24_published.txt: most
# likely expanded nodes), for the solved instances that file has.
if [ ${#solved[@]} -gt 0 ]; then
  printf '%s\n' "${solved[@]}" | awk -v pub=bench/korf24_published.txt '
    BEGIN {
      while ((getline line < pub) > 0) {
        if (line ~ /^#/ || line == "") continue
        split(line, f, " "); row[f[1]] = line
      }
      split("6-6-6-6 8-8-8 9-8-7 9-9-6 max-of-3 zero-aware", name, " ")
      print ""
      print "beside later heuristics (their published counts, most likely expanded nodes; bench/korf24_published.txt):"
      printf "%4s %14s %14s", "#", "expanded", "generated"
      for (i = 1; i <= 6; i++) printf " %14s", name[i]
      printf "\n"
    }
    $1 in row {
      split(row[$1], f, " ")
      printf "%4s %14.0f %14.0f", $1, $2, $3
      for (i = 1; i <= 6; i++) { printf " %14.0f", f[i + 2]; sum[i] += f[i + 2] }
      printf "\n"
      ex += $2; ge += $3; n++
    }
    END {
      if (!n) exit
      printf "%4s %14.0f %14.0f", "all", ex, ge
      for (i = 1; i <= 6; i++) printf " %14.0f", sum[i]
      printf "\n%4s %14s %14s", "", "", "ratio:"
      for (i = 1; i <= 6; i++) printf " %14s", sprintf("%.2fx", sum[i] / ex)
      printf "  (their count / our expanded; above 1: we expand fewer)\n"
    }'
fi
exit $fail
