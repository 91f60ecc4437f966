#!/usr/bin/python3
"""An installed copy needs nothing from the tree it was built from (ctest InstallRelocatable).

`cmake --install` (components runtime and python) into a temporary prefix; then, with the
source and build trees hidden (hidden_tree.py), the installed program shows every builtin
exactly as the build tree's program does, solves the quick cases the same way, honours
$TANSAKU_DATA_DIR, still works once its prefix is moved elsewhere, and so does the installed
Python module. Without root or unshare the hidden part is skipped (exit 77) after the
checks that need no hiding.

Usage: install_relocatable.py --cmake CMAKE --build BUILD_DIR --source SOURCE_DIR
                              --tansaku BUILD_DIR/tansaku [--python-module]"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hidden_tree as ht  # noqa: E402

PY_DIR = "lib/python3/dist-packages"  # CMakeLists.txt: TANSAKU_PYTHON_INSTALL_DIR's default


def python_check(pythonpath):
    return ht.python_check(sys.executable, pythonpath)


def outer(a):
    c = ht.Checks()
    tmp = tempfile.mkdtemp(prefix="tansaku-install-")
    try:
        prefix = os.path.join(tmp, "prefix")
        components = ["runtime"] + (["python"] if a.python_module else [])
        for comp in components:
            p = subprocess.run([a.cmake, "--install", a.build, "--prefix", prefix, "--component", comp],
                               capture_output=True, text=True)
            if not c.check(p.returncode == 0, f"cmake --install --component {comp}: {p.stderr.strip()}"):
                return c.exit_code()
        # Nothing installed names the trees it came from.
        trees = [os.path.realpath(a.source).encode(), os.path.realpath(a.build).encode()]
        for root, _, files in os.walk(prefix):
            for f in files:
                path = os.path.join(root, f)
                with open(path, "rb") as fh:
                    data = fh.read()
                for t in trees:
                    c.check(t not in data, f"{os.path.relpath(path, prefix)} names {t.decode()}")
        c.check(os.path.isfile(os.path.join(prefix, "share/tansaku/blocks/klotski.txt")), "the data is installed")
        # What the build tree's program and module answer, for the hidden run to compare with.
        reference = {"show": ht.show_all(a.tansaku), "solve": ht.quick_solves(a.tansaku)}
        if a.python_module:
            reference["python"] = python_check(os.path.join(a.build, "python"))
        c.check(len(reference["show"]) >= 20, f"the build tree lists {len(reference['show'])} builtins")
        with open(os.path.join(tmp, "reference.json"), "w") as f:
            json.dump(reference, f)
        why = ht.hiding_unavailable()
        if why:
            print("SKIP:", why, flush=True)
            return c.exit_code() or ht.SKIP
        code = ht.rerun_hidden(__file__, tmp, [a.source, a.build],
                               ["--inner", tmp] + (["--python-module"] if a.python_module else []))
        c.check(code == 0, f"the installed copy with the trees hidden: exit {code}")
        return c.exit_code()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def inner(a):
    c = ht.Checks()
    c.hidden_trees_are_empty()
    tmp = a.inner
    with open(os.path.join(tmp, "reference.json")) as f:
        ref = json.load(f)
    prefix = os.path.join(tmp, "prefix")
    tansaku = os.path.join(prefix, "bin", "tansaku")

    shows = ht.show_all(tansaku)
    c.check(sorted(shows) == sorted(ref["show"]), "the installed copy lists the same builtins")
    for name, want in ref["show"].items():
        c.check(shows.get(name) == tuple(want), f"show {name}: installed {shows.get(name)!r:.200} vs build tree {want!r:.200}")
    c.check(sum(1 for v in shows.values() if v[0] == 0) >= 20, "the builtins show")
    solves = ht.quick_solves(tansaku)
    for cmd, want in ref["solve"].items():
        c.check(want[0] == 0, f"{cmd} in the build tree: {want}")
        c.check(solves.get(cmd) == tuple(want), f"{cmd}: installed {solves.get(cmd)} vs build tree {want}")

    # $TANSAKU_DATA_DIR wins over the installed data.
    nowhere = os.path.join(tmp, "nowhere")
    code, out, err = ht.run([tansaku, "solve", "klotski"], env=dict(os.environ, TANSAKU_DATA_DIR=nowhere))
    c.check(code == 2 and out == "" and nowhere in err, f"TANSAKU_DATA_DIR={nowhere}: exit {code}, {err.strip()}")
    code, _, err = ht.run([tansaku, "solve", "klotski"],
                          env=dict(os.environ, TANSAKU_DATA_DIR=os.path.join(prefix, "share", "tansaku")))
    c.check(code == 0, f"TANSAKU_DATA_DIR=<prefix>/share/tansaku: exit {code}, {err.strip()}")

    # The prefix moved elsewhere: the program and the module follow.
    moved = os.path.join(tmp, "moved")
    os.rename(prefix, moved)
    solves = ht.quick_solves(os.path.join(moved, "bin", "tansaku"))
    for cmd, want in ref["solve"].items():
        c.check(solves.get(cmd) == tuple(want), f"{cmd} from the moved prefix: {solves.get(cmd)} vs {want}")
    if a.python_module:
        got = python_check(os.path.join(moved, PY_DIR))
        c.check(got.get("file", "").startswith(moved), f"the module is the moved copy: {got}")
        ht.same_python(c, got, ref["python"], "the installed module")
    return c.exit_code()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cmake")
    p.add_argument("--build")
    p.add_argument("--source")
    p.add_argument("--tansaku")
    p.add_argument("--python-module", action="store_true")
    p.add_argument("--inner")
    a = p.parse_args()
    sys.exit(inner(a) if a.inner else outer(a))


if __name__ == "__main__":
    main()
