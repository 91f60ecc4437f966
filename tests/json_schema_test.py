"""The program's --json output against the published JSON Schema (docs/schema/, described in
docs/cli.md), for every family: `list`, then `show` on every builtin, `solve` and `random`
where they answer quickly, `explore` on small spaces, `bench` and `pdb list`. A key missing,
mistyped or not documented in the schema fails the test. Also: no words or paths of our own
workflow in what users read (the program's list and help, the README and docs/).
Run by ctest (JsonSchema) with TANSAKU_BIN and TANSAKU_SOURCE_DIR set; pytest, Debian's
python3-jsonschema."""
import copy
import json
import os
import re
import subprocess

import jsonschema
import pytest

BIN = os.environ["TANSAKU_BIN"]
SRC = os.environ["TANSAKU_SOURCE_DIR"]
SCHEMA_DIR = os.path.join(SRC, "docs", "schema")
# Workflow words that must not reach users (README, docs, the program's list and help).
FORBIDDEN = re.compile(r"seed 0|\.\./shared|/work/shared|engineer", re.IGNORECASE)


def schema(name):
    with open(os.path.join(SCHEMA_DIR, name + ".json"), encoding="utf-8") as f:
        s = json.load(f)
    jsonschema.validators.validator_for(s).check_schema(s)
    return s


SCHEMAS = {n: schema(n) for n in ("list", "show", "solve", "explore", "random", "bench", "pdb_list", "pdb_verify", "pdb_remove",
                                    "solve_stopped")}


def validate(kind, obj):
    cls = jsonschema.validators.validator_for(SCHEMAS[kind])
    errors = sorted(cls(SCHEMAS[kind]).iter_errors(obj), key=lambda e: list(e.path))
    assert not errors, f"{kind}: " + "; ".join(f"{list(e.path)}: {e.message}" for e in errors[:5])


# Pattern databases are built in memory or read from an empty directory: never the user's cache.
ENV = dict(os.environ, TANSAKU_PDB_DIR=os.path.join(os.environ.get("TMPDIR", "/tmp"), f"tansaku-schema-{os.getpid()}"))


def run(*args, ok=(0,), cwd=None, timeout=300):
    p = subprocess.run([BIN, *args], capture_output=True, text=True, timeout=timeout, cwd=cwd, env=ENV)
    assert p.returncode in ok, f"tansaku {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}"
    return p


def run_json(*args, ok=(0,), cwd=None):
    p = run(*args, "--json", "--quiet", ok=ok, cwd=cwd)
    return json.loads(p.stdout), p.returncode


LIST = json.loads(run("list", "--json").stdout)
FAMILIES = sorted({p["family"] for p in LIST["puzzles"]})
# Builtins that are one puzzle (not a pattern such as sliding:RxC or peg:FILE).
CONCRETE = [p["name"] for p in LIST["puzzles"] if not re.search(r"[A-Z]", p["name"])]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Puzzles written the way a user writes them: a peg board, a graph, a block puzzle."""
    d = tmp_path_factory.mktemp("puzzles")
    (d / "plus.txt").write_text("lattice: square\n  o\no o o\n  .\n  o\n")
    (d / "g.col").write_text("c a square with one diagonal\np edge 4 5\ne 1 2\ne 2 3\ne 3 4\ne 4 1\ne 1 3\n")
    (d / "two.txt").write_text("start:\nAB.\n..C\ngoal:\n..A\nB.C\n")
    return d


# Instances standing for the pattern builtins, and quick cases of each family's options.
EXTRA = ["sliding:2x3", "flip:3x3", "knight-tour:5x5", "knight-swap:3x4", "peg:triangle4"]
# (args) solved with --json: each must answer (exit 0 or 1) in about a second.
SOLVES = [
    ["8-puzzle"], ["8-puzzle", "--algorithm", "bfs"], ["8-puzzle", "--algorithm", "idastar"], ["11-puzzle"],
    ["sliding:2x3", "--start", "4 1 2 5 3 0", "--all"], ["sliding:2x3", "--start", "4 1 2 5 3 0", "--count"],
    ["sliding:3x3", "--start", "1 1 2 2 3 3 4 4 0", "--goal", "4 4 3 3 2 2 1 1 0"],
    ["15-puzzle", "--start", "1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0"],  # parity: exit 1
    ["rotating-slide"], ["rotating-slide", "--start", "1 2 3 4 5 6 7 9 8"],
    ["peg:triangle5"], ["peg:triangle5", "--finish", "12"], ["peg:triangle5", "--empty", "0", "--count"],
    ["peg:trytry"], ["peg:french"],  # exit 1: position classes
    ["peg:english", "--start", "000000000000011111111110111111111", "--finish", "1"],  # pagoda proof
    ["peg:triangle5", "--metric", "jumps"],
    ["flip:4x4"], ["flip:4x4", "--all"], ["flip:4x4", "--count"], ["flip:5x5"], ["flip:5x5", "--rule", "lights-out"],
    ["flip:3x3", "--algorithm", "bfs"], ["flip:6x6", "--rule", "lights-out", "--torus"],
    ["knight-tour:3x4"], ["knight-tour:4x3", "--all"], ["knight-tour:5x5", "--count"],
    ["knight-tour:5x5", "--closed"], ["knight-tour:50x50"], ["knight-tour:6x6", "--count", "--closed", "--algorithm", "dp"],
    ["knight-swap:4x3"], ["knight-swap:4x3", "--count"], ["knight-swap:guarini", "--count"],
    ["knight-swap:4x3", "--algorithm", "idastar"],
    ["coloring:map12"], ["coloring:map12", "--colors", "3"], ["coloring:map12", "--colors", "4", "--count"],
    ["coloring:map12", "--colors", "4", "--all"], ["coloring:myciel4"], ["coloring:queen5_5"],
    ["square-sum"], ["square-sum", "--ring"], ["square-sum", "--n", "23", "--all"], ["square-sum", "--n", "17"],
    ["square-sum", "--n", "25", "--count"], ["square-sum", "--n", "300"],
    ["blocks:klotski"], ["blocks:pennant", "--metric", "line"], ["blocks:ma", "--count"],
    ["perm:2x2x2", "--scramble", "R U2 F'", "--moves", "U,F,R"], ["perm:pyraminx", "--scramble", "L R U"],
    ["perm:skewb", "--scramble", "ULB UBR"], ["perm:rotating-slide"], ["perm:topspin", "--scramble", "R T R"],
]
EXPLORES = [
    ["8-puzzle", "--farthest", "3"], ["sliding:2x3"], ["rotating-slide"], ["sliding:3x3", "--from", "1 1 1 2 2 2 3 3 0"],
    ["peg:triangle5"], ["peg:trytry", "--finish", "11"],
    ["flip:4x4"], ["flip:3x3", "--algorithm", "bfs"],
    ["knight-tour:5x5"], ["knight-swap:4x3"], ["knight-swap:guarini"],
    ["blocks:klotski"], ["blocks:pennant", "--distinct"],
    ["perm:2x2x2", "--moves", "U,F,R"], ["perm:pyraminx"], ["perm:rotating-slide"],
]


def test_list():
    validate("list", LIST)
    assert len(FAMILIES) >= 9 and len(CONCRETE) >= 20


@pytest.mark.parametrize("name", CONCRETE + EXTRA)
def test_show_every_builtin(name):
    out, _ = run_json("show", name)
    validate("show", out)


def test_show_files(files):
    for name in ("peg:plus.txt", "coloring:g.col", "blocks:two.txt"):
        out, _ = run_json("show", name, cwd=files)
        validate("show", out)


@pytest.mark.parametrize("args", [["square-sum", "--n", "20"], ["square-sum", "--ring", "--n", "70"], ["knight-tour:3x3"],
                                  ["knight-tour:4x4", "--closed"], ["8-puzzle", "--start", "2 1 3 4 5 6 7 8 0"],
                                  ["flip:20x20", "--rule", "lights-out"], ["peg:english", "--empty", "5"], ["blocks:klotski", "--distinct"],
                                  ["perm:2x2x2", "--moves", "U,F,R", "--metric", "qtm"]], ids=" ".join)
def test_show_options(args):
    out, _ = run_json("show", *args)
    validate("show", out)


def test_batch(tmp_path):
    """solve --batch: JSON Lines, one object an instance, then the summary: each a solve report."""
    f = tmp_path / "b.txt"
    f.write_text("1 2 3 4 5 6 7 0 8\n8 6 7 2 5 4 3 0 1\n2 1 3 4 5 6 7 8 0\n")
    p = run("solve", "8-puzzle", "--batch", str(f), "--json", "--quiet", ok=(1,))
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    assert len(lines) == 4 and lines[-1]["summary"] is True and lines[-1]["instances"] == 3
    for j in lines:
        validate("solve", j)


@pytest.mark.parametrize("args", SOLVES, ids=" ".join)
def test_solve(args):
    out, code = run_json("solve", *args, ok=(0, 1))
    validate("solve", out)
    assert out["solvable"] == (code == 0)


def test_solve_files(files):
    for args in (["peg:plus.txt"], ["coloring:g.col"], ["blocks:two.txt"]):
        out, _ = run_json("solve", *args, ok=(0, 1), cwd=files)
        validate("solve", out)


@pytest.mark.parametrize("args", EXPLORES, ids=" ".join)
def test_explore(args):
    out, _ = run_json("explore", *args)
    validate("explore", out)
    assert sum(out["histogram"]) == out["states"]


@pytest.mark.parametrize("family", FAMILIES)
def test_random_every_family(family):
    names = [n for n in CONCRETE + EXTRA if n.split(":")[0] == family or n == family]
    assert names, family
    p = run("random", names[0], "--count", "3", "--json", ok=(0, 2))
    if p.returncode == 2:  # a family without random starts says so, in one line
        assert p.stdout == "" and "random" in p.stderr
        return
    out = json.loads(p.stdout)
    validate("random", out)


def test_every_family_is_covered():
    """Every family listed has a show, a solve and (where it explores) an explore above."""
    solved = {a[0].split(":")[0] for a in SOLVES}
    shown = {n.split(":")[0] for n in CONCRETE + EXTRA}
    fam_of = {p["name"].split(":")[0]: p["family"] for p in LIST["puzzles"]}
    aliases = {"8-puzzle": "sliding", "15-puzzle": "sliding"}
    for f in FAMILIES:
        assert f in {fam_of.get(s, aliases.get(s, s)) for s in shown}, f
        assert f in {fam_of.get(s, aliases.get(s, s)) for s in solved}, f


def test_bench_and_pdb_list(tmp_path):
    validate("bench", run_json("bench")[0])
    validate("pdb_list", run_json("pdb", "list", "--dir", str(tmp_path))[0])
    validate("pdb_verify", run_json("pdb", "verify", "--dir", str(tmp_path))[0])
    validate("pdb_remove", run_json("pdb", "remove", "--all", "--dir", str(tmp_path))[0])
    # A table file that does not read (here of an earlier layout) is listed apart.
    (tmp_path / "perm-x-0000000000000000-CORNERS-1.ptab").write_bytes(b"TSKPERMPDB1\n{}\n")
    listed = run_json("pdb", "list", "--dir", str(tmp_path))[0]
    validate("pdb_list", listed)
    assert len(listed["unreadable"]) == 1 and "earlier version" in listed["unreadable"][0]["error"], listed


def test_memory_refusal_names_spill(tmp_path):
    p = run("explore", "sliding:3x4", "--memory", "20M", ok=(2,))
    assert p.stdout == "" and len(p.stderr.splitlines()) == 1 and "--spill" in p.stderr, p.stderr
    # Given --spill, the refusal (if any) does not suggest it again; a family without it is not told of it.
    p = run("explore", "flip:5x5", "--algorithm", "bfs", "--memory", "1K", ok=(2,))
    assert "--memory" in p.stderr and "--spill" not in p.stderr, p.stderr
    p = run("explore", "sliding:3x4", "--memory", "20K", "--spill", str(tmp_path), ok=(2,))
    assert "--spill DIR keeps" not in p.stderr, p.stderr


def test_solve_stopped_and_nonoptimal():
    """A solve --timeout stopped prints what it proved (exit 3); the non-optimal solvers' keys."""
    reversed24 = " ".join(str(i) for i in range(24, -1, -1))
    p = run("solve", "24-puzzle", "--start", reversed24, "--algorithm", "idastar", "--timeout", "0.3", "--json", "--quiet", ok=(3,))
    out = json.loads(p.stdout)
    validate("solve_stopped", out)
    assert out["complete"] is False and out["stopped"] == "timeout" and out["lower_bound"] >= 100
    for args in (["8-puzzle", "--weight", "1.5"], ["8-puzzle", "--algorithm", "greedy"], ["peg:triangle5", "--weight", "2"],
                 ["knight-swap", "--algorithm", "beam"], ["cube", "--scramble", "R U F", "--algorithm", "two-phase"]):
        out, _ = run_json("solve", *args)
        validate("solve", out)
        assert out["optimal"] is False


def test_schema_has_teeth():
    """A report with a key missing, mistyped or unknown fails validation."""
    good, _ = run_json("solve", "8-puzzle")
    validate("solve", good)
    for change in (lambda j: j.pop("length"), lambda j: j.update(nodes="many"), lambda j: j.update(optimal=1),
                   lambda j: j.update(moves="1 2 3"), lambda j: j.update(not_a_key=True),
                   lambda j: j.update(count=-1)):
        bad = copy.deepcopy(good)
        change(bad)
        with pytest.raises(AssertionError):
            validate("solve", bad)
    ex, _ = run_json("explore", "8-puzzle")
    for change in (lambda j: j.pop("histogram"), lambda j: j.update(states=1.5), lambda j: j.update(farthest=[1])):
        bad = copy.deepcopy(ex)
        change(bad)
        with pytest.raises(AssertionError):
            validate("explore", bad)
    bad = copy.deepcopy(LIST)
    bad["puzzles"][0].pop("summary")
    with pytest.raises(AssertionError):
        validate("list", bad)


def help_texts():
    yield "list", run("list").stdout
    yield "--help", run("--help").stdout
    yield "--help-all", run("--help-all").stdout
    yield "help", run("help").stdout
    for p in LIST["puzzles"]:
        name = p["name"] if p["name"] in CONCRETE else p["family"]
        yield "help " + name, run("help", name).stdout
    for sub in ("show", "solve", "explore", "random", "bench", "serve", "pdb", "pdb build", "pdb list",
                "pdb verify", "pdb remove"):
        yield sub + " --help", run(*sub.split(), "--help").stdout


def test_no_workflow_words_in_help():
    for what, text in help_texts():
        m = FORBIDDEN.search(text)
        assert not m, f"tansaku {what}: '{m.group(0)}' in: ...{text[max(0, m.start() - 60):m.end() + 60]}..."


def test_every_subcommand_is_described():
    text = run("--help").stdout
    block = text[text.index("Subcommands:"):]
    for line in block.splitlines()[1:]:
        if line.strip():
            assert len(line.split(None, 1)) == 2, f"no description: {line!r}"


def test_no_workflow_words_in_docs():
    paths = [os.path.join(SRC, "README.md"), os.path.join(SRC, "CHANGELOG.md")]
    for root, _, names in os.walk(os.path.join(SRC, "docs")):
        paths += [os.path.join(root, n) for n in names if n.endswith((".md", ".json", ".h2m"))]
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for i, line in enumerate(f, 1):
                m = FORBIDDEN.search(line)
                assert not m, f"{os.path.relpath(path, SRC)}:{i}: '{m.group(0)}'"
