#!/usr/bin/env bash
# `make format-check` (part of `make check`): every C++ line changed since the commit in
# scripts/format-base is as .clang-format lays it out (git clang-format, Debian's
# clang-format). The base only moves forward, so the checked part of the tree only grows;
# `git clang-format $(cat scripts/format-base)` fixes a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
base=$(cat scripts/format-base)
if ! git rev-parse --verify -q "$base^{commit}" >/dev/null; then
  echo "format check: base $base is not in this clone's history; nothing to compare" >&2
  exit 0
fi
out=$(git clang-format --binary clang-format --diff "$base" -- '*.cpp' '*.h' 2>&1 || true)
case "$out" in
  ""|*"no modified files to format"*|*"clang-format did not modify any files"*) echo "format check: clean"; exit 0 ;;
esac
echo "$out" | head -80
echo "format check: the lines above are not as .clang-format lays them out (git clang-format $base fixes them)" >&2
exit 1
