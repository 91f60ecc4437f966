#!/usr/bin/python3
"""`tansaku serve`'s JSON API against the CLI (ctest ServeApi): the same JSON objects as
`tansaku ... --json`, the same refusals, concurrency, cancel, timeouts, limits, a clean stop.
Usage: serve_api.py PATH/TO/tansaku"""
import concurrent.futures
import json
import os
import subprocess
import sys
import time
import signal
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_util import Server, wait_until  # noqa: E402

BIN = sys.argv[1]
failures = []
TIMING = {"seconds", "peak_rss_bytes"}  # fields that differ from run to run (the process's peak)


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, flush=True)


def cli(*args):
    p = subprocess.run([BIN, *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def cli_json(*args):
    code, out, err = cli(*args, "--json")
    return code, (json.loads(out) if out.strip() else None), err.strip()


def strip(j):
    return {k: v for k, v in j.items() if k not in TIMING} if isinstance(j, dict) else j


def cli_args(body):
    """The command line that a request body stands for."""
    args = [body["puzzle"]]
    for k, v in body.items():
        if k == "puzzle":
            continue
        if v is True:
            args.append("--" + k)
        elif v is not False:
            args += ["--" + k, str(v)]
    return args


LONG = None  # a 24-puzzle start IDA* takes far longer than a test to solve


def same_as_cli(s, command, body):
    code, want, err = cli_json(command, *cli_args(body))
    status, _, got = s.request("POST", "/api/" + command, body)
    what = f"{command} {body}"
    if code in (0, 1):
        check(status == 200, f"{what}: status {status} (CLI exit {code}): {got}")
        check(strip(got) == strip(want), f"{what}: API {strip(got)} != CLI {strip(want)}")
    else:
        check(status == (400 if code == 2 else 422), f"{what}: status {status} for CLI exit {code}")
        check(isinstance(got, dict) and got.get("error") == err.removeprefix("tansaku: "),
              f"{what}: API error {got} != CLI {err!r}")
        check(got.get("exit") == code, f"{what}: exit field {got.get('exit')} != {code}")


def main():
    global LONG
    LONG = cli("random", "24-puzzle", "--seed", "7")[1].strip()
    t0 = time.time()
    with Server(BIN, "--workers", "4", "--queue", "40", "--body", "64K", "--timeout", "20") as s:
        # list and show: byte for byte the CLI's objects
        status, _, got = s.request("GET", "/api/list")
        check(status == 200 and got == cli_json("list")[1], "GET /api/list == tansaku list --json")
        for q in [{"puzzle": "8-puzzle"}, {"puzzle": "8-puzzle", "start": "1 2 3 4 5 6 7 0 8"},
                  {"puzzle": "flip:4x4"}, {"puzzle": "peg:triangle5"}, {"puzzle": "knight-swap:4x3"}]:
            status, _, got = s.request("GET", "/api/show?" + urllib.parse.urlencode(q))
            check(status == 200 and got == cli_json("show", *cli_args(q))[1], f"GET /api/show {q} == CLI")
        # solve / explore: the CLI's --json object minus the timing, and its refusals
        for body in [{"puzzle": "8-puzzle"},
                     {"puzzle": "8-puzzle", "start": "1 2 3 4 5 6 0 7 8", "algorithm": "bfs"},
                     {"puzzle": "8-puzzle", "start": "1 2 3 4 5 6 8 7 0"},         # unsolvable: exit 1, 200
                     {"puzzle": "8-puzzle", "start": "0 1 2 3 4 5 6 7 8", "all": True, "threads": 1},
                     {"puzzle": "rotating-slide"},
                     {"puzzle": "flip:4x4"}, {"puzzle": "flip:4x4", "count": True},
                     {"puzzle": "peg:triangle5"}, {"puzzle": "knight-swap:4x3"},
                     {"puzzle": "knight-tour:5x5", "threads": 1}, {"puzzle": "coloring:map12"},
                     {"puzzle": "blocks:ma"}, {"puzzle": "perm:2x2x2", "start": "U R F"},  # not a state: 400
                     {"puzzle": "perm:2x2x2", "start": cli("random", "perm:2x2x2", "--seed", "5")[1].strip()},
                     {"puzzle": "nopuzzle"},                                      # unknown puzzle: 400
                     {"puzzle": "8-puzzle", "start": "1 2 3"},                   # bad start: 400
                     {"puzzle": "8-puzzle", "algorithm": "astar*"},              # unknown solver
                     {"puzzle": "8-puzzle", "rule": "eight"},                    # not a sliding option
                     {"puzzle": "8-puzzle", "timeout": 0},
                     {"puzzle": "24-puzzle", "start": LONG, "timeout": 0.3}]:   # limit: 422
            same_as_cli(s, "solve", body)
        for body in [{"puzzle": "8-puzzle"}, {"puzzle": "flip:4x4"}, {"puzzle": "rotating-slide", "farthest": 3},
                     {"puzzle": "knight-swap:4x3", "start": "1 1 1 0 0 0 0 0 0 2 2 2"}, {"puzzle": "peg:triangle5"}]:
            same_as_cli(s, "explore", body)

        # malformed requests
        status, _, got = s.request("POST", "/api/solve", raw=b'{"puzzle": "8-puzzle",')
        check(status == 400 and got["error"].startswith("malformed JSON") and "\n" not in got["error"], f"malformed JSON: {status} {got}")
        # a number beyond a double is nlohmann's out_of_range, not a parse_error: a 400 too, not a 500
        # (found by fuzz/fuzz_api_request)
        for path in ("/api/solve", "/api/draw"):
            status, _, got = s.request("POST", path, raw=b'{"puzzle": "8-puzzle", "timeout": 1e999}')
            check(status == 400 and got["error"].startswith("malformed JSON: number overflow") and got["exit"] == 2,
                  f"{path} with 1e999: {status} {got}")
        status, _, got = s.request("POST", "/api/solve", body=["8-puzzle"])
        check(status == 400 and "JSON object" in got["error"], f"array body: {status} {got}")
        status, _, got = s.request("POST", "/api/solve", body={"puzzle": "8-puzzle", "al": True})
        check(status == 400 and "unknown option 'al'" in got["error"], f"unknown option: {status} {got}")
        status, _, got = s.request("POST", "/api/solve", body={"puzzle": "8-puzzle", "all": "yes"})
        check(status == 400 and "flag" in got["error"], f"flag as text: {status} {got}")
        status, _, got = s.request("POST", "/api/solve", raw=json.dumps({"puzzle": "8-puzzle", "start": "x" * 100000}).encode())
        check(status == 413 and "too large" in got["error"], f"oversized body: {status} {got}")
        status, _, got = s.request("GET", "/api/job/999999")
        check(status == 404 and "error" in got, f"unknown job: {status}")
        status, _, got = s.request("GET", "/nothing-here")
        check(status == 404, f"unknown path: {status}")
        status, headers, got = s.request("GET", "/")
        check(status == 200 and "<html" in got and headers["Content-Type"].startswith("text/html"), "the app's page")

        # 40 solves, 20 at a time, all correct (lengths from the CLI)
        starts = json.loads(cli("random", "8-puzzle", "--seed", "3", "--count", "40", "--json")[1])["positions"]
        want = [cli_json("solve", "8-puzzle", "--start", p)[1]["length"] for p in starts]

        def one(p):
            status, _, got = s.request("POST", "/api/solve", {"puzzle": "8-puzzle", "start": p, "threads": 1})
            return status, got

        with concurrent.futures.ThreadPoolExecutor(20) as ex:
            got = list(ex.map(one, starts))
        check(all(st == 200 for st, _ in got), f"40 concurrent solves: statuses {[st for st, _ in got]}")
        check([g.get("length") for _, g in got] == want, "40 concurrent solves: lengths as the CLI's")
        check(all(g.get("start") == p and len(g.get("moves", [])) == g.get("length") for (_, g), p in zip(got, starts)),
              "40 concurrent solves: each answers its own start")

        # cancel: a job started asynchronously, polled, cancelled; its search stops
        status, headers, got = s.request("POST", "/api/solve?async=1", {"puzzle": "24-puzzle", "start": LONG})
        check(status == 202 and headers["Location"] == "/api/job/" + got["job"], f"async solve: {status} {got}")
        job = got["job"]
        running = wait_until(lambda: s.request("GET", f"/api/job/{job}")[2]["state"] == "running", 10)
        check(running, "the job runs")
        time.sleep(0.3)
        status, _, got = s.request("POST", f"/api/cancel/{job}")
        check(status == 200 and got.get("cancelled") is True, f"cancel: {status} {got}")
        t = time.time()
        done = wait_until(lambda: (lambda j: j if j["state"] == "done" else None)(s.request("GET", f"/api/job/{job}")[2]), 5)
        check(done and done["status"] == 422 and done["error"] == "cancelled", f"cancelled job: {done}")
        check(time.time() - t < 2, f"cancel took {time.time() - t:.2f} s")

        # live progress: the line a terminal would show, while an explore runs; then cancelled
        job = s.request("POST", "/api/explore?async=1", {"puzzle": "sliding:3x4"})[2]["job"]
        line = wait_until(lambda: s.request("GET", f"/api/job/{job}")[2].get("progress"), 15)
        check(line and line.startswith("explore: depth"), f"progress line: {line!r}")
        s.request("POST", f"/api/cancel/{job}")
        done = wait_until(lambda: (lambda j: j if j["state"] == "done" else None)(s.request("GET", f"/api/job/{job}")[2]), 5)
        check(done and done["error"] == "cancelled", f"cancelled explore: {done}")

        # timeout: the request's own, and the server's cap (--timeout 20 here)
        t = time.time()
        status, headers, got = s.request("POST", "/api/solve", {"puzzle": "24-puzzle", "start": LONG, "timeout": 0.5})
        check(status == 422 and got["error"] == "time limit reached (--timeout)", f"timeout: {status} {got}")
        check(0.4 < time.time() - t < 3, f"timeout 0.5 took {time.time() - t:.2f} s")
        check("Server-Timing" in headers, "Server-Timing header")

        # still serving
        status, _, got = s.request("POST", "/api/solve", {"puzzle": "8-puzzle"})
        check(status == 200 and got["length"] == 31, f"still serving: {status}")
        code, rest = s.stop()
        check(code == 0 and "stopped" in rest, f"SIGTERM: exit {code}, {rest!r}")

    # a full queue: one worker, one waiting place -> 503 with Retry-After; then serving again
    with Server(BIN, "--workers", "1", "--queue", "1") as s:
        jobs = [s.request("POST", "/api/solve?async=1", {"puzzle": "24-puzzle", "start": LONG, "timeout": 30})[2]["job"]
                for _ in range(2)]
        status, headers, got = s.request("POST", "/api/solve", {"puzzle": "8-puzzle"})
        check(status == 503 and headers.get("Retry-After") == "1" and "busy" in got["error"], f"full queue: {status} {got}")
        for j in jobs:
            s.request("DELETE", f"/api/job/{j}")
        ok = wait_until(lambda: all(s.request("GET", f"/api/job/{j}")[2]["state"] == "done" for j in jobs), 5)
        check(ok, "cancelled jobs finish")
        status, _, got = s.request("POST", "/api/solve", {"puzzle": "8-puzzle"})
        check(status == 200 and got["length"] == 31, f"serving after the full queue: {status} {got}")
        # Ctrl-C while a request waits for its job: the job is cancelled, the reply sent, exit 0
        with concurrent.futures.ThreadPoolExecutor(1) as ex:
            waiting = ex.submit(s.request, "POST", "/api/solve", {"puzzle": "24-puzzle", "start": LONG})
            time.sleep(0.5)
            t = time.time()
            code, rest = s.stop(signal.SIGINT)
            check(code == 0 and time.time() - t < 5, f"SIGINT with a running job: exit {code} {rest!r}")
            status, _, got = waiting.result()
            check(status == 422 and got["error"] == "cancelled", f"the waiting request: {status} {got}")

    # refused settings
    code, out, err = cli("serve", "--workers", "x")
    check(code == 2 and out == "" and err.count("\n") == 1, f"serve --workers x: {code} {err!r}")
    print(f"serve_api: {len(failures)} failures, {time.time() - t0:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
