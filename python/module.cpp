// The Python module `tansaku._tansaku` (docs/python.md): the CLI's show / solve / explore /
// random as calls, over the same request layer (cli/request.h: keyword arguments checked
// against the family's declaration into Options) and output layer (cli/output.h: the JSON the
// CLI prints), walking the registry only. A search runs without the GIL; Ctrl-C sets its
// cancel flag (core/deadline.h) and is raised once it has stopped; progress lines go to a
// Python callback. Puzzles written in Python run through the engine's BFS / IDA*
// (search/bfs.h, ida_star.h) over an adapter that calls back into Python.
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "cli/output.h"
#include "cli/pictures.h"
#include "cli/request.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/suggest.h"
#include "tansaku/puzzles/registry.h"
#include "tansaku/search/best_first.h"
#include "tansaku/search/bfs.h"
#include "tansaku/search/ida_star.h"

namespace py = pybind11;
using namespace tansaku;

namespace {

constexpr std::size_t kMessageBytes = 4000;  // as the CLI's messages
PyObject* g_error = nullptr;                 // tansaku.Error and its two kinds
PyObject* g_input_error = nullptr;
PyObject* g_limit_error = nullptr;

// ---------------------------------------------------------------------------------------
// JSON (cli/output.h) to Python objects, keys in the CLI's order.
py::object to_py(const json& j) {
  switch (j.type()) {
    case json::value_t::null: return py::none();
    case json::value_t::boolean: return py::bool_(j.get<bool>());
    case json::value_t::number_integer: return py::int_(j.get<std::int64_t>());
    case json::value_t::number_unsigned: return py::int_(j.get<std::uint64_t>());
    case json::value_t::number_float: return py::float_(j.get<double>());
    case json::value_t::string: return py::str(j.get_ref<const std::string&>());
    case json::value_t::array: {
      py::list l(j.size());
      for (std::size_t i = 0; i < j.size(); ++i) l[i] = to_py(j[i]);
      return l;
    }
    case json::value_t::object: {
      py::dict d;
      for (const auto& [k, v] : j.items()) d[py::str(k)] = to_py(v);
      return d;
    }
    default: return py::none();
  }
}

// ---------------------------------------------------------------------------------------
// Keyword arguments -> the request layer's Raw values, as serve's API does with a JSON body.
const std::map<std::string, OptionSpec::Type>& option_types() {
  static const std::map<std::string, OptionSpec::Type> types = [] {
    std::map<std::string, OptionSpec::Type> t;
    for (const auto& n : kUniversal) t[n] = OptionSpec::Type::Text;
    t["quiet"] = OptionSpec::Type::Flag;
    t.erase("json"), t.erase("svg"), t.erase("html");  // the result is the JSON and draws itself
    for (const auto& s : declared_options()) t.emplace(s.name, s.type);
    return t;
  }();
  return types;
}

std::string dashed(std::string k) {
  for (auto& c : k)
    if (c == '_') c = '-';
  return k;
}

// Fills raw / given from kwargs, leaving out the keys the call itself takes (`own`).
void raw_of(const py::kwargs& kw, const std::set<std::string>& own, Raw& raw, std::set<std::string>& given) {
  const auto& types = option_types();
  for (const auto& [key, value] : kw) {
    const std::string k = py::str(key);
    if (own.count(k)) continue;
    const std::string name = dashed(k);
    if (name == "svg" || name == "html" || name == "json")
      throw InputError(fmt::format("option '{}' is not a keyword here: a result is its JSON (to_dict()) and draws itself (svg(), html())", k));
    auto it = types.find(name);
    if (it == types.end()) {
      std::vector<std::string> known;
      for (const auto& [n, t] : types) {
        std::string u = n;
        for (auto& c : u)
          if (c == '-') c = '_';
        known.push_back(u);
      }
      throw InputError(fmt::format("unknown option '{}'{}", printable(k, 200), did_you_mean(k, known)));
    }
    if (value.is_none()) continue;
    if (it->second == OptionSpec::Type::Flag) {
      if (!py::isinstance<py::bool_>(value)) throw InputError(fmt::format("option '{}' is a flag: give True or False", k));
      if (!value.cast<bool>()) continue;
      raw.flags[name] = true;
    } else if (py::isinstance<py::bool_>(value)) {
      throw InputError(fmt::format("option '{}': give a string or a number, not a bool", k));
    } else if (py::isinstance<py::str>(value) || py::isinstance<py::int_>(value) || py::isinstance<py::float_>(value)) {
      raw.text[name] = py::str(value);
    } else {
      throw InputError(fmt::format("option '{}': give a string or a number", k));
    }
    given.insert(name);
  }
}

// ---------------------------------------------------------------------------------------
// A search runs on the calling thread with the GIL released (other Python threads run
// meanwhile). Ctrl-C: on the main thread, while the search runs, SIGINT's handler is ours: it
// sets the search's cancel flag (core/deadline.h), and once the search has stopped Python's
// own handler is given the signal (a KeyboardInterrupt, or what the program installed). A
// handover to a worker thread polling PyErr_CheckSignals would cost a thread switch per call.
std::atomic<std::atomic<bool>*> g_sigint_cancel{nullptr};  // the main thread's running search
std::atomic<bool> g_sigint_seen{false};
unsigned long g_main_thread = 0;  // PyThread_get_thread_ident() of the main thread

extern "C" void on_sigint(int) {
  g_sigint_seen.store(true);
  if (std::atomic<bool>* c = g_sigint_cancel.load()) c->store(true);
}

void main_thread_after_fork() { g_main_thread = PyThread_get_thread_ident(); }

// Progress lines to a Python callable, from whichever thread reports (GIL taken per line); a
// callback that raises cancels the search and its exception is raised instead of the result.
struct ProgressToPython final : ProgressSink {
  const py::object& callback;
  std::atomic<bool>& cancel;
  std::optional<py::error_already_set>& raised;  // touched with the GIL held only
  ProgressToPython(const py::object& cb, std::atomic<bool>& c, std::optional<py::error_already_set>& r)
      : callback(cb), cancel(c), raised(r) {}
  void line(const std::string& text) override {
    py::gil_scoped_acquire gil;
    if (raised) return;
    try {
      callback(text);
    } catch (py::error_already_set& e) {
      raised.emplace(std::move(e));
      cancel = true;
    }
  }
};

void run_outside_gil(const std::function<void()>& fn, std::atomic<bool>& cancel, const py::object& progress) {
  std::optional<py::error_already_set> raised;
  ProgressToPython sink(progress, cancel, raised);
  // Our SIGINT handler only in place of Python's own (not where the program ignores it).
  struct sigaction ours {}, old {};
  bool installed = false;
  std::atomic<bool>* outer = nullptr;
  if (PyThread_get_thread_ident() == g_main_thread && sigaction(SIGINT, nullptr, &old) == 0 &&
      !(old.sa_flags & SA_SIGINFO) && old.sa_handler != SIG_IGN && old.sa_handler != SIG_DFL) {
    ours.sa_handler = on_sigint;
    sigemptyset(&ours.sa_mask);
    ours.sa_flags = SA_RESTART;
    if (old.sa_handler != on_sigint) g_sigint_seen = false;
    installed = sigaction(SIGINT, &ours, nullptr) == 0;
    if (installed) outer = g_sigint_cancel.exchange(&cancel);
  }
  std::exception_ptr failure;
  {
    py::gil_scoped_release release;
    if (!progress.is_none()) set_thread_progress_sink(&sink);
    try {
      fn();
    } catch (...) {
      failure = std::current_exception();
    }
    set_thread_progress_sink(nullptr);
  }
  if (installed) {
    g_sigint_cancel = outer;
    sigaction(SIGINT, &old, nullptr);
    if (old.sa_handler != on_sigint && g_sigint_seen.exchange(false)) {
      PyErr_SetInterruptEx(SIGINT);  // Python's handler runs now: KeyboardInterrupt by default
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    }
  }
  if (raised) throw std::move(*raised);
  if (failure && cancel) {  // a limit met because of the cancel is the cancel (as serve says)
    try {
      std::rethrow_exception(failure);
    } catch (const LimitError&) {
      throw LimitError("cancelled");
    }
  }
  if (failure) std::rethrow_exception(failure);
}

// ---------------------------------------------------------------------------------------
// One request of a registry puzzle: its options, the puzzle and the report, kept by the
// Python result for its drawings.
struct Run {
  unsigned command = kSolve;
  Options o;
  std::shared_ptr<Puzzle> puzzle;
  ShowReport show;
  SolveReport solve;
  ExploreReport explore;
  std::shared_ptr<const DepthTable> table;

  std::string svg() const {
    if (command == kShow) return show_svg(*puzzle, o);
    if (command == kSolve) return solve_svg(*puzzle, o, solve);
    return {};
  }
  std::string html() const {
    if (command == kShow) return show_html(*puzzle, o, show);
    if (command == kSolve) return solve_html(*puzzle, o, solve);
    return explore_html(*puzzle, o, explore);
  }
};

struct Call {
  std::shared_ptr<Run> run = std::make_shared<Run>();
  std::atomic<bool> cancel{false};
  py::object progress = py::none();
};

// The request's Options, checked as the CLI checks them; progress=callable, quiet.
void prepare(Call& c, unsigned command, const std::string& puzzle, const py::kwargs& kw, const std::set<std::string>& own) {
  Raw raw;
  raw.puzzle = puzzle;
  std::set<std::string> given;
  raw_of(kw, own, raw, given);
  if (kw.contains("progress")) {
    c.progress = kw["progress"];
    if (!c.progress.is_none() && !PyCallable_Check(c.progress.ptr()))
      throw InputError("progress: give a callable taking one line of text, or None");
  }
  Run& r = *c.run;
  r.command = command;
  r.o = request_options(command, given, raw);
  if (!c.progress.is_none()) r.o.quiet = false;
  r.o.deadline.cancel_on(&c.cancel);
}

py::object result_class() { return py::module_::import("tansaku").attr("Result"); }

py::object show_call(const std::string& puzzle, const py::kwargs& kw) {
  Call c;
  prepare(c, kShow, puzzle, kw, {"progress"});
  Run& r = *c.run;
  run_outside_gil([&] {
    r.puzzle = make_puzzle(puzzle, r.o);
    r.show = r.puzzle->show(r.o);
  }, c.cancel, c.progress);
  return result_class()(to_py(r.show.info), c.run);
}

// A solve a limit stopped: LimitError with what was proved, as the CLI's JSON object says it
// (`report`: that object; `lower_bound` and `best_solution`: its keys, None when absent).
[[noreturn]] void raise_stopped(const SolveStopped& e) {
  py::object error = py::reinterpret_borrow<py::object>(g_limit_error)(printable(e.what(), kMessageBytes));
  py::object report = to_py(e.report);
  error.attr("report") = report;
  error.attr("lower_bound") = report.attr("get")("lower_bound");
  error.attr("best_solution") = report.attr("get")("best_solution");
  PyErr_SetObject(g_limit_error, error.ptr());
  throw py::error_already_set();
}

py::object solve_call(const std::string& puzzle, const py::kwargs& kw) {
  Call c;
  prepare(c, kSolve, puzzle, kw, {"progress"});
  Run& r = *c.run;
  try {
    run_outside_gil(
        [&] {
          r.puzzle = make_puzzle(puzzle, r.o);
          r.solve = run_solve(*r.puzzle, r.o);
        },
        c.cancel, c.progress);
  } catch (const SolveStopped& e) {
    raise_stopped(e);
  }
  return result_class()(to_py(solve_json(r.solve)), c.run);
}

py::object explore_call(const std::string& puzzle, bool table, const py::kwargs& kw) {
  Call c;
  prepare(c, kExplore, puzzle, kw, {"progress", "table"});
  Run& r = *c.run;
  run_outside_gil([&] {
    r.puzzle = make_puzzle(puzzle, r.o);
    r.explore = run_explore(*r.puzzle, r.o);
    if (table) {
      r.table = r.puzzle->depth_table(r.o);
      if (!r.table) throw InputError(fmt::format("{} offers no table of its states (table=True)", r.puzzle->name()));
    }
  }, c.cancel, c.progress);
  return result_class()(to_py(explore_json(r.explore)), c.run);
}

py::object random_call(const std::string& puzzle, const py::object& seed, const py::object& count, const py::kwargs& kw) {
  Raw raw;
  raw.puzzle = puzzle;
  std::set<std::string> given;
  raw_of(kw, {}, raw, given);
  auto text = [](const py::object& v, const char* name) {
    if (py::isinstance<py::bool_>(v) || !(py::isinstance<py::int_>(v) || py::isinstance<py::str>(v)))
      throw InputError(fmt::format("{}: give a whole number", name));
    return std::string(py::str(v));
  };
  const std::string s = text(seed, "seed"), n = text(count, "count");
  std::atomic<bool> cancel{false};
  RandomRun run;
  run_outside_gil([&] { run = run_random(given, raw, s, n); }, cancel, py::none());
  return to_py(random_json(run.puzzle, run.seed, run.positions));
}

// ---------------------------------------------------------------------------------------
// Depth tables (Puzzle::depth_table) as NumPy arrays, and distances of many states at once.
py::array_t<std::uint8_t> depth_array(const std::shared_ptr<const DepthTable>& t) {
  auto* keep = new std::shared_ptr<const DepthTable>(t);
  py::capsule owner(keep, [](void* p) { delete static_cast<std::shared_ptr<const DepthTable>*>(p); });
  auto a = py::array_t<std::uint8_t>({static_cast<py::ssize_t>(t->depth.size())}, {1}, t->depth.data(), owner);
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;  // shared: read-only
  return a;
}

std::vector<std::string> state_list(const py::iterable& states) {
  std::vector<std::string> out;
  for (auto s : states) {
    if (!py::isinstance<py::str>(s)) throw InputError("states: give each state as a string in the puzzle's notation");
    out.push_back(s.cast<std::string>());
  }
  return out;
}

// Tables kept for distances(): built once per puzzle and options.
std::mutex g_tables_m;
std::map<std::string, std::shared_ptr<const DepthTable>>* g_tables = new std::map<std::string, std::shared_ptr<const DepthTable>>;

py::array_t<std::int32_t> distances_call(const std::string& puzzle, const py::iterable& states_in, const py::kwargs& kw) {
  Call c;
  prepare(c, kSolve, puzzle, kw, {"progress"});
  Run& r = *c.run;
  if (r.o.has("start")) throw InputError("distances: the states are the starts: give no start");
  const std::vector<std::string> states = state_list(states_in);
  std::vector<std::int32_t> out(states.size(), -1);
  run_outside_gil([&] {
    r.puzzle = make_puzzle(puzzle, r.o);
    // The key: the puzzle and every option but the limits.
    std::string key = r.puzzle->name();
    for (const auto& [k, v] : r.o.values) key += "\n" + k + "=" + v;
    std::shared_ptr<const DepthTable> table;
    {
      std::lock_guard lk(g_tables_m);
      if (auto it = g_tables->find(key); it != g_tables->end()) table = it->second;
    }
    if (!table) {
      Options eo = r.o;
      eo.command = kExplore;
      if (r.o.goal) eo.from = r.o.goal;  // the table's source: the goal the distances go to
      try {
        table = r.puzzle->depth_table(eo);
      } catch (const InputError&) {  // the space does not fit (the memory budget): solve each
        table = nullptr;
      }
      if (table && table->symmetric) {
        std::lock_guard lk(g_tables_m);
        (*g_tables)[key] = table;
      }
    }
    tbb::task_arena arena(static_cast<int>(std::max(1u, r.o.threads)));
    if (table && table->symmetric) {
      std::atomic<bool> bad{false};
      std::string bad_message;
      std::mutex bad_m;
      arena.execute([&] {
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, states.size(), 4096), [&](const auto& range) {
          for (std::size_t i = range.begin(); i < range.end(); ++i) {
            try {
              const std::uint64_t k = table->rank(states[i]);
              if (k < table->depth.size() && table->depth[k] != 255) out[i] = table->depth[k];
            } catch (const InputError& e) {
              std::lock_guard lk(bad_m);
              if (!bad.exchange(true)) bad_message = fmt::format("states[{}]: {}", i, e.what());
            }
          }
        });
      });
      if (bad) throw InputError(bad_message);
      return;
    }
    // No table: a solve per state. A family that keeps its tables loaded across solves
    // (Puzzle::hold_tables) solves them one after another, each with every thread, so that
    // its tables are loaded once and held once within the memory budget; others one core
    // each. solve_one: the length of states[i] (left -1 without one) by a solve on `threads`.
    auto solve_one = [&](std::size_t i, unsigned threads) {
      Options so = r.o;
      so.threads = threads;
      so.quiet = true;
      so.start = states[i];
      so.values["start"] = states[i];
      so.given.insert("start");
      const SolveReport rep = make_puzzle(puzzle, so)->solve(so);
      if (rep.solvable && rep.length) out[i] = static_cast<std::int32_t>(*rep.length);
    };
    if (const std::shared_ptr<void> hold = r.puzzle->hold_tables()) {
      for (std::size_t i = 0; i < states.size(); ++i) {
        try {
          solve_one(i, r.o.threads);
        } catch (const InputError& e) {
          throw InputError(fmt::format("states[{}]: {}", i, e.what()));
        }
      }
      return;
    }
    std::exception_ptr failure;
    std::mutex fm;
    arena.execute([&] {
      tbb::parallel_for(std::size_t{0}, states.size(), [&](std::size_t i) {
        try {
          solve_one(i, 1);
        } catch (...) {
          std::lock_guard lk(fm);
          if (!failure) failure = std::current_exception();
        }
      });
    });
    if (failure) std::rethrow_exception(failure);
  }, c.cancel, c.progress);
  py::array_t<std::int32_t> a(static_cast<py::ssize_t>(out.size()));
  std::copy(out.begin(), out.end(), a.mutable_data());
  return a;
}

// ---------------------------------------------------------------------------------------
// A puzzle written in Python: `start`, `is_goal(s)`, `moves(s)` -> (move, next) pairs,
// optionally `h(s)`; hashable states. The searches run on this thread with the GIL held.
struct PyState {
  py::object o;
  std::size_t h = 0;
  PyState() = default;
  explicit PyState(py::object obj) : o(std::move(obj)), h(static_cast<std::size_t>(py::hash(o))) {}
  bool operator==(const PyState& b) const { return h == b.h && o.equal(b.o); }
};

struct PyDomain {
  using State = PyState;
  using Move = py::object;
  py::object is_goal_f, moves_f, h_f;
  mutable std::uint64_t calls = 0;

  void tick() const {
    if ((++calls & 255) == 0 && PyErr_CheckSignals() != 0) throw py::error_already_set();
  }
  bool is_goal(const State& s) const {
    tick();
    return py::cast<bool>(is_goal_f(s.o));
  }
  template <class F>
  void for_each_move(const State& s, F&& f) const {
    tick();
    for (auto item : py::iter(moves_f(s.o))) {
      auto pair = py::reinterpret_borrow<py::sequence>(item);
      if (pair.size() != 2) throw InputError("moves(s) must give (move, next_state) pairs");
      f(py::object(pair[0]), PyState(py::object(pair[1])));
    }
  }
  int h(const State& s) const { return h_f.is_none() ? 0 : py::cast<int>(h_f(s.o)); }
  std::size_t hash(const State& s) const { return s.h; }
};

PyDomain domain_of(const py::object& p) {
  for (const char* need : {"start", "is_goal", "moves"})
    if (!py::hasattr(p, need)) throw InputError(fmt::format("a Python puzzle needs '{}' (start, is_goal(s), moves(s))", need));
  PyDomain d;
  d.is_goal_f = p.attr("is_goal");
  d.moves_f = p.attr("moves");
  d.h_f = py::hasattr(p, "h") ? py::object(p.attr("h")) : py::object(py::none());
  return d;
}

std::string name_of(const py::object& p) {
  if (py::hasattr(p, "name")) return py::str(p.attr("name"));
  return py::str(p.attr("__class__").attr("__name__"));
}

// Universal options for a Python puzzle: timeout, memory, algorithm (bfs / idastar).
Options python_options(const py::kwargs& kw, std::string& algorithm, std::size_t& farthest) {
  Raw raw;
  std::set<std::string> given;
  for (const auto& [key, value] : kw) {
    const std::string k = py::str(key);
    if (k == "algorithm") {
      algorithm = py::str(value);
    } else if (k == "farthest") {
      farthest = value.cast<std::size_t>();
    } else if (k == "timeout" || k == "memory" || k == "threads" || k == "quiet") {
      if (!value.is_none()) raw.text[k] = py::str(value), given.insert(k);
    } else {
      throw InputError(fmt::format("unknown option '{}' for a Python puzzle (timeout, memory, algorithm, farthest)", printable(k, 200)));
    }
  }
  raw.flags["quiet"] = true;
  given.erase("quiet");
  Options o;
  universal(given, raw, o);
  return o;
}

py::object solve_python(const py::object& p, const py::kwargs& kw) {
  std::string algorithm;
  std::size_t farthest = 20;
  Options o = python_options(kw, algorithm, farthest);
  PyDomain d = domain_of(p);
  for (auto& c : algorithm) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (algorithm == "ida*" || algorithm == "ida-star") algorithm = "idastar";
  if (algorithm == "a*" || algorithm == "a-star") algorithm = "astar";
  // With h: A* with duplicate detection (a state reached again is not searched again, as
  // IDA* would), optimal for an admissible h; without: BFS.
  if (algorithm.empty()) algorithm = d.h_f.is_none() ? "bfs" : "astar";
  if (algorithm != "bfs" && algorithm != "idastar" && algorithm != "astar")
    throw InputError(fmt::format("unknown algorithm '{}' for a Python puzzle: use one of astar, bfs, idastar",
                                 printable(algorithm)));
  const PyState start(p.attr("start"));
  Stopwatch sw;
  search::PathResult<py::object> res;
  search::Limits lim = o.limits();
  lim.cluster = nullptr;
  if (algorithm == "bfs") res = search::bfs(d, start, lim);
  else if (algorithm == "astar") res = search::weighted_astar(d, start, 1, 1, lim);
  else res = search::ida_star(d, start, {}, lim);
  py::list moves, states;
  if (res.found) {
    PyState s = start;
    states.append(s.o);
    for (const auto& m : res.moves) {  // replay: the states along the way
      moves.append(m);
      bool hit = false;
      PyState next;
      d.for_each_move(s, [&](const py::object& mv, const PyState& t) {
        if (!hit && mv.equal(m)) hit = true, next = t;
      });
      if (!hit) throw std::logic_error("a Python puzzle's solution does not replay: are moves(s) deterministic?");
      s = next;
      states.append(s.o);
    }
    if (!py::cast<bool>(d.is_goal_f(s.o))) throw std::logic_error("a Python puzzle's solution does not reach a goal");
  }
  py::dict j;
  j["puzzle"] = name_of(p);
  j["start"] = start.o;
  j["solvable"] = res.found;
  j["optimal"] = res.found || res.exhausted;
  j["length"] = res.found ? py::object(py::int_(res.cost)) : py::object(py::none());
  j["moves"] = moves;
  j["nodes"] = res.stats.expanded;
  j["seconds"] = sw.seconds();
  j["algorithm"] = algorithm;
  j["states"] = states;
  if (!res.found) j["reason"] = "no goal is reachable from the start";
  return result_class()(j, py::none());
}

py::object explore_python(const py::object& p, const py::kwargs& kw) {
  std::string algorithm;
  std::size_t farthest = 20;
  Options o = python_options(kw, algorithm, farthest);
  if (!algorithm.empty() && algorithm != "bfs")
    throw InputError(fmt::format("unknown algorithm '{}' for explore of a Python puzzle: use bfs", printable(algorithm)));
  PyDomain d = domain_of(p);
  const PyState start(p.attr("start"));
  Stopwatch sw;
  struct Hash {
    std::size_t operator()(const PyState& s) const { return s.h; }
  };
  std::unordered_set<PyState, Hash> seen{start};
  std::vector<PyState> layer{start}, next;
  py::list histogram;
  std::uint64_t nodes = 0;
  const std::uint64_t per_state = sizeof(PyState) + 64;  // the set's node, not the Python object
  while (true) {
    histogram.append(layer.size());
    next.clear();
    for (const auto& s : layer) {
      o.deadline.check();
      ++nodes;
      d.for_each_move(s, [&](const py::object&, const PyState& t) {
        if (seen.insert(t).second) {
          if (seen.size() * per_state > o.memory) throw LimitError("explore: the memory budget is exhausted (memory)");
          next.push_back(t);
        }
      });
    }
    if (next.empty()) break;
    layer.swap(next);
  }
  py::list far;
  for (std::size_t i = 0; i < layer.size() && i < farthest; ++i) far.append(layer[i].o);
  py::dict j;
  j["puzzle"] = name_of(p);
  j["from"] = start.o;
  j["states"] = seen.size();
  j["depth"] = histogram.size() - 1;
  j["histogram"] = histogram;
  j["farthest"] = far;
  j["farthest_count"] = layer.size();
  j["seconds"] = sw.seconds();
  j["nodes"] = nodes;
  return result_class()(j, py::none());
}

}  // namespace

PYBIND11_MODULE(_tansaku, m) {
  m.doc() = "tansaku's puzzle-search engine (docs/python.md)";
  g_main_thread = py::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
  pthread_atfork(nullptr, nullptr, main_thread_after_fork);  // the forking thread is the child's main
  g_error = PyErr_NewException("tansaku.Error", PyExc_Exception, nullptr);
  py::object error = py::reinterpret_borrow<py::object>(g_error);
  py::tuple input_bases = py::make_tuple(error, py::reinterpret_borrow<py::object>(PyExc_ValueError));
  py::tuple limit_bases = py::make_tuple(error, py::reinterpret_borrow<py::object>(PyExc_RuntimeError));
  g_input_error = PyErr_NewException("tansaku.InputError", input_bases.ptr(), nullptr);
  g_limit_error = PyErr_NewException("tansaku.LimitError", limit_bases.ptr(), nullptr);
  m.attr("Error") = error;
  m.attr("InputError") = py::reinterpret_borrow<py::object>(g_input_error);
  m.attr("LimitError") = py::reinterpret_borrow<py::object>(g_limit_error);
  m.attr("InputError").attr("exit_code") = 2;
  m.attr("LimitError").attr("exit_code") = 3;
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      PyErr_SetString(g_input_error, printable(e.what(), kMessageBytes).c_str());
    } catch (const LimitError& e) {
      PyErr_SetString(g_limit_error, printable(e.what(), kMessageBytes).c_str());
    } catch (const std::bad_alloc&) {
      PyErr_SetString(g_limit_error, "out of memory");
    }
  });

  py::class_<Run, std::shared_ptr<Run>>(m, "_Run")
      .def("svg", &Run::svg)
      .def("html", &Run::html)
      .def("has_table", [](const Run& r) { return static_cast<bool>(r.table); })
      .def("table", [](const Run& r) { return std::const_pointer_cast<DepthTable>(r.table); });

  py::class_<DepthTable, std::shared_ptr<DepthTable>>(m, "_Table")
      .def_property_readonly("depth", [](const std::shared_ptr<DepthTable>& t) { return depth_array(t); })
      .def_property_readonly("histogram", [](const DepthTable& t) { return t.histogram; })
      .def_property_readonly("source", [](const DepthTable& t) { return t.from; })
      .def_property_readonly("symmetric", [](const DepthTable& t) { return t.symmetric; })
      .def("__len__", [](const DepthTable& t) { return t.depth.size(); })
      .def("rank", [](const DepthTable& t, const std::string& s) -> std::int64_t {
        const std::uint64_t r = t.rank(s);
        return r < t.depth.size() ? static_cast<std::int64_t>(r) : -1;
      })
      .def("unrank", [](const DepthTable& t, std::int64_t r) {
        if (r < 0 || static_cast<std::uint64_t>(r) >= t.depth.size())
          throw InputError(fmt::format("rank {} is outside the table (0 to {})", r, t.depth.size() - 1));
        return t.unrank(static_cast<std::uint64_t>(r));
      });

  m.def("_list", [] { return to_py(list_json()); });
  m.def("_show", &show_call);
  m.def("_solve", &solve_call);
  m.def("_explore", &explore_call);
  m.def("_random", &random_call);
  m.def("_distances", &distances_call);
  m.def("_table", [](const std::string& puzzle, const py::kwargs& kw) {
    Call c;
    prepare(c, kExplore, puzzle, kw, {"progress"});
    Run& r = *c.run;
    run_outside_gil([&] {
      r.puzzle = make_puzzle(puzzle, r.o);
      r.table = r.puzzle->depth_table(r.o);
      if (!r.table) throw InputError(fmt::format("{} offers no table of its states", r.puzzle->name()));
    }, c.cancel, c.progress);
    return std::const_pointer_cast<DepthTable>(r.table);
  });
  m.def("_solve_python", &solve_python);
  m.def("_explore_python", &explore_python);
}
