"""tansaku from Python: the CLI's subcommands as calls (docs/python.md).

    import tansaku
    name = tansaku.puzzles()[0]["name"]
    r = tansaku.solve(name)                # as `tansaku solve NAME --json`
    r.length, r.moves, r.to_dict()         # the JSON's keys as attributes
    r                                      # in Jupyter: the solution player (--html)

Options are keyword arguments named as the CLI's (dashes become underscores), plus the
limits timeout, memory, threads, algorithm, and progress=callable(line). Bad input raises
InputError (the CLI's exit 2), a limit LimitError (exit 3), both with the CLI's one-line
message; an unsolvable start is a result (r.solvable is False, r.reason says why).
"""
# The package around the compiled part (_tansaku, python/module.cpp): the calls' Python
# signatures, the Result object, and the dispatch between registry puzzles (a name) and
# puzzles written in Python (an object with start, is_goal(s), moves(s)).
from . import _tansaku
from ._tansaku import Error, InputError, LimitError

__all__ = ["puzzles", "show", "solve", "explore", "random", "distances", "table",
           "Result", "Table", "Error", "InputError", "LimitError"]

Table = _tansaku._Table


class Result:
    """One report: its JSON keys as attributes and items; draws itself in Jupyter."""

    __slots__ = ("_data", "_run")

    def __init__(self, data, run=None):
        object.__setattr__(self, "_data", data)
        object.__setattr__(self, "_run", run)

    def __getattr__(self, key):
        if key.startswith("_"):  # unset slots, copy and pickle protocols: not report keys
            raise AttributeError(key)
        try:
            return self._data[key]
        except KeyError:
            raise AttributeError(f"this result has no key '{key}' (keys: {', '.join(self._data)})") from None

    def __setattr__(self, key, value):
        raise AttributeError("a result is read-only")

    def __copy__(self):
        return self  # read-only

    def __deepcopy__(self, memo):
        import copy
        return Result(copy.deepcopy(self._data, memo), self._run)

    def __reduce__(self):  # pickled: the report (the pictures stay with this process)
        return (Result, (self._data,))

    def __getitem__(self, key):
        return self._data[key]

    def __contains__(self, key):
        return key in self._data

    def __iter__(self):
        return iter(self._data)

    def keys(self):
        return self._data.keys()

    def to_dict(self):
        """The report as the CLI's --json prints it (a copy)."""
        import copy
        return copy.deepcopy(self._data)

    def __repr__(self):
        shown = {k: v for k, v in self._data.items() if k in ("puzzle", "solvable", "length", "states", "depth")}
        return f"Result({shown})"

    @property
    def table(self):
        """explore(..., table=True): the depth of every state as a Table (else None)."""
        return self._run.table() if self._run is not None and self._run.has_table() else None

    def svg(self):
        """What --svg writes: the last frame of a solution, the board of show ('' if none)."""
        return self._run.svg() if self._run is not None else ""

    def html(self):
        """What --html writes: the solution player, the show page, the explore chart."""
        return self._run.html() if self._run is not None else ""

    def _repr_svg_(self):
        return self.svg() or None

    def _repr_html_(self):
        return self.html() or None


def _is_name(puzzle):
    return isinstance(puzzle, str)


def puzzles():
    """Every builtin puzzle, as `tansaku list --json`: [{"name", "family", "summary"}, ...]."""
    return _tansaku._list()["puzzles"]


def show(puzzle, **options):
    """`tansaku show PUZZLE --json` as a Result."""
    return _tansaku._show(puzzle, **options)


def solve(puzzle, **options):
    """`tansaku solve PUZZLE --json` as a Result; puzzle may be a Python puzzle object."""
    if _is_name(puzzle):
        return _tansaku._solve(puzzle, **options)
    return _tansaku._solve_python(puzzle, **options)


def explore(puzzle, table=False, **options):
    """`tansaku explore PUZZLE --json` as a Result; table=True adds r.table (a Table)."""
    if _is_name(puzzle):
        return _tansaku._explore(puzzle, table, **options)
    if table:
        raise InputError("table=True needs a registry puzzle (a Python puzzle has no ranking)")
    return _tansaku._explore_python(puzzle, **options)


def random(puzzle, seed=1, count=1, **options):
    """`tansaku random PUZZLE --seed S --count K --json`: {"puzzle", "seed", "positions"}."""
    return _tansaku._random(puzzle, seed, count, **options)


def table(puzzle, **options):
    """The depth of every state of explore's space, as a Table (depth: a NumPy uint8 array
    by rank, 255 = not reached; rank(state), unrank(i), histogram, source)."""
    return _tansaku._table(puzzle, **options)


def distances(puzzle, states, **options):
    """Optimal distances of many start states to the goal, as a NumPy int32 array (-1: no
    solution); from the depth table when the family offers one, else a solve per state."""
    return _tansaku._distances(puzzle, states, **options)
