// Expanding base moves into their powers; move sequences (see generators.h).
#include "perm/generators.h"

#include <algorithm>

#include <fmt/format.h>

#include "tansaku/core/error.h"
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
      if (std::find(ms.bases.begin(), ms.bases.end(), found) == ms.bases.end()) ms.bases.push_back(found);
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

}  // namespace tansaku::perm
