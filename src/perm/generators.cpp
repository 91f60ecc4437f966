// Expanding base moves into their powers; move sequences (see generators.h).
#include "perm/generators.h"

#include <algorithm>
#include <cctype>
#include <map>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/tokens.h"

namespace tansaku::perm {

std::string power_name(const std::string& base, int power, int order) {
  int tw = power;
  if (order - tw < tw) tw -= order;  // the shorter way round is written with a prime
  std::string s = base;
  if (tw != 1 && tw != -1) s += std::to_string(tw < 0 ? -tw : tw);
  if (tw < 0) s += "'";
  return s;
}

namespace {

constexpr int kMaxOrder = 255;

struct Powers {
  int order = 1;
  std::vector<Perm> p;  // p[k-1] = base^k, k = 1 .. order-1
};

Powers powers_of(const Definition& d, const BaseMove& m) {
  Powers r;
  const Perm id = d.identity();
  Perm cur = m.p;
  while (!(cur == id)) {
    r.p.push_back(cur);
    if (static_cast<int>(r.p.size()) >= kMaxOrder)
      throw InputError(fmt::format("{}:{}: move '{}' has an order above {}", d.file, m.line, m.name, kMaxOrder));
    cur = d.compose(cur, m.p);
  }
  r.order = static_cast<int>(r.p.size()) + 1;
  if (r.order == 1) throw InputError(fmt::format("{}:{}: move '{}' changes nothing", d.file, m.line, m.name));
  return r;
}

int cost(int power, int order) { return std::min(power, order - power); }

// A written power of a base move: NAME, NAME<k>, NAME', NAME<k>' (R, R2, R', R2', also B' for an
// order-2 move). Returns the power in 1 .. order-1, 0 when `t` does not name a power of `base`
// (or names its identity, R4 of an order-4 move).
int written_power(const std::string& t, const std::string& base, int order) {
  if (t.size() < base.size() || t.compare(0, base.size(), base) != 0) return 0;
  std::string rest = t.substr(base.size());
  bool prime = false;
  if (!rest.empty() && rest.back() == '\'') prime = true, rest.pop_back();
  long k = 1;
  if (!rest.empty()) {
    if (rest.size() > 6 || !std::all_of(rest.begin(), rest.end(), [](char c) { return c >= '0' && c <= '9'; })) return 0;
    k = std::stol(rest);
  }
  long p = (prime ? -k : k) % order;
  if (p < 0) p += order;
  return static_cast<int>(p);
}

// The generator of `ms` that `t` writes (exact name first, then any power spelling), or -1.
int find_written(const Definition& d, const MoveSet& ms, const std::string& t) {
  for (std::size_t i = 0; i < ms.gens.size(); ++i)
    if (ms.gens[i].name == t) return static_cast<int>(i);
  int best = -1;
  std::size_t best_len = 0;
  for (std::size_t i = 0; i < ms.gens.size(); ++i) {
    const Gen& g = ms.gens[i];
    const std::string& base = d.moves[static_cast<std::size_t>(g.base)].name;
    if (base.size() >= best_len && written_power(t, base, g.order) == g.power) best = static_cast<int>(i), best_len = base.size();
  }
  return best;
}

}  // namespace

bool MoveSet::redundant_pair(int a, int b) const {
  const Gen& x = gens[static_cast<std::size_t>(a)];
  const Gen& y = gens[static_cast<std::size_t>(b)];
  if (x.base != y.base) return false;
  if (metric == "htm") return true;
  const int sum = (x.power + y.power) % x.order;
  return sum == 0 || cost(sum, x.order) <= 1;
}

MoveSet build_moves(const Definition& d, const std::string& metric, const std::string& moves) {
  if (metric != "htm" && metric != "qtm") throw InputError(fmt::format("--metric must be htm or qtm, not '{}'", metric));
  MoveSet ms;
  ms.metric = metric;
  if (moves.empty()) {
    for (std::size_t i = 0; i < d.moves.size(); ++i) ms.bases.push_back(static_cast<int>(i));
  } else {
    const auto names = split_state(moves);
    if (names.empty()) throw InputError(fmt::format("--moves: no move named in '{}' (give base move names, e.g. {})", moves,
                                                    d.moves.empty() ? std::string("U,F,R") : d.moves.front().name));
    for (const auto& t : names) {
      int found = -1;
      for (std::size_t i = 0; i < d.moves.size(); ++i)
        if (d.moves[i].name == t) found = static_cast<int>(i);
      if (found < 0) throw InputError(fmt::format("--moves: '{}' is not a move of {} (a base move name)", t, d.name));
      if (std::find(ms.bases.begin(), ms.bases.end(), found) != ms.bases.end())
        throw InputError(fmt::format("--moves: '{}' is named twice", t));
      ms.bases.push_back(found);
    }
  }
  for (int b : ms.bases) {
    const auto& m = d.moves[static_cast<std::size_t>(b)];
    Powers pw = powers_of(d, m);
    const std::size_t first = ms.gens.size();
    for (int k = 1; k < pw.order; ++k) {
      if (metric == "qtm" && cost(k, pw.order) > 1) continue;
      Gen g;
      g.name = power_name(m.name, k, pw.order);
      g.base = b;
      g.power = k;
      g.order = pw.order;
      g.p = pw.p[static_cast<std::size_t>(k - 1)];
      ms.gens.push_back(std::move(g));
    }
    for (std::size_t i = first; i < ms.gens.size(); ++i) {
      ms.gens[i].inverse = -1;
      for (std::size_t j = first; j < ms.gens.size(); ++j)
        if ((ms.gens[i].power + ms.gens[j].power) % pw.order == 0) ms.gens[i].inverse = static_cast<int>(j);
    }
  }
  const std::size_t nb = d.moves.size();
  ms.commute.assign(nb, std::vector<bool>(nb, false));
  for (int i : ms.bases)
    for (int j : ms.bases) {
      const auto& a = d.moves[static_cast<std::size_t>(i)].p;
      const auto& b = d.moves[static_cast<std::size_t>(j)].p;
      ms.commute[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = d.compose(a, b) == d.compose(b, a);
    }
  return ms;
}

std::vector<int> parse_sequence(const Definition& d, const MoveSet& ms, const std::string& text, const std::string& what) {
  std::vector<int> out;
  for (const auto& t : split_state(text)) {
    const int found = find_written(d, ms, t);
    if (found < 0) {
      // A power the metric leaves out (R2 in qtm) is still a legal move to write.
      (void)d;
      throw InputError(fmt::format("{}: '{}' is not a move of {} here (moves: {})", what, t, d.name,
                                   format_sequence(ms, [&] {
                                     std::vector<int> all;
                                     for (std::size_t i = 0; i < ms.gens.size(); ++i) all.push_back(static_cast<int>(i));
                                     return all;
                                   }())));
    }
    out.push_back(found);
  }
  return out;
}

std::vector<Perm> parse_sequence_any(const Definition& d, const std::string& text, const std::string& what) {
  MoveSet all = build_moves(d, "htm", "");
  std::vector<Perm> out;
  for (const auto& t : split_state(text)) {
    const int i = find_written(d, all, t);
    const Gen* g = i < 0 ? nullptr : &all.gens[static_cast<std::size_t>(i)];
    if (!g) throw InputError(fmt::format("{}: '{}' is not a move of {}", what, t, d.name));
    out.push_back(g->p);
  }
  return out;
}

std::string format_sequence(const MoveSet& ms, const std::vector<int>& moves) {
  std::string s;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (i) s += ' ';
    s += ms.gens[static_cast<std::size_t>(moves[i])].name;
  }
  return s;
}

namespace {

constexpr int kMaxNesting = 16;  // aliases and sequences that refer to others, nested
constexpr int kMaxWrittenPower = 999;

// Resolves tokens against a definition: base moves (every power, through find_written), then
// rotations, sequences and aliases, exactly or as a power (NAME<k>, NAME', NAME<k>').
class Resolver {
 public:
  explicit Resolver(const Definition& d) : d_(d), all_(build_moves(d, "htm", "")) {}

  // nullopt when `t` names nothing; InputError for a chain deeper than kMaxNesting.
  std::optional<Turn> resolve(const std::string& t, int depth = 0) const {
    if (depth > kMaxNesting)
      throw InputError(fmt::format("{}: '{}': aliases and sequences nest more than {} deep (one refers to itself?)",
                                   d_.file, printable(t), kMaxNesting));
    if (const int i = find_written(d_, all_, t); i >= 0)
      return Turn{all_.gens[static_cast<std::size_t>(i)].p, d_.identity()};
    if (auto r = named(t, 1, false, depth)) return r;
    // A power: the name, then digits, then a prime (each optional).
    std::size_t end = t.size();
    const bool prime = end > 0 && t[end - 1] == '\'';
    if (prime) --end;
    int k = 0, scale = 1;
    std::size_t digits = 0;
    for (; digits < end && digits < 3 && std::isdigit(static_cast<unsigned char>(t[end - 1 - digits])); ++digits)
      k += (t[end - 1 - digits] - '0') * scale, scale *= 10;
    end -= digits;
    if (!digits) k = 1;
    if (end == 0 || end == t.size() || k < 1 || k > kMaxWrittenPower) return std::nullopt;
    return named(t.substr(0, end), k, prime, depth);
  }

  Turn identity() const { return Turn{d_.identity(), d_.identity()}; }
  Turn then(const Turn& a, const Turn& b) const {
    return Turn{d_.compose(a.total, b.total), d_.compose(a.rotation, b.rotation)};
  }

 private:
  // A rotation, sequence or alias named `name`, to the power k (inverted when prime).
  std::optional<Turn> named(const std::string& name, int k, bool prime, int depth) const {
    std::optional<Turn> one;
    if (auto it = memo_.find(name); it != memo_.end()) one = it->second;
    if (!one)
      for (const auto& r : d_.rotations)
        if (r.name == name) one = Turn{r.p, r.p};
    if (!one)
      for (const auto& sq : d_.sequences)
        if (sq.name == name) {
          Turn t = identity();
          for (const auto& m : sq.moves) {
            auto part = resolve(m, depth + 1);
            if (!part)
              throw InputError(
                  fmt::format("{}:{}: MoveSequence {}: '{}' is not a move", d_.file, sq.line, sq.name, printable(m)));
            t = then(t, *part);
          }
          one = t;
        }
    if (!one)
      for (const auto& a : d_.aliases)
        if (a.name == name) {
          one = resolve(a.target, depth + 1);
          if (!one)
            throw InputError(
                fmt::format("{}:{}: MoveAlias {}: '{}' is not a move", d_.file, a.line, a.name, printable(a.target)));
        }
    if (!one) return std::nullopt;
    // Each name is worked out once: sequences of sequences cost their length, not its power.
    memo_.emplace(name, *one);
    if (prime) one = Turn{d_.inverse(one->total), d_.inverse(one->rotation)};
    Turn out = identity();
    for (int i = 0; i < k; ++i) out = then(out, *one);
    return out;
  }

  const Definition& d_;
  MoveSet all_;
  mutable std::map<std::string, Turn> memo_;
};

}  // namespace

std::optional<Turn> resolve_turn(const Definition& d, const std::string& token) { return Resolver(d).resolve(token); }

Position replay(const Definition& d, const Position& from, const std::string& text, const std::string& what) {
  const Resolver r(d);
  Turn w = r.identity();
  for (const auto& t : split_state(text)) {
    auto turn = r.resolve(t);
    if (!turn) throw InputError(fmt::format("{}: '{}' is not a move of {}", what, printable(t), d.name));
    w = r.then(w, *turn);
  }
  // Re-oriented: the rotations undone at the end (a product of moves conjugated by
  // rotations, when the rotations are symmetries of the moves).
  return d.applied(d.compose(w.total, d.inverse(w.rotation)), from);
}

void check_named(const Definition& d) {
  std::map<std::string, int> names;  // name -> line
  for (const auto& m : d.moves) names.emplace(m.name, m.line);
  MoveSet all = build_moves(d, "htm", "");
  auto claim = [&](const std::string& name, int line, const char* kind) {
    if (auto [it, fresh] = names.emplace(name, line); !fresh)
      throw InputError(
          fmt::format("{}:{}: {} '{}': the name is taken (line {})", d.file, line, kind, printable(name), it->second));
    if (find_written(d, all, name) >= 0)
      throw InputError(
          fmt::format("{}:{}: {} '{}' is already written as a power of a move", d.file, line, kind, printable(name)));
  };
  for (const auto& m : d.rotations) claim(m.name, m.line, "rotation");
  for (const auto& s : d.sequences) claim(s.name, s.line, "MoveSequence");
  for (const auto& a : d.aliases) claim(a.name, a.line, "MoveAlias");
  const Resolver r(d);
  for (const auto& s : d.sequences) (void)r.resolve(s.name);
  for (const auto& a : d.aliases) (void)r.resolve(a.name);
}

}  // namespace tansaku::perm
