"""The 8-puzzle written in Python (states: tuples of 9 tiles, 0 the blank), with the
Manhattan distance as IDA*'s bound: the same answers as the engine's `solve 8-puzzle`
(python/tests compare them). Run with a start, e.g.
PYTHONPATH=build/release/python /usr/bin/python3 examples/python/eight_puzzle.py "8 6 7 2 5 4 3 0 1"
"""
import sys

import tansaku

GOAL = (1, 2, 3, 4, 5, 6, 7, 8, 0)
STEPS = {"U": -3, "D": 3, "L": -1, "R": 1}  # the blank's move, as the engine writes them


class EightPuzzle:
    name = "eight-puzzle (Python)"

    def __init__(self, start, manhattan=True):
        self.start = tuple(int(t) for t in start.split())
        if not manhattan:
            self.h = None  # BFS then: no bound

    def is_goal(self, s):
        return s == GOAL

    def moves(self, s):
        b = s.index(0)
        for name, step in STEPS.items():
            t = b + step
            if not 0 <= t < 9 or (step in (-1, 1) and t // 3 != b // 3):
                continue
            cells = list(s)
            cells[b], cells[t] = cells[t], cells[b]
            yield name, tuple(cells)

    def h(self, s):
        total = 0
        for i, v in enumerate(s):
            if v:
                total += abs(i // 3 - (v - 1) // 3) + abs(i % 3 - (v - 1) % 3)
        return total


if __name__ == "__main__":
    start = sys.argv[1] if len(sys.argv) > 1 else "1 2 3 4 5 6 0 7 8"
    r = tansaku.solve(EightPuzzle(start))
    print(f"{r.length} moves ({r.algorithm}, {r.nodes} nodes): {' '.join(r.moves)}")
