// Light chasing for any 3x3 rule, plain or torus. Presses are visited in a scan order; a
// cell whose last press (in that order) is the one being visited decides it: the press
// equals the cell's target plus all its other, earlier presses. A press no cell decides
// becomes a free variable; the other cells whose last press it is become equations. Each
// press is carried symbolically as an affine form over the F free variables (F + 1 bits),
// only for the rows of the scan still needed, so memory is a few rows of F-bit vectors.
// M4RI eliminates the F x F system; a second, numeric chase (64 lanes at a time: the
// particular solution and the quiet patterns) expands the answers to whole boards.
//
// For Lights Out the scan from the top leaves the first row free (F = C), the classic
// chase. For the 8-flip the last press of cell (r, c) is (r+1, c+1), so the first row and
// the first column are free (F = R + C - 1) and the last row and column give the equations;
// unlike the row-by-row chase (whose C x C tridiagonal step is singular when C = 2 mod 3)
// this never needs to invert anything.
#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "flip/linear.h"
#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"

namespace tansaku::flip {
namespace {

// A scan order: row- or column-major (transpose), from the top or bottom, left or right.
struct Order {
  int rows, cols;  // of the board
  bool transpose, flip_r, flip_c;
  std::int64_t Rp() const { return transpose ? cols : rows; }
  std::int64_t Cp() const { return transpose ? rows : cols; }
  std::int64_t ord(std::int64_t r, std::int64_t c) const {
    std::int64_t a = transpose ? c : r, b = transpose ? r : c;
    if (flip_r) a = Rp() - 1 - a;
    if (flip_c) b = Cp() - 1 - b;
    return a * Cp() + b;
  }
  std::int64_t pos(std::int64_t t) const {
    std::int64_t a = t / Cp(), b = t % Cp();
    if (flip_r) a = Rp() - 1 - a;
    if (flip_c) b = Cp() - 1 - b;
    const std::int64_t r = transpose ? b : a, c = transpose ? a : b;
    return r * cols + c;
  }
  std::string describe() const {
    const char* major = transpose ? "column-major" : "row-major";
    const char* v = transpose ? (flip_r ? "right" : "left") : (flip_r ? "bottom" : "top");
    const char* h = transpose ? (flip_c ? "bottom" : "top") : (flip_c ? "right" : "left");
    return fmt::format("{} scan from the {}-{}", major, v, h);
  }
};

// For every cell, the scan time of its last press (-1: no press reaches it).
template <class F>
void for_each_last_press(const Board& b, const Order& o, Deadline* deadline, F&& f) {
  const int R = b.rows(), C = b.cols();
  const auto& offs = b.offsets();
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) {
      if (deadline && c == 0 && (r & 15) == 0) deadline->check();
      std::int64_t m = -1;
      for (auto [dr, dc] : offs) {
        int rr = r - dr, cc = c - dc;
        if (b.torus()) {
          if (rr < 0) rr += R;
          if (cc < 0) cc += C;
        } else if (rr < 0 || rr >= R || cc < 0 || cc >= C) {
          continue;
        }
        m = std::max(m, o.ord(rr, cc));
      }
      f(static_cast<std::int64_t>(r) * C + c, m);
    }
}

std::int64_t count_free(const Board& b, const Order& o, std::vector<char>& decided, Deadline* deadline) {
  decided.assign(static_cast<std::size_t>(b.cells()), 0);
  for_each_last_press(b, o, deadline, [&](std::int64_t, std::int64_t m) {
    if (m >= 0) decided[static_cast<std::size_t>(m)] = 1;
  });
  return static_cast<std::int64_t>(std::count(decided.begin(), decided.end(), 0));
}

}  // namespace

LinearResult solve_chase(const Board& board, const Bits& rhs, const LinearOptions& opt, const search::Limits& lim) {
  const std::int64_t n = board.cells();
  // Pick the scan order with the fewest free presses. A point-symmetric rule looks the same
  // after a half turn, so only four orders need trying then.
  std::vector<char> decided;
  Order best{board.rows(), board.cols(), false, false, false};
  std::int64_t F = -1;
  for (int k = 0; k < 8; ++k) {
    Order o{board.rows(), board.cols(), (k & 4) != 0, (k & 2) != 0, (k & 1) != 0};
    if (board.rule().point_symmetric() && o.flip_r) continue;
    const std::int64_t f = count_free(board, o, decided, lim.deadline);
    if (F < 0 || f < F) F = f, best = o;
  }
  const Order o = best;
  const std::int64_t Rp = o.Rp(), Cp = o.Cp();
  const std::int64_t W = (F + 1 + 63) / 64;  // words of an affine form: F coefficients + constant

  // Which cell decides each press, the equations (cell, time), and how long each scan row
  // of symbolic presses is needed.
  std::vector<std::int64_t> decider(static_cast<std::size_t>(n), -1);
  std::vector<std::pair<std::int64_t, std::int64_t>> equations;  // (time, cell); time -1: no press at all
  std::vector<std::int64_t> row_last(static_cast<std::size_t>(Rp), -1);
  for_each_last_press(board, o, lim.deadline, [&](std::int64_t q, std::int64_t m) {
    if (m >= 0 && decider[static_cast<std::size_t>(m)] < 0)
      decider[static_cast<std::size_t>(m)] = q;
    else
      equations.emplace_back(m, q);
    board.for_each_presser(q, [&](std::int64_t p) {
      auto& last = row_last[static_cast<std::size_t>(o.ord(p / board.cols(), p % board.cols()) / Cp)];
      last = std::max(last, m);
    });
  });
  std::sort(equations.begin(), equations.end());
  if (static_cast<std::int64_t>(equations.size()) != F)
    throw std::logic_error("flip chase: equations and free presses differ in number");

  // Memory: the scan bookkeeping, the live rows of affine forms, the reduced matrix, the lanes.
  {
    // Row a is held from its first press until the end of the scan row of its last reader.
    std::vector<std::int64_t> diff(static_cast<std::size_t>(Rp) + 1, 0);
    for (std::int64_t a = 0; a < Rp; ++a) {
      const std::int64_t until = std::max(a, row_last[static_cast<std::size_t>(a)] / Cp);
      ++diff[static_cast<std::size_t>(a)];
      --diff[static_cast<std::size_t>(until) + 1];
    }
    std::int64_t live_rows = 0, cur = 0;
    for (std::int64_t a = 0; a < Rp; ++a) live_rows = std::max(live_rows, cur += diff[static_cast<std::size_t>(a)]);
    const std::uint64_t need = static_cast<std::uint64_t>(n) * (8 + 8 + 8 + 1) +  // deciders, equations, lanes
                               static_cast<std::uint64_t>(live_rows * Cp * W * 8) +
                               static_cast<std::uint64_t>(F * W * 8);
    require_memory(need, lim.memory, "light chasing");
  }

  // Symbolic chase.
  std::unique_ptr<mzd_t, MzdFree> M(mzd_init(static_cast<rci_t>(F), static_cast<rci_t>(F + 1)));
  std::vector<std::vector<std::uint64_t>> rowstore(static_cast<std::size_t>(Rp));
  std::vector<std::int64_t> live;
  auto form = [&](std::int64_t p) -> std::uint64_t* {
    const std::int64_t t = o.ord(p / board.cols(), p % board.cols());
    auto& row = rowstore[static_cast<std::size_t>(t / Cp)];
    if (row.empty()) throw std::logic_error("flip chase: a press was released too early");
    return row.data() + (t % Cp) * W;
  };
  auto accumulate = [&](std::uint64_t* acc, std::int64_t q, std::int64_t skip) {
    if (rhs.get(static_cast<std::size_t>(q))) acc[F >> 6] ^= std::uint64_t{1} << (F & 63);
    board.for_each_presser(q, [&](std::int64_t p) {
      if (p == skip) return;
      const std::uint64_t* v = form(p);
      for (std::int64_t w = 0; w < W; ++w) acc[w] ^= v[w];
    });
  };
  std::size_t next_eq = 0;
  std::int64_t eq_row = 0, next_free = 0;
  std::vector<std::uint64_t> acc(static_cast<std::size_t>(W));
  auto emit_equations = [&](std::int64_t t) {
    while (next_eq < equations.size() && equations[next_eq].first == t) {
      std::fill(acc.begin(), acc.end(), 0);
      accumulate(acc.data(), equations[next_eq].second, -1);
      std::memcpy(mzd_row(M.get(), static_cast<rci_t>(eq_row)), acc.data(), static_cast<std::size_t>(W) * 8);
      ++eq_row, ++next_eq;
    }
  };
  emit_equations(-1);
  for (std::int64_t t = 0; t < n; ++t) {
    const std::int64_t a = t / Cp;
    if (t % Cp == 0) {
      rowstore[static_cast<std::size_t>(a)].assign(static_cast<std::size_t>(Cp * W), 0);
      live.push_back(a);
      if (lim.deadline) lim.deadline->check();
    }
    std::uint64_t* v = rowstore[static_cast<std::size_t>(a)].data() + (t % Cp) * W;
    const std::int64_t p = o.pos(t);
    const std::int64_t q = decider[static_cast<std::size_t>(t)];
    if (q < 0) {
      const std::int64_t i = next_free++;
      v[i >> 6] ^= std::uint64_t{1} << (i & 63);
    } else {
      accumulate(v, q, p);
    }
    emit_equations(t);
    if ((t + 1) % Cp == 0) {  // release the rows no later cell reads
      std::erase_if(live, [&](std::int64_t row) {
        if (row_last[static_cast<std::size_t>(row)] > t) return false;
        std::vector<std::uint64_t>().swap(rowstore[static_cast<std::size_t>(row)]);
        return true;
      });
    }
  }
  rowstore.clear();
  if (next_free != F || eq_row != F) throw std::logic_error("flip chase: bookkeeping mismatch");

  Rref e = eliminate(M.get(), F, opt.want_kernel, lim.memory);
  M.reset();

  LinearResult res;
  res.solvable = e.consistent;
  res.rank = n - (F - e.rank);
  res.nullity = F - e.rank;
  res.unknowns = F;
  res.method = fmt::format("light chasing ({}, {} free presses) + M4RI elimination of the {}x{} system",
                           o.describe(), F, F, F);

  // Numeric chase, 64 lanes at a time: lane 0 of the first pass is the particular solution
  // (right-hand side included), every other lane a quiet pattern (right-hand side 0).
  const std::int64_t lanes = 1 + (opt.want_kernel ? res.nullity : 0);
  if (opt.want_kernel)
    require_memory(static_cast<std::uint64_t>(res.nullity) * static_cast<std::uint64_t>((n + 63) / 64) * 8 +
                       static_cast<std::uint64_t>(n) * 8,
                   lim.memory, "the quiet patterns of the whole board");
  std::vector<std::uint64_t> x(static_cast<std::size_t>(n));
  std::vector<std::uint64_t> freeword(static_cast<std::size_t>(F));
  res.particular = Bits(static_cast<std::size_t>(n));
  for (std::int64_t first = 0; first < lanes; first += 64) {
    const std::int64_t count = std::min<std::int64_t>(64, lanes - first);
    std::fill(freeword.begin(), freeword.end(), 0);
    for (std::int64_t j = 0; j < count; ++j) {
      const std::int64_t g = first + j;
      const Bits& src = g == 0 ? e.particular : e.kernel[static_cast<std::size_t>(g - 1)];
      for (auto i : src.ones()) freeword[static_cast<std::size_t>(i)] |= std::uint64_t{1} << j;
    }
    const std::uint64_t cmask = first == 0 ? 1 : 0;
    std::int64_t idx = 0;
    for (std::int64_t t = 0; t < n; ++t) {
      if (lim.deadline && (t & 0xffff) == 0) lim.deadline->check();
      const std::int64_t p = o.pos(t);
      const std::int64_t q = decider[static_cast<std::size_t>(t)];
      std::uint64_t v;
      if (q < 0) {
        v = freeword[static_cast<std::size_t>(idx++)];
      } else {
        v = rhs.get(static_cast<std::size_t>(q)) ? cmask : 0;
        board.for_each_presser(q, [&](std::int64_t pp) {
          if (pp != p) v ^= x[static_cast<std::size_t>(pp)];
        });
      }
      x[static_cast<std::size_t>(p)] = v;
    }
    std::vector<Bits> out(static_cast<std::size_t>(count), Bits(static_cast<std::size_t>(n)));
    for (std::int64_t p = 0; p < n; ++p)
      for (std::uint64_t v = x[static_cast<std::size_t>(p)]; v; v &= v - 1)
        out[static_cast<std::size_t>(std::countr_zero(v))].set(static_cast<std::size_t>(p));
    for (std::int64_t j = 0; j < count; ++j) {
      if (first + j == 0)
        res.particular = std::move(out[0]);
      else
        res.kernel.push_back(std::move(out[static_cast<std::size_t>(j)]));
    }
    if (lim.deadline) lim.deadline->check();
  }
  return res;
}

}  // namespace tansaku::flip
