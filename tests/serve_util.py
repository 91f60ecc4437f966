"""Starts `tansaku serve` on a free port for a test and stops it (tests/serve_*.py)."""
import json
import re
import signal
import subprocess
import time
import urllib.error
import urllib.request


class Server:
    def __init__(self, binary, *args):
        self.proc = subprocess.Popen([binary, "serve", "--port", "0", *args], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True)
        line = self.proc.stderr.readline()
        m = re.search(r"serving (http://[^/]+)/", line)
        if not m:
            self.proc.kill()
            raise RuntimeError("serve did not start: " + line + self.proc.stderr.read())
        self.url = m.group(1)

    def request(self, method, path, body=None, raw=None, timeout=60, headers=None):
        """(status, headers, parsed JSON body or text). A POST says Content-Type: application/json
        (the server refuses any other) unless `headers` give another."""
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        req = urllib.request.Request(self.url + path, data=data, method=method)
        if method == "POST":
            req.add_header("Content-Type", "application/json")
        for k, v in (headers or {}).items():
            req.add_header(k, v)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                status, headers, text = r.status, r.headers, r.read().decode()
        except urllib.error.HTTPError as e:
            status, headers, text = e.code, e.headers, e.read().decode()
        try:
            return status, headers, json.loads(text)
        except ValueError:
            return status, headers, text

    def stop(self, sig=signal.SIGTERM, timeout=10):
        """Stops the server with a signal; returns (exit code, rest of stderr)."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            rest = self.proc.communicate(timeout=timeout)[1]
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rest = self.proc.communicate()[1]
            return None, rest
        return self.proc.returncode, rest

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def wait_until(pred, timeout=10, step=0.05):
    end = time.time() + timeout
    while time.time() < end:
        v = pred()
        if v:
            return v
        time.sleep(step)
    return None
