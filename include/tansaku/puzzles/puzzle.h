// The runtime face of a puzzle family, as the CLI sees it. A family *declares* what it takes
// (options with their help, type and the subcommands they apply to; the solvers --algorithm
// can name; the state notation) and the CLI does the rest generically: registers the options,
// refuses what the family or the subcommand does not take, resolves --algorithm, prints help,
// text and JSON. Families implement Puzzle and register a Family (one line in registry.cpp).
#pragma once
#include <algorithm>
#include <any>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "tansaku/core/cluster.h"
#include "tansaku/core/deadline.h"
#include "tansaku/core/progress.h"
#include "tansaku/pdb/cache.h"
#include "tansaku/search/limits.h"

namespace tansaku {

using json = nlohmann::ordered_json;

// The subcommands an option or a solver applies to (a bit mask).
enum Command : unsigned { kShow = 1, kSolve = 2, kExplore = 4, kRandom = 8, kAllCommands = 15 };

// One option a family takes: the CLI registers it, validates its type, refuses it on the
// subcommands it does not list, and lists it in `tansaku help PUZZLE`.
struct OptionSpec {
  enum class Type { Flag, Text, Integer };
  // Whether the value names a file or directory of this machine: `tansaku serve` refuses
  // such an option unless --allow-files. at_file: a value "@FILE" reads FILE (the states).
  enum class Files { none, reads, writes, at_file };
  std::string name;        // long name without dashes: "rule"
  Type type = Type::Text;
  std::string help;        // one line
  unsigned commands = kShow | kSolve | kExplore;
  std::string value_name;  // for help: "H[,H...]"; default from the type; "DIR" for a directory
  Files files = Files::none;
  // solve runs every instance the value names: the report's `rows`, one per instance, are a
  // table (the --html batch page), with no single solution to draw (no --svg).
  bool batch = false;
  // Integer: the values the request layer accepts (a value outside is refused, exit 2).
  std::int64_t min = std::numeric_limits<std::int64_t>::min(), max = std::numeric_limits<std::int64_t>::max();
  // What applies when the option is not given, as a value ("eight"); "" = nothing to say
  // beyond the help. For front ends that show a form (`tansaku serve`'s app).
  std::string default_value;
  // Stores a checked value into the family's settings struct (Options::settings<T>()); set
  // by the member-pointer declarations below. Empty for the common options, which have
  // typed fields of Options itself.
  std::function<void(std::any& settings, const std::string& value)> store;
};

// An inclusive range for an integer option.
struct Range {
  std::int64_t min = std::numeric_limits<std::int64_t>::min(), max = std::numeric_limits<std::int64_t>::max();
};

// The options every family may take, declared by the families that take them (state options
// differ: a knight's tour has no goal). --threads --memory --timeout --quiet --json are
// universal and never declared.
namespace opt {
OptionSpec start(unsigned commands = kShow | kSolve, std::string help = "start state");
OptionSpec goal(unsigned commands = kShow | kSolve, std::string help = "goal state");
OptionSpec from(unsigned commands = kExplore, std::string help = "source state of the explore (default: the goal)");
OptionSpec all();       // solve: every optimal solution
OptionSpec count();     // solve: count optimal solutions
OptionSpec farthest();  // explore: how many farthest positions to print
OptionSpec spill();     // explore: a directory for the layers of a table beyond --memory (search/explore_spill.h); writes
OptionSpec weight();    // solve: weighted A*'s W (a decimal >= 1): the length is at most W times the optimum
OptionSpec beam_width();  // solve: beam search's states kept per layer
// Both, for a family that offers the non-optimal solvers (path_report.h heuristic_solvers).
std::vector<OptionSpec> heuristic_search();
// An option of the family's own.
OptionSpec text(std::string name, std::string value_name, std::string help, unsigned commands = kShow | kSolve | kExplore);
OptionSpec integer(std::string name, std::string help, unsigned commands = kShow | kSolve | kExplore);
OptionSpec flag(std::string name, std::string help, unsigned commands = kShow | kSolve | kExplore);
// Marks on a declaration: the value names a file (or a DIR) the run reads / writes; solve
// runs a batch of instances (OptionSpec::batch).
OptionSpec reads(OptionSpec s);
OptionSpec writes(OptionSpec s);
OptionSpec batch(OptionSpec s);
// The value that applies when the option is not given (OptionSpec::default_value).
OptionSpec defaults_to(std::string value, OptionSpec s);

// The same, bound to a member of the family's settings struct T: the request layer checks
// the value (type, range) and stores it there once; the family reads the field
// (Options::settings<T>()), never the option's name.
template <class T>
OptionSpec flag(bool T::*field, std::string name, std::string help, unsigned commands = kShow | kSolve | kExplore) {
  OptionSpec s = flag(std::move(name), std::move(help), commands);
  s.store = [field](std::any& a, const std::string&) { std::any_cast<T&>(a).*field = true; };
  return s;
}
template <class T>
OptionSpec text(std::optional<std::string> T::*field, std::string name, std::string value_name, std::string help,
                unsigned commands = kShow | kSolve | kExplore) {
  OptionSpec s = text(std::move(name), std::move(value_name), std::move(help), commands);
  s.store = [field](std::any& a, const std::string& v) { std::any_cast<T&>(a).*field = v; };
  return s;
}
// `pdb` tools: --dir DIR, the table directory a build writes (default the cache directory).
template <class T>
OptionSpec table_dir(std::optional<std::string> T::*field, unsigned commands = kShow | kSolve | kExplore) {
  return writes(text(field, "dir", "DIR", "table directory (default $TANSAKU_PDB_DIR or ~/.cache/tansaku)", commands));
}
template <class T, class I>
OptionSpec integer(std::optional<I> T::*field, std::string name, std::string help,
                   unsigned commands = kShow | kSolve | kExplore, Range range = {}) {
  static_assert(std::is_integral_v<I>, "an integer option is stored in an integral field");
  OptionSpec s = integer(std::move(name), std::move(help), commands);
  s.min = std::max<std::int64_t>(range.min, static_cast<std::int64_t>(std::numeric_limits<I>::min()));
  s.max = std::min<std::int64_t>(range.max, static_cast<std::int64_t>(std::numeric_limits<I>::max()));
  s.store = [field](std::any& a, const std::string& v) { std::any_cast<T&>(a).*field = static_cast<I>(std::stoll(v)); };
  return s;
}
// A family's settings struct, default-constructed (Family::settings).
template <class T>
std::function<std::any()> settings() {
  return [] { return std::any(T{}); };
}
}  // namespace opt

// A search --algorithm can name. The family lists them in the order of its automatic choice
// (it picks the first that applies to the instance); the CLI resolves names and aliases to
// `name` before the family sees Options::algorithm, and refuses unknown ones with the list.
struct SolverSpec {
  std::string name;                  // canonical: "idastar"
  std::vector<std::string> aliases;  // "ida*", "ida-star"
  std::string summary;               // one line: what it does, when it applies
  unsigned commands = kSolve;        // solve and/or explore
  // What a solve may ask of it beyond one optimal solution: --all (every optimal solution)
  // and --count (how many). choose() refuses a named solver that cannot, and the automatic
  // choice passes over it.
  bool all = false, count = false;
  // A fast search that does not prove its answer least (greedy best-first, beam search):
  // when another solve of one solution stops on a limit, the request layer runs the
  // family's quick solvers in the time it kept back, for the best solution found so far
  // (cli/request.h run_solve). Never the automatic choice.
  bool quick = false;
};

// What a solve asks for (solver_table.h's choose): one solution, all of them, or their count.
enum class Want { one, all, count };

// Every option of the command line, after the CLI has parsed and checked it against the
// family's declaration.
struct Options {
  unsigned command = kSolve;    // the subcommand being run
  std::set<std::string> given;  // long names of the options present ("start", "rule", ...)
  bool has(const std::string& name) const { return given.count(name) != 0; }

  std::optional<std::string> start, goal, from;
  // The position show draws and explore starts from, by one rule for every family: --from,
  // else --start, else --goal; nullopt = the family's default.
  const std::optional<std::string>& origin() const { return from ? from : start ? start : goal; }
  std::string spill;      // --spill DIR ("" = none)
  std::string algorithm;  // a SolverSpec::name of the family, "" = the family's automatic choice
  unsigned threads = 1;
  // Bytes; the default is search::Limits' (no bound): the CLI sets it from --memory or to
  // 3/4 of RAM, a library caller who sets nothing gets what a default Limits gets.
  std::uint64_t memory = search::Limits{}.memory;
  double timeout = 0;        // seconds, 0 = none
  bool all = false, count = false, quiet = false, json = false;
  std::string svg, html;  // --svg FILE, --html FILE (the CLI writes them: cli/pictures.h); "-" = stdout
  std::size_t farthest = 20;
  // --weight W as a fraction num / den (>= 1; the request layer reads "1.5", "3/2") and as
  // given; --beam-width. Read by the non-optimal solvers (path_report.h heuristic_solvers).
  std::int64_t weight_num = 2, weight_den = 1;
  std::string weight = "2";
  std::size_t beam_width = 1000;

  // The family's own options as given (flags hold "true"), already checked and stored in
  // `settings`: a record for the front ends (serve echoes a request), not for the families.
  std::map<std::string, std::string> values;
  // The family's settings struct (Family::settings), filled by the request layer.
  std::any settings_value;
  // The family's settings: its own options, typed. A caller that went around the request
  // layer (a library test) gets a default-constructed T.
  template <class T>
  const T& settings() const {
    if (const T* t = std::any_cast<T>(&settings_value)) return *t;
    static const T defaults{};
    return defaults;
  }

  mutable Deadline deadline;  // built from timeout by the CLI
  // What the solve's searches proved so far (limits() points them here): said when a limit
  // stops the work (cli/request.h SolveStopped).
  mutable search::Proved proved;
  bool progress() const { return !quiet; }
  // --count wins over --all; neither: one solution.
  Want want() const { return count ? Want::count : all ? Want::all : Want::one; }
  // The search limits these options set (memory, deadline, threads), reporting to `p`.
  search::Limits limits(Progress* p = nullptr) const {
    search::Limits lim;
    lim.memory = memory;
    lim.deadline = &deadline;
    lim.progress = p;
    lim.threads = threads;
    lim.proved = &proved;
    lim.cluster = world();  // the ranks of mpirun, if any (core/cluster.h)
    if (!spill.empty()) lim.spill = spill;
    return lim;
  }
};

struct ShowReport {
  json info = json::object();  // must hold at least "puzzle"
  std::string text;            // picture with cell numbers, rules, defaults, sizes
};

// The search's own figures, typed, in both reports (JSON keys of the same names; the optional
// ones appear only when set). `extra` adds a family's keys but never replaces these.
struct SearchFigures {
  std::uint64_t nodes = 0;                  // nodes expanded (explore: states expanded)
  std::optional<std::uint64_t> generated;   // successors generated, where the solver counts them
  std::optional<std::uint64_t> table_bytes; // the largest table the solver held (hash sets, 2-bit tables, PDBs)
  std::string heuristic;                    // IDA*'s lower bound, described ("pdb 6-6-6-6 + reflection"); "" = none
  // The machine the work ran on: every explore has both (explore_by_table / machine_figures
  // fill them); a solve where its family measures them.
  std::optional<std::uint64_t> peak_rss_bytes;  // the process's peak resident memory after the work
  std::optional<unsigned> threads;              // the threads the work could use (--threads)
};

// A solution in the family's own types (puzzles/solution.h Solution<Rules>): the start, goal
// and moves the family's solver returned, kept beside their printed form so that pictures
// replay them without reading the text back.
struct TypedSolution {
  virtual ~TypedSolution() = default;
};

// `puzzle` and `seconds` are filled by the caller (the CLI, the server): a family leaves them.
struct SolveReport : SearchFigures {
  std::string puzzle, start, goal;
  bool solvable = true;
  bool optimal = true;  // the length is proved least; on an unsolvable result: the proof is complete
  std::optional<double> bound;              // a non-optimal solve's guarantee: length <= bound x the optimum
  std::optional<std::int64_t> lower_bound;  // the optimum is proved at least this (where a solver proves one)
  std::optional<std::int64_t> length;
  json moves = json::array();
  double seconds = 0;
  std::string algorithm;  // always a SolverSpec::name of the family (the heuristic has its own field)
  std::optional<json> solutions;  // --all
  std::optional<json> count;      // --count (number, or decimal string when beyond 64 bits)
  std::string reason;             // why unsolvable
  json extra = json::object();    // family-specific fields
  std::string text;               // family rendering of the solution (may be empty)
  json rows = json::array();      // --batch: one object per instance (its --json line), for the batch page
  std::shared_ptr<const TypedSolution> solution;  // the same solution typed; null where the family keeps none
};

struct ExploreReport : SearchFigures {
  std::string puzzle, from;
  std::string algorithm;  // the explore that ran: its solver name (run_explore fills it)
  std::uint64_t states = 0;
  int depth = 0;
  std::vector<std::uint64_t> histogram;
  std::vector<std::string> farthest;
  std::uint64_t farthest_count = 0;
  double seconds = 0;
  json extra = json::object();
  std::string text;
};

// Pictures (--svg, --html, `tansaku serve`). A family draws its own positions, each as one
// self-contained <svg> element (inline styles, nothing fetched; render/svg.h helps); the
// render module builds the pages around them. Cells a user may click to edit a position
// carry `data-cell="I"`, I being the cell's index in the family's state notation.
struct Drawing {
  std::vector<std::string> frames;  // SVG: the start, then the position after each step
  std::vector<std::string> labels;  // frames.size() - 1 captions: the step, as written in `moves`
};

// One legal move from a position, for a front end that lets a user play (`tansaku serve`'s
// play mode): the move as a solution writes it, the position it leads to (the family's
// notation), and the cells (draw_state's data-cell indices) it touches: the app makes the
// move once the cells clicked so far belong to it alone (a tile: its cell; a jump: the peg
// and the hole it lands in; a block: its cells and those it moves onto). No cells: a button.
struct PlayMove {
  std::string move;
  std::string state;
  std::vector<int> cells;
};

// A position and every legal move from it (Puzzle::play).
struct Play {
  std::string state;  // the position, in the family's notation as show prints it
  bool goal = false;  // it is the goal (for families with one goal position)
  // The start a solve takes for this position, where the play mode's notation is its own
  // (a tour's path: its first square, from which a solve finds a whole tour); "" = `state`.
  std::string solve_start;
  std::vector<PlayMove> moves;
};

// A whole state space's distances, a byte per state by rank: for callers that look many
// positions up at once (the Python module's `distances` and explore tables, docs/python.md).
struct DepthTable {
  std::string from;                      // the source, in the family's state notation
  std::vector<std::uint8_t> depth;       // by rank: the moves from `from`; 255 = not reached
  std::vector<std::uint64_t> histogram;  // states at each depth
  bool symmetric = false;                // every move has its inverse: a depth is also the distance back to `from`
  // A state in the family's notation -> its rank, or UINT64_MAX when the ranking does not
  // hold it (another parity); InputError for a state that does not parse. Thread-safe.
  std::function<std::uint64_t(const std::string&)> rank;
  std::function<std::string(std::uint64_t)> unrank;  // a rank below depth.size() -> the state
};

class Puzzle {
 public:
  virtual ~Puzzle() = default;
  virtual std::string name() const = 0;
  virtual ShowReport show(const Options& o) const = 0;
  virtual SolveReport solve(const Options& o) const = 0;
  virtual ExploreReport explore(const Options& o) const = 0;
  // `tansaku random`: `count` uniformly random solvable start positions, one state string
  // each, reproducible for a seed. Families without a notion of a random start keep this.
  virtual std::vector<std::string> random(const Options& o, std::uint64_t seed, std::size_t count) const;
  // explore's space (the same options: the source is --from, else the family's default, which
  // is solve's goal: the Python module's distances rely on it) as a DepthTable, within
  // o.limits() (InputError when it does not fit the memory budget); nullptr when the family
  // offers no perfect ranking of it (the default).
  virtual std::shared_ptr<const DepthTable> depth_table(const Options& o) const;
  // For callers that solve many positions in a row (solve --batch, the Python module's
  // distances): while the handle this returns lives, the tables a solve loads stay loaded for
  // the next solve that chooses them. nullptr (the default): the family keeps nothing
  // between solves, or keeps its tables anyway.
  virtual std::shared_ptr<void> hold_tables() const;

  // Pictures; a family that cannot draw keeps these (empty results: the CLI refuses --svg).
  // The position `show` describes (the start, or the board), as SVG.
  virtual std::string draw(const Options& o) const;
  // A solved report step by step: frames[0] the start, then one frame per step (a family may
  // group steps on huge solutions; `labels` says what each frame did). A report with no
  // steps (an unsolvable start, a colouring) gives one frame: the start or the answer drawn.
  virtual Drawing draw_solution(const Options& o, const SolveReport& r) const;
  // One position in the family's state notation (explore's farthest positions).
  virtual std::string draw_state(const Options& o, const std::string& state) const;

  // The position `state` (the family's notation, as --start takes it; "" = the position show
  // describes) and every legal move from it, under the same options (goal, rules). nullopt:
  // the family has no moves to play (the default). InputError for a state that does not parse.
  virtual std::optional<Play> play(const Options& o, const std::string& state) const;
};

struct Builtin {
  std::string name;     // "sliding:3x3"
  std::string summary;  // one line for `tansaku list`
};

// A subcommand of a family's own (sliding's `pdb build` / `pdb list`): its options are
// declared like a puzzle's; `run` gets the parsed Options and the positional arguments.
struct ToolCommand {
  std::vector<std::string> path;  // {"pdb", "build"}
  std::string help;
  std::string group_help;         // one line for the command above it ("pdb"), where this makes it
  std::string positional;         // name of a required positional argument, "" for none
  std::vector<OptionSpec> options;
  std::function<std::any()> settings;  // its settings struct, as Family::settings
  // When several families declare a command of the same path, one with a positional
  // argument runs in the family of the puzzle named; one without runs in every family that
  // declares it, one after another.
  std::function<int(const Options& o, const std::vector<std::string>& args)> run;
};

// One run of `tansaku bench` (a fixed workload whose total node count is a signature).
struct BenchJob {
  unsigned command = kSolve;  // kSolve or kExplore
  std::string puzzle;         // a name of the family, as printed: "8-puzzle", "flip:4x4"
  std::string start;          // solve: --start, explore: --from; "" = the default
  std::string algorithm;      // --algorithm; "" = the automatic choice
};

struct Family {
  std::string prefix;                // "sliding": names are "sliding" or "sliding:VARIANT"
  std::string summary;               // one line
  std::vector<Builtin> builtins;     // listed by `tansaku list`
  // A variant may name a file of this kind (a board picture, a graph, a definition): its
  // usual extension (".tws") and what it holds, one line. `tansaku serve` lets a user paste
  // such a file's text (read as the file would be: core/input.h PastedFile). "": none.
  std::string file_extension, file_kind;
  std::vector<std::pair<std::string, std::string>> aliases;  // {"8-puzzle", "sliding:3x3"}
  std::vector<OptionSpec> options;   // every option it takes beyond the universal ones
  std::vector<SolverSpec> solvers;   // --algorithm names, in the order of the automatic choice
  std::string notation;              // help: how a state is written, with an example
  std::vector<std::string> examples; // help: pasteable command lines
  std::vector<ToolCommand> tools;    // extra subcommands
  // The kinds of table file it writes into the table cache directory: `pdb list`, `pdb
  // verify` and `pdb remove` handle them (tansaku/pdb/cache.h). Empty: none.
  std::vector<pdb::TableKind> table_kinds;
  // Directories its puzzles read beyond the shipped data directory (a cache of tables):
  // `tansaku serve` lets requests read there too. Empty: none.
  std::function<std::vector<std::string>()> data_dirs;
  // Frees what the family's work leaves in a thread (a library's per-thread state); run by a
  // thread of `tansaku serve`'s pool before it ends. Empty: nothing to do.
  std::function<void()> thread_cleanup;
  // Its runs of `tansaku bench`, in order (the registry's order, then these). A job added or
  // changed changes the signature.
  std::vector<BenchJob> bench;
  // Its settings struct, default-constructed (opt::settings<T>()): the options declared with
  // member pointers are stored there. Empty: the family has no options of its own.
  std::function<std::any()> settings;
  // Builds a puzzle from the variant (text after "prefix:", "" if none). Throws InputError.
  std::function<std::unique_ptr<Puzzle>(const std::string& variant, const Options& o)> make;
};

}  // namespace tansaku
