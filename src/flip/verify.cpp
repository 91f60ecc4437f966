// Bit-parallel replay of a press set: for each offset (dr, dc) of the rule the press vector
// is shifted by dr*C + dc bits, cells whose source crossed a row edge are masked off (or
// taken from the wrapped shift on a torus), and the results are XORed.
#include "flip/verify.h"

#include <stdexcept>

namespace tansaku::flip {
namespace {

// out bit i = x bit (i - s) for 0 <= i - s < n, else 0 (s may be negative).
Bits shifted(const Bits& x, std::int64_t s) {
  const auto n = static_cast<std::int64_t>(x.size());
  Bits out(x.size());
  if (s >= n || s <= -n) return out;
  const auto W = static_cast<std::int64_t>(x.words());
  const std::uint64_t* in = x.data();
  std::uint64_t* o = out.data();
  if (s >= 0) {
    const std::int64_t q = s / 64, b = s % 64;
    for (std::int64_t i = W - 1; i >= q; --i) {
      std::uint64_t v = in[i - q] << b;
      if (b && i - q - 1 >= 0) v |= in[i - q - 1] >> (64 - b);
      o[i] = v;
    }
  } else {
    const std::int64_t q = (-s) / 64, b = (-s) % 64;
    for (std::int64_t i = 0; i + q < W; ++i) {
      std::uint64_t v = in[i + q] >> b;
      if (b && i + q + 1 < W) v |= in[i + q + 1] << (64 - b);
      o[i] = v;
    }
  }
  out.trim();
  return out;
}

// out bit i = x bit ((i - s) mod n).
Bits rotated(const Bits& x, std::int64_t s) {
  const auto n = static_cast<std::int64_t>(x.size());
  s %= n;
  if (s < 0) s += n;
  if (s == 0) return x;
  Bits a = shifted(x, s);
  a |= shifted(x, s - n);
  return a;
}

// Cells whose column c satisfies lo <= c < hi.
Bits column_band(const Board& b, int lo, int hi) {
  Bits m(static_cast<std::size_t>(b.cells()));
  for (int r = 0; r < b.rows(); ++r)
    for (int c = std::max(lo, 0); c < std::min(hi, b.cols()); ++c) m.set(static_cast<std::size_t>(r) * b.cols() + c);
  return m;
}

}  // namespace

Replayer::Replayer(const Board& board) : torus_(board.torus()) {
  const std::int64_t C = board.cols();
  for (auto [dr, dc] : board.offsets()) {
    std::vector<Shift> parts;
    if (!torus_) {
      // q = p + (dr, dc): q's column minus dc must lie on the board.
      parts.push_back({dr * C + dc, column_band(board, dc, static_cast<int>(C) + dc)});
    } else {
      // dr, dc are normalised to [0, R) x [0, C): columns >= dc come from the same row band,
      // columns < dc wrapped around from the row's end.
      parts.push_back({dr * C + dc, column_band(board, dc, static_cast<int>(C))});
      if (dc > 0) parts.push_back({dr * C + dc - C, column_band(board, 0, dc)});
    }
    parts_.push_back(std::move(parts));
  }
}

Bits Replayer::effect(const Bits& presses) const {
  Bits out(presses.size());
  for (const auto& parts : parts_)
    for (const auto& part : parts) {
      Bits t = torus_ ? rotated(presses, part.amount) : shifted(presses, part.amount);
      t &= part.mask;
      out ^= t;
    }
  return out;
}

Bits effect(const Board& board, const Bits& presses) { return Replayer(board).effect(presses); }

void verify_solution(const Board& board, const Bits& start, const Bits& goal, const Bits& presses) {
  verify_solution(Replayer(board), start, goal, presses);
}

void verify_solution(const Replayer& replay, const Bits& start, const Bits& goal, const Bits& presses) {
  if (presses.size() != start.size() || goal.size() != start.size())
    throw std::logic_error("flip verifier: press set of the wrong size");
  Bits end = start ^ replay.effect(presses);
  if (!(end == goal)) throw std::logic_error("flip verifier: the presses do not turn the start into the goal");
}

}  // namespace tansaku::flip
