#!/usr/bin/env bash
# Installs what `make fuzz` needs beyond scripts/install-deps.sh, only if missing: clang
# (Debian 12: clang 14) and its runtime libraries (libclang-rt-14-dev holds libFuzzer and
# the sanitizer runtimes that `clang++ -fsanitize=fuzzer,address,undefined` links).
set -euo pipefail
bash "$(dirname "$0")/install-deps.sh" clang libclang-rt-14-dev
