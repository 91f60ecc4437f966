"""Water jugs in Python, solved by tansaku's engine (docs/python.md "Your own puzzle").

A 3-litre and a 5-litre jug, a tap and a sink: measure exactly 4 litres. A state is the
pair (a, b) of litres in the jugs; a move fills, empties or pours one jug into the other.
Run: PYTHONPATH=build/release/python /usr/bin/python3 examples/python/water_jugs.py
"""
import tansaku


class WaterJugs:
    name = "water-jugs"

    def __init__(self, sizes=(3, 5), target=4):
        self.sizes = sizes
        self.target = target
        self.start = (0, 0)

    def is_goal(self, s):
        return self.target in s

    def moves(self, s):
        a, b = s
        A, B = self.sizes
        pour_ab = min(a, B - b)
        pour_ba = min(b, A - a)
        yield "fill A", (A, b)
        yield "fill B", (a, B)
        yield "empty A", (0, b)
        yield "empty B", (a, 0)
        yield "pour A->B", (a - pour_ab, b + pour_ab)
        yield "pour B->A", (a + pour_ba, b - pour_ba)


if __name__ == "__main__":
    r = tansaku.solve(WaterJugs())
    print(f"{r.length} moves: {', '.join(r.moves)}")
    print("states:", " ".join(f"{a}/{b}" for a, b in r.states))
    e = tansaku.explore(WaterJugs())
    print(f"{e.states} states reachable, histogram {e.histogram}")
