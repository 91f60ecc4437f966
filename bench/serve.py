#!/usr/bin/python3
"""Per-request overhead of `tansaku serve` (bench/serve.sh): N requests one after another on
one keep-alive connection; the client's latency minus the family's own work, which the
server reports in its Server-Timing header (work;dur=MS, measured in-process around the
family's show / solve). Usage: serve.py URL N"""
import http.client
import json
import re
import statistics
import sys
import time
import urllib.parse

url, n = urllib.parse.urlparse(sys.argv[1]), int(sys.argv[2])
conn = http.client.HTTPConnection(url.hostname, url.port)


def run(label, method, path, body=None):
    lat, work = [], []
    data = json.dumps(body) if body is not None else None
    for i in range(n + 20):
        t = time.perf_counter()
        conn.request(method, path, body=data, headers={"Content-Type": "application/json"} if data else {})
        r = conn.getresponse()
        r.read()
        dt = (time.perf_counter() - t) * 1e3
        if r.status != 200:
            sys.exit(f"{label}: HTTP {r.status}")
        if i < 20:
            continue  # warm-up
        lat.append(dt)
        work.append(float(re.search(r"work;dur=([0-9.]+)", r.headers["Server-Timing"]).group(1)))
    over = [a - b for a, b in zip(lat, work)]
    print(f"{label:<44} latency mean {statistics.mean(lat):.3f} ms, median {statistics.median(lat):.3f}; "
          f"work {statistics.mean(work):.3f} ms; overhead mean {statistics.mean(over):.3f} ms, "
          f"median {statistics.median(over):.3f} ms, p99 {sorted(over)[int(len(over) * 0.99)]:.3f} ms")


run("GET /api/show?puzzle=8-puzzle", "GET", "/api/show?puzzle=8-puzzle")
run("POST /api/solve 8-puzzle (start = goal)", "POST", "/api/solve",
    {"puzzle": "8-puzzle", "start": "1 2 3 4 5 6 7 8 0", "threads": 1})
run("POST /api/solve 8-puzzle (seed start, 31)", "POST", "/api/solve", {"puzzle": "8-puzzle", "threads": 1})
