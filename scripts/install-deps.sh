#!/usr/bin/env bash
# Installs the Debian 12 packages tansaku builds against, only those missing; extra package
# names given as arguments are installed the same way (scripts/install-fuzz-deps.sh).
set -euo pipefail
pkgs=(g++ cmake make pkg-config libcli11-dev libfmt-dev nlohmann-json3-dev libtbb-dev
      libm4ri-dev libzstd-dev libgmp-dev libcadical-dev libglpk-dev
      libgtest-dev libgmock-dev libbenchmark-dev curl xz-utils
      libopenmpi-dev openmpi-bin libcpp-httplib-dev chromium chromium-driver python3-selenium "$@")
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
