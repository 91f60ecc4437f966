"""An in-tree PEP 517 build backend for `python3 -m pip install .` (README "Python").

Why in-tree: PyPI is not reachable here and pip's usual backends would want to fetch
themselves; this one needs nothing beyond the standard library, CMake and the packages of
scripts/install-deps.sh --tests. It configures a CMake build tree for the interpreter that
runs pip (Python_EXECUTABLE = sys.executable), builds the one target `tansaku_python`, and
packs build/<dir>/python/tansaku/ and the shipped data (as tansaku/data/) into a wheel for
this interpreter's tag. `make package` packs its already built module the same way, run as a
script (the end of this file).

The build tree: $TANSAKU_BUILD_DIR when set; else build/release or build/package when one is
configured for this interpreter (its module is brought up to date, no second compile of the
library); else a new build/pip-<tag> under the source tree.
"""
import base64
import hashlib
import os
import pathlib
import subprocess
import sys
import sysconfig
import zipfile

NAME = "tansaku"
ROOT = pathlib.Path(__file__).resolve().parents[2]
SUMMARY = "tansaku's puzzle-search engine from Python"


def _version():
    for line in (ROOT / "CMakeLists.txt").read_text().splitlines():
        if line.startswith("project(tansaku VERSION "):
            return line.split()[2]
    raise RuntimeError("no version in CMakeLists.txt")


def _tag():
    py = f"cp{sys.version_info.major}{sys.version_info.minor}"
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{py}-{py}-{plat}"


def _metadata():
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {_version()}\nSummary: {SUMMARY}\n"
            f"Requires-Python: >=3.10\n")


def _dist_info():
    return f"{NAME}-{_version()}.dist-info"


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    d = pathlib.Path(metadata_directory) / _dist_info()
    d.mkdir(parents=True, exist_ok=True)
    (d / "METADATA").write_text(_metadata())
    return d.name


def _existing_tree():
    """build/release or build/package when configured with the module for this interpreter
    (the same Python, links resolved): its module is reused, not the library compiled again."""
    me = os.path.realpath(sys.executable)
    for name in ("release", "package"):
        cache = ROOT / "build" / name / "CMakeCache.txt"
        if not cache.exists():
            continue
        for line in cache.read_text(errors="replace").splitlines():
            if line.startswith("Python_EXECUTABLE:") and os.path.realpath(line.split("=", 1)[1]) == me:
                return cache.parent
    return None


def _build():
    build = os.environ.get("TANSAKU_BUILD_DIR") or _existing_tree() or ROOT / "build" / f"pip-{_tag()}"
    build = pathlib.Path(build)
    jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
    if not (build / "CMakeCache.txt").exists():
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                        f"-DPython_EXECUTABLE={sys.executable}", "-DTANSAKU_PYTHON_MODULE=ON",
                        "-DTANSAKU_TESTS=OFF", "-DTANSAKU_BENCH=OFF"], check=True, stdout=sys.stderr)
    subprocess.run(["cmake", "--build", str(build), "--target", "tansaku_python", "-j", jobs],
                   check=True, stdout=sys.stderr)
    pkg = build / "python" / NAME
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    if not (pkg / f"_tansaku{suffix}").exists():
        raise RuntimeError(f"{build} holds no module for this interpreter ({sys.executable}, _tansaku{suffix}): "
                           f"configure it with -DPython_EXECUTABLE={sys.executable}")
    return pkg, suffix


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def pack_wheel(pkg, suffix, data, wheel_directory):
    """Packs the built package `pkg` (its .py files and _tansaku<suffix>) and the data
    directory `data` (as tansaku/data/, where the module looks first) into a wheel in
    `wheel_directory`; returns the wheel's file name."""
    pkg, data = pathlib.Path(pkg), pathlib.Path(data)
    files = {}
    for f in sorted(pkg.iterdir()):
        if f.suffix == ".py" or f.name == f"_tansaku{suffix}":
            files[f"{NAME}/{f.name}"] = f.read_bytes()
    for f in sorted(data.rglob("*")):
        if f.is_file():
            files[f"{NAME}/data/{f.relative_to(data).as_posix()}"] = f.read_bytes()
    info = _dist_info()
    files[f"{info}/METADATA"] = _metadata().encode()
    files[f"{info}/WHEEL"] = (f"Wheel-Version: 1.0\nGenerator: tansaku_build\nRoot-Is-Purelib: false\n"
                              f"Tag: {_tag()}\n").encode()
    record = [_record_line(n, d) for n, d in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel = f"{NAME}-{_version()}-{_tag()}.whl"
    pathlib.Path(wheel_directory).mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(pathlib.Path(wheel_directory) / wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for name, content in files.items():
            z.writestr(name, content)
    return wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    pkg, suffix = _build()
    return pack_wheel(pkg, suffix, ROOT / "data", wheel_directory)


if __name__ == "__main__":
    # `tansaku_build.py wheel PKG DATA OUT` (the CMake target `wheel`, make package): packs
    # an already built module, for the interpreter running this script.
    if len(sys.argv) != 5 or sys.argv[1] != "wheel":
        sys.exit("usage: tansaku_build.py wheel PACKAGE_DIR DATA_DIR OUT_DIR")
    print(pathlib.Path(sys.argv[4]) / pack_wheel(sys.argv[2], sysconfig.get_config_var("EXT_SUFFIX"),
                                                 sys.argv[3], sys.argv[4]))
