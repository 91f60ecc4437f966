#!/usr/bin/python3
"""`tansaku serve`'s JSON API against the CLI (ctest ServeApi): the same JSON objects as
`tansaku ... --json`, the same refusals, concurrency, cancel, timeouts, limits, a clean stop.
Usage: serve_api.py PATH/TO/tansaku"""
import concurrent.futures
import ctypes
import ctypes.util
import http.client
import json
import re
import os
import subprocess
import sys
import tempfile
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
        # (what a stopped solve found and proved depends on the time its solvers had: the best
        # solution and the lower bound are left out of the message, and their keys)
        check(isinstance(got, dict) and without_best(got.get("error")) == without_best(err.removeprefix("tansaku: ")),
              f"{what}: API error {got} != CLI {err!r}")
        check(got.get("exit") == code, f"{what}: exit field {got.get('exit')} != {code}")
        if isinstance(want, dict) and want.get("complete") is False:  # a stopped solve: the CLI's object too
            keys = TIMING | {"best_solution", "lower_bound", "error", "exit"}
            check({k: v for k, v in got.items() if k not in keys} == {k: v for k, v in want.items() if k not in keys},
                  f"{what}: API stopped object {got} != CLI {want}")


def without_best(message):
    if not isinstance(message, str):
        return message
    return re.sub(r"; (best found|proved) so far: [^;]*", "", message)


def raw_http(s, method, path, body=b"", headers=None):
    """One request with exactly these headers (http.client adds only Content-Length, and Host
    unless given): (status, parsed JSON or text)."""
    u = urllib.parse.urlparse(s.url)
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    headers = headers or {}
    c.putrequest(method, path, skip_host="Host" in headers, skip_accept_encoding=True)
    for k, v in headers.items():
        c.putheader(k, v)
    c.putheader("Content-Length", str(len(body)))
    c.endheaders(body)
    r = c.getresponse()
    text = r.read().decode()
    c.close()
    try:
        return r.status, json.loads(text)
    except ValueError:
        return r.status, text


class Opens:
    """inotify on a directory: whether any file in it was opened (None when inotify is missing)."""
    IN_OPEN, IN_ACCESS = 0x20, 0x01

    def __init__(self, directory):
        self.fd = -1
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
            self.fd = libc.inotify_init1(os.O_NONBLOCK)
            if self.fd >= 0 and libc.inotify_add_watch(self.fd, directory.encode(), self.IN_OPEN | self.IN_ACCESS) < 0:
                os.close(self.fd)
                self.fd = -1
        except (OSError, AttributeError):
            self.fd = -1

    def any(self):
        if self.fd < 0:
            return None
        try:
            return len(os.read(self.fd, 65536)) > 0
        except BlockingIOError:
            return False

    def close(self):
        if self.fd >= 0:
            os.close(self.fd)


def one_line_refusal(status, got, want_status, *words):
    return (status == want_status and isinstance(got, dict) and "\n" not in got.get("error", "\n")
            and got.get("exit") == 2 and all(w in got["error"] for w in words))


def security(s):
    """Requests a browser makes for another site's page (CSRF), with another site's Host (DNS
    rebinding), and requests that name files on the server's disk: refused, nothing run or read."""
    port = urllib.parse.urlparse(s.url).port
    body = json.dumps({"puzzle": "8-puzzle"}).encode()
    # CSRF: a POST that is not JSON (what a form or a "simple" fetch can send) -> 415, no job
    first = int(s.request("POST", "/api/show?async=1", {"puzzle": "8-puzzle"})[2]["job"])
    for ctype in ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
                  "multipart/form-data; boundary=x", "application/jsonx", None]:
        for path in ("/api/solve?async=1", "/api/explore?async=1", "/api/show?async=1", "/api/draw"):
            status, got = raw_http(s, "POST", path, body, {"Content-Type": ctype} if ctype else {})
            check(one_line_refusal(status, got, 415, "Content-Type: application/json"),
                  f"POST {path} as {ctype}: {status} {got}")
    status, _, got = s.request("POST", "/api/show?async=1", body={"puzzle": "8-puzzle"},
                               headers={"Content-Type": "application/json; charset=utf-8"})
    check(status == 202 and int(got["job"]) == first + 1, f"no job ran for the refused POSTs: {status} {got} after {first}")
    # a cancel must be JSON too (it has no body): refused, the job goes on
    job = s.request("POST", "/api/solve?async=1", {"puzzle": "24-puzzle", "start": LONG, "timeout": 20})[2]["job"]
    status, got = raw_http(s, "POST", f"/api/cancel/{job}", b"", {"Content-Type": "text/plain"})
    check(status == 415 and "cancelled" not in s.request("GET", f"/api/job/{job}")[2], f"text/plain cancel: {status} {got}")
    status, _, got = s.request("POST", f"/api/cancel/{job}")
    check(status == 200 and got.get("cancelled") is True, f"JSON cancel: {status} {got}")
    # a browser's cross-site or same-site request (Sec-Fetch-Site), even a GET: 403
    for site in ("cross-site", "same-site"):
        status, _, got = s.request("GET", "/api/show?puzzle=8-puzzle", headers={"Sec-Fetch-Site": site})
        check(one_line_refusal(status, got, 403, "another site"), f"Sec-Fetch-Site {site}: {status} {got}")
    for site in ("same-origin", "none"):
        status, _, got = s.request("GET", "/api/show?puzzle=8-puzzle", headers={"Sec-Fetch-Site": site})
        check(status == 200, f"Sec-Fetch-Site {site}: {status} {got}")
    # DNS rebinding: a Host other than the loopback names -> 403, page and API alike
    for host in ["evil.example", f"evil.example:{port}", f"127.0.0.1.evil.example:{port}", "localhost.evil.example",
                 f"localhost:{port}x", "[::1", ""]:
        for method, path, b in [("GET", "/api/list", b""), ("GET", "/", b""), ("POST", "/api/solve", body)]:
            status, got = raw_http(s, method, path, b, {"Host": host, "Content-Type": "application/json"})
            check(one_line_refusal(status, got, 403, "Host"), f"{method} {path} with Host {host!r}: {status} {got}")
    for host in [f"localhost:{port}", "LOCALHOST", f"127.0.0.1:{port}", "127.0.0.1", f"[::1]:{port}"]:
        status, got = raw_http(s, "GET", "/api/list", b"", {"Host": host})
        check(status == 200 and "puzzles" in got, f"Host {host!r}: {status}")
    # files: refused with a one-line 400 that names the option and --allow-files, the file never opened
    with tempfile.TemporaryDirectory() as d:
        secret = os.path.join(d, "secret.txt")
        with open(secret, "w") as f:
            f.write("secret-token 1 2\n")
        opens = Opens(d)
        refused = [("solve", {"puzzle": "peg:" + secret}, "board file"),
                   ("show", {"puzzle": "coloring:" + secret}, "graph file"),
                   ("show", {"puzzle": "coloring:" + d + "/missing.col"}, "graph file"),  # no probe either
                   ("show", {"puzzle": "blocks:" + secret}, "board file"),
                   ("show", {"puzzle": "perm:" + secret}, "perm file"),
                   ("show", {"puzzle": "peg:data/../" + os.path.relpath(secret, os.getcwd())}, "board file"),
                   ("show", {"puzzle": "peg:/etc/passwd"}, "board file"),
                   ("show", {"puzzle": "peg", "file": secret}, "option 'file'"),
                   ("show", {"puzzle": "coloring", "file": secret}, "option 'file'"),
                   ("solve", {"puzzle": "8-puzzle", "batch": secret}, "option 'batch'"),
                   ("explore", {"puzzle": "8-puzzle", "spill": d}, "option 'spill'"),
                   ("solve", {"puzzle": "flip:4x4", "start": "@" + secret}, "option 'start'"),
                   ("solve", {"puzzle": "flip:4x4", "goal": "@" + secret}, "option 'goal'"),
                   ("explore", {"puzzle": "perm:2x2x2", "from": "@" + secret}, "option 'from'")]
        for command, b, what in refused:
            status, _, got = s.request("POST", f"/api/{command}", b)
            check(one_line_refusal(status, got, 400, what, "--allow-files") and "secret-token" not in got["error"],
                  f"{command} {b}: {status} {got}")
        # a blocks picture naming a file outside the policy is read as rows, unprobed: an
        # existing and a missing file get the same answer
        _, _, a = s.request("POST", "/api/show", {"puzzle": "blocks:klotski", "start": secret})
        _, _, b = s.request("POST", "/api/show", {"puzzle": "blocks:klotski", "start": d + "/missingx.txt"})
        check(a.get("error", "").replace(secret, "X") == b.get("error", "?").replace(d + "/missingx.txt", "X")
              and "secret-token" not in a.get("error", ""),
              f"blocks start: an existing and a missing file answered differently: {a} {b}")
        # a bare name is not probed in the server's working directory either
        bare = f"tansakuprobe{os.getpid()}"
        with open(bare, "w") as f:
            f.write("secret-token\n")
        try:
            for family in ["peg", "coloring"]:
                _, _, a = s.request("POST", "/api/show", {"puzzle": f"{family}:{bare}"})
                _, _, b = s.request("POST", "/api/show", {"puzzle": f"{family}:nosuch{os.getpid()}"})
                check(a.get("error", "").replace(bare, "X") == b.get("error", "?").replace(f"nosuch{os.getpid()}", "X"),
                      f"{family} bare name: an existing and a missing file answered differently: {a} {b}")
        finally:
            os.remove(bare)
        status, _, got = s.request("GET", "/api/show?" + urllib.parse.urlencode({"puzzle": "peg:" + secret}))
        check(one_line_refusal(status, got, 400, "--allow-files"), f"GET show peg:FILE: {status} {got}")
        check(not opens.any(), "a refused file was opened")
        check(sorted(os.listdir(d)) == ["secret.txt"], f"spill wrote: {os.listdir(d)}")
        opens.close()
    # the shipped data is read: builtins whose definitions are data files
    for q in [{"puzzle": "blocks:klotski"}, {"puzzle": "perm:pyraminx"}, {"puzzle": "coloring:myciel3"},
              {"puzzle": "coloring:myciel3.col"}, {"puzzle": "peg:english"}, {"puzzle": "rotating-slide"}]:
        status, _, got = s.request("GET", "/api/show?" + urllib.parse.urlencode(q))
        check(status == 200 and got == cli_json("show", *cli_args(q))[1], f"GET /api/show {q} == CLI: {status}")
    for body in [{"puzzle": "coloring:myciel3"}, {"puzzle": "perm:pyraminx", "start": "U R"}]:
        same_as_cli(s, "solve", body)
    status, _, got = s.request("POST", "/api/solve", {"puzzle": "8-puzzle", "algorithm": "pdb"})
    check(status == 200 and "disk" in str(got.get("pdb_tables")), f"a pattern database from $TANSAKU_PDB_DIR: {status} {got}")


def main():
    global LONG
    LONG = cli("random", "24-puzzle", "--seed", "7")[1].strip()
    t0 = time.time()
    # the pattern databases' directory is read under the file policy too (a table built here)
    pdb_dir = tempfile.TemporaryDirectory()
    os.environ["TANSAKU_PDB_DIR"] = pdb_dir.name
    cli("pdb", "build", "8-puzzle", "--dir", pdb_dir.name)
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

        security(s)

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
        check(status == 422 and got["error"].startswith("time limit reached (--timeout)"), f"timeout: {status} {got}")
        check(0.4 < time.time() - t < 3, f"timeout 0.5 took {time.time() - t:.2f} s")
        check("Server-Timing" in headers, "Server-Timing header")

        # a stopped solve answers what it proved: the CLI's stopped object (lower bound, the best
        # solution found so far by greedy best-first in the tenth of the timeout kept for it, 1 s
        # for some 0.01 s of work; the hint), as a job's result too, with the best solution drawn
        # (on a machine too busy for the quick solvers' second, once more with two seconds)
        for limit in (10, 20):
            job = s.request("POST", "/api/solve?async=1&draw=1", {"puzzle": "24-puzzle", "start": LONG, "timeout": limit})[2]["job"]
            done = wait_until(lambda: (lambda j: j if j["state"] == "done" else None)(s.request("GET", f"/api/job/{job}")[2]), 40)
            r = done and done.get("result") or {}
            if r.get("best_solution"):
                break
        check(done and done["status"] == 422 and done["error"].startswith("time limit reached (--timeout); proved so far"),
              f"stopped job: {done and {k: v for k, v in done.items() if k != 'drawing'}}")
        check(r.get("complete") is False and r.get("stopped") == "timeout" and r.get("exit") == 3
              and isinstance(r.get("lower_bound"), int) and "hint" in r, f"stopped job's result: {r}")
        best = r.get("best_solution") or {}
        check(best.get("algorithm") in ("greedy", "beam") and best.get("length") == len(best.get("moves", []))
              and best["length"] >= r["lower_bound"], f"the best solution found so far: {best}")
        check(done and len(done.get("drawing", {}).get("frames", [])) >= 2, "the best solution drawn for the player")
        check(f"best found so far: {best.get('length')} moves" in done["error"], f"the message names it: {done['error']}")

        # still serving
        status, _, got = s.request("POST", "/api/solve", {"puzzle": "8-puzzle"})
        check(status == 200 and got["length"] == 31, f"still serving: {status}")
        code, rest = s.stop()
        check(code == 0 and "stopped" in rest, f"SIGTERM: exit {code}, {rest!r}")

    # SIGTERM as soon as the start-up line is out (before the server listens, at times):
    # the server still stops, every time.
    hung = 0
    for _ in range(20):
        with Server(BIN) as early:
            code, _ = early.stop(timeout=5)
            hung += code != 0
    check(hung == 0, f"SIGTERM right after the start: {hung} of 20 servers did not stop")

    del os.environ["TANSAKU_PDB_DIR"]
    pdb_dir.cleanup()

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

    # --allow-files: a request may name files (here a peg board and a flip @FILE start)
    with tempfile.TemporaryDirectory() as d, Server(BIN, "--allow-files", "--workers", "2") as s:
        board = os.path.join(d, "board.txt")
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "peg", "english.txt")) as f:
            text = f.read()
        with open(board, "w") as f:
            f.write(text)
        grid = os.path.join(d, "grid.txt")
        with open(grid, "w") as f:
            f.write("1000\n0000\n0000\n0000\n")
        status, _, got = s.request("GET", "/api/show?" + urllib.parse.urlencode({"puzzle": "peg:" + board}))
        check(status == 200 and got == cli_json("show", "peg:" + board)[1], f"--allow-files: show peg:FILE: {status} {got}")
        same_as_cli(s, "solve", {"puzzle": "flip:4x4", "start": "@" + grid})
        code, rest = s.stop()
        check(code == 0, f"--allow-files server stopped: {code} {rest!r}")

    # refused settings
    code, out, err = cli("serve", "--workers", "x")
    check(code == 2 and out == "" and err.count("\n") == 1, f"serve --workers x: {code} {err!r}")
    print(f"serve_api: {len(failures)} failures, {time.time() - t0:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
