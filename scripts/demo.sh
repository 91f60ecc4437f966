#!/usr/bin/env bash
# The default job of `make run`: the seed puzzles solved and shown.
set -euo pipefail
bin=${1:-build/release/tansaku}
run() {
  local shown=""
  for a in "$@"; do [[ $a == *" "* ]] && shown+=" \"$a\"" || shown+=" $a"; done
  echo; echo "\$ tansaku$shown"; "$bin" "$@"
}
run list
run solve 8-puzzle
run solve 11-puzzle --quiet
run solve rotating-slide
run explore 8-puzzle --farthest 2
run explore sliding:4x4 --from "1 2 3 4 6 6 6 6 6 6 6 6 5 6 6 0" --quiet
run explore sliding:4x4 --from "1 1 2 2 1 1 2 2 1 3 3 2 3 3 3 0" --farthest 2 --quiet
run solve flip:4x4 --all
run explore flip:4x4 --farthest 4
run solve flip:5x5 --quiet || true
run explore flip:5x5 --farthest 3
run solve flip:5x5 --rule lights-out
run show peg:triangle5
run solve peg:triangle5 --finish 12
run solve peg:trytry --finish 11 --quiet
run solve peg:french --quiet || true
run solve peg:triangle5 --empty 0 --count
run solve knight-tour:4x3 --all
run solve knight-tour:5x5 --count --quiet
run solve knight-swap:4x3 --quiet
run solve guarini --quiet
run explore knight-swap:4x3 --farthest 3 --quiet
run solve coloring:map12
run solve coloring:map12 --colors 3 || true
run solve coloring:map12 --count
run solve coloring:myciel5 --quiet
run solve square-sum
run solve square-sum --ring
run solve square-sum --n 23 --all
run solve 15-puzzle --start "14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15" --goal "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15" --quiet
run solve hakoiri-musume --quiet
run explore perm:2x2x2 --moves U,F,R --farthest 3 --quiet
run random 15-puzzle --seed 7 --count 3
