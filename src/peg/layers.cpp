// The layered engine's work: each layer built in parallel into a concurrent table and sorted,
// then explore, counting and least moves computed over the layers.
#include "peg/layers.h"

#include <algorithm>
#include <atomic>
#include <bit>

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/parallel_sort.h>
#include <tbb/task_arena.h>

#include "peg/jumpgen.h"
#include "peg/table.h"
#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"

namespace tansaku::peg {

namespace {

constexpr int kMaxGroup = 12;
constexpr std::size_t kBlock = std::size_t{1} << 12;

// A 128-bit counter as two words (16-byte aligned __int128 would double the table slot).
struct U128 {
  std::uint64_t lo = 0, hi = 0;
  unsigned __int128 value() const { return (static_cast<unsigned __int128>(hi) << 64) | lo; }
  static void merge(U128& v, const U128& a) {
    const std::uint64_t lo = v.lo + a.lo;
    v.hi += a.hi + (lo < v.lo);
    v.lo = lo;
  }
};

// Most legal jumps a position with `pegs` pegs can have.
std::uint64_t max_moves(const Board& bd, int pegs) {
  std::size_t from = 0, to = 0;
  for (int h = 0; h < bd.n; ++h) from = std::max(from, bd.jumps_from[h].size()), to = std::max(to, bd.jumps_to[h].size());
  return std::min<std::uint64_t>({bd.jumps.size(), static_cast<std::uint64_t>(pegs) * from,
                                  static_cast<std::uint64_t>(bd.n - pegs) * to});
}

// Tracks the memory the engine holds, refusing to go past the budget.
struct Memory {
  std::uint64_t budget, held = 0, peak = 0;
  const Board* bd;
  void need(std::uint64_t bytes, int layer) {
    if (held + bytes > budget)
      throw LimitError(fmt::format("{}: layer {} needs {} more; the memory budget is {} (--memory)", bd->name, layer,
                                   format_size(bytes), format_size(budget)));
    peak = std::max(peak, held + bytes);
  }
  void add(std::uint64_t bytes) {
    held += bytes;
    peak = std::max(peak, held);
  }
  void sub(std::uint64_t bytes) { held -= std::min(held, bytes); }
};

// Expands the layer `keys` into `next`. make(i, jump, t, min) gives the value a successor
// of keys[i] contributes; t[0..G) are the successor's images under H, min the smallest (its
// canonical form). Inserts are batched so that the table's cache misses overlap.
template <class V, class Make>
void expand(const Board& bd, const JumpGen& gen, const Symmetry& H, const std::vector<Bits>& keys, ConcurrentTable<V>& next, Make&& make,
            const search::Limits& lim, const PagodaPrune* pagoda, tbb::task_arena& arena, Memory& mem, int layer, std::uint64_t& generated) {
  const int G = H.order();
  std::atomic<std::uint64_t> count{0};
  for (std::size_t lo = 0; lo < keys.size(); lo += kBlock) {
    const std::size_t hi = std::min(keys.size(), lo + kBlock);
    if (lim.deadline) lim.deadline->check();
    if (lim.progress)
      lim.progress->update("layer {}: {} / {} positions expanded, {} found", layer, lo, keys.size(), next.size());
    const std::uint64_t succ = (hi - lo) * max_moves(bd, std::popcount(keys[lo]));
    const std::uint64_t before = next.bytes();
    if (std::uint64_t grow = next.bytes_to_fit(succ)) {
      mem.need(grow, layer);
      next.reserve(succ);
      mem.sub(before);
      mem.add(next.bytes());
    }
    arena.execute([&] {
      tbb::parallel_for(tbb::blocked_range<std::size_t>(lo, hi, 256), [&](const tbb::blocked_range<std::size_t>& r) {
        struct Pending {
          Bits key;
          std::size_t slot;
          V value;
        };
        constexpr int kBatch = 16;
        Pending buf[kBatch];
        int nb = 0;
        auto flush = [&] {
          for (int q = 0; q < nb; ++q) next.insert(buf[q].key, buf[q].slot, buf[q].value);
          nb = 0;
        };
        Bits tp[kMaxGroup], t[kMaxGroup];
        PagodaPrune::Block pv[PagodaPrune::kMaxBlocks];
        const PagodaPrune* prune = pagoda && pagoda->active() ? pagoda : nullptr;
        std::uint64_t local = 0;
        for (std::size_t i = r.begin(); i != r.end(); ++i) {
          const Bits b = keys[i];
          for (int g = 0; g < G; ++g) tp[g] = H.apply(g, b);
          if (prune) prune->values(b, pv);
          gen.for_each(b, [&](int ji) {
            if (prune && prune->dead_after(pv, ji)) return;
            Bits m = ~Bits{0};
            for (int g = 0; g < G; ++g) {
              t[g] = tp[g] ^ H.jump_image(g, ji);
              m = std::min(m, t[g]);
            }
            ++local;
            const std::size_t slot = next.home(m);
            next.prefetch(slot);
            buf[nb++] = {m, slot, make(i, ji, t, m)};
            if (nb == kBatch) flush();
          });
        }
        flush();
        count.fetch_add(local, std::memory_order_relaxed);
      });
    });
  }
  generated += count.load();
}

// Sorted keys (and values in the same order) out of a table.
template <class V>
void extract(const ConcurrentTable<V>& table, std::vector<Bits>& keys, std::vector<V>* vals) {
  if (!vals) {
    keys.clear();
    keys.reserve(table.size());
    table.for_each([&](Bits k, const V&) { keys.push_back(k); });
    tbb::parallel_sort(keys.begin(), keys.end());
    return;
  }
  std::vector<std::pair<Bits, V>> kv;
  kv.reserve(table.size());
  table.for_each([&](Bits k, const V& v) { kv.emplace_back(k, v); });
  tbb::parallel_sort(kv.begin(), kv.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  keys.resize(kv.size());
  vals->resize(kv.size());
  for (std::size_t i = 0; i < kv.size(); ++i) keys[i] = kv[i].first, (*vals)[i] = kv[i].second;
}

std::int64_t find_sorted(const std::vector<Bits>& keys, Bits k) {
  auto it = std::lower_bound(keys.begin(), keys.end(), k);
  return it != keys.end() && *it == k ? it - keys.begin() : -1;
}

// Orbit sizes summed over a layer.
std::uint64_t full_count(const Symmetry& H, const std::vector<Bits>& keys, tbb::task_arena& arena) {
  if (H.order() == 1) return keys.size();
  std::uint64_t total = 0;
  arena.execute([&] {
    total = tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, keys.size(), 4096), std::uint64_t{0},
        [&](const tbb::blocked_range<std::size_t>& r, std::uint64_t acc) {
          for (std::size_t i = r.begin(); i != r.end(); ++i)
            acc += static_cast<std::uint64_t>(H.order() / H.stabiliser_size(keys[i]));
          return acc;
        },
        std::plus<>());
  });
  return total;
}

}  // namespace

ExploreLayers explore_layers(const Board& bd, const Symmetry& H, Bits start, std::optional<int> finish, bool backward,
                             std::size_t keep, const search::Limits& lim) {
  ExploreLayers res;
  Memory mem{lim.memory, 0, 0, &bd};
  tbb::task_arena arena(static_cast<int>(std::max(1u, lim.threads)));
  const JumpGen gen(bd);
  std::vector<std::vector<Bits>> layers;
  layers.push_back({H.canonical(start)});
  mem.add(sizeof(Bits));
  while (true) {
    const auto& cur = layers.back();
    res.reduced.push_back(cur.size());
    res.full.push_back(full_count(H, cur, arena));
    ConcurrentTable<NoValue> next(1024);
    mem.add(next.bytes());
    expand(
        bd, gen, H, cur, next, [](std::size_t, int, const Bits*, Bits) { return NoValue{}; }, lim, nullptr, arena, mem,
        static_cast<int>(layers.size()), res.stats.generated);
    if (next.size() == 0) {
      mem.sub(next.bytes());
      break;
    }
    mem.need(next.size() * sizeof(Bits), static_cast<int>(layers.size()));
    std::vector<Bits> keys;
    extract<NoValue>(next, keys, nullptr);
    mem.sub(next.bytes());
    mem.add(keys.size() * sizeof(Bits));
    layers.push_back(std::move(keys));
  }
  const auto& deepest = layers.back();
  res.last.assign(deepest.begin(), deepest.begin() + static_cast<std::ptrdiff_t>(std::min(keep, deepest.size())));

  if (backward) {
    const std::size_t L = layers.size();
    res.finish_any_reduced.assign(L, 0);
    res.finish_any_full.assign(L, 0);
    res.finish_at_reduced.assign(L, 0);
    res.finish_at_full.assign(L, 0);
    const int G = H.order();
    // F = holes the last peg can end on, per position of the layer above.
    std::vector<Bits> F_next;
    for (std::size_t k = L; k-- > 0;) {
      const auto& keys = layers[k];
      std::vector<Bits> F(keys.size(), 0);
      mem.need(keys.size() * sizeof(Bits), static_cast<int>(k));
      if (lim.progress) lim.progress->update("can-finish pass: layer {}", k);
      if (lim.deadline) lim.deadline->check();
      if (k + 1 == L) {
        for (std::size_t i = 0; i < keys.size(); ++i)
          if (std::has_single_bit(keys[i])) F[i] = keys[i];
      } else {
        // Backwards from the positions that can finish: each predecessor p of such a
        // position c (a reverse jump, i.e. a jump of the complement of c) that was reached
        // in layer k gains c's holes, mapped like p onto its canonical form.
        mem.need(KeyMap<std::uint32_t>::bytes_for(keys.size()) + keys.size() * sizeof(Bits), static_cast<int>(k));
        const KeyMap<std::uint32_t> index(keys, [](std::size_t i) { return static_cast<std::uint32_t>(i); });
        std::vector<std::atomic<Bits>> acc(keys.size());
        for (auto& a : acc) a.store(0, std::memory_order_relaxed);
        const auto& above = layers[k + 1];
        arena.execute([&] {
          tbb::parallel_for(tbb::blocked_range<std::size_t>(0, above.size(), 1024), [&](const tbb::blocked_range<std::size_t>& r) {
            struct Pending {
              Bits key, f;
              std::size_t slot;
            };
            constexpr int kBatch = 16;
            Pending buf[kBatch];
            int nb = 0;
            auto flush = [&] {
              for (int q = 0; q < nb; ++q) {
                const std::uint32_t at = index.get(buf[q].key, buf[q].slot, 0xFFFFFFFFu);
                if (at != 0xFFFFFFFFu) acc[at].fetch_or(buf[q].f, std::memory_order_relaxed);
              }
              nb = 0;
            };
            Bits tp[kMaxGroup];
            for (std::size_t i = r.begin(); i != r.end(); ++i) {
              const Bits fc = F_next[i];
              if (!fc) continue;
              const Bits c = above[i];
              for (int g = 0; g < G; ++g) tp[g] = H.apply(g, c);
              gen.for_each(bd.all ^ c, [&](int ji) {
                Bits m = ~Bits{0};
                int w = 0;
                for (int g = 0; g < G; ++g) {
                  const Bits t = tp[g] ^ H.jump_image(g, ji);
                  if (t < m) m = t, w = g;
                }
                const std::size_t slot = index.home(m);
                index.prefetch(slot);
                buf[nb++] = {m, H.apply(w, fc), slot};
                if (nb == kBatch) flush();
              });
            }
            flush();
          });
        });
        // Each predecessor received its successors' holes under one of the maps onto its
        // canonical form; the true set is closed under the position's own symmetries.
        for (std::size_t i = 0; i < keys.size(); ++i) {
          const Bits f = acc[i].load(std::memory_order_relaxed);
          F[i] = f;
          if (!f || G == 1) continue;
          for (int g = 1; g < G; ++g)
            if (H.apply(g, keys[i]) == keys[i]) F[i] |= H.apply(g, f);
        }
      }
      // Tally.
      std::uint64_t any_r = 0, any_f = 0, at_r = 0, at_f = 0;
      for (std::size_t i = 0; i < keys.size(); ++i) {
        if (!F[i]) continue;
        const int stab = G == 1 ? 1 : H.stabiliser_size(keys[i]);
        ++any_r;
        any_f += static_cast<std::uint64_t>(G / stab);
        if (finish) {
          int hits = 0;
          for (int g = 0; g < G; ++g) hits += (F[i] >> H.perm(H.inverse(g))[*finish]) & 1;
          if (hits) ++at_r, at_f += static_cast<std::uint64_t>(hits / stab);
        }
      }
      res.finish_any_reduced[k] = any_r;
      res.finish_any_full[k] = any_f;
      res.finish_at_reduced[k] = at_r;
      res.finish_at_full[k] = at_f;
      F_next = std::move(F);
    }
  }
  res.stats.peak_bytes = mem.peak;
  return res;
}

CountResult count_layers(const Board& bd, const Symmetry& H, Bits start, const Goal& goal, const search::Limits& lim,
                         const PagodaPrune* prune) {
  CountResult res;
  Memory mem{lim.memory, 0, 0, &bd};
  tbb::task_arena arena(static_cast<int>(std::max(1u, lim.threads)));
  const JumpGen gen(bd);
  const int K = std::popcount(start) - goal.pegs_left();
  if (K < 0) return res;
  // T(position) = number of jump sequences from the start to any image of it (orbit total).
  std::vector<Bits> keys = {H.canonical(start)};
  std::vector<U128> T = {U128{1, 0}};
  res.positions = 1;
  for (int k = 1; k <= K && !keys.empty(); ++k) {
    ConcurrentTable<U128> next(1024);
    mem.add(next.bytes());
    expand(
        bd, gen, H, keys, next, [&](std::size_t i, int, const Bits*, Bits) { return T[i]; }, lim, prune, arena, mem, k,
        res.stats.generated);
    mem.need(next.size() * (sizeof(Bits) + sizeof(U128)) * 2, k);
    std::vector<Bits> nkeys;
    std::vector<U128> nT;
    extract<U128>(next, nkeys, &nT);
    mem.sub(next.bytes());
    keys = std::move(nkeys);
    T = std::move(nT);
    res.positions += keys.size();
  }
  if (keys.empty() || static_cast<int>(std::popcount(keys[0])) != goal.pegs_left()) return res;
  const int G = H.order();
  if (goal.anywhere) {
    // Every image of a reachable one-peg position is one too (and lies in the start's class).
    unsigned __int128 total = 0;
    for (std::size_t i = 0; i < keys.size(); ++i) total += T[i].value();
    res.count = to_mpz(total);
  } else {
    const std::int64_t at = find_sorted(keys, H.canonical(goal.pegs));
    if (at >= 0) {
      const int orbit = G / H.stabiliser_size(keys[static_cast<std::size_t>(at)]);
      res.count = to_mpz(T[static_cast<std::size_t>(at)].value() / static_cast<unsigned>(orbit));
    }
  }
  res.stats.peak_bytes = mem.peak;
  return res;
}

namespace {
struct MV {
  std::uint8_t m1 = 0;  // 1 + least moves reaching the position (0: none yet, the table's zero)
  Bits L = 0;           // holes the last run may have ended on, at that cost
  static void merge(MV& v, const MV& a) {
    if (v.m1 == 0 || a.m1 < v.m1) v = a;
    else if (a.m1 == v.m1) v.L |= a.L;
  }
};
}  // namespace

MovesResult min_moves_layers(const Board& bd, const Symmetry& H, Bits start, const Goal& goal, const search::Limits& lim,
                             const PagodaPrune* prune) {
  MovesResult res;
  Memory mem{lim.memory, 0, 0, &bd};
  tbb::task_arena arena(static_cast<int>(std::max(1u, lim.threads)));
  const JumpGen gen(bd);
  const int K = std::popcount(start) - goal.pegs_left();
  if (K < 0) return res;
  struct Layer {
    std::vector<Bits> keys;
    std::vector<std::uint8_t> m;
    std::vector<Bits> L;
  };
  std::vector<Layer> layers(1);
  layers[0].keys = {H.canonical(start)};
  layers[0].m = {0};
  layers[0].L = {0};
  res.positions = 1;
  for (int k = 1; k <= K; ++k) {
    const Layer& cur = layers.back();
    if (cur.keys.empty()) break;
    ConcurrentTable<MV> next(1024);
    mem.add(next.bytes());
    expand(
        bd, gen, H, cur.keys, next,
        [&](std::size_t i, int ji, const Bits* tr, Bits m) {
          const Jump& j = bd.jumps[ji];
          MV v;
          v.m1 = static_cast<std::uint8_t>(1 + cur.m[i] + (((cur.L[i] >> j.from) & 1) ? 0 : 1));
          for (int g = 0; g < H.order(); ++g)
            if (tr[g] == m) v.L |= Bits{1} << H.perm(g)[j.to];
          return v;
        },
        lim, prune, arena, mem, k, res.stats.generated);
    mem.need(next.size() * (sizeof(Bits) + sizeof(MV)) * 2, k);
    std::vector<Bits> keys;
    std::vector<MV> vals;
    extract<MV>(next, keys, &vals);
    mem.sub(next.bytes());
    Layer nl;
    nl.keys = std::move(keys);
    nl.m.resize(vals.size());
    nl.L.resize(vals.size());
    for (std::size_t i = 0; i < vals.size(); ++i) nl.m[i] = static_cast<std::uint8_t>(vals[i].m1 - 1), nl.L[i] = vals[i].L;
    mem.add(nl.keys.size() * (2 * sizeof(Bits) + 1));
    res.positions += nl.keys.size();
    layers.push_back(std::move(nl));
  }
  res.stats.peak_bytes = mem.peak;
  if (static_cast<int>(layers.size()) != K + 1 || layers.back().keys.empty()) return res;
  // The goal position and its cost.
  const Layer& last = layers.back();
  Bits x = 0;
  if (goal.anywhere) {
    int best = 256;
    for (std::size_t i = 0; i < last.keys.size(); ++i)
      if ((last.keys[i] & goal.finishers) && last.m[i] < best) best = last.m[i], x = last.keys[i];
    if (!x) return res;
  } else {
    x = goal.pegs;
    if (find_sorted(last.keys, H.canonical(x)) < 0) return res;
  }
  // Walk back: (x, c, l) with c = least moves to x and l a hole the last run may end on.
  auto lookup = [&](int k, Bits pos, int& m, Bits& L) {
    int w = 0;
    const Bits c = H.canonical(pos, &w);
    const std::int64_t at = find_sorted(layers[static_cast<std::size_t>(k)].keys, c);
    if (at < 0) return false;
    m = layers[static_cast<std::size_t>(k)].m[static_cast<std::size_t>(at)];
    L = H.apply(H.inverse(w), layers[static_cast<std::size_t>(k)].L[static_cast<std::size_t>(at)]);
    return true;
  };
  int c = 0;
  Bits L = 0;
  lookup(K, x, c, L);
  res.moves = c;
  int l = std::countr_zero(L);
  std::vector<int> rev;
  for (int k = K; k > 0; --k) {
    bool stepped = false;
    for (int ji : bd.jumps_to[l]) {
      const Jump& j = bd.jumps[ji];
      if (((x >> j.from) & 1) || ((x >> j.over) & 1) || !((x >> j.to) & 1)) continue;
      const Bits p = x ^ j.mask;
      int pm = 0;
      Bits pL = 0;
      if (!lookup(k - 1, p, pm, pL)) continue;
      if (((pL >> j.from) & 1) && pm == c) {
        x = p, l = j.from;
      } else if (pm + 1 == c && (k == 1 || pL)) {
        x = p, c = pm, l = k == 1 ? 0 : std::countr_zero(pL);
      } else {
        continue;
      }
      rev.push_back(ji);
      stepped = true;
      break;
    }
    if (!stepped) throw std::logic_error("peg: the layered dynamic programme lost its way back");
  }
  if (x != start) throw std::logic_error("peg: the walk back did not reach the start");
  res.jumps.assign(rev.rbegin(), rev.rend());
  res.found = true;
  return res;
}

}  // namespace tansaku::peg
