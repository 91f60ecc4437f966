#!/usr/bin/python3
"""`tansaku serve --memory` bounds the server (ctest ServeMemory, issue 24): heavy requests sent
in parallel keep its peak RSS (VmHWM) within --memory plus a stated constant, a drawing request
naming too many positions is refused (413) before any is drawn, a reply beyond the request's
budget is refused (422), the RSS comes back near its idle level after the burst, and a NUL in
a request's text is kept (escaped) in the error message.
Usage: serve_memory.py PATH/TO/tansaku"""
import concurrent.futures
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_util import Server, wait_until  # noqa: E402

BIN = sys.argv[1]
MIB = 1 << 20
MEMORY = 256 * MIB
# Beyond --memory: the program, its libraries, the HTTP threads' stacks and buffers, and the
# request bodies being read (1 MB each at most, serve --body).
CONSTANT = 96 * MIB
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, flush=True)


def status_kb(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    return 0


GOAL = "1 2 3 4 5 6 7 8 0"

with Server(BIN, "--memory", "256M", "--workers", "2", "--queue", "16") as s:
    pid = s.proc.pid
    status, _, body = s.request("POST", "/api/draw", {"puzzle": "8-puzzle", "states": [GOAL] * 10})
    check(status == 200 and len(body.get("states", [])) == 10, f"a small drawing: {status} {str(body)[:200]}")
    time.sleep(0.5)
    idle = status_kb(pid, "VmRSS")
    print(f"idle RSS {idle / MIB:.1f} MiB", flush=True)

    # Item 4: the message keeps what follows a NUL.
    status, _, body = s.request("POST", "/api/show", {"puzzle": "8-puzzle\u0000x"})
    check(status == 400 and "8-puzzle\\x00x" in body.get("error", ""), f"NUL in a puzzle name: {status} {body}")

    # Item 1: 45,000 positions (about 1 MB of request) four at once: refused before drawing.
    heavy = {"puzzle": "8-puzzle", "states": [GOAL] * 45000}
    started = time.time()
    with concurrent.futures.ThreadPoolExecutor(4) as ex:
        results = list(ex.map(lambda _: s.request("POST", "/api/draw", heavy, timeout=120), range(4)))
    for status, _, body in results:
        check(status == 413 and "at most 1000" in body.get("error", ""), f"45,000 states: {status} {str(body)[:200]}")
    check(time.time() - started < 20, f"45,000 states refused in {time.time() - started:.1f} s")

    # The heaviest drawings allowed, explores with drawings and solves, all at once.
    most = {"puzzle": "8-puzzle", "states": ["8 6 7 2 5 4 3 0 1"] * 1000}
    jobs = [("POST", "/api/draw", most)] * 8 + [("POST", "/api/explore?draw=1", {"puzzle": "8-puzzle"})] * 4 + \
           [("POST", "/api/solve?draw=1", dict(p, timeout=30)) for p in ({"puzzle": "8-puzzle"}, {"puzzle": "blocks:klotski"},
                                                                     {"puzzle": "perm:2x2x2", "scramble": "R U F R'"},
                                                                     {"puzzle": "peg:triangle5"})]
    with concurrent.futures.ThreadPoolExecutor(len(jobs)) as ex:
        results = list(ex.map(lambda j: s.request(j[0], j[1], j[2], timeout=170), jobs))
    for (method, path, _), (status, _, body) in zip(jobs, results):
        check(status in (200, 422) and isinstance(body, dict), f"{path}: {status} {str(body)[:200]}")
        if path == "/api/draw":
            check(status == 200 and len(body.get("states", [])) == 1000, f"1000 states drawn: {status}")

    peak = status_kb(pid, "VmHWM")
    print(f"peak RSS {peak / MIB:.1f} MiB (--memory {MEMORY // MIB} MiB + {CONSTANT // MIB} MiB allowed)", flush=True)
    check(peak <= MEMORY + CONSTANT, f"peak RSS {peak / MIB:.1f} MiB beyond --memory + {CONSTANT // MIB} MiB")

    # Memory comes back after the burst.
    settled = wait_until(lambda: status_kb(pid, "VmRSS") <= idle + 32 * MIB, timeout=10, step=0.25)
    after = status_kb(pid, "VmRSS")
    print(f"RSS after the burst {after / MIB:.1f} MiB (idle {idle / MIB:.1f} MiB)", flush=True)
    check(settled, f"RSS after the burst {after / MIB:.1f} MiB, idle {idle / MIB:.1f} MiB")
    code, _ = s.stop()
    check(code == 0, f"serve stopped with {code}")

# A reply beyond the request's share: --memory 16M gives a 1 MiB reply cap; 1000 drawn 8-puzzle
# positions are several MiB.
with Server(BIN, "--memory", "16M", "--workers", "1") as s:
    status, _, body = s.request("POST", "/api/draw", {"puzzle": "8-puzzle", "states": ["8 6 7 2 5 4 3 0 1"] * 1000})
    check(status == 422 and "the reply would exceed 1 MiB" in body.get("error", ""), f"reply cap: {status} {str(body)[:300]}")
    status, _, body = s.request("POST", "/api/draw", {"puzzle": "8-puzzle", "states": [GOAL] * 3})
    check(status == 200, f"a small drawing after the refusal: {status}")

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("ok")
