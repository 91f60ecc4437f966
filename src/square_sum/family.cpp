// square-sum — options (--n, --ring, --smallest, --count, --all), the reports, and the
// text rendering (the row with its sums for small N).
#include <algorithm>

#include <fmt/format.h>

#include "square_sum/draw.h"
#include "square_sum/path_search.h"
#include "square_sum/solver.h"
#include "square_sum/squares.h"
#include "square_sum/verify.h"
#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/tokens.h"
#include "tansaku/puzzles/report_keys.h"
#include "tansaku/puzzles/square_sum.h"

namespace tansaku::square_sum {
namespace {

constexpr std::int64_t kMaxN = 100000000;

// The family's own options (declared in family() below).
struct Settings {
  std::optional<int> n;  // --n N; nullopt: the least N with a solution
  bool ring = false;
  bool smallest = false;
};

json numbers(const std::vector<int>& v) {
  json a = json::array();
  for (int x : v) a.push_back(x);
  return a;
}

std::string render(const std::vector<int>& seq, bool ring) {
  if (seq.size() > 60) return "";
  std::string s = "sums:";
  for (std::size_t i = 1; i < seq.size(); ++i) s += fmt::format(" {}+{}={}", seq[i - 1], seq[i], seq[i - 1] + seq[i]);
  if (ring && seq.size() >= 3) s += fmt::format(" {}+{}={}", seq.back(), seq.front(), seq.back() + seq.front());
  return s + "\n";
}

// solve's own keys (docs/cli.md), in their JSON order.
struct SolveKeys {
  bool ring = false;
  std::optional<bool> smallest;              // N not given: N is the least ...
  std::optional<std::vector<int>> none_for;  // ... every smaller one refuted
  int n = 0;
};
TANSAKU_REPORT_KEYS(SolveKeys, ring, smallest, none_for, n)

class SquareSumPuzzle final : public Puzzle {
 public:
  std::string name() const override { return "square-sum"; }

  ShowReport show(const Options& o) const override {
    const Settings& s = check(o);
    ShowReport r;
    const bool ring = s.ring;
    r.info = {{"puzzle", "square-sum"}, {"ring", ring}};
    r.text = fmt::format("square-sum: arrange 1..N in a {} so that every two neighbouring numbers add up to a\n"
                         "square{}. --n N (default: the least N that allows it, --smallest), --count, --all.\n",
                         ring ? "ring" : "row", ring ? " (the last and the first too)" : "");
    if (s.n) {
      const int n = *s.n;
      r.info["n"] = n;
      int zero = 0, one = 0, maxd = 0;
      std::vector<int> ones;
      for (int v = 1; v <= n; ++v) {
        if ((v & 0xFFFFF) == 0) o.deadline.check();
        int d = degree(n, v);
        zero += d == 0;
        if (d == 1) ++one, ones.push_back(v);
        maxd = std::max(maxd, d);
      }
      r.info["isolated"] = zero;
      r.info["degree_one"] = numbers(ones);
      r.info["max_degree"] = maxd;
      r.text += fmt::format("N = {}: {} numbers with no partner, {} with one (they must be the ends of a row), "
                            "at most {} partners\n",
                            n, zero, one, maxd);
      if (n <= 60) {
        r.text += "partners:\n";
        json adj = json::object();
        for (int v = 1; v <= n; ++v) {
          std::vector<int> nb;
          for_each_neighbour(n, v, [&](int u) { nb.push_back(u); });
          adj[std::to_string(v)] = numbers(nb);
          r.text += fmt::format("  {:>3}: {}\n", v, fmt::join(nb, " "));
        }
        r.info["partners"] = adj;
      }
    }
    return r;
  }

  SolveReport solve(const Options& o) const override {
    const Settings& s = check(o);
    SolveReport r;
    Question q;
    q.n = s.n.value_or(0);
    q.ring = s.ring;
    q.mode = o.all ? Mode::All : o.count ? Mode::Count : Mode::First;  // --all lists and counts
    const Answer a = run_with_progress(choose(solvers(), o.algorithm, q, kSolve, o.want()), q, o);
    const int n = a.n;
    r.nodes = a.nodes;
    r.algorithm = a.found.method;
    auto found = std::make_shared<Found>();
    found->n = n;
    found->ring = q.ring;
    r.solution = found;
    SolveKeys k{q.ring, std::nullopt, std::nullopt, n};
    if (a.found.found) {
      found->sequence = a.found.sequence;
      r.moves = numbers(a.found.sequence);
      r.length = n;
      r.text = render(a.found.sequence, q.ring);
    } else {
      r.solvable = false;
      r.optimal = true;  // the refutation is exhaustive: a complete proof
      r.reason = fmt::format("no {} of 1..{} has square neighbouring sums (exhaustive search)", q.ring ? "ring" : "row", n);
    }
    if (q.n == 0) {  // --smallest (the default): the least N, every smaller N refuted by exhaustive search
      r.text += fmt::format("N = {} is the least: no {} for N = {}..{} (each refuted by exhaustive search)\n", n,
                            q.ring ? "ring" : "row", q.ring ? 3 : 2, n - 1);
      k.smallest = true;
      k.none_for = a.none_for;
    }
    put(k, r.extra);
    if (a.listed) {
      const SearchResult& s = *a.listed;
      r.count = s.count;
      if (q.mode == Mode::All) {
        json sols = json::array();
        for (const auto& seq : s.all) {
          verify_sequence(n, seq, q.ring);
          sols.push_back(numbers(seq));
        }
        r.solutions = sols;
      }
      if ((s.count > 0) != r.solvable) throw std::logic_error("square-sum: count and search disagree");
    }
    return r;
  }

  ExploreReport explore(const Options&) const override {
    throw InputError("explore does not apply to square-sum (there are no moves): use solve --count");
  }

  // Pictures: src/square_sum/draw.cpp. A state is a row (or, with --ring, a ring) of numbers.
  std::string draw(const Options& o) const override {
    const int n = check(o).n.value_or(0);
    return draw_partners(n, n ? fmt::format("1..{}: pairs that sum to a square", n)
                              : std::string("square-sum: 1..N in a row, neighbours summing to squares (--n N)"));
  }
  Drawing draw_solution(const Options&, const SolveReport& r) const override { return draw_report(r); }
  std::string draw_state(const Options& o, const std::string& state) const override {
    return draw_sequence(parse_sequence(state), o.settings<Settings>().ring);
  }

  // Play: the next number, one not yet placed whose sum with the last is a square (any to
  // begin with). The position is the numbers placed so far; the goal, all N (ring: the last
  // and the first summing to a square too). N: --n, else the least N with an answer.
  std::optional<Play> play(const Options& o, const std::string& state) const override {
    const Settings& s = check(o);
    const int n = s.n.value_or(s.ring ? 32 : 15);  // the least N with a ring / a row
    constexpr int kPlayNumbers = 1000;
    if (n > kPlayNumbers) throw InputError(fmt::format("--n {}: play takes at most {} numbers", n, kPlayNumbers));
    const std::vector<int> seq = trim(state).empty() ? std::vector<int>{} : parse_sequence(state);
    std::vector<bool> used(static_cast<std::size_t>(n) + 1);
    for (std::size_t i = 0; i < seq.size(); ++i) {
      const int x = seq[i];
      if (x < 1 || x > n) throw InputError(fmt::format("position: {} is not in 1..{}", x, n));
      if (used[static_cast<std::size_t>(x)]) throw InputError(fmt::format("position: {} is placed twice", x));
      if (i && !adjacent(seq[i - 1], x))
        throw InputError(fmt::format("position: {} + {} is not a square", seq[i - 1], x));
      used[static_cast<std::size_t>(x)] = true;
    }
    std::string text;
    for (int x : seq) {
      if (!text.empty()) text += ' ';
      text += std::to_string(x);
    }
    Play p;
    p.state = text;
    p.goal = static_cast<int>(seq.size()) == n && (!s.ring || n < 3 || adjacent(seq.back(), seq.front()));
    for (int x = 1; x <= n; ++x)
      if (!used[static_cast<std::size_t>(x)] && (seq.empty() || adjacent(seq.back(), x)))
        p.moves.push_back({std::to_string(x), text.empty() ? std::to_string(x) : text + " " + std::to_string(x), {}});
    return p;
  }

 private:
  // The settings, checked together (each value's range is checked by the request layer).
  static const Settings& check(const Options& o) {
    const Settings& s = o.settings<Settings>();
    if (s.n && s.smallest) throw InputError("give either --n N or --smallest, not both");
    if (s.n && s.ring && *s.n < 3) throw InputError("a ring needs at least 3 numbers (--n 3 or more)");
    if (s.n)
      require_memory(search_bytes(static_cast<std::uint64_t>(*s.n)), o.memory, fmt::format("square-sum N={}", *s.n));
    return s;
  }
};

std::unique_ptr<Puzzle> make(const std::string& variant, const Options&) {
  if (!variant.empty()) throw InputError(fmt::format("square-sum has no variants (got 'square-sum:{}'): use --n N", variant));
  return std::make_unique<SquareSumPuzzle>();
}

}  // namespace

Family family() {
  Family f;
  f.prefix = "square-sum";
  f.summary = "arrange 1..N so neighbouring sums are squares (row or --ring)";
  f.builtins = {{"square-sum", "1..N in a row (--ring: a ring) with square neighbouring sums; least N 15 (ring 32)"}};
  f.options = {opt::all(), opt::count(),
               opt::integer(&Settings::n, "n", "arrange the numbers 1..N (default: the least N with a solution)",
                            kShow | kSolve, {1, kMaxN}),
               opt::flag(&Settings::ring, "ring",
                         "close the row into a ring (the first and last numbers also sum to a square)", kShow | kSolve),
               opt::flag(&Settings::smallest, "smallest", "the least N with a solution (the default without --n)",
                         kShow | kSolve)};
  f.settings = opt::settings<Settings>();
  f.solvers = solver_specs(solvers());
  f.notation = "a solution is the numbers 1..N in order along the row (or around the ring)";
  f.examples = {"tansaku solve square-sum", "tansaku solve square-sum --ring", "tansaku solve square-sum --n 40 --count",
                "tansaku solve square-sum --n 100000 --quiet"};
  f.bench = {{kSolve, "square-sum", "", ""}};
  f.make = make;
  return f;
}

}  // namespace tansaku::square_sum
