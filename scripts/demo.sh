#!/usr/bin/env bash
# The default job of `make run`: the seed puzzles solved and shown.
set -euo pipefail
bin=${1:-build/release/tansaku}
run() { echo; echo "\$ tansaku $*"; "$bin" "$@"; }
run list
run solve 8-puzzle
run solve 11-puzzle --quiet
run solve rotating-slide
run explore 8-puzzle --farthest 2
run explore sliding:4x4 --from "1 2 3 4 6 6 6 6 6 6 6 6 5 6 6 0" --quiet
run solve 15-puzzle --start "14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15" --goal "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15" --quiet
