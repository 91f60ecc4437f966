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
run solve coloring:map12
run solve coloring:map12 --colors 3 || true
run solve coloring:map12 --count
run solve coloring:myciel5 --quiet
run solve square-sum
run solve square-sum --ring
run solve square-sum --n 23 --all
