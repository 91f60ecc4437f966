#!/usr/bin/python3
"""`tansaku serve` at the connection level (ctest ServeConnections; issue 37): idle sockets,
half-sent headers and stalled bodies hold no thread, so a normal client is answered promptly
behind hundreds of them; they are closed by their deadlines (408); connections beyond the
bound (serve --connections) are answered 503 at once; a chunked body past --body is cut off
(413), and a Content-Length that is not one number of bytes refused (400). Loopback only, every loop bounded; the
time bounds are generous (a shared machine): they tell a prompt answer from a starved one.
Usage: serve_connections.py PATH/TO/tansaku"""
import os
import resource
import socket
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_util import Server  # noqa: E402

BIN = sys.argv[1]
failures = []
PROMPT = 5.0  # seconds: a starved client waited 20 s and more behind 64 idle sockets


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, flush=True)


def address(s):
    u = urllib.parse.urlparse(s.url)
    return u.hostname, u.port


def connect(s, timeout=10):
    c = socket.create_connection(address(s), timeout=timeout)
    c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return c


def read_reply(c, timeout=30):
    """The status and text of one reply on socket c (read until the peer closes or the body is in)."""
    c.settimeout(timeout)
    data = b""
    try:
        while True:
            head, sep, body = data.partition(b"\r\n\r\n")
            if sep:
                length = [int(line.split(b":")[1]) for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length:")]
                if length and len(body) >= length[0]:
                    break
            chunk = c.recv(65536)
            if not chunk:
                break
            data += chunk
    except (socket.timeout, ConnectionResetError):
        pass
    if not data.startswith(b"HTTP/1."):
        return None, data.decode(errors="replace")
    return int(data.split(b" ", 2)[1]), data.decode(errors="replace")


def timed_list(s):
    """GET /api/list on a fresh connection: (status, seconds)."""
    t = time.time()
    try:
        status, _, got = s.request("GET", "/api/list", timeout=60)
    except OSError as e:
        return f"error {e}", time.time() - t
    return status, time.time() - t


def idle_count():
    """500 idle sockets, fewer where the open file limit would not let the server (which keeps
    at most half its limit as connections) or this test hold them with the 200 slow ones."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or soft < hard):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    limit = 8192 if hard == resource.RLIM_INFINITY else min(hard, 8192)
    n = min(500, min(1024, limit // 2) - 250)
    if n < 500:
        print(f"serve_connections: {n} idle sockets (open file limit {hard})", flush=True)
    return max(n, 20)


def main():
    t0 = time.time()
    n_idle = idle_count()
    with Server(BIN, "--workers", "2") as s:
        # 500 idle sockets, then a normal client
        idle = [connect(s) for _ in range(n_idle)]
        time.sleep(0.5)
        status, took = timed_list(s)
        check(status == 200 and took < PROMPT, f"GET /api/list behind {n_idle} idle sockets: {status} in {took:.2f} s")
        # half-sent headers (a byte at a time) and stalled bodies hold no thread either
        slow = []
        for i in range(100):
            c = connect(s)
            c.sendall(b"GET /api/list HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            slow.append(c)
        stalled = []
        for i in range(100):
            c = connect(s)
            c.sendall(b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 100\r\n\r\n{\"puzzle\":")
            stalled.append(c)
        time.sleep(0.5)
        status, took = timed_list(s)
        check(status == 200 and took < PROMPT,
              f"GET /api/list behind idle, half-sent and stalled requests: {status} in {took:.2f} s")
        # a kept-alive connection serves several requests
        c = connect(s)
        for i in range(3):
            c.sendall(b"GET /api/list HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            status, text = read_reply(c)
            check(status == 200, f"keep-alive request {i}: {status} {text[-200:]!r}")
        # two requests in one packet (pipelined), a POST with its body among them: two replies in order
        body = b'{"puzzle":"8-puzzle"}'
        c.sendall(b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body +
                  b"GET /api/job/999999 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        data, t = b"", time.time()
        c.settimeout(30)
        while data.count(b"HTTP/1.1 ") < 2 and time.time() - t < 30:
            chunk = c.recv(65536)
            if not chunk:
                break
            data += chunk
        first, second = data.find(b"HTTP/1.1 200"), data.find(b"HTTP/1.1 404")
        check(0 <= first < second and b'"length":31' in data, f"pipelined requests: {data[:80]!r} ... {data[-80:]!r}")
        c.close()
        # a chunked body past --body (1M by default) is cut off: 413 and the connection closed
        # (it used to be read whole, however large); a small chunked body is served
        hdr = (b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
               b"Transfer-Encoding: chunked\r\n\r\n")
        big = b" " * (3 << 20) + body
        c = connect(s)
        c.sendall(hdr)
        try:
            for i in range(0, len(big), 65536):
                part = big[i:i + 65536]
                c.sendall(b"%x\r\n" % len(part) + part + b"\r\n")
            c.sendall(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
        status, text = read_reply(c)
        check(status == 413 and "too large" in text and text.count("HTTP/1.1") == 1,
              f"a chunked body of 3 MiB: {status} {text[-200:]!r}")
        c.close()
        c = connect(s)
        small = b" " * 1000 + body
        c.sendall(hdr + b"%x\r\n" % len(small) + small + b"\r\n0\r\n\r\n")
        status, text = read_reply(c)
        check(status == 200 and '"length":31' in text, f"a small chunked body: {status} {text[-200:]!r}")
        c.close()
        # a request line httplib cannot read: 400, and the connection closed (it was kept for a 408)
        c = connect(s)
        c.sendall(b"GET /api/list\r\n\r\n")
        status, text = read_reply(c)
        c.settimeout(5)
        try:
            after = c.recv(100)
        except (socket.timeout, ConnectionResetError):
            after = None
        check(status == 400 and after == b"", f"a bad request line: {status}, then {after!r}")
        c.close()
        # other methods on the API: 405 with Allow
        for method in (b"PUT", b"PATCH", b"OPTIONS"):
            c = connect(s)
            c.sendall(method + b" /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 2\r\n\r\n{}")
            status, text = read_reply(c)
            check(status == 405 and "Allow: GET, POST, DELETE" in text, f"{method!r} /api/solve: {status} {text[-200:]!r}")
            c.close()
        # a refused request (a foreign Host) closes the connection, saying so once, whether or
        # not the request said "Connection: close" itself
        for extra in (b"", b"Connection: close\r\n"):
            c = connect(s)
            c.sendall(b"GET /api/list HTTP/1.1\r\nHost: example.com\r\n" + extra + b"\r\n")
            status, text = read_reply(c)
            head = text.partition("\r\n\r\n")[0].lower()
            check(status == 403 and head.count("connection: close") == 1,
                  f"a foreign Host ({extra!r}): {status}, {head.count('connection: close')} 'Connection: close' in {head!r}")
            c.close()
        # Content-Length lines that are not one number of bytes: 400 at once (RFC 9112 6.3)
        for lengths in ([str(len(body)), "5"], ["-5"], ["99999999999999999999"]):
            c = connect(s)
            t = time.time()
            c.sendall(b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
                      b"".join(b"Content-Length: " + n.encode() + b"\r\n" for n in lengths) + b"\r\n" + body)
            status, text = read_reply(c)
            check(status == 400 and "Content-Length" in text and time.time() - t < PROMPT,
                  f"Content-Length {lengths}: {status} after {time.time() - t:.1f} s {text[-200:]!r}")
            c.close()
        # the deadlines: a header never finished, a body never finished -> 408 and closed
        t = time.time()
        status, text = read_reply(slow[0], timeout=40)
        check(status == 408 and "header" in text, f"unfinished header: {status} {text[-200:]!r}")
        status, text = read_reply(stalled[0], timeout=40)
        check(status == 408 and "body" in text, f"stalled body: {status} {text[-200:]!r}")
        check(time.time() - t < 35, f"the deadlines closed them after {time.time() - t:.1f} s")
        # an idle socket that never sent a byte is closed quietly
        idle[0].settimeout(30)
        try:
            got = idle[0].recv(100)
        except (socket.timeout, ConnectionResetError):
            got = None
        check(got == b"", f"an idle socket is closed without a reply: {got!r}")
        for c in idle + slow + stalled:
            c.close()
        status, took = timed_list(s)
        check(status == 200 and took < PROMPT, f"serving after the sockets closed: {status} in {took:.2f} s")
        code, rest = s.stop()
        check(code == 0 and "stopped" in rest, f"SIGTERM: exit {code}, {rest!r}")

    # the bound: connections beyond --connections are answered 503 at once
    with Server(BIN, "--workers", "1", "--connections", "20") as s:
        held = [connect(s) for _ in range(20)]
        time.sleep(0.5)
        t = time.time()
        c = connect(s)
        c.sendall(b"GET /api/list HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        status, text = read_reply(c)
        c.close()
        check(status == 503 and "connections" in text and time.time() - t < PROMPT,
              f"beyond --connections 20: {status} after {time.time() - t:.2f} s: {text[-200:]!r}")
        for h in held:
            h.close()
        time.sleep(0.5)
        status, took = timed_list(s)
        check(status == 200 and took < PROMPT, f"serving once the held connections closed: {status} in {took:.2f} s")
        code, _ = s.stop()
        check(code == 0, f"stopped: {code}")

    code = os.spawnv(os.P_WAIT, BIN, [BIN, "serve", "--connections", "0", "--port", "0"])
    check(code == 2, f"serve --connections 0: exit {code}")
    print(f"serve_connections: {len(failures)} failures, {time.time() - t0:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
