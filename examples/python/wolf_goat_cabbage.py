"""The wolf, the goat and the cabbage in Python, solved by tansaku's engine.

A farmer ferries them across a river, one at a time; left alone, the wolf eats the goat
and the goat eats the cabbage. A state is the frozenset of what is on the left bank
(the farmer included as "farmer"); a move names what crosses with the farmer.
Run: PYTHONPATH=build/release/python /usr/bin/python3 examples/python/wolf_goat_cabbage.py
"""
import tansaku

ALL = frozenset({"farmer", "wolf", "goat", "cabbage"})


def safe(bank):
    if "farmer" in bank:
        return True
    return not ({"wolf", "goat"} <= bank or {"goat", "cabbage"} <= bank)


class WolfGoatCabbage:
    name = "wolf-goat-cabbage"
    start = ALL

    def is_goal(self, left):
        return not left

    def moves(self, left):
        here = left if "farmer" in left else ALL - left
        for cargo in [None] + sorted(here - {"farmer"}):
            crossing = {"farmer"} | ({cargo} if cargo else set())
            new_left = left - crossing if "farmer" in left else left | crossing
            if safe(new_left) and safe(ALL - new_left):
                yield cargo or "alone", frozenset(new_left)


if __name__ == "__main__":
    r = tansaku.solve(WolfGoatCabbage())
    print(f"{r.length} crossings: {', '.join(r.moves)}")
