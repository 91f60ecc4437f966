#!/usr/bin/env bash
# Installs the Debian 12 packages a make target needs, only those dpkg says are missing
# (apt-get update once, and only when something is missing):
#   scripts/install-deps.sh          the program: compiler, cmake, the libraries it links, help2man
#                                    (its man page) (make run)
#   scripts/install-deps.sh --tests  + the test suite's: GoogleTest, Google Benchmark, MPI (the
#                                    mpirun tests), Chromium + chromedriver + Selenium (the
#                                    web app's browser test), pybind11 + Python's headers, pytest,
#                                    NumPy, Matplotlib (the Python module `tansaku`, its tests and
#                                    examples, for /usr/bin/python3: README "Python"), jsonschema (the
#                                    JSON Schema test), lld (links the test programs faster) (make test)
#   scripts/install-deps.sh --package  + what the packages need: pybind11 + Python's headers (the
#                                    module), dpkg-dev (dpkg-shlibdeps finds the Debian package's
#                                    dependencies), file (CPack's), python3-venv (the wheel's
#                                    test installs it into a fresh venv) (make package)
#   scripts/install-deps.sh --check  + the sanitizer and fuzz runs': clang and its runtimes
#                                    (libFuzzer), curl + xz to fetch oneTBB's source for the
#                                    TSan build; the packages' tools (make check)
# Further package names given as arguments are installed the same way.
set -euo pipefail
# libpng-dev: m4ri.pc requires libpng, which libm4ri-dev does not pull in (a fresh Debian 12 fails at configure without it).
pkgs=(g++ cmake make pkg-config libcli11-dev libfmt-dev nlohmann-json3-dev libtbb-dev
      libm4ri-dev libpng-dev libzstd-dev libgmp-dev libcadical-dev libglpk-dev libcpp-httplib-dev help2man)
tests=(libgtest-dev libgmock-dev libbenchmark-dev libopenmpi-dev openmpi-bin
       chromium chromium-driver python3-selenium
       pybind11-dev python3-dev python3-pybind11 python3-pytest python3-numpy python3-matplotlib
       python3-jsonschema lld)
package=(pybind11-dev python3-dev dpkg-dev file python3-venv)
check=(clang libclang-rt-14-dev curl xz-utils)
for a in "$@"; do
  case $a in
    --tests) pkgs+=("${tests[@]}") ;;
    --package) pkgs+=("${package[@]}") ;;
    --check) pkgs+=("${tests[@]}" "${package[@]}" "${check[@]}") ;;
    *) pkgs+=("$a") ;;
  esac
done
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
