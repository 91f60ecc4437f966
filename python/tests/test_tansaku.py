# The Python module against the CLI (ctest Python, label python; docs/python.md): every
# family's report equals `tansaku ... --json`, errors carry the CLI's message and exit code,
# Ctrl-C cancels a search, distances agree with explore and solve, and puzzles written in
# Python agree with the engine's own.
import json
import os
import pathlib
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import tansaku

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("TANSAKU_BIN", str(ROOT / "build" / "release" / "tansaku"))
sys.path.insert(0, str(ROOT / "examples" / "python"))

# Keys that differ from run to run: the wall time, the process's memory, its thread count.
VOLATILE = {"seconds", "peak_rss_bytes"}


# A position no search finishes within the tests' seconds (`tansaku random 24-puzzle --seed 7`):
# the 15-puzzle's reversed board solves in about a second on an idle machine, which raced the
# one-second Ctrl-C timer.
HARD = "11 19 3 15 18 22 7 8 2 1 23 5 4 17 14 10 9 24 16 6 20 12 21 0 13"

def cli(*args):
    p = subprocess.run([BIN, *args], capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def stable(d):
    return {k: v for k, v in d.items() if k not in VOLATILE}


def cli_json(*args):
    code, out, err = cli(*args, "--json")
    assert code in (0, 1), err
    return code, json.loads(out)


def quick_solves():
    """Per family, the builtins whose CLI solve answers within 5 s (at least one each)."""
    found = {}
    for p in tansaku.puzzles():
        fam = p["family"]
        if fam in found:
            continue
        code, out, err = cli("solve", p["name"], "--json", "--timeout", "5")
        if code in (0, 1):
            found[fam] = p["name"]
    return found


def quick_explores():
    """Per family, the first builtin whose CLI explore answers within 5 s (where one does)."""
    found = {}
    for p in tansaku.puzzles():
        fam = p["family"]
        if fam in found:
            continue
        code, out, err = cli("explore", p["name"], "--json", "--timeout", "5")
        if code == 0:
            found[fam] = p["name"]
    return found


QUICK = quick_solves()
QUICK_EXPLORES = quick_explores()


def test_every_family_has_a_quick_solve():
    families = {p["family"] for p in tansaku.puzzles()}
    assert families, "the registry lists no puzzle"
    assert set(QUICK) == families, f"no quick builtin for {families - set(QUICK)}"


def test_puzzles_equal_list_json():
    code, out, err = cli("list", "--json")
    assert code == 0
    assert tansaku.puzzles() == json.loads(out)["puzzles"]


@pytest.mark.parametrize("family", sorted(QUICK))
def test_solve_equals_cli(family):
    name = QUICK[family]
    code, want = cli_json("solve", name)
    r = tansaku.solve(name)
    assert stable(r.to_dict()) == stable(want)
    assert r.solvable == (code == 0)
    for k in want:  # every key is an attribute
        assert k in r and getattr(r, k) == r[k]


@pytest.mark.parametrize("family", sorted(QUICK))
def test_show_equals_cli(family):
    name = QUICK[family]
    _, want = cli_json("show", name)
    assert stable(tansaku.show(name).to_dict()) == stable(want)


@pytest.mark.parametrize("family", sorted(QUICK_EXPLORES))
def test_every_explore_equals_cli(family):
    name = QUICK_EXPLORES[family]
    _, want = cli_json("explore", name)
    assert stable(tansaku.explore(name).to_dict()) == stable(want)


def test_explore_equals_cli():
    _, want = cli_json("explore", "8-puzzle")
    r = tansaku.explore("8-puzzle")
    assert stable(r.to_dict()) == stable(want)
    assert r.states == 181440 and r.depth == 31


def test_result_is_a_value():
    import copy
    import pickle
    r = tansaku.solve("8-puzzle")
    assert copy.copy(r) is r and copy.deepcopy(r).to_dict() == r.to_dict()
    assert pickle.loads(pickle.dumps(r)).to_dict() == r.to_dict()
    with pytest.raises(AttributeError):
        r.no_such_key
    with pytest.raises(AttributeError):
        r.length = 3


def test_options_as_keywords():
    _, want = cli_json("solve", "8-puzzle", "--start", "1 2 3 4 5 6 0 7 8", "--algorithm", "bfs")
    r = tansaku.solve("8-puzzle", start="1 2 3 4 5 6 0 7 8", algorithm="bfs", threads=1)
    assert stable(r.to_dict()) == stable(want)
    assert r.length == 2


def test_random_equals_cli():
    _, want = cli_json("random", "8-puzzle", "--seed", "7", "--count", "5")
    assert tansaku.random("8-puzzle", seed=7, count=5) == want


def test_pictures_equal_cli(tmp_path):
    svg, html = tmp_path / "a.svg", tmp_path / "a.html"
    code, _, err = cli("solve", "8-puzzle", "--svg", str(svg), "--html", str(html))
    assert code == 0, err
    r = tansaku.solve("8-puzzle")
    assert r._repr_svg_() + "\n" == svg.read_text()
    # The page embeds the report, whose seconds differ: compare around them.
    assert len(r._repr_html_()) > 1000 and r._repr_html_().startswith(html.read_text()[:200])


@pytest.mark.parametrize("family", sorted(QUICK))
def test_every_svg_equals_cli(family, tmp_path):
    name = QUICK[family]
    svg = tmp_path / "a.svg"
    code, _, err = cli("solve", name, "--svg", str(svg))
    r = tansaku.solve(name)
    if code == 2:  # the family cannot draw: neither can the result
        assert "has no pictures" in err and r.svg() == "" and r._repr_svg_() is None
    else:
        assert r.svg() + "\n" == svg.read_text()
        assert tansaku.show(name).svg() + "\n" == (cli("show", name, "--svg", "-")[1])


@pytest.mark.parametrize("args,kw", [
    (["solve", "no-such-puzzle"], {}),
    (["solve", "8-puzzle", "--start", "1 2 3"], {"start": "1 2 3"}),
    (["solve", "8-puzzle", "--algorithm", "magic"], {"algorithm": "magic"}),
    (["solve", "8-puzzle", "--threads", "x"], {"threads": "x"}),
    (["solve", "8-puzzle", "--timeout", "-1"], {"timeout": -1}),
    (["explore", "8-puzzle", "--farthest", "x"], {"farthest": "x"}),
])
def test_input_errors_as_cli(args, kw):
    code, out, err = cli(*args)
    assert code == 2 and out == ""
    call = getattr(tansaku, args[0])
    with pytest.raises(tansaku.InputError) as e:
        call(args[1], **kw)
    assert "tansaku: " + str(e.value) + "\n" == err
    assert e.value.exit_code == 2
    assert isinstance(e.value, ValueError) and isinstance(e.value, tansaku.Error)


def test_unknown_keyword():
    with pytest.raises(tansaku.InputError, match="unknown option 'strat'.*start"):
        tansaku.solve("8-puzzle", strat="1 2 3 4 5 6 7 0 8")
    with pytest.raises(tansaku.InputError, match="progress: give a callable"):
        tansaku.solve("8-puzzle", progress=3)
    with pytest.raises(tansaku.InputError, match="not a keyword here"):
        tansaku.solve("8-puzzle", svg="a.svg")
    with pytest.raises(tansaku.InputError, match="is a flag"):
        tansaku.solve("flip:4x4", torus="yes")


def test_limit_error_as_cli():
    # A 2-bit table of sliding:4x4 needs gigabytes: the budget is refused (exit 2) ...
    code, out, err = cli("explore", "sliding:4x4", "--memory", "1M")
    assert code == 2
    with pytest.raises(tansaku.InputError) as e:
        tansaku.explore("sliding:4x4", memory="1M")
    assert "tansaku: " + str(e.value) + "\n" == err
    # ... and a hard position under a short timeout is a limit (exit 3).
    hard = HARD
    code, out, err = cli("solve", "24-puzzle", "--start", hard, "--timeout", "0.2", "--threads", "1")
    assert code == 3
    with pytest.raises(tansaku.LimitError) as e:
        tansaku.solve("24-puzzle", start=hard, timeout=0.2, threads=1)
    assert "tansaku: " + str(e.value) + "\n" == err
    assert e.value.exit_code == 3 and isinstance(e.value, RuntimeError)


def test_stopped_solve_says_what_was_proved():
    # As the CLI's JSON object of exit 3: the lower bound proved, and the best solution a quick
    # solver found in the share of the timeout kept for it (none on a very busy machine).
    with pytest.raises(tansaku.LimitError) as e:
        tansaku.solve("24-puzzle", start=HARD, timeout=1, algorithm="idastar", threads=1)
    err = e.value
    assert err.report["complete"] is False and err.report["stopped"] == "timeout"
    assert err.report["puzzle"] == "sliding:5x5"
    assert err.lower_bound == err.report["lower_bound"] and err.lower_bound > 0
    assert err.best_solution == err.report.get("best_solution")
    if err.best_solution is not None:
        assert err.best_solution["algorithm"] in ("greedy", "beam")
        assert err.best_solution["length"] == len(err.best_solution["moves"]) >= err.lower_bound
        assert not err.best_solution["optimal"]
        assert "best found so far: %d moves" % err.best_solution["length"] in str(err)


def test_unsolvable_is_a_result():
    start = "1 2 3 4 5 6 8 7 0"
    code, want = cli_json("solve", "8-puzzle", "--start", start)
    assert code == 1
    r = tansaku.solve("8-puzzle", start=start)
    assert r.solvable is False and r.reason and r.length is None
    assert stable(r.to_dict()) == stable(want)


def test_ctrl_c_cancels_within_a_second():
    # Ctrl-C is a SIGINT to the process (as a terminal or Jupyter's interrupt sends it).
    hard = HARD
    fired = []
    timer = threading.Timer(1.0, lambda: (fired.append(time.monotonic()), os.kill(os.getpid(), signal.SIGINT)))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        tansaku.solve("24-puzzle", start=hard, timeout=60)
    stopped = time.monotonic()
    timer.cancel()
    assert fired and stopped - fired[0] < 1.0
    # The module is usable again at once, and Python's handler is back in place.
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert tansaku.solve("8-puzzle").length == 31
    with pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)


def test_ctrl_c_with_a_handler_of_the_program():
    # A handler installed with signal.signal runs instead; the search is cancelled all the same.
    hard = HARD
    seen = []
    old = signal.signal(signal.SIGINT, lambda *a: seen.append(1))
    try:
        threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        with pytest.raises(tansaku.LimitError, match="cancelled"):
            tansaku.solve("24-puzzle", start=hard, timeout=60)
        assert seen == [1]
    finally:
        signal.signal(signal.SIGINT, old)


def test_gil_released_while_searching():
    hard = HARD
    caught = []
    def search():
        try:
            tansaku.solve("24-puzzle", start=hard, timeout=1, threads=1)
        except tansaku.LimitError as e:
            caught.append(e)
    t = threading.Thread(target=search)
    t.start()
    spins = 0
    while t.is_alive():  # Python runs meanwhile
        spins += 1
    t.join()
    assert caught and spins > 10000
    # Calls from several threads at once give the answers of one at a time.
    from concurrent.futures import ThreadPoolExecutor
    positions = tansaku.random("8-puzzle", seed=9, count=8)["positions"]
    with ThreadPoolExecutor(4) as pool:
        lengths = list(pool.map(lambda p: tansaku.solve("8-puzzle", start=p, threads=1).length, positions))
    assert lengths == [tansaku.solve("8-puzzle", start=p).length for p in positions]


def test_forked_child_can_search():
    # multiprocessing's fork: the child has none of the parent's worker threads.
    assert tansaku.solve("8-puzzle").length == 31
    pid = os.fork()
    if pid == 0:
        ok = False
        try:
            signal.alarm(30)  # a child that hangs dies (SIGALRM) rather than the suite
            ok = tansaku.solve("8-puzzle").length == 31
        finally:
            os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_progress_reaches_the_callback():
    lines = []
    tansaku.explore("perm:2x2x2", progress=lines.append, threads=1)
    assert lines and all(isinstance(l, str) for l in lines)

    class Stop(Exception):
        pass

    def stop(line):
        raise Stop(line)
    t0 = time.monotonic()
    with pytest.raises(Stop):  # a callback that raises stops the search
        tansaku.solve("24-puzzle", start=HARD, progress=stop, timeout=60)
    assert time.monotonic() - t0 < 5
    assert tansaku.solve("8-puzzle").length == 31


def test_table_and_rank():
    t = tansaku.table("8-puzzle")
    r = tansaku.explore("8-puzzle")
    assert isinstance(t.depth, np.ndarray) and t.depth.dtype == np.uint8
    assert np.bincount(t.depth[t.depth != 255]).tolist() == r.histogram
    assert t.source == r["from"]
    assert t.depth[t.rank(t.source)] == 0
    for i in [0, 1, 12345, len(t) - 1]:
        assert t.rank(t.unrank(i)) == i
    assert t.rank("1 2 3 4 5 6 8 7 0") == -1  # the other parity: not in the space
    e = tansaku.explore("8-puzzle", table=True)
    assert np.array_equal(e.table.depth, t.depth)
    for s in r.farthest:
        assert t.depth[t.rank(s)] == r.depth


def test_distances_agree_with_solve_and_table():
    positions = tansaku.random("8-puzzle", seed=3, count=300)["positions"]
    d = tansaku.distances("8-puzzle", positions)
    t = tansaku.table("8-puzzle")
    assert d.tolist() == [int(t.depth[t.rank(p)]) for p in positions]
    for p, k in list(zip(positions, d))[:15]:
        assert tansaku.solve("8-puzzle", start=p).length == k
    assert tansaku.distances("8-puzzle", ["1 2 3 4 5 6 8 7 0"]).tolist() == [-1]
    with pytest.raises(tansaku.InputError, match=r"states\[1\]"):
        tansaku.distances("8-puzzle", ["1 2 3 4 5 6 7 8 0", "1 2 3"])


def test_distances_from_other_tables():
    positions = tansaku.random("perm:2x2x2", seed=5, count=6, moves="U,F,R")["positions"]
    d = tansaku.distances("perm:2x2x2", positions, moves="U,F,R")
    assert d.tolist() == [tansaku.solve("perm:2x2x2", start=p, moves="U,F,R").length for p in positions]
    t = tansaku.table("perm:2x2x2", moves="U,F,R")
    assert len(t) == 3674160 and np.bincount(t.depth).tolist() == tansaku.explore("perm:2x2x2", moves="U,F,R").histogram
    lo = tansaku.table("flip:4x4", rule="lights-out")
    assert np.bincount(lo.depth[lo.depth != 255]).tolist() == tansaku.explore("flip:4x4", rule="lights-out").histogram
    grids = [lo.unrank(i) for i in (1, 777, 65535)]
    got = tansaku.distances("flip:4x4", grids, rule="lights-out").tolist()
    assert got == [tansaku.solve("flip:4x4", start=g, rule="lights-out").length if lo.depth[lo.rank(g)] != 255 else -1
                   for g in grids]


def test_distances_beyond_the_memory_solve_each():
    # The 15-puzzle's table would need terabytes: each state is solved instead.
    near = ["1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", "1 2 3 4 5 6 7 8 9 10 11 12 13 0 14 15",
            "1 2 3 4 5 6 7 8 9 10 11 12 0 13 14 15", "1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0"]
    assert tansaku.distances("15-puzzle", near).tolist() == [1, 2, 3, -1]


def test_distances_of_cube_positions_solve_one_after_another():
    # The 3x3x3's space has no table: a solve per state, one after another on all cores (the
    # family keeps the tables it loads for the next solve).
    starts = [tansaku.solve("perm:3x3x3", scramble=s).start for s in ("R", "R U", "R U F'", "U2 D2 F2 B2 L2 R2")]
    assert tansaku.distances("perm:3x3x3", starts).tolist() == [1, 2, 3, 6]
    with pytest.raises(tansaku.InputError, match=r"states\[1\]"):
        tansaku.distances("perm:3x3x3", [starts[0], "CORNERS 1 2"])


def test_distances_without_a_table_solve_each():
    # A family that offers no depth table: one solve per state, in parallel.
    positions = tansaku.random("knight-swap:4x3", seed=4, count=4)["positions"]
    d = tansaku.distances("knight-swap:4x3", positions)
    assert d.tolist() == [tansaku.solve("knight-swap:4x3", start=p).length for p in positions]


def test_python_puzzles():
    from water_jugs import WaterJugs
    from wolf_goat_cabbage import WolfGoatCabbage
    r = tansaku.solve(WaterJugs())
    assert r.solvable and r.length == 6 and 4 in r.states[-1]
    assert tansaku.solve(WaterJugs(target=6)).solvable is False
    e = tansaku.explore(WaterJugs())
    assert e.states == sum(e.histogram) and e.histogram[0] == 1
    w = tansaku.solve(WolfGoatCabbage())
    assert w.length == 7 and w.moves[0] == "goat"


def test_python_eight_puzzle_agrees_with_engine():
    from eight_puzzle import EightPuzzle
    seed_start = tansaku.show("8-puzzle").start
    assert tansaku.solve(EightPuzzle(seed_start, manhattan=False)).length == tansaku.solve("8-puzzle").length == 31
    for p in tansaku.random("8-puzzle", seed=11, count=5)["positions"]:
        want = tansaku.solve("8-puzzle", start=p).length
        assert tansaku.solve(EightPuzzle(p), algorithm="idastar").length == want
    e = tansaku.explore(EightPuzzle("1 2 3 4 5 6 7 8 0", manhattan=False))
    assert e.histogram == tansaku.explore("8-puzzle").histogram


class Hanoi:
    """The Tower of Hanoi with n discs on three pegs: a state is each disc's peg (smallest
    first); h counts the discs not yet on the last peg (admissible: each must move once)."""

    def __init__(self, discs):
        self.start = (0,) * discs
        self.name = f"hanoi-{discs}"

    def is_goal(self, s):
        return all(p == 2 for p in s)

    def h(self, s):
        return sum(p != 2 for p in s)

    def moves(self, s):
        for a in range(3):
            for b in range(3):
                if a == b or a not in s:
                    continue
                disc = s.index(a)  # the smallest disc on peg a: its top
                if b in s and s.index(b) < disc:
                    continue  # a smaller disc lies on peg b
                yield (a, b), s[:disc] + (b,) + s[disc + 1:]


def test_python_puzzle_with_h_detects_duplicates():
    # 3^8 = 6,561 states, reached along very many paths: the default search for a puzzle
    # with h (A* with duplicate detection) answers with the least 2^8 - 1 moves.
    r = tansaku.solve(Hanoi(8))
    assert r.algorithm == "astar"
    assert r.solvable and r.optimal and r.length == 255
    assert r.states[-1] == (2,) * 8
    assert tansaku.solve(Hanoi(4), algorithm="bfs").length == tansaku.solve(Hanoi(4)).length == 15


def test_python_puzzle_errors():
    class NoMoves:
        start = 0
    with pytest.raises(tansaku.InputError, match="needs 'is_goal'"):
        tansaku.solve(NoMoves())

    class Raises:
        start = 0
        def is_goal(self, s):
            return False
        def moves(self, s):
            raise ZeroDivisionError("boom")
    with pytest.raises(ZeroDivisionError):
        tansaku.solve(Raises())


def test_build_tree_interpreter():
    # The module is built for, and tested with, the interpreter CMake chose (Python_EXECUTABLE).
    assert tansaku._tansaku.__file__.endswith(".so")


@pytest.mark.parametrize("script", ["water_jugs.py", "wolf_goat_cabbage.py", "eight_puzzle.py", "depth_histogram.py"])
def test_examples_run(script, tmp_path):
    env = dict(os.environ, MPLBACKEND="Agg")
    p = subprocess.run([sys.executable, str(ROOT / "examples" / "python" / script), str(tmp_path / "out.png")]
                       if script == "depth_histogram.py" else [sys.executable, str(ROOT / "examples" / "python" / script)],
                       capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stderr
    if script == "depth_histogram.py":
        assert (tmp_path / "out.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert "181440 states, depth 31" in p.stdout
