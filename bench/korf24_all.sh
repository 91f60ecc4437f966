#!/usr/bin/env bash
# All fifty of Korf & Felner's 24-puzzles (data/sliding/korf-felner-24.txt) as a batch, each
# with its own --timeout, recording which finish: one JSON line per instance (number, exit
# code, finished, our length and generated nodes when solved, the published length and
# nodes, wall seconds), on stdout and in build/korf24_all.jsonl (rank R of N:
# build/korf24_all.R.jsonl). Uses whatever tables are in the cache ($TANSAKU_PDB_DIR):
# the complete known partitions there are maxed (docs/pdb.md). Never builds tables.
#   TIMEOUT=600 bench/korf24_all.sh          every instance, 600 s each (default 60)
#   TIMEOUT=60 bench/korf24_all.sh 38 40 2   only these
#   BIN=... THREADS=N                         the program, threads per solve
#   mpirun -n 2 bench/korf24_all.sh          ranks split the instances (instance i goes to
#                                             rank i mod N); each rank loads its own copy of
#                                             the tables, so N x their memory
# Exit 1 when a finished instance's length differs from the published one, else 0.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/korf24_instance.sh
bin=${BIN:-build/release/tansaku}
threads=${THREADS:-$(nproc)}
timeout=${TIMEOUT:-60}
data=data/sliding/korf-felner-24.txt
goal="0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24"
rank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}
size=${OMPI_COMM_WORLD_SIZE:-${PMI_SIZE:-1}}
ids=("$@")
[ ${#ids[@]} -gt 0 ] || mapfile -t ids < <(awk '$1 !~ /^#/ && NF {print $1}' "$data")
mkdir -p build
out=build/korf24_all.jsonl
[ "$size" = 1 ] || out=build/korf24_all.$rank.jsonl
: > "$out"
fail=0
i=0
for id in "${ids[@]}"; do
  i=$((i + 1))
  [ $(((i - 1) % size)) = "$rank" ] || continue
  korf24_instance "$id"
  t0=$(date +%s.%N)
  set +e
  json=$("$bin" solve 24-puzzle --start "$tiles" --goal "$goal" --threads "$threads" --timeout "$timeout" --json --quiet 2>/dev/null)
  rc=$?
  set -e
  secs=$(awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $t0}")
  record=$(/usr/bin/python3 - "$id" "$rc" "$pub_len" "$pub_nodes" "$secs" "$timeout" "$json" <<'PY'
import json, sys
id_, rc, pub_len, pub_nodes, secs, timeout, out = sys.argv[1:]
r = {"instance": int(id_), "exit": int(rc), "finished": rc == "0", "timeout": float(timeout),
     "published_length": int(pub_len), "published_generated": int(pub_nodes), "seconds": float(secs)}
if rc == "0":
    j = json.loads(out)
    r.update(length=j["length"], expanded=j["nodes"], generated=j["generated"], heuristic=j.get("heuristic"),
             optimal=j["length"] == int(pub_len))
print(json.dumps(r))
PY
)
  echo "$record" | tee -a "$out"
  if [ $rc = 0 ] && ! grep -q '"optimal": true' <<<"$record"; then
    echo "FAIL: #$id length differs from the published $pub_len" >&2
    fail=1
  fi
done
n=$(grep -c '"finished": true' "$out" || true)
echo "rank $rank of $size: $n of $(wc -l < "$out") finished within $timeout s each ($out)" >&2
exit $fail
