// Fast knight's tours: Warnsdorff + Posa walks from the first square, then closed walks from
// central squares cut open, each tried with several tie-breaking rules and seeds.
#include "knights/warnsdorff.h"

#include <algorithm>

#include "tansaku/graph/warnsdorff_posa.h"

namespace tansaku::knights {
namespace {

enum class Tie { Edge, Centre, Random };

const char* tie_name(Tie t) {
  switch (t) {
    case Tie::Edge: return "ties towards the edge";
    case Tie::Centre: return "ties towards the centre";
    case Tie::Random: return "random ties";
  }
  return "";
}

struct Try {
  Tie tie;
  std::uint64_t seed;
};
// Roth's rule, the opposite rule, then random tie-breaks (which also reseed the random
// rotations): more of them on small boards, where a run is cheap.
std::vector<Try> tries(std::int64_t squares) {
  std::vector<Try> t = {{Tie::Edge, 0}, {Tie::Random, 1}, {Tie::Centre, 0}};
  const std::int64_t extra = std::clamp<std::int64_t>(4'000'000 / std::max<std::int64_t>(squares, 1), 5, 125);
  for (std::int64_t k = 0; k < extra; ++k) t.push_back({Tie::Random, static_cast<std::uint64_t>(k + 2)});
  return t;
}

// The tie-break key of a square (larger wins): distance from the centre, its opposite, or
// a hash of the square and the seed.
auto tie_key(const Board& b, Tie tie, std::uint64_t seed) {
  return [&b, tie, seed](std::int64_t sq) -> std::uint64_t {
    const std::int64_t dr = 2 * b.row(sq) - (b.rows() - 1), dc = 2 * b.col(sq) - (b.cols() - 1);
    const auto d = static_cast<std::uint64_t>(dr * dr + dc * dc);
    switch (tie) {
      case Tie::Edge: return d;
      case Tie::Centre: return ~d;
      case Tie::Random: {
        std::uint64_t x = static_cast<std::uint64_t>(sq) * 0x9E3779B97F4A7C15ull + seed;
        x ^= x >> 31;
        x *= 0xBF58476D1CE4E5B9ull;
        return x ^ (x >> 29);
      }
    }
    return d;
  };
}

// Squares near the centre, nearest first (Roth's walk ends near the centre, so a walk
// started there ends next to its first square more often than not).
std::vector<std::int64_t> central_squares(const Board& b, int count) {
  std::vector<std::int64_t> out;
  const int r0 = (b.rows() - 1) / 2, c0 = (b.cols() - 1) / 2;
  for (int radius = 0; static_cast<int>(out.size()) < count && radius <= std::max(b.rows(), b.cols()); ++radius)
    for (int dr = -radius; dr <= radius; ++dr)
      for (int dc = -radius; dc <= radius; ++dc) {
        if (std::max(std::abs(dr), std::abs(dc)) != radius || !b.inside(r0 + dr, c0 + dc)) continue;
        if (static_cast<int>(out.size()) < count) out.push_back(static_cast<std::int64_t>(r0 + dr) * b.cols() + c0 + dc);
      }
  return out;
}

}  // namespace

std::optional<std::vector<std::int32_t>> warnsdorff_tour(const Board& b, std::int64_t from, bool closed,
                                                         const search::Limits& lim, WarnsdorffStats* stats_out) {
  WarnsdorffStats local;
  WarnsdorffStats& stats = stats_out ? *stats_out : local;
  const std::int64_t n = b.squares();
  if (n == 1) {
    if (closed) return std::nullopt;
    stats.method = "a single square";
    return std::vector<std::int32_t>{0};
  }
  graph::PosaStats st;
  graph::WarnsdorffPosa<Board> w(b, st);
  auto done = [&](std::string method) {
    stats.steps = st.steps, stats.rotations = st.rotations, stats.attempts = st.attempts;
    stats.method = std::move(method);
    return std::vector<std::int32_t>(w.path().begin(), w.path().end());
  };
  auto options = [&](std::uint64_t rotations, std::uint64_t seed) {
    graph::PosaOptions o;
    o.rotations = rotations;
    o.work = 21 * static_cast<std::uint64_t>(n) + 1000000;
    o.seed = seed;
    return o;
  };
  if (!closed) {
    for (const Try& t : tries(n))
      if (w.walk(static_cast<int>(from), tie_key(b, t.tie, t.seed), options(2000, t.seed), lim))
        return done(std::string("from the first square, ") + tie_name(t.tie));
  }
  if (n % 2 == 0) {  // a closed tour alternates colours: even boards only
    // A closed tour, then cut open at `from`.
    for (const Try& t : tries(n))
      for (std::int64_t c : central_squares(b, 4))
        if (w.walk(static_cast<int>(c), tie_key(b, t.tie, t.seed), options(2000, t.seed), lim) &&
            w.close(options(5000, t.seed), lim)) {
          auto& p = w.path();
          std::rotate(p.begin(), std::find(p.begin(), p.end(), static_cast<int>(from)), p.end());
          return done(std::string("closed tour from the centre, ") + tie_name(t.tie) +
                      (closed ? "" : ", cut open at the first square"));
        }
  }
  stats.steps = st.steps, stats.rotations = st.rotations, stats.attempts = st.attempts;
  return std::nullopt;
}

}  // namespace tansaku::knights
