"""The Python module's costs (docs/benchmarks.md, docs/python.md): the per-call overhead of a
solve whose answer is immediate, and distances() over a million random positions from the
depth table. Run with the interpreter the module was built for:
    PYTHONPATH=build/release/python /usr/bin/python3 bench/python.py [--json]
Targets: under 50 us per call; under 2 s for the million distances (the table built before).
"""
import json
import os
import sys
import time

import tansaku

PUZZLE = tansaku.puzzles()[0]["name"]  # the registry's first builtin (the 3x3 sliding puzzle)


def per_call_us(n=20000):
    goal = tansaku.show(PUZZLE).goal
    for _ in range(200):  # warm: the worker thread, the registry
        tansaku.solve(PUZZLE, start=goal)
    inside = 0.0
    t0 = time.perf_counter()
    for _ in range(n):
        r = tansaku.solve(PUZZLE, start=goal)
        inside += r.seconds
    elapsed = time.perf_counter() - t0
    assert r.length == 0
    return elapsed / n * 1e6, inside / n * 1e6


def floor_us(n=20000):
    """A call that asks almost nothing of the family (one random position): the module's own cost."""
    for _ in range(200):
        tansaku.random(PUZZLE)
    t0 = time.perf_counter()
    for _ in range(n):
        tansaku.random(PUZZLE)
    return (time.perf_counter() - t0) / n * 1e6


def distances_seconds(count=1000000):
    t0 = time.perf_counter()
    positions = tansaku.random(PUZZLE, seed=1, count=count)["positions"]
    drawn = time.perf_counter() - t0
    t0 = time.perf_counter()
    tansaku.distances(PUZZLE, positions[:1])  # builds and keeps the table
    table = time.perf_counter() - t0
    t0 = time.perf_counter()
    d = tansaku.distances(PUZZLE, positions)
    looked_up = time.perf_counter() - t0
    assert len(d) == count and d.min() >= 0
    return drawn, table, looked_up


if __name__ == "__main__":
    call, inside = per_call_us()
    floor = floor_us()
    drawn, table, looked_up = distances_seconds()
    load = os.getloadavg()
    figures = {"puzzle": PUZZLE, "per_call_us": round(call, 1), "solve_inside_us": round(inside, 1), "module_us": round(call - inside, 1), "random_call_us": round(floor, 1),
               "random_1M_s": round(drawn, 2), "table_s": round(table, 2), "distances_1M_s": round(looked_up, 3),
               "load": [round(x, 2) for x in load], "python": sys.executable}
    if "--json" in sys.argv:
        print(json.dumps(figures))
    else:
        print(f"per call: {call:.1f} us, of which the family's solve (the report's seconds) {inside:.1f} us "
              f"and the module {call - inside:.1f} us; target < 50 us")
        print(f"a call that asks almost nothing of the family (random, one position): {floor:.1f} us")
        print(f"distances of 1,000,000 random positions: {looked_up:.3f} s (table built once in {table:.2f} s; "
              f"random() drew them in {drawn:.2f} s); target < 2 s")
        print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {sys.executable}")
