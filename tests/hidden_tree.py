"""Running an installed copy of tansaku with the source and build trees hidden, shared by
tests/install_relocatable.py (ctest InstallRelocatable) and tests/package_install.py (ctest
PackageInstall): each script prepares its installed copy, then runs its checks again in a
private mount namespace (`unshare -m`, root only) where an empty directory is mounted over
each tree, so that a copy still reading the tree fails there; the other tests running at the
same time keep seeing the trees."""
import json
import os
import shutil
import subprocess
import sys

SKIP = 77  # ctest SKIP_RETURN_CODE


def hiding_unavailable():
    """Why the trees cannot be hidden here, or None."""
    if os.geteuid() != 0:
        return "hiding the source tree needs a private mount namespace: run as root (CI does)"
    if not shutil.which("unshare"):
        return "hiding the source tree needs unshare (util-linux)"
    p = subprocess.run(["unshare", "-m", "true"], capture_output=True, text=True)
    if p.returncode != 0:
        return f"unshare -m fails here: {p.stderr.strip()}"
    return None


def rerun_hidden(script, tmp, hide, args):
    """Runs `script` (copied with this module into `tmp`) with `args` in a new mount namespace
    where every directory of `hide` is covered by an empty one; returns its exit code."""
    inner = os.path.join(tmp, "inner")
    os.makedirs(inner, exist_ok=True)
    for f in (script, __file__):
        shutil.copy(f, inner)
    empty = os.path.join(tmp, "empty")
    os.makedirs(empty, exist_ok=True)
    # Innermost first: once a tree is covered, a directory inside it is gone.
    dirs = sorted({os.path.realpath(d) for d in hide}, key=len, reverse=True)
    mounts = " && ".join(f"mount --bind '{empty}' '{d}'" for d in dirs)
    env = {k: v for k, v in os.environ.items() if k not in ("TANSAKU_DATA_DIR", "PYTHONPATH")}
    env["TANSAKU_HIDDEN"] = "\n".join(dirs)
    cmd = ["unshare", "-m", "sh", "-c", f'{mounts} && exec "$@"', "sh", sys.executable,
           os.path.join(inner, os.path.basename(script)), *args]
    return subprocess.run(cmd, cwd=tmp, env=env).returncode


class Checks:
    """Collects failures; every check prints what failed."""

    def __init__(self):
        self.failures = []

    def check(self, cond, what):
        if not cond:
            self.failures.append(what)
            print("FAIL:", what, flush=True)
        return cond

    def hidden_trees_are_empty(self):
        for d in os.environ.get("TANSAKU_HIDDEN", "").split("\n"):
            if d:  # covered, or gone under a covered tree
                self.check(not os.path.exists(d) or not os.listdir(d), f"{d} is hidden (empty)")

    def exit_code(self):
        print(f"{len(self.failures)} failure(s)" if self.failures else "all checks passed", flush=True)
        return 1 if self.failures else 0


def run(cmd, env=None, timeout=120):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    return p.returncode, p.stdout, p.stderr


def is_pattern(name):
    """A builtin name that is a pattern (sliding:RxC, queens:N, blocks:FILE), not a puzzle."""
    if ":" not in name:
        return False
    return "RxC" in name or name.endswith("N") or "FILE" in name


def builtins(tansaku):
    code, out, err = run([tansaku, "list", "--json"])
    if code != 0:
        raise RuntimeError(f"{tansaku} list --json: exit {code}: {err.strip()}")
    return [p["name"] for p in json.loads(out)["puzzles"] if not is_pattern(p["name"])]


def data_dir(tansaku):
    """The data directory `tansaku` (a build tree's or an installed program) uses."""
    here = os.path.dirname(os.path.realpath(tansaku))
    installed = os.path.normpath(os.path.join(here, "..", "share", "tansaku"))
    return os.path.realpath(installed if os.path.isdir(installed) else os.path.join(here, "data"))


def show_all(tansaku):
    """`show NAME` of every builtin: {name: (exit code, stdout, first line of stderr)}, the
    program's data directory written <data> (a board's description names its file)."""
    out, data = {}, data_dir(tansaku)
    for name in builtins(tansaku):
        code, o, e = run([tansaku, "show", name])
        out[name] = (code, o.replace(data, "<data>"), e.strip().split("\n")[0] if e.strip() else "")
    return out


# Quick solves of builtins read from the data files (boards, definitions, graphs) and of a
# few computed ones: the command line and the length of the solution it must find.
QUICK_SOLVES = [
    (["solve", "klotski", "--json"], None),
    (["solve", "perm:2x2x2", "--scramble", "R U", "--json"], 2),
    (["solve", "perm:pyraminx", "--scramble", "R", "--json"], 1),
    (["solve", "coloring:myciel3", "--json"], None),
    (["solve", "8-puzzle", "--json"], 31),
]


def quick_solves(tansaku):
    """{command: (exit code, solution length or None, first line of stderr)}."""
    out = {}
    for args, _ in QUICK_SOLVES:
        code, o, e = run([tansaku, *args])
        length = None
        if code == 0:
            j = json.loads(o)
            length = j.get("length", j.get("colors"))
        out[" ".join(args)] = (code, length, e.strip().split("\n")[0] if e.strip() else "")
    return out


# What the Python module answers: its file, two solves read from the data, the builtins.
PY_CHECK = """
import json, tansaku
r = tansaku.solve("perm:2x2x2", scramble="R U")
k = tansaku.solve("klotski")
print(json.dumps({"file": tansaku.__file__, "perm": r.length, "klotski": k.length,
                  "puzzles": len(tansaku.puzzles())}))
"""


def python_check(python, pythonpath=None):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env.pop("TANSAKU_DATA_DIR", None)
    env.pop("PYTHONPATH", None)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    code, out, err = run([python, "-c", PY_CHECK], env=env)
    return json.loads(out) if code == 0 else {"error": err.strip().split("\n")[-1]}


def same_python(c, got, want, what):
    c.check("error" not in want, f"the build tree's module: {want}")
    for k in ("perm", "klotski", "puzzles"):
        c.check(got.get(k) == want.get(k), f"{what}: {k} {got.get(k)} vs the build tree's {want.get(k)} ({got.get('error', '')})")
