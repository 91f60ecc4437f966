#!/usr/bin/python3
"""Writes the JSON Schema of tansaku's --json output (docs/schema/*.json) and the key tables of
docs/cli.md (between its <!-- keys:NAME --> markers) from one description, so that the schema
the tests validate against and the reference users read cannot drift apart. Run it after
changing a key: /usr/bin/python3 scripts/json_schema.py (then commit both)."""
import json
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DRAFT = "https://json-schema.org/draft/2020-12/schema"

# Families: the pattern their `puzzle` value matches (names are resolved: 8-puzzle -> sliding:3x3).
FAMILIES = {
    "sliding": "^sliding:", "rotating-slide": "^rotating-slide$", "peg": "^peg:", "flip": "^flip:",
    "knight-tour": "^knight-tour:", "knight-swap": "^knight-swap:", "coloring": "^coloring:",
    "square-sum": "^square-sum$", "blocks": "^blocks:", "perm": "^perm:",
}

# A key: (type, when it appears ("" = always), meaning). Types: integer, number, string, boolean,
# count (integer, or a decimal string beyond 64 bits), signed (an integer that may be negative; integer is >= 0), null, T|U, array<T>, map<T> (an object of T
# by name), or the name of an object shape in SHAPES.
SHAPES = {
    "kind": {"shape": ("string", "", "the piece's shape, rows separated by /"), "cells": ("integer", "", "cells it covers"),
             "pieces": ("string", "", "the pieces of this shape, one character each"),
             "alike": ("boolean", "", "pieces of this shape are interchangeable")},
    "perm_set": {"name": ("string", "", "the set's name"), "pieces": ("integer", "", "pieces in the set"),
                 "orientations": ("integer", "", "orientations of each piece"), "solved": ("array<integer>", "", "the solved labels")},
    "perm_move": {"name": ("string", "", "the move's name"), "order": ("integer", "", "its order"),
                  "cycles": ("string", "", "its cycles, set by set")},
    "color_step": {"colors": ("integer", "", "K tried"), "found": ("boolean", "", "a K-colouring was found"),
                   "by": ("string", "", "the method that decided it"), "nodes": ("integer", "", "its search nodes")},
    "pdb_table": {"tiles": ("integer", "", "tiles in the table's group"), "entries": ("integer", "", "its entries"),
                  "origin": ("string", "", "where it came from (disk, memory, derived)")},
    "pdb_check": {"file": ("string", "", "the table file"), "ok": ("boolean", "", "it read to the end and its checksums hold"),
                  "error": ("string", "not ok", "what is wrong, naming the file")},
    "pdb_unreadable": {"file": ("string", "", "the table file"),
                       "error": ("string", "", "why it does not read, naming the file, and the way out")},
    "pdb_removed": {"file": ("string", "", "the table file removed"), "file_bytes": ("integer", "", "its size")},
    "list_entry": {"name": ("string", "", "the name to give the other commands, or a pattern (`sliding:RxC`)"),
                   "family": ("string", "", "the family"), "summary": ("string", "", "one line: what the puzzle is")},
    "best_solution": {"length": ("integer", "", "its length in the puzzle's metric"),
                      "moves": ("array", "", "the solution, as `moves` of a solve writes it (replayed by the family's verifier)"),
                      "algorithm": ("string", "", "the quick solver that found it (`greedy`, `beam`, `two-phase`, `subgoal`, `dfs`)"),
                      "optimal": ("boolean", "", "its length equals `lower_bound`, so it is optimal after all"),
                      "seconds": ("number", "", "the quick solver's wall time")},
    "bench_run": {"command": ("string", "", "`solve` or `explore`"), "puzzle": ("string", "", "the puzzle"),
                  "nodes": ("integer", "", "its nodes"), "seconds": ("number", "", "its time")},
}

COMMON = {
    "show": {"puzzle": ("string", "", "the puzzle's name, resolved (`8-puzzle` gives `sliding:3x3`)")},
    "solve": {
        "puzzle": ("string", "", "the puzzle's name, resolved"),
        "start": ("string", "", "the start in the family's notation (`\"\"` where there is no single start)"),
        "goal": ("string", "", "the goal in the same notation, or described where it is a property"),
        "solvable": ("boolean", "", "false: no solution exists (exit 1)"),
        "optimal": ("boolean", "", "the length is proved least; unsolvable: the proof is complete"),
        "length": ("integer|null", "", "the solution's length in the puzzle's metric; null when there is none"),
        "moves": ("array", "", "the solution in the family's notation (below); empty when there is none"),
        "nodes": ("integer", "", "nodes expanded (0 when a proof or formula answered)"),
        "seconds": ("number", "", "the work's wall time"),
        "algorithm": ("string", "almost always", "the solver that answered, a name `--algorithm` takes, or the proof that settled it (`parity`, `invariants`, `position classes`, `pagoda function`, `membership`)"),
        "solutions": ("array", "`--all`", "every optimal solution, each like `moves`"),
        "count": ("count", "`--count`", "how many optimal solutions"),
        "truncated": ("boolean", "the listing of `--all` stopped short of the count", "always true when present"),
        "listed": ("integer", "with `truncated`", "how many solutions were listed"),
        "reason": ("string", "unsolvable", "why no solution exists"),
        "generated": ("integer", "where the solver counts them", "successors generated"),
        "table_bytes": ("integer", "where the solver holds tables", "the largest table held"),
        "heuristic": ("string", "IDA*", "the lower bound, described (`manhattan + linear conflict`, `pdb 7-8 (disk) + reflection`)"),
        "bound": ("number", "`--algorithm wastar`", "the guarantee `--weight` gives: the length is at most this many times the optimum"),
        "lower_bound": ("integer", "`--algorithm wastar` (peg: always)", "the optimum is proved at least this (weighted A*: the length / W, rounded up)"),
        "hint": ("string", "where a table would make the solve faster", "how (`tansaku pdb build 24-puzzle`, `tansaku pdb build perm:NAME`)"),
    },
    "explore": {
        "puzzle": ("string", "", "the puzzle's name, resolved"),
        "from": ("string", "", "the source position (default: the goal; peg and blocks: the start)"),
        "states": ("integer", "", "positions reachable from the source"),
        "depth": ("integer", "", "the largest distance"),
        "histogram": ("array<integer>", "", "positions at each distance, index = distance"),
        "farthest": ("array<string>", "", "up to `--farthest` positions at distance `depth`"),
        "farthest_count": ("integer", "", "positions at distance `depth`"),
        "seconds": ("number", "", "the work's wall time"),
        "algorithm": ("string", "almost always", "the explore that ran, a name `explore --algorithm` takes"),
        "nodes": ("integer", "when the explore counts expansions", "positions expanded"),
        "generated": ("integer", "where counted", "successors generated"),
        "table_bytes": ("integer", "where tables are held", "the largest table held"),
        "heuristic": ("string", "never so far", "as for solve"),
        "peak_rss_bytes": ("integer", "", "the process's peak resident set, bytes"),
        "threads": ("integer", "", "threads the explore could use (`--threads`)"),
    },
}

RSS = ("integer", "", "the process's peak resident set, bytes")
EXTRAS = {
    "show": {
        "sliding": {"rows": ("integer", "", "rows"), "cols": ("integer", "", "columns"), "cells": ("integer", "", "cells"),
                    "goal": ("string", "", "the goal"), "states": ("string", "", "positions reachable from the goal (decimal)"),
                    "identical_pieces": ("boolean", "", "some labels repeat"),
                    "start": ("string", "a start is known (a default or `--start`)", "the start"),
                    "solvable": ("boolean", "with `start`", "the start can reach the goal (parity)")},
        "rotating-slide": {"rows": ("integer", "", "3"), "cols": ("integer", "", "3"), "start": ("string", "", "the start"),
                           "goal": ("string", "", "the goal"), "states": ("integer", "", "181440"),
                           "moves": ("array<array<integer>>", "", "the eight turns, each three cells (x y z): y goes to x, z to y, x to z"),
                           "solvable": ("boolean", "", "the start can reach the goal")},
        "peg": {"board": ("string", "", "the board's name"), "lattice": ("string", "", "`square`, `square-diagonal` or `triangular`"),
                "holes": ("integer", "", "holes"), "jumps": ("integer", "", "possible jumps"), "symmetries": ("integer", "", "the board's symmetries"),
                "start": ("string", "", "the start, one 0/1 character a hole"), "empty": ("string", "", "the holes empty at the start"),
                "goal": ("string", "", "the goal, described"), "position_class_invariants": ("integer", "", "independent position-class invariants"),
                "corners": ("string", "", "holes no jump passes over"), "lower_bound": ("integer", "", "a lower bound on the moves"),
                "states_upper_bound": ("string", "", "2^holes (decimal)"),
                "finishers": ("string", "the goal is one peg anywhere", "the holes a last peg may be in")},
        "flip": {"rows": ("integer", "", "rows"), "cols": ("integer", "", "columns"), "cells": ("integer", "", "cells"),
                 "rule": ("string", "", "the rule's name"), "mask": ("string", "", "the 3x3 press mask"), "torus": ("boolean", "", "wraps around"),
                 "start": ("string", "", "the start grid"), "goal": ("string", "", "the goal grid"),
                 "rank": ("integer", "", "rank of the press matrix over GF(2)"), "nullity": ("integer", "", "cells - rank"),
                 "reachable": ("string", "", "2^rank configurations reachable (decimal)"), "reachable_log2": ("integer", "", "rank"),
                 "solvable": ("boolean", "", "the start can reach the goal"), "free_presses": ("integer", "", "unknowns the solver kept"),
                 "method": ("string", "", "how the system was solved"),
                 "quiet_patterns": ("array<array<integer>>", "nullity <= 16 and cells <= 1024", "press sets that change nothing (a basis)")},
        "knight-tour": {"rows": ("integer", "", "rows"), "cols": ("integer", "", "columns"), "squares": ("integer", "", "squares"),
                        "from": ("integer", "", "the first square"),
                        "no_tour": ("string", "a counting argument rules every tour out (small boards)", "why there is none")},
        "knight-swap": {"rows": ("integer", "", "rows"), "cols": ("integer", "", "columns"), "squares": ("integer", "", "squares"),
                        "goal": ("string", "", "the goal"), "states": ("string", "", "arrangements of the pieces (decimal)"),
                        "start": ("string", "a start is known", "the start"),
                        "adjacency": ("array<array<integer>>", "", "each square's knight moves")},
        "coloring": {"source": ("string", "", "where the graph comes from (a file, or the builtin's source)"),
                     "vertices": ("integer", "", "vertices"), "edges": ("integer", "", "edges (each once)"),
                     "max_degree": ("integer", "", "largest degree"), "min_degree": ("integer", "", "smallest degree"),
                     "edge_lines": ("integer", "a DIMACS file", "its edge lines"), "declared_edges": ("integer", "a DIMACS file", "the edges its `p` line declares"),
                     "self_loops_ignored": ("integer", "the file has loops", "loops left out"),
                     "neighbours": ("map<array<string>>", "small graphs", "each vertex's neighbours, by name")},
        "square-sum": {"ring": ("boolean", "", "`--ring`"), "n": ("integer", "`--n`", "N"),
                       "isolated": ("integer", "`--n`", "numbers with no partner"), "degree_one": ("array<integer>", "`--n`", "numbers with one partner (the ends of any row)"),
                       "max_degree": ("integer", "`--n`", "most partners"), "partners": ("map<array<integer>>", "`--n` up to 60", "each number's partners")},
        "blocks": {"name": ("string", "", "the puzzle's name"), "source": ("string", "", "where it comes from"),
                   "rows": ("integer", "", "rows"), "cols": ("integer", "", "columns"), "walls": ("integer", "", "wall cells"),
                   "pieces": ("integer", "", "pieces"), "kinds": ("array<kind>", "", "the piece shapes"),
                   "metric": ("string", "", "`step`, `line` or `path`"), "distinct": ("boolean", "", "`--distinct`"),
                   "start": ("string", "", "the start"), "goal": ("string|null", "", "the goal, null where only some pieces must reach places"),
                   "goal_fixes_every_piece": ("boolean", "", "the goal is one position"), "code_bits": ("integer", "", "bits a position takes"),
                   "states_upper_bound": ("integer|string", "", "placements of the pieces, a bound (a string like `1.2e+20` when huge)")},
        "perm": {"name": ("string", "", "the definition's name"), "file": ("string", "", "its file"),
                 "sets": ("array<perm_set>", "", "the piece sets"), "moves": ("array<perm_move>", "", "the base moves"),
                 "metric": ("string", "", "`htm` or `qtm`"), "group_order": ("string", "", "the group's order (decimal, Schreier-Sims)"),
                 "ranked_size": ("integer", "the ranked space can be built", "positions in the ranked space"),
                 "states": ("string", "the pieces are distinct", "positions reachable (decimal)"),
                 "facelets": ("string", "the puzzle's net reads facelets", "the shown position sticker by sticker (`--facelets`)")},
    },
    "solve": {
        "sliding": {"cells": ("array<integer>", "solved", "the cell each slide's tile comes from (where the blank goes)"),
                    "pdb_tables": ("array<pdb_table>", "pattern-database solve", "the tables used"),
                    "h_start": ("integer", "pattern-database solve", "the heuristic's value at the start"),
                    "setup_seconds": ("number", "pattern-database solve; batch summary", "time loading or building tables"),
                    "prune_depth": ("integer", "pattern-database solve", "redundant move strings skipped up to this length"),
                    "instance": ("string", "`--batch` instance lines", "the instance's label in the file (its number, or the id the line gives)"),
                    "summary": ("boolean", "`--batch` summary", "true"), "batch": ("string", "`--batch` summary", "the file"),
                    "instances": ("integer", "`--batch` summary", "instances"), "solved": ("integer", "`--batch` summary", "instances solved"),
                    "sum_length": ("integer", "`--batch` summary", "the sum of their lengths")},
        "rotating-slide": {},
        "peg": {"metric": ("string", "", "`moves` or `jumps`"), "length_unit": ("string", "", "what `length` counts (= metric)"),
                "empty": ("string", "", "the holes empty at the start"),
                "finish": ("integer|string|null", "", "the finishing hole, `anywhere`, or null (a goal of several pegs)"),
                "method": ("string", "a search ran", "the solver's description"), "lower_bound": ("integer", "without `--count`", "the lower bound the search started from"),
                "positions": ("integer", "layered solves and counts", "positions stored"), "pagoda_functions": ("integer", "", "pagoda functions used"),
                "pagoda_proof": ("array<signed>", "a pagoda function proves it impossible", "its weights, by hole"),
                "jumps": ("integer", "solved", "jumps in the solution")},
        "flip": {"rule": ("string", "", "the rule"), "torus": ("boolean", "", "wraps around"), "method": ("string", "", "how it was solved"),
                 "rank": ("integer", "algebraic solvers", "rank of the press matrix"), "nullity": ("integer", "algebraic solvers", "its nullity"),
                 "unknowns": ("integer", "algebraic solvers", "unknowns of the reduced system"),
                 "coset_weights": ("map<integer>", "exact minimum, nullity <= 16", "press-set sizes in the solution's coset: size -> how many"),
                 "witness": ("array<integer>", "unsolvable", "cells every press toggles evenly, which start and goal differ on oddly"),
                 "peak_rss_bytes": RSS},
        "knight-tour": {"rows": ("integer", "", "rows"), "cols": ("integer", "", "columns"), "closed": ("boolean", "", "`--closed`"),
                        "method": ("string", "", "how the answer was found"), "rotations": ("integer", "Warnsdorff", "rotations the walk needed"),
                        "tasks": ("integer", "parallel counts", "subtrees searched"), "undirected": ("count", "`--count`, open tours from every square", "tours counted once per path"),
                        "directed_from_a_square": ("count", "`--count --closed`", "directed closed tours from a given square"),
                        "counted": ("string", "`--count`", "what `count` counts"), "frontier": ("integer", "frontier dp", "the widest frontier"),
                        "widest_step": ("integer", "frontier dp", "states in the widest step"),
                        "parts": ("integer", "split count", "parts the widest layer was split into"),
                        "largest_part": ("integer", "split count", "states in the largest part"),
                        "resumed_at_square": ("integer", "split count with `--checkpoint`, resumed", "the square the count resumed after")},
        "knight-swap": {"length_parity": ("string", "", "`even` or `odd`: the parity every solution's length has")},
        "coloring": {"colors": ("integer", "`--colors K`", "K"), "clique": ("array<string>", "", "a clique found (a lower bound)"),
                     "clique_exact": ("boolean", "", "the clique is a largest one"), "steps": ("array<color_step>", "", "each K tried"),
                     "proof": ("string", "`--colors K`, no K-colouring", "what proves it: `clique`, `dsatur` or `cadical`"),
                     "lower_bound": ("integer", "a colouring found", "a lower bound on the chromatic number"),
                     "lower_bound_by": ("string", "a colouring found", "what gave it"),
                     "upper_bound": ("integer", "without `--colors`", "an upper bound"), "upper_bound_by": ("string", "without `--colors`", "what gave it"),
                     "found_by": ("string", "`--colors K`, found", "the method that found the colouring"),
                     "chromatic_number": ("integer|null", "without `--colors`", "null when not proved within the limits"),
                     "vertices": ("integer", "a colouring found", "vertices"), "edges": ("integer", "a colouring found", "edges"),
                     "self_loops_ignored": ("integer", "a colouring found, the file has loops", "loops left out"),
                     "count_colors": ("integer", "`--count` or `--all`, a colouring found", "the K counted"),
                     "count_first_fixed": ("count|null", "`--count` or `--all`", "colourings with the first vertex coloured 1 (= count / K)")},
        "square-sum": {"ring": ("boolean", "", "`--ring`"), "n": ("integer", "", "N"), "smallest": ("boolean", "N not given", "true: N is the least"),
                       "none_for": ("array<integer>", "N not given", "the smaller N refuted")},
        "blocks": {"metric": ("string", "", "`step`, `line` or `path`"), "distinct": ("boolean", "", "`--distinct`")},
        "perm": {"metric": ("string", "", "`htm` or `qtm`"), "pattern_databases": ("array<string>", "IDA*, two-phase, subgoal", "the tables used"),
                 "tables_read": ("integer", "IDA* over tables of the table cache", "bytes of those tables read from disk for this solve (0: all were kept loaded from an earlier solve of the same process: `--batch`, `serve`, Python)"),
                 "facelets": ("string", "the puzzle's net reads facelets", "the start sticker by sticker (`--facelets`)"),
                 "phases": ("array<integer>", "`--algorithm two-phase`", "the moves into the subgroup, then within it (their sum is `length`)"),
                 "prune_depth": ("integer", "IDA* for one solution", "redundant move strings skipped up to this length (`--prune-depth`)")},
    },
    "explore": {
        "sliding": {},
        "rotating-slide": {},
        "peg": {"symmetries": ("integer", "", "symmetries fixing the start"), "states_symmetry_reduced": ("integer", "", "positions up to symmetry"),
                "histogram_symmetry_reduced": ("array<integer>", "", "the histogram up to symmetry"),
                "farthest_count_symmetry_reduced": ("integer", "", "farthest positions up to symmetry"),
                "can_finish": ("count", "", "positions from which one peg can be left"),
                "can_finish_symmetry_reduced": ("count", "", "the same up to symmetry"), "can_finish_histogram": ("array<integer>", "", "by depth"),
                "finish": ("integer", "`--finish H`", "H"), "can_finish_at": ("count", "`--finish H`", "positions that can finish in H"),
                "can_finish_at_symmetry_reduced": ("count", "`--finish H`", "the same up to symmetry"),
                "can_finish_at_histogram": ("array<integer>", "`--finish H`", "by depth")},
        "flip": {"method": ("string", "", "how"), "rank": ("integer", "", "rank"), "nullity": ("integer", "", "nullity"),
                 "rule": ("string", "", "the rule")},
        "knight-tour": {"unreachable": ("integer", "", "squares a knight cannot reach from the first")},
        "knight-swap": {"arrangements": ("integer", "", "arrangements of the pieces")},
        "coloring": {}, "square-sum": {},
        "blocks": {"metric": ("string", "", "the metric"), "distinct": ("boolean", "", "`--distinct`"),
                   "code_bits": ("integer", "", "bits a position takes")},
        "perm": {"farthest_moves": ("array<string>", "", "a move sequence reaching each farthest position"),
                 "metric": ("string", "", "`htm` or `qtm`"), "ranked_size": ("integer", "", "positions in the ranked space")},
    },
}
PLAIN = {
    "list": ({"puzzles": ("array<list_entry>", "", "every builtin, in the order of `tansaku list`")}, "tansaku list --json"),
    "random": ({"puzzle": ("string", "", "the puzzle as named"), "seed": ("integer", "", "`--seed`"),
                "positions": ("array<string>", "", "`--count` positions that can reach the goal, uniformly random; each pastes into `--start`")},
               "tansaku random PUZZLE --json"),
    "bench": ({"nodes": ("integer", "", "the total nodes: the signature"), "seconds": ("number", "", "the total time"),
               "nps": ("number", "", "nodes per second"), "threads": ("integer", "", "threads used"),
               "runs": ("array<bench_run>", "", "each run")}, "tansaku bench --json"),
    "solve_stopped": ({"puzzle": ("string", "", "the puzzle's name, resolved"), "complete": ("boolean", "", "false: a limit stopped the solve (exit 3)"),
                       "stopped": ("string", "", "what stopped it: `timeout`, `memory`, `cancelled` or `limit` (a solver's own bound)"),
                       "message": ("string", "", "the message stderr carries"),
                       "seconds": ("number", "", "the work's wall time until it stopped"),
                       "lower_bound": ("integer", "an optimal search proved one", "no solution is shorter: the bound IDA* was searching (every smaller one searched in full), the depth breadth-first search reached, a sliding puzzle's Manhattan distance before its search starts, a permutation puzzle's count of positions that differ from the goal divided by the most any one move changes (rounded up) before its membership test and tables"),
                       "hint": ("string", "where a table would make the solve faster", "how (`tansaku pdb build 24-puzzle`, `tansaku pdb build perm:NAME`)"),
                       "best_solution": ("best_solution", "a quick solver found one in the time kept for it", "the best solution found so far (below)")},
                      "tansaku solve PUZZLE --json (exit 3)"),
    "pdb_list": ({"dir": ("string", "", "the table directory"),
                  "tables": ("array<object>", "", "one per table file found, as its family records it (`file`, `puzzle`, sizes ...)"),
                  "unreadable": ("array<pdb_unreadable>", "a table file does not read",
                                 "the table files that do not read (damaged, of an earlier layout)")},
                 "tansaku pdb list --json"),
    "pdb_verify": ({"dir": ("string", "", "the table directory"),
                    "tables": ("array<pdb_check>", "", "one per table file checked, in the order `pdb list` shows them"),
                    "checked": ("integer", "", "table files checked"),
                    "damaged": ("integer", "", "of them, those that failed (exit 1 when any did)")},
                   "tansaku pdb verify --json"),
    "pdb_remove": ({"dir": ("string", "", "the table directory"),
                    "removed": ("array<pdb_removed>", "", "one per table file removed"),
                    "bytes": ("integer", "", "the bytes they held")},
                   "tansaku pdb remove --json"),
}
NONNEG = {"integer"}


def type_schema(t):
    if "|" in t:
        return {"anyOf": [type_schema(x) for x in t.split("|")]}
    if t == "count":
        return {"$ref": "#/$defs/count"}
    if t == "integer":
        return {"type": "integer", "minimum": 0}
    if t == "signed":
        return {"type": "integer"}
    if t in ("number", "string", "boolean", "null", "object"):
        return {"type": t}
    if t == "array":
        return {"type": "array"}
    m = re.fullmatch(r"array<(.+)>", t)
    if m:
        return {"type": "array", "items": type_schema(m.group(1))}
    m = re.fullmatch(r"map<(.+)>", t)
    if m:
        return {"type": "object", "additionalProperties": type_schema(m.group(1))}
    if t in SHAPES:
        return {"$ref": f"#/$defs/{t}"}
    raise ValueError(t)


def props(keys):
    return {k: dict(type_schema(t), description=d) for k, (t, _, d) in keys.items()}


def shapes_used(obj, out):
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == "$ref" and v.startswith("#/$defs/") and v[8:] in SHAPES and v[8:] not in out:
                out.add(v[8:])
                shapes_used(props(SHAPES[v[8:]]), out)
            else:
                shapes_used(v, out)
    elif isinstance(obj, list):
        for v in obj:
            shapes_used(v, out)
    return out


def defs_for(schema):
    defs = {"count": {"description": "a count: a number when it fits 64 bits unsigned, else a decimal string",
                      "anyOf": [{"type": "integer", "minimum": 0}, {"type": "string", "pattern": "^[0-9]+$"}]}}
    for name in sorted(shapes_used(schema, set())):
        defs[name] = {"type": "object", "properties": props(SHAPES[name]), "required": list(SHAPES[name]),
                      "additionalProperties": False}
    return defs


def command_schema(cmd):
    common = COMMON[cmd]
    s = {"$schema": DRAFT, "$id": f"https://tansaku.example/schema/{cmd}.json", "title": f"tansaku {cmd} --json",
         "description": f"What `tansaku {cmd} PUZZLE --json` prints (docs/cli.md). Keys a family adds are allowed only for that family.",
         "type": "object", "properties": props(common), "required": [k for k, (_, w, _) in common.items() if not w]}
    branches = []
    for fam, pattern in FAMILIES.items():
        keys = EXTRAS[cmd].get(fam)
        if keys is None:
            continue
        then = {"properties": props(keys)}
        req = [k for k, (_, w, _) in keys.items() if not w]
        if req:
            then["required"] = req
        branches.append({"if": {"properties": {"puzzle": {"pattern": pattern}}, "required": ["puzzle"]}, "then": then})
    s["allOf"] = branches
    s["unevaluatedProperties"] = False
    s["$defs"] = defs_for(s)
    return s


def plain_schema(name):
    keys, cmd = PLAIN[name]
    s = {"$schema": DRAFT, "$id": f"https://tansaku.example/schema/{name}.json", "title": f"{cmd}",
         "description": f"What `{cmd}` prints (docs/cli.md).", "type": "object", "properties": props(keys),
         "required": [k for k, (_, w, _) in keys.items() if not w], "additionalProperties": False}
    s["$defs"] = defs_for(s)
    return s


def readable(t):
    """A type as the tables print it: array<integer> -> array of integers."""
    if "|" in t:
        return " or ".join(readable(x) for x in t.split("|"))
    m = re.fullmatch(r"array<(.+)>", t)
    if m:
        inner = readable(m.group(1))
        return "array of " + (inner if inner.startswith("array") else inner + "s")
    m = re.fullmatch(r"map<(.+)>", t)
    if m:
        return "object: name → " + readable(m.group(1))
    if t == "signed":
        return "integer (may be negative)"
    if t in SHAPES:
        return f"`{t}` object"
    return t


def table(keys, when=True):
    rows = ["| key | type | when | meaning |" if when else "| key | type | meaning |", "|---|---|---|---|" if when else "|---|---|---|"]
    for k, (t, w, d) in keys.items():
        t = readable(t)
        rows.append(f"| `{k}` | {t} | {w or 'always'} | {d} |" if when else f"| `{k}` | {t} | {d} |")
    return "\n".join(rows)


def family_tables(cmd):
    out = []
    for fam in FAMILIES:
        keys = EXTRAS[cmd].get(fam)
        if keys is None:
            continue
        out.append(f"**{fam}**" + (": none." if not keys else "\n\n" + table(keys)))
    return "\n\n".join(out)


def main():
    for cmd in ("show", "solve", "explore"):
        write(f"{cmd}.json", command_schema(cmd))
    for name in PLAIN:
        write(f"{name}.json", plain_schema(name))
    blocks = {f"{cmd}-common": table(COMMON[cmd]) for cmd in ("solve", "explore")}
    blocks.update({f"{cmd}-families": family_tables(cmd) for cmd in ("show", "solve", "explore")})
    blocks.update({name: table(PLAIN[name][0], when=any(w for _, w, _ in PLAIN[name][0].values())) for name in PLAIN})
    blocks["shapes"] = "\n\n".join(f"**{n}**\n\n" + table(k, when=False) for n, k in SHAPES.items())
    path = os.path.join(ROOT, "docs", "cli.md")
    text = open(path, encoding="utf-8").read()
    for name, body in blocks.items():
        pat = re.compile(rf"(<!-- keys:{re.escape(name)} -->\n)(?:(?!<!-- keys:).)*?(<!-- /keys -->)", re.S)
        if not pat.search(text):
            raise SystemExit(f"docs/cli.md has no <!-- keys:{name} --> block")
        text = pat.sub(lambda m: m.group(1) + body + "\n" + m.group(2), text, count=1)
    open(path, "w", encoding="utf-8").write(text)


def write(name, schema):
    with open(os.path.join(ROOT, "docs", "schema", name), "w", encoding="utf-8") as f:
        json.dump(schema, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
