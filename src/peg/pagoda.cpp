// Pagoda functions: checking and evaluating them, the GLPK linear programmes that find one
// separating a position from the goal, and the set of them used to prune the search.
#include "peg/pagoda.h"

#include <bit>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <set>
#include <unordered_set>

#include <fmt/format.h>
#include <glpk.h>

#include "peg/domain.h"

namespace tansaku::peg {

bool is_pagoda(const Board& bd, const Weights& w) {
  if (static_cast<int>(w.size()) != bd.n) return false;
  for (const auto& j : bd.jumps)
    if (static_cast<long>(w[j.to]) > static_cast<long>(w[j.from]) + static_cast<long>(w[j.over])) return false;
  return true;
}

long pagoda_value(const Weights& w, Bits pegs) {
  long s = 0;
  for (Bits r = pegs; r; r &= r - 1) s += w[static_cast<std::size_t>(std::countr_zero(r))];
  return s;
}

long pagoda_goal_value(const Weights& w, const Goal& goal) {
  if (!goal.anywhere) return pagoda_value(w, goal.pegs);
  long m = std::numeric_limits<long>::max() / 4;  // no possible last hole: nothing finishes
  for (Bits r = goal.finishers; r; r &= r - 1) m = std::min<long>(m, w[static_cast<std::size_t>(std::countr_zero(r))]);
  return m;
}

std::string format_weights(const Weights& w) {
  std::string s;
  for (std::size_t i = 0; i < w.size(); ++i) s += fmt::format("{}{}", i ? "," : "", w[i]);
  return s;
}

// ---------------------------------------------------------------------------------------
// GLPK: its primal simplex in floating point finds an optimal basis, then glp_exact
// re-solves from that basis in exact rational arithmetic, so the optimum it reports is a
// true vertex of the programme (not one a rounding error could have faked).
LpSolution solve_lp(const LinearProgram& lp, int max_pivots) {
  LpSolution sol;
  const int n = lp.vars, m = static_cast<int>(lp.rows.size());
  if (m == 0) {  // bounds only (GLPK wants rows): each variable at its better bound
    sol.x.assign(static_cast<std::size_t>(n), 0.0);
    for (int j = 0; j < n; ++j) {
      if (lp.c[j] <= 0) continue;
      if (std::isinf(lp.upper[j])) return sol;  // unbounded
      sol.x[j] = lp.upper[j], sol.value += lp.c[j] * lp.upper[j];
    }
    sol.optimal = true;
    return sol;
  }
  if (n == 0) {
    sol.optimal = true;
    return sol;
  }
  std::unique_ptr<glp_prob, void (*)(glp_prob*)> guard(glp_create_prob(), glp_delete_prob);
  glp_prob* P = guard.get();
  glp_set_obj_dir(P, GLP_MAX);
  glp_add_cols(P, n);
  for (int j = 0; j < n; ++j) {
    const double u = lp.upper[j];
    glp_set_col_bnds(P, j + 1, std::isinf(u) ? GLP_LO : u == 0 ? GLP_FX : GLP_DB, 0.0, std::isinf(u) ? 0.0 : u);
    glp_set_obj_coef(P, j + 1, lp.c[j]);
  }
  // The matrix, 1-based (GLPK leaves index 0 unused); repeated entries of a row are summed.
  std::vector<int> ia{0}, ja{0};
  std::vector<double> ar{0.0};
  glp_add_rows(P, m);
  for (int r = 0; r < m; ++r) {
    glp_set_row_bnds(P, r + 1, GLP_UP, 0.0, lp.rhs[r]);
    std::map<int, double> row;
    for (auto [j, a] : lp.rows[r]) row[j] += a;
    for (auto [j, a] : row)
      if (a != 0.0) ia.push_back(r + 1), ja.push_back(j + 1), ar.push_back(a);
  }
  glp_load_matrix(P, static_cast<int>(ia.size()) - 1, ia.data(), ja.data(), ar.data());
  glp_smcp sp;
  glp_init_smcp(&sp);
  sp.msg_lev = GLP_MSG_OFF;
  sp.it_lim = max_pivots;
  sp.pricing = GLP_PT_STD;  // Dantzig's rule
  sp.r_test = GLP_RT_STD;   // textbook ratio test
  int rc = glp_simplex(P, &sp);
  if (rc == 0 && glp_get_status(P) == GLP_OPT) {
    rc = glp_exact(P, &sp);
  }
  sol.pivots = glp_get_it_cnt(P);
  sol.optimal = rc == 0 && glp_get_status(P) == GLP_OPT;
  sol.x.resize(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) sol.x[j] = std::clamp(glp_get_col_prim(P, j + 1), 0.0, lp.upper[j]);
  for (int j = 0; j < n; ++j) sol.value += lp.c[j] * sol.x[j];
  return sol;
}

// ---------------------------------------------------------------------------------------

std::optional<Weights> integral_pagoda(const Board& bd, const std::vector<double>& w, Bits pegs, const Goal& goal,
                                       int max_weight) {
  double amax = 0;
  for (double v : w) amax = std::max(amax, std::abs(v));
  if (amax <= 0) return std::nullopt;
  // At most 64 scales (clamped as a double: a tiny amax would overflow an int).
  const int max_scale = static_cast<int>(std::clamp(std::floor(max_weight / amax), 1.0, 64.0));
  constexpr long kMaxTotal = 16000;  // sum of |weights| of a function worth keeping
  Weights wi(static_cast<std::size_t>(bd.n));
  for (int s = 1; s <= max_scale; ++s) {
    for (int h = 0; h < bd.n; ++h) wi[h] = static_cast<int>(std::lround(s * w[h]));
    // Lower the landing holes of violated jumps until every inequality holds (a few rounds).
    // Weights only decrease, so one below -kMaxTotal already rules this scale out; stopping
    // there also keeps the sums far from int overflow (a negative cycle would diverge).
    bool too_large = false;
    for (int round = 0; round < bd.n && !too_large && !is_pagoda(bd, wi); ++round)
      for (const auto& j : bd.jumps)
        if (wi[j.to] > wi[j.from] + wi[j.over]) {
          wi[j.to] = wi[j.from] + wi[j.over];
          if (wi[j.to] < -kMaxTotal) {
            too_large = true;
            break;
          }
        }
    if (too_large || !is_pagoda(bd, wi)) continue;
    long total = 0;
    int g = 0;
    for (int v : wi) total += std::abs(v), g = std::gcd(g, std::abs(v));
    if (g == 0 || total > kMaxTotal) continue;
    if (pagoda_goal_value(wi, goal) - pagoda_value(wi, pegs) <= 0) continue;
    for (int& v : wi) v /= g;
    if (*std::max_element(wi.begin(), wi.end()) > max_weight || *std::min_element(wi.begin(), wi.end()) < -max_weight)
      continue;
    return wi;
  }
  return std::nullopt;
}

// The LP: weights w = 1 - x with x in [0, 2] (so w in [-1, 1]); every jump gives
// x(from) + x(over) - x(to) <= 1, i.e. w(to) <= w(from) + w(over). The goal's value: its
// sum, or (anywhere) a variable t = 1 - x_t with t <= w(f), i.e. x_f - x_t <= 0, for every
// possible last hole f. Maximise P(goal) - P(pegs).
std::optional<Weights> separating_pagoda(const Board& bd, Bits pegs, const Goal& goal, int* pivots, int max_weight) {
  LinearProgram lp;
  const int n = bd.n;
  lp.vars = n + (goal.anywhere ? 1 : 0);
  lp.c.assign(static_cast<std::size_t>(lp.vars), 0.0);
  lp.upper.assign(static_cast<std::size_t>(lp.vars), 2.0);
  for (const auto& j : bd.jumps) {
    lp.rows.push_back({{j.from, 1.0}, {j.over, 1.0}, {j.to, -1.0}});
    lp.rhs.push_back(1.0);
  }
  double konst;
  const int np = std::popcount(pegs);
  for (Bits r = pegs; r; r &= r - 1) lp.c[std::countr_zero(r)] += 1.0;
  if (goal.anywhere) {
    if (!goal.finishers) return std::nullopt;
    for (Bits r = goal.finishers; r; r &= r - 1) {
      lp.rows.push_back({{std::countr_zero(r), 1.0}, {n, -1.0}});
      lp.rhs.push_back(0.0);
    }
    lp.c[n] = -1.0;
    konst = 1.0 - np;
  } else {
    for (Bits r = goal.pegs; r; r &= r - 1) lp.c[std::countr_zero(r)] -= 1.0;
    konst = static_cast<double>(std::popcount(goal.pegs)) - np;
  }
  const LpSolution sol = solve_lp(lp);
  if (pivots) *pivots += sol.pivots;
  if (!sol.optimal || konst + sol.value <= 1e-7) return std::nullopt;
  std::vector<double> w(static_cast<std::size_t>(n));
  for (int h = 0; h < n; ++h) w[h] = 1.0 - sol.x[h];
  return integral_pagoda(bd, w, pegs, goal, max_weight);
}

bool pagoda_enabled() {
  const char* v = std::getenv("TANSAKU_PEG_PAGODA");
  return !(v && std::string(v) == "0");
}

namespace {

Weights image(const Weights& w, const Perm& p) {  // w'(p(h)) = w(h)
  Weights r(w.size());
  for (std::size_t h = 0; h < w.size(); ++h) r[p[h]] = w[h];
  return r;
}

Bits image(Bits b, const Perm& p) {
  Bits r = 0;
  for (; b; b &= b - 1) r |= Bits{1} << p[static_cast<std::size_t>(std::countr_zero(b))];
  return r;
}

}  // namespace

PagodaSet find_pagodas(const Board& bd, const std::vector<Perm>& group, Bits start, const Goal& goal,
                       const PagodaOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  PagodaSet set;
  if (auto w = separating_pagoda(bd, start, goal, &set.pivots, opt.max_weight)) {
    set.proof = w;
    set.lps = 1;
    return set;
  }
  set.lps = 1;
  const auto stab = Symmetry::stabiliser(group, goal.anywhere ? goal.finishers : goal.pegs);
  // Sample positions from random playouts (distinct, short of the goal's peg count).
  std::mt19937_64 rng(opt.seed);
  std::vector<Bits> samples;
  std::unordered_set<Bits> seen;
  const int stop = goal.pegs_left();
  std::vector<int> legal;
  for (int k = 0; k < opt.playouts; ++k) {
    Bits b = start;
    while (std::popcount(b) > stop) {
      legal.clear();
      for (std::size_t i = 0; i < bd.jumps.size(); ++i) {
        const Jump& j = bd.jumps[i];
        if (((b >> j.from) & 1) && ((b >> j.over) & 1) && !((b >> j.to) & 1)) legal.push_back(static_cast<int>(i));
      }
      if (legal.empty()) break;
      b ^= bd.jumps[static_cast<std::size_t>(legal[rng() % legal.size()])].mask;
      if (std::popcount(b) > stop && seen.insert(b).second) samples.push_back(b);
    }
  }
  set.samples = static_cast<int>(samples.size());
  if (samples.empty()) return set;
  // Candidates: one LP per sampled position not yet refuted by a candidate's orbit.
  struct Cand {
    std::vector<Weights> orbit;
    std::vector<long> thr;
  };
  std::vector<Cand> cands;
  std::set<Weights> known;
  auto refutes = [&](const Cand& c, Bits b) {
    for (std::size_t i = 0; i < c.orbit.size(); ++i)
      if (pagoda_value(c.orbit[i], b) < c.thr[i]) return true;
    return false;
  };
  std::vector<std::size_t> order(samples.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  int fruitless = 0;  // LPs since the last new candidate
  for (std::size_t oi = 0; oi < order.size() && set.lps < opt.max_lps && fruitless < opt.max_fruitless; ++oi) {
    const Bits b = samples[order[oi]];
    bool done = false;
    for (const auto& c : cands) done = done || refutes(c, b);
    if (done) continue;
    ++set.lps;
    ++fruitless;
    auto w = separating_pagoda(bd, b, goal, &set.pivots, opt.max_weight);
    if (!w || known.count(*w)) continue;
    fruitless = 0;
    Cand c;
    for (const auto& p : stab) {
      Weights im = image(*w, p);
      if (std::find(c.orbit.begin(), c.orbit.end(), im) != c.orbit.end()) continue;
      known.insert(im);
      c.thr.push_back(pagoda_goal_value(im, goal));
      c.orbit.push_back(std::move(im));
    }
    cands.push_back(std::move(c));
  }
  set.candidates = static_cast<int>(cands.size());
  // Greedy cover of the samples.
  std::vector<std::vector<char>> hit(cands.size(), std::vector<char>(samples.size(), 0));
  for (std::size_t c = 0; c < cands.size(); ++c)
    for (std::size_t s = 0; s < samples.size(); ++s) hit[c][s] = refutes(cands[c], samples[s]);
  std::vector<char> covered(samples.size(), 0), used(cands.size(), 0);
  while (static_cast<int>(set.functions.size()) < opt.max_functions) {
    int best = -1, gain = 0;
    for (std::size_t c = 0; c < cands.size(); ++c) {
      if (used[c] || static_cast<int>(set.lanes.size() + cands[c].orbit.size()) > opt.max_lanes) continue;
      int g = 0;
      for (std::size_t s = 0; s < samples.size(); ++s) g += hit[c][s] && !covered[s];
      if (g > gain) gain = g, best = static_cast<int>(c);
    }
    if (best < 0) break;
    used[best] = 1;
    for (std::size_t s = 0; s < samples.size(); ++s) covered[s] |= hit[best][s];
    set.functions.push_back(cands[best].orbit[0]);
    for (const auto& w : cands[best].orbit) set.lanes.push_back(w);
  }
  for (char c : covered) set.refuted += c;
  if (std::getenv("TANSAKU_PEG_PAGODA_DEBUG"))
    fmt::print(stderr, "pagoda: {} samples, {} LPs ({} pivots), {} candidates, {} chosen ({} lanes) refute {}, {:.3f} s\n",
               set.samples, set.lps, set.pivots, set.candidates, set.functions.size(), set.lanes.size(), set.refuted,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return set;
}

// ---------------------------------------------------------------------------------------

PagodaPrune::PagodaPrune(const Board& bd, const std::vector<std::vector<std::pair<Weights, long>>>& groups) {
  int widest = 0;
  for (const auto& g : groups) widest = std::max(widest, static_cast<int>(g.size()));
  if (groups.empty() || widest == 0) return;
  for (const auto& g : groups)
    if (g.empty()) return;  // a goal image nothing refutes: never dead
  const int G = static_cast<int>(groups.size());
  int blocks = (widest + 15) / 16;
  if (G * blocks > kMaxBlocks) blocks = kMaxBlocks / G;  // keep the first functions of each group
  if (blocks == 0) return;
  blocks_ = blocks;
  groups_ = G;
  bytes_ = (bd.n + 7) / 8;
  const int B = groups_ * blocks_;
  std::vector<std::int16_t> base(static_cast<std::size_t>(B) * 16, 16384);
  std::vector<std::int16_t> table(static_cast<std::size_t>(bytes_) * 256 * B * 16, 0);
  std::vector<std::int16_t> loss(bd.jumps.size() * static_cast<std::size_t>(B) * 16, 0);
  const int L = B * 16;
  for (int g = 0; g < groups_; ++g)
    for (int i = 0; i < std::min<int>(blocks_ * 16, static_cast<int>(groups[g].size())); ++i) {
      const auto& [w, thr] = groups[g][static_cast<std::size_t>(i)];
      const int lane = g * blocks_ * 16 + i;
      ++functions_;
      base[lane] = static_cast<std::int16_t>(std::clamp<long>(-thr, -32000, 32000));
      for (int byte = 0; byte < bytes_; ++byte)
        for (int v = 0; v < 256; ++v) {
          long s = 0;
          for (int k = 0; k < 8; ++k)
            if (((v >> k) & 1) && byte * 8 + k < bd.n) s += w[static_cast<std::size_t>(byte * 8 + k)];
          table[(static_cast<std::size_t>(byte) * 256 + v) * L + lane] = static_cast<std::int16_t>(s);
        }
      for (std::size_t j = 0; j < bd.jumps.size(); ++j) {
        const Jump& jp = bd.jumps[j];
        loss[j * L + lane] = static_cast<std::int16_t>(w[jp.from] + w[jp.over] - w[jp.to]);
      }
    }
  auto pack = [](const std::vector<std::int16_t>& v) {
    std::vector<Block> out(v.size() / 16);
    std::memcpy(out.data(), v.data(), v.size() * sizeof(std::int16_t));
    return out;
  };
  base_ = pack(base);
  table_ = pack(table);
  loss_ = pack(loss);
}

PagodaPrune PagodaPrune::for_search(const Board& bd, const PagodaSet& set, const Goal& goal, const std::vector<Perm>& H) {
  if (set.lanes.empty()) return {};
  std::vector<std::pair<Bits, Bits>> images;  // (pegs, finishers) of each distinct goal image
  std::vector<std::vector<std::pair<Weights, long>>> groups;
  for (const auto& p : H) {
    Goal g = goal;
    g.pegs = image(goal.pegs, p);
    g.finishers = image(goal.finishers, p);
    if (std::find(images.begin(), images.end(), std::make_pair(g.pegs, g.finishers)) != images.end()) continue;
    images.emplace_back(g.pegs, g.finishers);
    std::vector<std::pair<Weights, long>> lanes;
    for (const auto& w : set.lanes) {
      Weights im = image(w, p);
      const long thr = pagoda_goal_value(im, g);
      lanes.emplace_back(std::move(im), thr);
    }
    groups.push_back(std::move(lanes));
  }
  return PagodaPrune(bd, groups);
}

}  // namespace tansaku::peg
