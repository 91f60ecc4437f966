// The square-sum graph on 1..N: u and v are adjacent when u + v is a perfect square.
// Neighbours are generated from the squares on the fly (no adjacency is stored), in
// ascending order, so the graph costs nothing for N = 100,000 and beyond.
#pragma once
#include <cmath>
#include <cstdint>

namespace tansaku::square_sum {

inline std::int64_t isqrt(std::int64_t x) {
  auto r = static_cast<std::int64_t>(std::sqrt(static_cast<double>(x)));
  while (r * r > x) --r;
  while ((r + 1) * (r + 1) <= x) ++r;
  return r;
}

inline bool is_square(std::int64_t x) {
  if (x < 0) return false;
  const std::int64_t r = isqrt(x);
  return r * r == x;
}

inline bool adjacent(int u, int v) { return u != v && is_square(static_cast<std::int64_t>(u) + v); }

// Calls f(u) for every neighbour u of v in 1..n, ascending.
template <class F>
inline void for_each_neighbour(int n, int v, F&& f) {
  std::int64_t s = isqrt(static_cast<std::int64_t>(v));  // smallest s with s^2 > v
  ++s;
  const std::int64_t hi = static_cast<std::int64_t>(v) + n;
  for (std::int64_t sq = s * s; sq <= hi; sq += 2 * s + 1, ++s) {
    const auto u = static_cast<int>(sq - v);
    if (u != v) f(u);
  }
}

// The number of neighbours of v in 1..n, in O(1): the squares s^2 in (v, v + n], less one
// when 2v is a square (v would be its own partner).
inline int degree(int n, int v) {
  const std::int64_t v64 = v;
  return static_cast<int>(isqrt(v64 + n) - isqrt(v64) - (is_square(2 * v64) ? 1 : 0));
}

// The same graph as a graph::Graph for the graph module's searches: vertex v is the
// number v + 1.
struct SquareSumGraph {
  int n;
  std::int64_t size() const { return n; }
  int degree(int v) const { return square_sum::degree(n, v + 1); }
  bool adjacent(int a, int b) const { return square_sum::adjacent(a + 1, b + 1); }
  template <class F>
  void for_each_neighbor(int v, F&& f) const {
    for_each_neighbour(n, v + 1, [&](int u) { f(u - 1); });
  }
};

}  // namespace tansaku::square_sum
