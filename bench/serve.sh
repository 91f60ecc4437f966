#!/usr/bin/env bash
# API overhead of `tansaku serve` per request over the family's own work (docs/serve.md):
#   bash bench/serve.sh [build/release/tansaku] [N=1000]
set -euo pipefail
BIN=${1:-build/release/tansaku}
N=${2:-1000}
log=$(mktemp)
"$BIN" serve --port 0 --workers 2 2>"$log" &
pid=$!
trap 'kill $pid 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 50); do grep -q serving "$log" && break; sleep 0.1; done
url=$(grep -o 'http://[^/]*' "$log")
echo "load average: $(cut -d" " -f1-3 /proc/loadavg), $(nproc) cores"
/usr/bin/python3 "$(dirname "$0")/serve.py" "$url" "$N"
