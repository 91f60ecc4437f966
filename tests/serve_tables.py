#!/usr/bin/python3
"""`tansaku serve` keeps a puzzle's tables loaded between requests (ctest ServeTables): the first
solve after `pdb build` reads its tables (`tables_read` > 0), the next solve of the puzzle reads
none, a solve of another puzzle reads its own, and with --no-keep-tables every solve reads them;
the per-request share of --memory sets seven eighths of a share aside for the kept tables.
Usage: serve_tables.py PATH/TO/tansaku"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_util import Server  # noqa: E402

BIN = sys.argv[1]
failures = []
MIB = 1 << 20


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, flush=True)


with tempfile.TemporaryDirectory() as cache:
    os.environ["TANSAKU_PDB_DIR"] = cache
    for puzzle in ("pyraminx", "skewb"):
        p = subprocess.run([BIN, "pdb", "build", "perm:" + puzzle, "--quiet"], capture_output=True, text=True, timeout=300)
        check(p.returncode == 0, f"pdb build perm:{puzzle}: {p.returncode} {p.stderr.strip()}")
    PYRAMINX = {"puzzle": "perm:pyraminx", "scramble": "U R L' B", "algorithm": "idastar"}
    SKEWB = {"puzzle": "perm:skewb", "scramble": "UFR ULB' DRB UBR", "algorithm": "idastar"}

    def solve(s, body):
        status, _, reply = s.request("POST", "/api/solve", dict(body, memory="64M"))
        check(status == 200 and reply.get("optimal") is True, f"solve {body}: {status} {str(reply)[:300]}")
        return reply.get("tables_read") if isinstance(reply, dict) else None

    with Server(BIN, "--workers", "1", "--memory", "300M") as s:
        first = solve(s, PYRAMINX)
        check(isinstance(first, int) and first > 0, f"the first pyraminx solve read {first} bytes of tables")
        again = solve(s, PYRAMINX)
        check(again == 0, f"the second pyraminx solve read {again} bytes of tables (kept: 0)")
        other = solve(s, SKEWB)
        check(isinstance(other, int) and other > 0, f"a skewb solve after it read {other} bytes of tables")
        back = solve(s, PYRAMINX)
        check(isinstance(back, int) and back > 0, f"pyraminx after skewb read {back} bytes (its tables were replaced)")
        code, rest = s.stop()
        check(code == 0, f"serve stopped with {code}: {rest.strip()[:300]}")

    with Server(BIN, "--workers", "1", "--memory", "300M", "--no-keep-tables") as s:
        reads = [solve(s, PYRAMINX) for _ in range(2)]
        check(all(isinstance(r, int) and r > 0 for r in reads), f"--no-keep-tables: reads {reads}")

    # The share: 300 MiB over 2 workers, with seven eighths of a share set aside for the kept
    # tables (300 / 2.875: 104 MiB) or not (150 MiB).
    for extra, share in (([], 104), (["--no-keep-tables"], 150)):
        proc = subprocess.Popen([BIN, "serve", "--port", "0", "--workers", "2", "--memory", "300M", *extra],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        line = proc.stderr.readline()
        proc.terminate()
        proc.wait(timeout=10)
        m = re.search(r"at most \S+ s and (\d+) MiB a request", line)
        check(m is not None and int(m.group(1)) == share, f"serve {' '.join(extra)}: {line.strip()} (want {share} MiB)")
        check(("tables kept between requests" in line) == (not extra), f"the start-up line: {line.strip()}")

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("ok")
