#!/usr/bin/python3
"""The packages `make package` built, installed into clean places and run with the source and
build trees hidden (ctest PackageInstall, label package, run by `make check`).

The Debian package is unpacked with `dpkg -x` into a temporary root rather than installed
with `dpkg -i`: the test leaves the machine's package database and /usr alone (a developer's
own installed tansaku stays), runs beside the other tests, and the unpacked /usr tree works
anywhere because an installed copy finds its data relative to itself. Its dependencies (from
dpkg-shlibdeps) are checked apart: every one installed here, and nothing the programs load
missing. The wheel goes into a fresh `python3 -m venv` with `pip install --no-index` (offline).
Both then answer as the build tree's program and module do.

Usage: package_install.py --dist DIST_DIR --version VERSION --tansaku BUILD/tansaku
                          --build BUILD_DIR --hide DIR [--hide DIR ...]"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hidden_tree as ht  # noqa: E402


def packages(a):
    debs = glob.glob(os.path.join(a.dist, f"tansaku_{a.version}_*.deb"))
    py = f"cp{sys.version_info.major}{sys.version_info.minor}"
    wheels = glob.glob(os.path.join(a.dist, f"tansaku-{a.version}-{py}-{py}-*.whl"))
    return debs, wheels


def outer(a):
    c = ht.Checks()
    debs, wheels = packages(a)
    if not c.check(len(debs) == 1 and len(wheels) == 1,
                   f"one .deb and one wheel of version {a.version} for this Python in {a.dist} (make package): {debs} {wheels}"):
        return c.exit_code()
    deb, wheel = debs[0], wheels[0]

    # The dependencies dpkg-shlibdeps wrote: each installed on this machine.
    depends = subprocess.run(["dpkg-deb", "-f", deb, "Depends"], capture_output=True, text=True).stdout.strip()
    print("Depends:", depends, flush=True)
    c.check("libtbb" in depends and "libc6" in depends, "the package depends on the libraries it links")
    for group in depends.split(","):
        names = [re.sub(r"\s*\(.*\)", "", alt).strip() for alt in group.split("|")]
        ok = any("install ok installed" in subprocess.run(["dpkg-query", "-W", "-f=${Status}", n],
                                                         capture_output=True, text=True).stdout for n in names)
        c.check(ok, f"dependency {group.strip()} is installed")

    tmp = tempfile.mkdtemp(prefix="tansaku-package-")
    try:
        shutil.copy(deb, tmp)
        shutil.copy(wheel, tmp)
        reference = {"show": ht.show_all(a.tansaku), "solve": ht.quick_solves(a.tansaku),
                     "python": ht.python_check(sys.executable, os.path.join(a.build, "python"))}
        with open(os.path.join(tmp, "reference.json"), "w") as f:
            json.dump(reference, f)
        why = ht.hiding_unavailable()
        if why:
            print("SKIP:", why, flush=True)
            return c.exit_code() or ht.SKIP
        code = ht.rerun_hidden(__file__, tmp, a.hide,
                               ["--inner", tmp, "--deb", os.path.basename(deb), "--wheel", os.path.basename(wheel)])
        c.check(code == 0, f"the packages with the trees hidden: exit {code}")
        return c.exit_code()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def same_program(c, tansaku, ref, what):
    shows = ht.show_all(tansaku)
    c.check(sorted(shows) == sorted(ref["show"]), f"{what} lists the same builtins")
    for name, want in ref["show"].items():
        c.check(shows.get(name) == tuple(want), f"{what}: show {name}: {shows.get(name)!r:.200} vs {want!r:.200}")
    solves = ht.quick_solves(tansaku)
    for cmd, want in ref["solve"].items():
        c.check(want[0] == 0 and solves.get(cmd) == tuple(want), f"{what}: {cmd}: {solves.get(cmd)} vs {want}")


def inner(a):
    c = ht.Checks()
    c.hidden_trees_are_empty()
    tmp = a.inner
    with open(os.path.join(tmp, "reference.json")) as f:
        ref = json.load(f)

    # The Debian package, unpacked.
    root = os.path.join(tmp, "root")
    p = subprocess.run(["dpkg", "-x", os.path.join(tmp, a.deb), root], capture_output=True, text=True)
    c.check(p.returncode == 0, f"dpkg -x: {p.stderr.strip()}")
    bins = [os.path.join(root, "usr/bin", b) for b in ("tansaku", "tansaku-full")]
    module = glob.glob(os.path.join(root, "usr/lib/python3/dist-packages/tansaku/_tansaku*.so"))
    c.check(len(module) == 1, "the package holds the Python module")
    c.check(os.path.isfile(os.path.join(root, "usr/share/tansaku/blocks/klotski.txt")), "the package holds the data")
    for f in bins + module:
        p = subprocess.run(["ldd", f], capture_output=True, text=True)
        c.check(p.returncode == 0 and "not found" not in p.stdout, f"ldd {f}: {p.stdout.strip()}")
    same_program(c, bins[0], ref, "the .deb's program")
    ht.same_python(c, ht.python_check(sys.executable, os.path.join(root, "usr/lib/python3/dist-packages")),
                   ref["python"], "the .deb's module")

    # The wheel, into a fresh virtual environment, offline.
    venv = os.path.join(tmp, "venv")
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-m", "venv", venv], capture_output=True, text=True)
    c.check(p.returncode == 0, f"python3 -m venv: {p.stderr.strip()}")
    t1 = time.monotonic()
    p = subprocess.run([os.path.join(venv, "bin", "python"), "-m", "pip", "install", "--no-index", "--no-deps",
                        "--disable-pip-version-check", os.path.join(tmp, a.wheel)], capture_output=True, text=True)
    c.check(p.returncode == 0, f"pip install {a.wheel}: {p.stderr.strip()}")
    t2 = time.monotonic()
    print(f"venv created in {t1 - t0:.1f} s, the wheel installed in {t2 - t1:.1f} s", flush=True)
    got = ht.python_check(os.path.join(venv, "bin", "python"))
    c.check(got.get("file", "").startswith(venv + "/"), f"the module is the venv's: {got}")
    ht.same_python(c, got, ref["python"], "the wheel's module")
    return c.exit_code()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dist")
    p.add_argument("--version")
    p.add_argument("--tansaku")
    p.add_argument("--build")
    p.add_argument("--hide", action="append", default=[])
    p.add_argument("--inner")
    p.add_argument("--deb")
    p.add_argument("--wheel")
    a = p.parse_args()
    sys.exit(inner(a) if a.inner else outer(a))


if __name__ == "__main__":
    main()
