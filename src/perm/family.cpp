// perm:NAME / perm:FILE — the family's glue: the options, the instance (moves, metric,
// start, goal), show, random, the depth table, pictures and play. The solve and explore
// reports are reports.cpp's.
#include <mutex>

#include <fmt/format.h>

#include "perm/definition.h"
#include "perm/draw.h"
#include "perm/facelets.h"
#include "perm/generators.h"
#include "perm/group_order.h"
#include "perm/move_pruning.h"
#include "perm/net.h"
#include "perm/notation.h"
#include "perm/pdb_cli.h"
#include "perm/piece_file.h"
#include "perm/ranked_domain.h"
#include "perm/reports.h"
#include "perm/solver.h"
#include "perm/space.h"
#include "tansaku/core/cache_dir.h"
#include "tansaku/core/count.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/progress.h"
#include "tansaku/core/tokens.h"
#include "tansaku/puzzles/batch.h"
#include "tansaku/puzzles/path_report.h"
#include "tansaku/puzzles/perm.h"
#include "tansaku/puzzles/report_keys.h"
#include "tansaku/puzzles/solution.h"
#include "tansaku/puzzles/solver_table.h"
#include "tansaku/search/bidirectional_bfs.h"
#include "tansaku/search/distance_table.h"
#include "tansaku/search/explore.h"
#include "tansaku/search/explore_path.h"

namespace tansaku::perm {
namespace {

// The family's own options (declared in family() below).
struct Settings {
  std::optional<std::string> moves;     // --moves A,B,...: only these base moves
  std::optional<std::string> metric;    // --metric htm | qtm
  std::optional<std::string> scramble;  // --scramble MOVES: the start
  std::optional<std::string> facelets;  // --facelets STRING: the start, sticker by sticker
  std::optional<int> max_length;        // --max-length N: two-phase stops at a solution this short
  std::optional<int> prune_depth;       // --prune-depth N: IDA* skips redundant move strings up to N moves
  std::optional<std::string> batch;     // --batch FILE: every start of FILE, one process
};

class PermPuzzle final : public Puzzle {
 public:
  PermPuzzle(std::string variant, Definition d)
      : variant_(std::move(variant)), def_(std::make_shared<const Definition>(std::move(d))), d_(*def_) {}
  std::string name() const override { return "perm:" + variant_; }

  ShowReport show(const Options& o) const override {
    MoveSet ms = moves_of(o);
    ShowReport r;
    std::string& t = r.text;
    t = fmt::format("{} ({}): {} set{}, {} base move{} ({} in {}: {})\n", name(), d_.name, d_.sets.size(),
                    d_.sets.size() == 1 ? "" : "s", ms.bases.size(), ms.bases.size() == 1 ? "" : "s", ms.gens.size(),
                    ms.metric, format_sequence(ms, all_moves(ms)));
    json sets = json::array();
    for (const auto& sd : d_.sets) {
      std::vector<int> row;
      for (int j = 0; j < sd.size; ++j) row.push_back(sd.numbers[d_.solved.lab[static_cast<std::size_t>(sd.offset + j)]]);
      t += fmt::format("set {}: {} pieces, {} orientation{}; solved {}\n", sd.name, sd.size, sd.omod,
                       sd.omod == 1 ? "" : "s", fmt::join(row, " "));
      sets.push_back({{"name", sd.name}, {"pieces", sd.size}, {"orientations", sd.omod}, {"solved", row}});
    }
    t += "moves (cycles of positions; k+t: the piece leaving k turns by t):\n";
    json moves = json::array();
    for (int b : ms.bases) {
      const auto& m = d_.moves[static_cast<std::size_t>(b)];
      int order = 1;
      for (const auto& g : ms.gens)
        if (g.base == b) order = g.order;
      t += fmt::format("  {} (order {}): {}\n", m.name, order, format_cycles(d_, m.p));
      moves.push_back({{"name", m.name}, {"order", order}, {"cycles", format_cycles(d_, m.p)}});
    }
    const std::string order = group_order(d_, ms);
    t += fmt::format("group order (Schreier-Sims): {}\n", order);
    r.info = {{"puzzle", name()}, {"name", d_.name}, {"file", d_.file}, {"sets", sets}, {"moves", moves},
              {"metric", ms.metric}, {"group_order", order}};
    bool distinct = true;
    for (int i = 0; i < d_.positions; ++i)
      for (int j = 0; j < i; ++j)
        if (d_.set_of[static_cast<std::size_t>(i)] == d_.set_of[static_cast<std::size_t>(j)] &&
            d_.solved.lab[static_cast<std::size_t>(i)] == d_.solved.lab[static_cast<std::size_t>(j)])
          distinct = false;
    try {
      Space sp(d_, ms, goal_of(o), 0);
      t += fmt::format("ranked space from the goal: {} positions{}\n", sp.size(),
                       distinct ? (std::to_string(sp.size()) == order ? " (= the group order: every position is reachable)"
                                                                      : " (a superset of the reachable positions)")
                                : " (identical pieces: the positions reachable are at most this many)");
      for (const auto& line : sp.describe()) t += "  " + line + "\n";
      r.info["ranked_size"] = sp.size();
    } catch (const InputError& e) {
      t += fmt::format("ranked space: {}\n", e.what());
    }
    if (distinct) r.info["states"] = order;
    t += fmt::format("solved: {}\n", format_position(d_, d_.solved));
    if (const auto f = facelets(o.start || has_own_start(o) ? start_of(o) : goal_of(o))) {
      t += fmt::format("facelets: {}\n", *f);
      r.info["facelets"] = *f;
    }
    return r;
  }

  SolveReport solve(const Options& o) const override {
    if (o.settings<Settings>().batch) return solve_batch(o);
    const MoveSet ms = moves_of(o);
    const Position goal = goal_of(o);
    const Position start = start_of(o);
    return solve_report(def_, ms, start, goal, facelets(start), o.settings<Settings>().max_length,
                        o.settings<Settings>().prune_depth, o);
  }

  // Uniform over the positions the moves reach from the goal: the goal moved by a uniformly
  // random element of the group the moves generate (Schreier-Sims; group_order.h).
  std::vector<std::string> random(const Options& o, std::uint64_t seed, std::size_t count) const override {
    no_illegal("random positions");
    const MoveSet ms = moves_of(o);
    require_memory(static_cast<std::uint64_t>(count) * (64 + 4 * static_cast<std::uint64_t>(d_.positions)), o.memory,
                   "the random positions");
    std::vector<std::string> out;
    for (const Position& p : random_positions(d_, ms, goal_of(o), seed, count, &o.deadline)) {
      o.deadline.check();
      std::string line = format_position(d_, p);
      for (char& c : line)
        if (c == '\n') c = ' ';
      out.push_back(line);
    }
    return out;
  }

  ExploreReport explore(const Options& o) const override { return explore_by_table(explore_table(), *this, o); }

  // One explore: the engine's layered BFS over the ranked space (search/explore.h).
  static const ExploreTable<PermPuzzle>& explore_table() {
    static const auto t = one_explore<PermPuzzle>(
        bfs_explore("breadth-first layers over the ranked space (2 bits a position)"), &PermPuzzle::explore_bfs);
    return t;
  }

  ExploreReport explore_bfs(const Options& o, search::Limits lim) const {
    no_illegal("explore");
    return explore_report(d_, moves_of(o), origin_of(o), o, lim);
  }

  // The cached tables a solve loads stay loaded while the handle lives (Puzzle::hold_tables).
  std::shared_ptr<void> hold_tables() const override { return hold_loaded_tables(); }

  // explore's space as a byte per rank (Puzzle::depth_table); the definition, moves and
  // ranking live as long as the table's rank / unrank.
  std::shared_ptr<const DepthTable> depth_table(const Options& o) const override {
    struct Held {
      Definition d;
      MoveSet ms;
      Position from;
      std::unique_ptr<Space> sp;
      std::unique_ptr<RankedDomain> dom;
    };
    no_illegal("a table of distances");
    auto h = std::make_shared<Held>();
    h->d = d_;
    h->ms = moves_of(o);
    h->from = origin_of(o);
    const std::uint64_t tables = std::min<std::uint64_t>(o.memory / 4, std::uint64_t{1} << 30);
    h->sp = std::make_unique<Space>(h->d, h->ms, h->from, tables, o.threads);
    require_memory(h->sp->size() + h->sp->table_bytes(), o.memory,
                   fmt::format("a byte per position of {} positions and the move tables", h->sp->size()));
    h->dom = std::make_unique<RankedDomain>(h->d, h->ms, *h->sp);
    Progress progress(o.progress());
    auto lim = o.limits(&progress);
    lim.memory = o.memory - h->sp->table_bytes();
    const std::uint64_t r0 = h->sp->rank(h->from);
    auto t = search::distance_table(*h->dom, std::span<const std::uint64_t>(&r0, 1), h->dom->symmetric(), lim);
    progress.done();
    auto out = std::make_shared<DepthTable>();
    out->from = format_position(h->d, h->from);
    out->depth = std::move(t.dist);
    out->histogram = std::move(t.histogram);
    out->symmetric = h->dom->symmetric();
    out->rank = [h](const std::string& s) {
      const Position p = parse_position(h->d, s, "state");
      return h->sp->contains(p) ? h->sp->rank(p) : UINT64_MAX;
    };
    out->unrank = [h](std::uint64_t r) { return format_position(h->d, h->sp->unrank(r)); };
    return out;
  }

  // Pictures (perm/draw.h): show draws the start (the goal when there is none); explore
  // the source. Slots ringed green hold what the goal has there.
  std::string draw(const Options& o) const override {
    if (o.command == kExplore) {
      const Position from = origin_of(o);
      return position_svg(d_, from, from);
    }
    const bool has_start = o.start || has_own_start(o) || !companion_scrambles(d_).empty();
    return position_svg(d_, has_start ? start_of(o) : goal_of(o), goal_of(o));
  }
  Drawing draw_solution(const Options&, const SolveReport& r) const override { return draw_solution_of<Rules>(r); }
  std::string draw_state(const Options& o, const std::string& state) const override {
    const Position ref = o.command == kExplore ? (origin_of(o)) : goal_of(o);
    return position_svg(d_, parse_position(d_, state, "state"), ref);
  }

  // Play: every move of the metric (R, R2, R' ...) turns the puzzle; the app shows them as
  // buttons (no cell names a turn).
  std::optional<Play> play(const Options& o, const std::string& state) const override {
    const Position goal = goal_of(o);
    const bool has_start = o.start || o.settings<Settings>().scramble || !companion_scrambles(d_).empty();
    const Position b = !state.empty() ? parse_position(d_, state, "position") : has_start ? start_of(o) : goal;
    const MoveSet ms = moves_of(o);
    Play p;
    p.state = format_position(d_, b);
    p.goal = b == goal;
    for (const Gen& g : ms.gens) p.moves.push_back({g.name, format_position(d_, d_.applied(g.p, b)), {}});
    return p;
  }

 private:
  // The ranked spaces know nothing of Illegal positions: what walks them refuses such a
  // definition rather than count positions the rules forbid.
  void no_illegal(const char* what) const {
    if (!d_.illegal.empty())
      throw InputError(fmt::format("{}: {} does not support definitions with Illegal rules ({}:{})", name(), what,
                                   d_.file, d_.illegal.front().line));
  }
  static std::vector<int> all_moves(const MoveSet& ms) {
    std::vector<int> v;
    for (std::size_t i = 0; i < ms.gens.size(); ++i) v.push_back(static_cast<int>(i));
    return v;
  }
  MoveSet moves_of(const Options& o) const {
    const Settings& s = o.settings<Settings>();
    return build_moves(d_, s.metric.value_or("htm"), s.moves.value_or(""));
  }
  Position goal_of(const Options& o) const { return o.goal ? parse_position(d_, *o.goal, "--goal") : d_.solved; }
  // explore's source: --from (--start maps to it), else the goal.
  Position origin_of(const Options& o) const { return o.from ? parse_position(d_, *o.from, "--from") : goal_of(o); }
  static bool has_own_start(const Options& o) {
    const Settings& s = o.settings<Settings>();
    return s.scramble || s.facelets;
  }
  // The facelets of p when the puzzle's net reads them (facelets.h).
  std::optional<std::string> facelets(const Position& p) const {
    const auto& n = net();
    if (!n || !facelets_unsupported(d_, *n).empty()) return std::nullopt;
    return facelets_of(d_, *n, p);
  }
  const std::optional<Net>& net() const {
    std::call_once(net_once_, [&] { net_ = load_net(d_); });
    return net_;
  }
  // --batch FILE: a line is a start position (as --start takes it, on one line),
  // optionally after an instance number; the instances share the tables loaded for the
  // first.
  SolveReport solve_batch(const Options& o) const {
    const std::string file = *o.settings<Settings>().batch;
    check_batch_options(o);
    if (has_own_start(o)) throw InputError("--batch takes the start states from the file: drop --scramble/--facelets");
    Options one = o;
    one.values.erase("batch");
    one.given.erase("batch");
    Settings each = o.settings<Settings>();
    each.batch.reset();
    one.settings_value = each;
    const auto items = parse_batch(
        read_text_file(file, "batch file", o.memory, &o.deadline), file, [](const std::string& line, BatchItem& it) {
          std::vector<std::string> tokens = split_state(line);
          if (tokens.size() > 1 && tokens.front().find_first_not_of("0123456789") == std::string::npos) {
            it.id = tokens.front();
            tokens.erase(tokens.begin());
          }
          it.start = join(tokens);
        });
    return tansaku::solve_batch(*this, one, file, items);
  }
  Position start_of(const Options& o) const {
    const std::optional<std::string>& scramble = o.settings<Settings>().scramble;
    const std::optional<std::string>& facelets = o.settings<Settings>().facelets;
    if (int(o.start.has_value()) + int(scramble.has_value()) + int(facelets.has_value()) > 1)
      throw InputError("give one of --start, --scramble, --facelets");
    if (o.start) return parse_position(d_, *o.start, "--start");
    if (scramble) return replay(d_, d_.solved, *scramble, "--scramble");
    if (facelets) {
      if (!net())
        throw InputError(fmt::format("--facelets: {} has no net (a .net file beside its definition)", name()));
      return parse_facelets(d_, *net(), moves_of(o), *facelets, "--facelets");
    }
    const std::string scr = companion_scrambles(d_);
    if (!scr.empty()) return parse_position(d_, "@" + scr, "the default start");
    throw InputError(fmt::format("{}: give a start (--start STATE or --scramble \"MOVES\")", name()));
  }

  std::string variant_;
  std::shared_ptr<const Definition> def_;  // shared with the typed solutions (draw_solution)
  const Definition& d_;
  mutable std::once_flag net_once_;
  mutable std::optional<Net> net_;
};

}  // namespace

Family family() {
  Family f;
  f.prefix = "perm";
  f.file_extension = ".tws";
  f.file_kind = "a twsearch / ksolve definition: Name, Set, Solved, Move blocks";
  f.summary = "permutation puzzles as data: ksolve/twsearch definition files (sets, orientations, moves)";
  f.builtins = {
      {"perm:2x2x2",
       "2x2x2 cube (alias 2x2x2): 8 corners; 88,179,840 positions; --moves U,F,R: 3,674,160, depth 11 (14 qtm)"},
      {"perm:3x3x3",
       "3x3x3 cube (aliases cube, rubik, 3x3x3; centres fixed): any position in a fraction of a second by "
       "--algorithm two-phase; --facelets, M E S, Rw, x y z"},
      {"perm:skewb", "Skewb: 8 corners, 6 centres; --moves ULB,UBR,UFL,DBL fixes a corner: 3,149,280 positions"},
      {"perm:skewb-fixed", "Skewb with corner DFR fixed, corners split by orbit (the skewb.tws moves ULB UBR UFL DBL)"},
      {"perm:pyraminx", "Pyraminx without tips: 933,120 positions, depth 11"},
      {"perm:topspin", "TopSpin: 20 discs on a track, a turnstile of 4"},
      {"perm:rotating-slide", "the 3x3 rotating slide as data: 181,440 positions, depth 12 (13 farthest)"},
      {"perm:FILE.tws", "a twsearch / ksolve definition file, with optional .net .pat .sym companions (docs/perm.md)"},
  };
  f.options = {
      opt::start(kShow | kSolve, "start position (see notation), or @FILE: a twsearch scramble file"),
      opt::goal(kAllCommands, "goal position (default: the Solved block; explore's source without --from)"),
      opt::from(),
      opt::all(),
      opt::count(),
      opt::farthest(),
      opt::spill(),
      opt::weight(),
      opt::beam_width(),
      opt::batch(opt::reads(opt::text(&Settings::batch, "batch", "FILE",
                                      "solve every start of FILE (one position a line, as --start takes it, optionally "
                                      "after an instance number; JSON Lines with --json); the tables load once",
                                      kSolve))),
      opt::text(&Settings::moves, "moves", "A,B,...", "use only these base moves (all their powers)", kAllCommands),
      opt::defaults_to("htm", opt::text(&Settings::metric, "metric", "htm|qtm",
                                        "htm: every power of a move is one move (default); qtm: only the move and its "
                                        "inverse",
                                        kAllCommands)),
      opt::text(&Settings::scramble, "scramble", "MOVES",
                "the start is the solved position after these moves (R U2 F'; the 3x3x3 also M E S, Rw, x y z)",
                kShow | kSolve),
      opt::text(&Settings::facelets, "facelets", "STRING",
                "the start sticker by sticker, for puzzles with a net: the 3x3x3 reads Kociemba's 54 letters URFDLB",
                kShow | kSolve),
      opt::integer(&Settings::max_length, "max-length",
                   "two-phase (named by this option alone): stop at the first solution of at most N moves (default: "
                   "the shortest found in 0.1 s)",
                   kSolve, Range{1, 1000}),
      opt::integer(&Settings::prune_depth, "prune-depth",
                   "idastar: never play a move string of up to N moves that an earlier one of no greater length does "
                   "the same as (default: as deep as enumerates quickly, deeper once the search grows; 2: only the "
                   "powers of one move in a row and commuting moves in one order)",
                   kSolve, Range{2, kDeepPruningDepth})};
  f.settings = opt::settings<Settings>();
  f.solvers = merge_specs(perm::solvers(), solver_specs(PermPuzzle::explore_table()));
  f.notation =
      "per set, its name, the piece numbers at its positions (as in the Solved block) and, where the set has\n"
      "orientations, the orientation at each position: --start \"CORNERS 2 1 3 4 5 6 7 8 0 0 1 2 0 0 0 0\"; sets left out\n"
      "are solved; one-set puzzles may omit the name (--start \"9 8 7 6 5 4 3 2 1\"); @FILE reads a twsearch scramble file";
  // The cubes by their everyday names (the shipped definitions data/perm/2x2x2.tws, 3x3x3.tws).
  f.aliases = builtin_aliases();
  f.examples = {"tansaku explore perm:2x2x2 --moves U,F,R", "tansaku explore perm:2x2x2 --moves U,F,R --metric qtm",
                "tansaku solve perm:2x2x2 --scramble \"R U2 F' R U\"", "tansaku solve perm:rotating-slide",
                "tansaku show perm:3x3x3", "tansaku explore perm:skewb-fixed"};
  f.bench = {{kExplore, "perm:pyraminx", "", ""}};
  f.tools = pdb_tools();
  f.table_kinds = {pdb_table_kind()};
  f.data_dirs = [] { return std::vector<std::string>{table_cache_dir().string()}; };  // the piece tables
  f.make = [](const std::string& variant, const Options&) -> std::unique_ptr<Puzzle> {
    return std::make_unique<PermPuzzle>(variant, load_definition(variant));
  };
  return f;
}

}  // namespace tansaku::perm
