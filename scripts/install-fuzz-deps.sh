#!/usr/bin/env bash
# Installs what `make fuzz` needs beyond scripts/install-deps.sh, only if missing: clang
# (Debian 12: clang 14) and its runtime libraries (libclang-rt-14-dev holds libFuzzer and
# the sanitizer runtimes that `clang++ -fsanitize=fuzzer,address,undefined` links).
set -euo pipefail
bash "$(dirname "$0")/install-deps.sh"
pkgs=(clang libclang-rt-14-dev)
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
