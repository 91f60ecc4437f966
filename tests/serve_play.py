#!/usr/bin/python3
"""The app's tool endpoints (ctest ServePlay): GET /api/family (the commands, options and
solvers a family declares), POST /api/play (legal moves and the positions they lead to, in
every family, checked against the CLI's solver: a move changes the optimal
length by at most one) and pasted puzzles (the same answers as the CLI on the same file, the
file limits, no file opened), with their refusals: one-line 400s.
Usage: serve_play.py PATH/TO/tansaku"""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_util import Server  # noqa: E402

BIN = sys.argv[1]
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, flush=True)


def cli_json(*args):
    p = subprocess.run([BIN, *args, "--json"], capture_output=True, text=True, timeout=120)
    return p.returncode, (json.loads(p.stdout) if p.stdout.strip() else None), p.stderr.strip()


def one_line_400(status, got, *words):
    return (status == 400 and isinstance(got, dict) and got.get("exit") == 2 and "\n" not in got.get("error", "\n")
            and all(w in got["error"] for w in words))


def read(*parts):
    with open(os.path.join(DATA, *parts)) as f:
        return f.read()


# Families with moves: (puzzle, extra request fields, whether the optimal length is checked
# against the CLI's solver before and after a move).
PLAYABLE = [("knight-tour:5x5", {}, False), ("sliding:3x3", {}, True), ("rotating-slide", {}, True), ("flip:4x4", {}, True),
            ("peg:triangle5", {}, False), ("knight-swap:4x3", {}, True), ("blocks:ma", {}, True),
            ("perm:2x2x2", {}, False)]


def length(puzzle, start, goal=None):
    code, j, err = cli_json("solve", puzzle, "--start", start, *(["--goal", goal] if goal else []))
    return j["length"] if code == 0 and j and j.get("solvable") else None


def families(s):
    status, _, got = s.request("GET", "/api/family?puzzle=coloring:map12")
    check(status == 200 and got["commands"] == ["show", "solve"], f"coloring's commands: {status} {got}")
    status, _, got = s.request("GET", "/api/family?puzzle=8-puzzle")
    check(status == 200 and got["family"] == "sliding" and got["commands"] == ["show", "solve", "explore"],
          f"8-puzzle's family: {status} {got}")
    check(any(v["name"] == "bibfs" and "solve" in v["commands"] for v in got["solvers"]), f"8-puzzle solvers {got['solvers']}")
    status, _, got = s.request("GET", "/api/family?puzzle=flip:4x4")
    rule = [o for o in got["options"] if o["name"] == "rule"]
    check(rule and rule[0]["type"] == "text" and rule[0].get("default") == "eight", f"flip's --rule: {rule}")
    status, _, got = s.request("GET", "/api/family?puzzle=square-sum")
    n = [o for o in got["options"] if o["name"] == "n"]
    check(n and n[0]["type"] == "integer" and n[0].get("min", 0) >= 1, f"square-sum's --n: {n}")
    check("explore" not in got["commands"], f"square-sum's commands {got['commands']}")
    status, _, got = s.request("GET", "/api/family")
    names = [f["family"] for f in got["families"]]
    check(status == 200 and len(names) >= 10, f"every family: {names}")
    pastes = {f["family"]: f["paste"]["extension"] for f in got["families"] if "paste" in f}
    check(pastes == {"peg": ".txt", "coloring": ".col", "blocks": ".txt", "perm": ".tws"}, f"pasteable: {pastes}")
    # the commands offered are the ones that answer
    for f in got["families"]:
        if "explore" not in f["commands"]:
            code, _, err = cli_json("explore", f["family"])
            check(code == 2, f"{f['family']} offers no explore, and the CLI refuses it: {code} {err}")
    status, _, got = s.request("GET", "/api/family?puzzle=nosuch")
    check(one_line_400(status, got, "unknown puzzle"), f"unknown family: {status} {got}")


def play(s):
    for puzzle, extra, solve in PLAYABLE:
        status, _, got = s.request("POST", "/api/play", {"puzzle": puzzle, **extra})
        if not (status == 200 and got.get("playable") and got["moves"]):
            check(False, f"{puzzle}: play {status} {got}")
            continue
        check(got["board"].startswith("<svg"), f"{puzzle}: the position drawn")
        code, show, _ = cli_json("show", puzzle)
        if isinstance(show.get("start"), str):
            check(got["state"] == show["start"], f"{puzzle}: plays from show's start {got['state']} != {show['start']}")
        moves = got["moves"]
        check(len({m["state"] for m in moves}) == len(moves) and all(m["state"] != got["state"] for m in moves),
              f"{puzzle}: {len(moves)} moves lead to distinct new positions")
        # a move's position is a position: the server plays on from it, and one move back
        # (every family here has reversible moves but peg) returns
        m = moves[0]
        status, _, after = s.request("POST", "/api/play", {"puzzle": puzzle, "state": m["state"], **extra})
        check(status == 200 and after["state"] == m["state"], f"{puzzle}: play from {m['state']}: {status} {after}")
        if puzzle.startswith("knight-tour"):
            check(after["state"] == got["state"] + " " + m["move"], f"tour: the path goes on {after['state']}")
            # a path is the play mode's own: a solve starts from its first square (the app puts
            # solve_start in Start before Solve); a single square is a start as it is
            check("solve_start" not in got and after.get("solve_start") == got["state"],
                  f"tour: a solve starts from the path's first square: {got.get('solve_start')} {after.get('solve_start')}")
            status, _, solved = s.request("POST", "/api/solve", {"puzzle": puzzle, "start": after["solve_start"], **extra})
            check(status == 200 and solved["moves"][0] == int(after["solve_start"]),
                  f"tour: solved from solve_start: {status} {solved}")
        elif puzzle.startswith("peg"):
            check(after["state"].count("1") == got["state"].count("1") - 1, f"peg: a jump removes a peg {after['state']}")
        else:
            check(any(b["state"] == got["state"] for b in after["moves"]), f"{puzzle}: no move back from {m['state']}")
        if solve:
            # (a knight swap's goal is the start's armies exchanged: given, it stays the same)
            goal = show["goal"] if puzzle.startswith("knight-swap") else None
            a, b = length(puzzle, got["state"], goal), length(puzzle, m["state"], goal)
            check(a is not None and b is not None and abs(a - b) == 1 or (a == b and puzzle.startswith("blocks")),
                  f"{puzzle}: a move changes the optimal length by one: {a} -> {b}")
    # cells: a click names a move
    status, _, got = s.request("POST", "/api/play", {"puzzle": "8-puzzle", "state": "1 2 3 4 5 6 7 8 0"})
    check(got["goal"] is True and sorted(m["move"] for m in got["moves"]) == ["6", "8"]
          and sorted(c for m in got["moves"] for c in m["cells"]) == [5, 7], f"8-puzzle at the goal: {got}")
    status, _, got = s.request("POST", "/api/play", {"puzzle": "perm:2x2x2", "state": ""})
    names = {m["move"] for m in got["moves"]}
    check({"U", "U'", "U2", "R"} <= names and all(not m["cells"] for m in got["moves"]), f"2x2x2 turns {sorted(names)}")
    u = next(m for m in got["moves"] if m["move"] == "U")
    status, _, after = s.request("POST", "/api/play", {"puzzle": "perm:2x2x2", "state": u["state"]})
    back = next(m for m in after["moves"] if m["move"] == "U'")
    check(back["state"] == got["state"], "2x2x2: U then U' is where it started")
    # colouring: a press gives a vertex the next colour no neighbour has; square-sum: the next number
    status, _, got = s.request("POST", "/api/play", {"puzzle": "coloring:map12"})
    check(status == 200 and got["state"] == " ".join(["0"] * 12) and len(got["moves"]) == 12
          and got["moves"][0] == {"move": "A=1", "state": "1" + " 0" * 11, "cells": [0]}, f"map12 play: {status} {got}")
    status, _, got = s.request("POST", "/api/play", {"puzzle": "coloring:map12", "state": "1" + " 0" * 11})
    b = next(m for m in got["moves"] if m["cells"] == [1])  # B is A's neighbour: colour 2
    a = next(m for m in got["moves"] if m["cells"] == [0])  # A again: colour 2
    check(b["move"] == "B=2" and a["move"] == "A=2", f"map12 after A=1: {b} {a}")
    solved = cli_json("solve", "coloring:map12")[1]["moves"]
    status, _, got = s.request("POST", "/api/play", {"puzzle": "coloring:map12", "state": " ".join(map(str, solved))})
    check(status == 200 and got["goal"] is True, f"map12 coloured is the goal: {got.get('goal')}")
    status, _, got = s.request("POST", "/api/play", {"puzzle": "square-sum", "state": "8 1"})
    check(status == 200 and sorted(m["move"] for m in got["moves"]) == ["15", "3"] and got["moves"][0]["state"] == "8 1 3",
          f"square-sum after 8 1: {got}")
    row = cli_json("solve", "square-sum")[1]["moves"]
    status, _, got = s.request("POST", "/api/play", {"puzzle": "square-sum", "state": " ".join(map(str, row))})
    check(status == 200 and got["goal"] is True and got["moves"] == [], f"square-sum's row is the goal: {got}")
    status, _, got = s.request("POST", "/api/play", {"puzzle": "square-sum"})
    check(status == 200 and got["state"] == "" and len(got["moves"]) == 15 and got["board"].startswith("<svg"),
          f"square-sum from nothing: {status} {str(got)[:200]}")
    # refusals: one line, 400
    for body, words in [({"puzzle": "8-puzzle", "state": "1 2 3"}, ["position"]),
                        ({"puzzle": "8-puzzle", "state": 7}, ["state"]),
                        ({"puzzle": "flip:4x4", "state": "12/34"}, ["position"]),
                        ({"puzzle": "peg:triangle5", "state": "x"}, ["position"]),
                        ({"puzzle": "perm:2x2x2", "state": "CORNERS 1 1"}, ["position"]),
                        ({"puzzle": "flip:100x100"}, ["at most"]),
                        ({"puzzle": "square-sum", "state": "8 2"}, ["not a square"]),
                        ({"puzzle": "coloring:map12", "state": "99" + " 0" * 11}, ["colour 99"]),
                        ({"puzzle": "knight-tour:3x4", "state": "0 1"}, ["knight's move"]),
                        ({"puzzle": "nosuch"}, ["unknown puzzle"])]:
        status, _, got = s.request("POST", "/api/play", body)
        check(one_line_400(status, got, *words), f"play {body}: {status} {got}")


def paste(s):
    # the same answers as the CLI on the shipped file
    for puzzle, name, path, command in [("perm:2x2x2", "perm:mine.tws", ("perm", "2x2x2.tws"), "show"),
                                        ("coloring:myciel3", "coloring:g.col", ("coloring", "myciel3.col"), "solve"),
                                        ("peg:" + os.path.join(DATA, "peg", "english.txt"), "peg:b.txt",
                                         ("peg", "english.txt"), "show"),
                                        ("blocks:ma", "blocks:ma.txt", ("blocks", "ma.txt"), "solve")]:
        code, want, err = cli_json(command, puzzle)
        status, _, got = s.request("POST", "/api/" + command, {"puzzle": name, "paste": read(*path)})
        # facelets come from the shipped file's companion net, which a pasted definition lacks
        drop = {"seconds", "puzzle", "file", "source", "board", "name", "peak_rss_bytes", "facelets"}
        same = status == 200 and {k: v for k, v in got.items() if k not in drop} == {k: v for k, v in want.items() if k not in drop}
        check(same, f"pasted {name}: {status} {got} != CLI {want}")
    # a pasted .tws solved from a scramble, drawn and played
    tws = read("perm", "2x2x2.tws")
    status, _, got = s.request("POST", "/api/solve", {"puzzle": "perm:p.tws", "paste": tws, "scramble": "R U R'"})
    check(status == 200 and got["length"] == 3, f"pasted .tws solve: {status} {got}")
    status, _, got = s.request("POST", "/api/play", {"puzzle": "perm:p.tws", "paste": tws, "scramble": "R"})
    check(status == 200 and got["playable"] and any(m["move"] == "R'" for m in got["moves"]), f"pasted play {status}")
    status, _, got = s.request("POST", "/api/draw", {"puzzle": "perm:p.tws", "paste": tws})
    check(status == 200 and got["board"].startswith("<svg"), f"pasted draw {status}")
    # refusals
    for body, words in [({"puzzle": "perm:bad.tws", "paste": "Name x\nSet\n"}, ["bad.tws"]),
                        ({"puzzle": "coloring:g.col", "paste": "p edge 2 1\ne 1 9\n"}, ["g.col"]),
                        ({"puzzle": "sliding:3x3", "paste": "x"}, ["nothing to paste"]),
                        ({"puzzle": "perm", "paste": tws}, ["FAMILY:NAME"]),
                        ({"puzzle": "perm:../x.tws", "paste": tws}, ["FAMILY:NAME"]),
                        # a builtin's name would read the builtin, not the paste
                        ({"puzzle": "perm:2x2x2", "paste": tws}, ["perm:NAME.tws"]),
                        ({"puzzle": "blocks:ma", "paste": "x"}, ["blocks:NAME.txt"]),
                        ({"puzzle": "perm:p.tws", "paste": 3}, ["paste"]),
                        ({"puzzle": "perm:p.tws", "paste": "Name x\n\x01\n"}, ["control character"]),
                        # an oversized paste: the file limit of the request's memory (a quarter)
                        ({"puzzle": "coloring:big.col", "paste": "c " + "x" * 300000 + "\n", "memory": "1M"},
                         ["big.col", "larger than"])]:
        status, _, got = s.request("POST", "/api/show", body)
        check(one_line_400(status, got, *words), f"paste {str(body)[:80]}: {status} {str(got)[:300]}")
    # a pasted name is only a name: no file of that name is read (the policy still refuses paths)
    status, _, got = s.request("POST", "/api/show", {"puzzle": "coloring:" + os.path.join(DATA, "coloring", "myciel3.col")})
    check(status == 200, f"shipped data still readable: {status}")
    status, _, got = s.request("POST", "/api/show", {"puzzle": "coloring:/etc/passwd.col"})
    check(status == 400, f"a path outside the data: {status} {got}")


def main():
    t0 = time.time()
    with Server(BIN, "--workers", "2") as s:
        families(s)
        play(s)
        paste(s)
        code, rest = s.stop()
        check(code == 0, f"server stopped: {code} {rest!r}")
    print(f"serve_play: {len(failures)} failures, {time.time() - t0:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
