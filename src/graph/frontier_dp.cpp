// The frontier DP: the vertex order and plan, the per-step tables of frontier states with
// their counts (filled in parallel), and a path rebuilt from the tables when one exists.
#include "tansaku/graph/frontier_dp.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <new>
#include <tuple>
#include <type_traits>

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>
#include <tbb/task_arena.h>

#include "tansaku/core/bits.h"
#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/zeroed_pages.h"
#include "graph/wide_count.h"

namespace tansaku::graph {
namespace {

using u128 = unsigned __int128;

// Mate of a path end whose other end is already a final end of colour c: -1 - c.
constexpr int term(int c) { return -1 - c; }
constexpr int term_colour(int mate) { return -1 - mate; }

// What one step (taking vertex v) needs to know about the frontier.
struct Step {
  std::vector<int> prev;   // frontier before the step, ascending; v becomes slot prev.size()
  std::vector<int> back;   // slots (in prev) of v's neighbours u < v
  std::vector<char> leave; // per slot 0..prev.size(): leaves the frontier after this step
  std::vector<std::int8_t> rem;  // per slot: neighbours not yet taken (> v), edges it may still get
  std::vector<std::int8_t> colour;  // per slot: side of the bipartition (0 if not bipartite)
  int end_slot = -1;       // slot of the required endpoint, if it is on the frontier now
  bool end_gone = false;   // the required endpoint left before this step
  bool final = false;
  // Derived lists (slots of prev + v), so that a state's expansion looks only at what changes.
  std::vector<std::int8_t> leaves;      // slots that leave the frontier after this step
  std::vector<std::int8_t> keep;        // slots that stay, in order: the next frontier
  std::vector<std::int8_t> watch_mask;  // staying slots in back or v with rem < 2 (degree may change)
  std::vector<std::int8_t> watch_fixed; // other staying slots with rem < 2 (degree fixed in this step)
};

struct Plan {
  std::vector<Step> steps;
  int width = 0;         // largest stored frontier
  int ends_cap[2] = {2, 0};  // how many ends of a Hamiltonian path each colour can hold
  int end_colour = 0;    // colour of the required endpoint
  bool impossible = false;  // the colour classes alone rule out every path / cycle
};

// Colours of a bipartite graph (all 0 otherwise). In a bipartite graph a Hamiltonian path
// alternates sides: equal sides give one end on each, a side one larger holds both ends,
// anything else none; a cycle needs equal sides.
void colour_classes(const AdjacencyGraph& adj, bool closed, int endpoint, Plan& p,
                    std::vector<std::int8_t>& colour) {
  const int n = static_cast<int>(adj.size());
  colour.assign(n, -1);
  bool bipartite = true;
  for (int s = 0; s < n && bipartite; ++s) {
    if (colour[s] >= 0) continue;
    colour[s] = 0;
    std::vector<int> queue{s};
    for (std::size_t h = 0; h < queue.size() && bipartite; ++h)
      for (int w : adj[queue[h]]) {
        if (colour[w] < 0) colour[w] = static_cast<std::int8_t>(1 - colour[queue[h]]), queue.push_back(w);
        else if (colour[w] == colour[queue[h]]) bipartite = false;
      }
  }
  if (!bipartite) {
    std::fill(colour.begin(), colour.end(), 0);
    p.ends_cap[0] = 2, p.ends_cap[1] = 0;
  } else {
    const int a = static_cast<int>(std::count(colour.begin(), colour.end(), 0)), b = n - a;
    if (closed) p.impossible = a != b;
    else if (a == b) p.ends_cap[0] = 1, p.ends_cap[1] = 1;
    else if (a == b + 1) p.ends_cap[0] = 2, p.ends_cap[1] = 0;
    else if (b == a + 1) p.ends_cap[0] = 0, p.ends_cap[1] = 2;
    else p.impossible = true;
  }
  if (endpoint >= 0) {
    p.end_colour = colour[endpoint];
    if (p.ends_cap[p.end_colour] == 0) p.impossible = true;
  }
}

Plan make_plan(const AdjacencyGraph& adj, bool closed, int endpoint) {
  const int n = static_cast<int>(adj.size());
  std::vector<int> last(n);
  for (int u = 0; u < n; ++u) {
    last[u] = u;
    for (int w : adj[u]) last[u] = std::max(last[u], w);
  }
  Plan p;
  std::vector<std::int8_t> colour;
  colour_classes(adj, closed, endpoint, p, colour);
  p.steps.resize(n);
  std::vector<int> front;
  for (int v = 0; v < n; ++v) {
    Step& st = p.steps[v];
    st.prev = front;
    for (int u : adj[v])
      if (u < v) st.back.push_back(static_cast<int>(std::lower_bound(front.begin(), front.end(), u) - front.begin()));
    std::sort(st.back.begin(), st.back.end());
    std::vector<int> cur = front;
    cur.push_back(v);
    st.leave.resize(cur.size());
    st.rem.resize(cur.size());
    st.colour.resize(cur.size());
    for (std::size_t i = 0; i < cur.size(); ++i) st.colour[i] = colour[cur[i]];
    for (std::size_t i = 0; i < cur.size(); ++i)
      for (int w : adj[cur[i]]) st.rem[i] += w > v;
    std::vector<int> next;
    for (std::size_t i = 0; i < cur.size(); ++i) {
      st.leave[i] = last[cur[i]] <= v;
      if (!st.leave[i]) next.push_back(cur[i]);
      if (cur[i] == endpoint) st.end_slot = static_cast<int>(i);
    }
    st.end_gone = endpoint >= 0 && endpoint < v && last[endpoint] < v;
    st.final = v == n - 1;
    for (std::size_t i = 0; i < cur.size(); ++i) {
      const auto s8 = static_cast<std::int8_t>(i);
      if (st.leave[i]) {
        st.leaves.push_back(s8);
        continue;
      }
      st.keep.push_back(s8);
      if (st.rem[i] >= 2) continue;
      const bool touched = i + 1 == cur.size() || std::find(st.back.begin(), st.back.end(), static_cast<int>(i)) != st.back.end();
      (touched ? st.watch_mask : st.watch_fixed).push_back(s8);
    }
    front = std::move(next);
    p.width = std::max(p.width, static_cast<int>(front.size()));
    p.width = std::max(p.width, static_cast<int>(st.prev.size()));
  }
  return p;
}

template <class Key>
std::uint64_t mix(Key k) {
  std::uint64_t x = static_cast<std::uint64_t>(k);
  if constexpr (sizeof(Key) > 8) x ^= static_cast<std::uint64_t>(k >> 64) * 0xC2B2AE3D27D4EB4Full;
  return bits::mix64(x);
}

// Open-addressing map key -> count; ~0 never occurs as a state (labels occur twice).
// Counts are 64-bit first; an overflow is flagged and the count is redone in 128 bits.
// The table is kept from step to step (reset), and is resized only when far off.
template <class Key, class Count>
class CountMap {
 public:
  static constexpr Key kEmpty = ~Key(0);
  struct Entry {
    Key key;
    Count count;
  };
  CountMap() = default;
  CountMap(const CountMap&) = delete;
  ~CountMap() { release(); }
  void setup(std::atomic<std::uint64_t>* bytes, std::uint64_t budget) { bytes_ = bytes, budget_ = budget; }
  std::size_t size() const { return size_; }
  bool overflow() const { return overflow_; }
  // Empties the table, sized for about n entries.
  void reset(std::size_t n) {
    std::size_t want = 256;
    while (want < 2 * n) want *= 2;
    if (slots_.size() < want || slots_.size() > 4 * want) {
      release();
      std::vector<Entry, HugeAlloc<Entry>>().swap(slots_);
      size_ = 0, mask_ = 0;
      allocate(want);
    } else if (size_ > 0) {
      for (Entry& e : slots_) e.key = kEmpty;
      size_ = 0;
    }
  }
  void prefetch(std::uint64_t h) const { __builtin_prefetch(&slots_[h & mask_], 1); }
  void add(Key k, std::uint64_t h, Count c) {
    if ((size_ + 1) * 2 > slots_.size()) grow(), h = mix(k);
    std::size_t i = h & mask_;
    while (slots_[i].key != kEmpty && slots_[i].key != k) i = (i + 1) & mask_;
    Entry& e = slots_[i];
    if (e.key == kEmpty) e.key = k, e.count = 0, ++size_;
    overflow_ |= add_overflow(e.count, c);
  }
  void add(Key k, Count c) { add(k, mix(k), c); }
  template <class F>
  void for_each(F&& f) const {
    for (const Entry& e : slots_)
      if (e.key != kEmpty) f(e.key, e.count);
  }
  void clear() {
    release();
    std::vector<Entry, HugeAlloc<Entry>>().swap(slots_);
    size_ = 0, mask_ = 0;
  }

 private:
  void allocate(std::size_t cap) {
    const std::uint64_t need = cap * sizeof(Entry);
    if (bytes_) {
      const std::uint64_t now = bytes_->fetch_add(need) + need;
      if (now > budget_) {
        bytes_->fetch_sub(need);
        throw LimitError(fmt::format("the frontier dp: its tables outgrow the memory budget ({})",
                                     format_size(budget_)));
      }
    }
    std::vector<Entry, HugeAlloc<Entry>> slots(cap, Entry{kEmpty, 0});
    const std::size_t mask = cap - 1;
    for (const Entry& e : slots_) {
      if (e.key == kEmpty) continue;
      std::size_t i = mix(e.key) & mask;
      while (slots[i].key != kEmpty) i = (i + 1) & mask;
      slots[i] = e;
    }
    release();
    slots_.swap(slots), mask_ = mask, mine_ = need;
  }
  void grow() { allocate(slots_.empty() ? 256 : slots_.size() * 2); }
  void release() {
    if (bytes_ && mine_) bytes_->fetch_sub(mine_);
    mine_ = 0;
  }
  std::vector<Entry, HugeAlloc<Entry>> slots_;
  std::size_t size_ = 0, mask_ = 0;
  bool overflow_ = false;
  std::atomic<std::uint64_t>* bytes_ = nullptr;
  std::uint64_t budget_ = ~0ull, mine_ = 0;
};

// Overflow of 64-bit counts: the count restarts with 128-bit ones.
struct CountOverflow {};

template <class Key, class Count>
class FrontierDp {
 public:
  FrontierDp(const Plan& plan, const FrontierOptions& o, const search::Limits& lim) : plan_(plan), o_(o), lim_(lim) {}

  // Calls emit(mask, key) for each successor state of `key` at step v and accept(mask)
  // for each completed path / cycle; mask = chosen edges to st.back[...].
  // Slot codes: 0 degree 0, 1 degree 2, 2 / 3 a path end whose other end is a final end
  // of colour 0 / 1, 4.. a path end paired with the slot of the same label.
  template <class Emit, class Accept>
  void expand(const Step& st, Key key, Emit&& emit, Accept&& accept) const {
    const int k = static_cast<int>(st.prev.size());
    std::int8_t deg0[kMaxFrontier + 2], mate0[kMaxFrontier + 2];
    std::int8_t first[16];
    std::fill(std::begin(first), std::end(first), std::int8_t{-1});
    int ends0[2] = {0, 0};  // final ends so far, by colour
    {
      Key rest = key;
      for (int i = 0; i < k; ++i, rest >>= 4) {
        const int c = static_cast<int>(rest & 15u);
        const auto i8 = static_cast<std::int8_t>(i);
        if (c == 0) deg0[i] = 0, mate0[i] = i8;
        else if (c == 1) deg0[i] = 2, mate0[i] = 0;
        else if (c < 4) deg0[i] = 1, mate0[i] = static_cast<std::int8_t>(term(c - 2)), ++ends0[c - 2];
        else if (first[c] < 0) first[c] = i8, deg0[i] = 1;
        else deg0[i] = 1, mate0[i] = first[c], mate0[first[c]] = i8;
      }
    }
    deg0[k] = 0, mate0[k] = static_cast<std::int8_t>(k);
    // Slots whose degree this step cannot change: checked once (ends they force, dead states).
    int forced0[2] = {0, 0};
    if (!st.final)
      for (const std::int8_t i : st.watch_fixed) {
        if (deg0[i] + st.rem[i] >= 2) continue;
        if (deg0[i] + st.rem[i] == 0 || o_.closed) return;
        if (i != st.end_slot) ++forced0[st.colour[i]];
      }
    // Edges that may be chosen: not to a vertex of degree 2, nor a second one to the endpoint.
    const int nb = static_cast<int>(st.back.size());
    unsigned avail = 0;
    for (int j = 0; j < nb; ++j) {
      const int a = st.back[j];
      if (deg0[a] == 2 || (a == st.end_slot && deg0[a] == 1)) continue;
      avail |= 1u << j;
    }
    const int max_edges = st.end_slot == k ? 1 : 2;
    // A leaving vertex of degree 0 needs its edge to v (it can get at most that one, so in
    // a cycle it is dead); in a cycle one of degree 1 needs it too.
    unsigned required = 0;
    for (const std::int8_t i : st.leaves) {
      if (i == k || deg0[i] == 2) continue;
      if (deg0[i] == 0 && o_.closed) return;
      if (deg0[i] == 1 && !o_.closed) continue;
      const auto at = std::find(st.back.begin(), st.back.end(), i);
      if (at == st.back.end()) return;
      required |= 1u << (at - st.back.begin());
    }
    if ((required & avail) != required || std::popcount(required) > max_edges) return;
    auto one = [&](unsigned mask) {
      std::int8_t deg[kMaxFrontier + 2], mate[kMaxFrontier + 2];
      std::memcpy(deg, deg0, static_cast<std::size_t>(k + 1));
      std::memcpy(mate, mate0, static_cast<std::size_t>(k + 1));
      int ends[2] = {ends0[0], ends0[1]};
      bool complete = false;
      for (unsigned m = mask; m; m &= m - 1) {
        const int a = st.back[std::countr_zero(m)], b = k;
        if (deg[b] == 2) return;
        const int oa = deg[a] == 0 ? a : mate[a], ob = deg[b] == 0 ? b : mate[b];
        ++deg[a], ++deg[b];
        if (oa == b) {  // closes a cycle
          if (!o_.closed || !st.final) return;
          complete = true;
          continue;
        }
        if (oa < 0 && ob < 0) {  // joins the two final ends: the path is complete
          if (!st.final) return;
          complete = true;
        } else if (oa < 0) {
          mate[ob] = static_cast<std::int8_t>(oa);
        } else if (ob < 0) {
          mate[oa] = static_cast<std::int8_t>(ob);
        } else {
          mate[oa] = static_cast<std::int8_t>(ob), mate[ob] = static_cast<std::int8_t>(oa);
        }
      }
      bool end_gone = st.end_gone;
      // Final ends still allowed per colour (one is kept for the required endpoint).
      auto room = [&](int c) { return plan_.ends_cap[c] - (o_.endpoint >= 0 && !end_gone && c == plan_.end_colour); };
      for (const std::int8_t i : st.leaves) {
        if (deg[i] == 2) continue;
        if (complete || deg[i] == 0 || o_.closed) return;
        if (i == st.end_slot) end_gone = true;
        // A path end leaves for good: it is one of the two ends of the whole path.
        const int c = st.colour[i];
        if (ends[c] + 1 > room(c)) return;
        ++ends[c];
        if (mate[i] < 0) {
          if (!st.final) return;
          complete = true;
          continue;
        }
        mate[mate[i]] = static_cast<std::int8_t>(term(c));
      }
      if (st.final) {
        if (complete) accept(mask);
        return;
      }
      // Look ahead: a vertex that cannot reach degree 2 with the edges it has left must be
      // an end of the path, and the ends of each colour are limited.
      int forced[2] = {forced0[0], forced0[1]};
      for (const std::int8_t i : st.watch_mask) {
        if (deg[i] + st.rem[i] >= 2) continue;
        if (deg[i] + st.rem[i] == 0 || o_.closed) return;
        if (i != st.end_slot) ++forced[st.colour[i]];
      }
      if (ends[0] + forced[0] > room(0) || ends[1] + forced[1] > room(1)) return;
      // Encode the remaining frontier with pair labels in order of first appearance.
      // Branch-free: the codes depend on the data and would be mispredicted.
      Key out = 0;
      std::uint8_t label[32] = {};
      unsigned next_label = 4, shift = 0;
      for (const std::int8_t i : st.keep) {
        const int d = deg[i], m = mate[i];
        const bool opens = d == 1 && m > i;
        const unsigned own = next_label;
        label[i & 31] = static_cast<std::uint8_t>(own);
        next_label += opens;
        const unsigned other = label[m & 31];
        const unsigned end_code = m < 0 ? static_cast<unsigned>(1 - m) : (opens ? own : other);
        const unsigned c = d == 0 ? 0u : (d == 2 ? 1u : end_code);
        out |= static_cast<Key>(c) << shift;
        shift += 4;
      }
      emit(mask, out);
    };
    auto try_mask = [&](unsigned mask) {
      if ((mask & required) == required) one(mask);
    };
    try_mask(0);
    for (unsigned m1 = avail; m1; m1 &= m1 - 1) {
      const unsigned b1 = m1 & (0u - m1);
      try_mask(b1);
      if (max_edges == 2)
        for (unsigned m2 = m1 & (m1 - 1); m2; m2 &= m2 - 1) try_mask(b1 | (m2 & (0u - m2)));
    }
  }

  // Forward pass. keep: store every step's states (sorted) for rebuilding a solution.
  // Throws CountOverflow when Count is too narrow.
  FrontierStats run(bool keep) {
    if constexpr (std::is_same_v<Count, std::uint64_t>) return run_shared(keep);
    else return run_local(keep);
  }

  // 64-bit counts: one table shared by all threads (lock-free inserts, atomic adds), read
  // in place as the next step's layer. Two tables in all, about 23 (64-bit states) or 34
  // (128-bit states) bytes a state each, sized ahead from the growth seen at the last step
  // of the same shape. A 128-bit state is claimed by marking its low word busy, writing the
  // high word, then the low word (no state has a low word of all ones or ~1: a pair label
  // occurs at most twice).
  static constexpr bool kWideKey = sizeof(Key) > 8;
  struct NarrowEntry {
    std::uint64_t key, count;
    Key get() const { return static_cast<Key>(key); }
  };
  struct WideEntry {
    std::uint64_t key, high, count;  // key: the low word
    Key get() const { return static_cast<Key>(key) | (static_cast<Key>(high) << 64); }
  };
  using SharedEntry = std::conditional_t<kWideKey, WideEntry, NarrowEntry>;
  static SharedEntry entry(std::uint64_t low, std::uint64_t count) {
    SharedEntry e{};
    e.key = low, e.count = count;
    return e;
  }

  FrontierStats run_shared(bool keep) {
    using Entry = SharedEntry;
    static_assert(sizeof(Entry) == (kWideKey ? 24 : 16));
    constexpr std::uint64_t kEmpty = ~std::uint64_t{0}, kBusy = kEmpty - 1;
    using Table = std::vector<Entry, HugeAlloc<Entry>>;
    FrontierStats stats;
    std::uint64_t total_count = 0;
    stats.frontier = plan_.width;
    Table cur(1, entry(0, 1)), nxt;
    std::uint64_t cur_size = 1;
    tbb::task_arena arena(static_cast<int>(std::max(1u, lim_.threads)));
    const int n = static_cast<int>(plan_.steps.size());
    std::vector<double> ratio(n, 0.0);
    auto shape = [&](int v) {
      const Step& s = plan_.steps[v];
      return std::tuple(s.prev.size(), s.back.size(), s.leaves.size(), s.watch_mask.size(), s.watch_fixed.size());
    };
    for (int v = 0; v < n; ++v) {
      if (lim_.deadline) lim_.deadline->check();
      const Step& st = plan_.steps[v];
      // Growth forecast: the last step of the same shape, else the largest recent growth.
      double r = 0;
      for (int u = v - 1; u >= 0 && r == 0; --u)
        if (shape(u) == shape(v)) r = ratio[u] * 1.1;
      if (r == 0)
        for (int u = std::max(0, v - 8); u < v; ++u) r = std::max(r, ratio[u] * 1.25);
      // A step from no states has no ratio (0/0): fall back, and cap the forecast, so that the
      // double -> integer conversion below is always defined (NaN or 2^64 and above is not).
      if (!(r >= 1)) r = v == 0 ? 4 : 1;
      const double forecast = std::min(static_cast<double>(cur_size) * r / 0.7, 0x1p60);
      auto want = static_cast<std::uint64_t>(forecast) + 4096;
      std::uint64_t accepted = 0, used = 0;
      for (;;) {
        const std::uint64_t in_use = cur.size() * sizeof(Entry);
        if (in_use + want * sizeof(Entry) > lim_.memory) {
          // Squeeze into what the budget leaves, as long as it can hold this step's states.
          const std::uint64_t room = lim_.memory > in_use ? (lim_.memory - in_use) / sizeof(Entry) : 0;
          if (room < want / 2 || room < cur_size)
            throw LimitError(fmt::format(
                "counting: step {} of {} needs about {} for its frontier tables ({} states so far, {} in the last "
                "step), over the memory budget ({})",
                v + 1, n, format_size(in_use + want * sizeof(Entry)), stats.states, cur_size, format_size(lim_.memory)));
          want = room;
        }
        if (nxt.size() < want || nxt.size() > 2 * want) {
          Table().swap(nxt);
          nxt.assign(want, entry(kEmpty, 0));
        } else {
          arena.execute([&] {
            tbb::parallel_for(tbb::blocked_range<std::size_t>(0, nxt.size(), 1 << 16), [&](const auto& range) {
              for (std::size_t i = range.begin(); i < range.end(); ++i) nxt[i] = entry(kEmpty, 0);
            });
          });
        }
        const std::uint64_t cap = nxt.size(), limit = cap / 20 * 17;  // 85% load at most
        // New keys are reported in batches; what the threads hold back stays under 1/16.
        const auto batch = std::clamp<std::uint64_t>(
            cap / (16 * static_cast<std::uint64_t>(std::max(1, arena.max_concurrency()))), 1, 1024);
        Entry* slots = nxt.data();
        std::atomic<std::uint64_t> shared_used{0}, shared_acc{0};
        std::atomic<bool> full{false}, overflow{false};
        arena.execute([&] {
          tbb::parallel_for(tbb::blocked_range<std::size_t>(0, cur.size(), 2048), [&](const auto& range) {
            if (lim_.deadline && lim_.deadline->expired()) throw LimitError("time limit reached (--timeout)");
            if (full.load(std::memory_order_relaxed)) return;
            std::uint64_t fresh = 0, acc = 0;
            bool over = false;
            auto add = [&](Key key, std::uint64_t h, std::uint64_t c) {
              std::size_t i = static_cast<std::size_t>((static_cast<u128>(h) * cap) >> 64);
              const auto lo = static_cast<std::uint64_t>(key);
              std::uint64_t probes = 0;
              for (;;) {
                std::uint64_t seen = __atomic_load_n(&slots[i].key, __ATOMIC_ACQUIRE);
                if constexpr (kWideKey) {
                  const auto hi = static_cast<std::uint64_t>(key >> 64);
                  if (seen == kEmpty &&
                      __atomic_compare_exchange_n(&slots[i].key, &seen, kBusy, false, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
                    __atomic_store_n(&slots[i].high, hi, __ATOMIC_RELAXED);
                    __atomic_store_n(&slots[i].key, lo, __ATOMIC_RELEASE);
                    ++fresh;
                    break;
                  }
                  while (seen == kBusy) {
                    __builtin_ia32_pause();
                    seen = __atomic_load_n(&slots[i].key, __ATOMIC_ACQUIRE);
                  }
                  if (seen == lo && __atomic_load_n(&slots[i].high, __ATOMIC_RELAXED) == hi) break;
                } else {
                  if (seen == kEmpty &&
                      __atomic_compare_exchange_n(&slots[i].key, &seen, lo, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
                    ++fresh;
                    break;
                  }
                  if (seen == lo) break;
                }
                if (++i == cap) i = 0;
                if (++probes == cap) {  // full (only with a tiny table): this attempt is redone
                  full = true;
                  return;
                }
              }
              const std::uint64_t old = __atomic_fetch_add(&slots[i].count, c, __ATOMIC_RELAXED);
              over |= old + c < old;
              if (fresh >= batch) {
                if (shared_used.fetch_add(fresh) + fresh > limit) full = true;
                fresh = 0;
              }
            };
            // The table lookups miss the cache: each is prefetched and done kRing adds later.
            constexpr unsigned kRing = 16;
            struct Pending {
              Key key;
              std::uint64_t hash, count;
            };
            Pending ring[kRing];
            unsigned head = 0, pending = 0;
            auto flush_one = [&] {
              const Pending& e = ring[(head - pending) % kRing];
              add(e.key, e.hash, e.count);
              --pending;
            };
            for (std::size_t i = range.begin(); i < range.end(); ++i) {
              if (cur[i].key == kEmpty) continue;
              if (full.load(std::memory_order_relaxed)) return;
              const std::uint64_t c = cur[i].count;
              expand(
                  st, cur[i].get(),
                  [&](unsigned, Key key) {
                    if (pending == kRing) flush_one();
                    const std::uint64_t h = mix(key);
                    __builtin_prefetch(&slots[static_cast<std::size_t>((static_cast<u128>(h) * cap) >> 64)], 1);
                    ring[head++ % kRing] = {key, h, c};
                    ++pending;
                  },
                  [&](unsigned) { over |= add_overflow(acc, c); });
            }
            while (pending) flush_one();
            if (shared_used.fetch_add(fresh) + fresh > limit) full = true;
            if (over) overflow = true;
            if (shared_acc.fetch_add(acc) + acc < acc) overflow = true;
          });
        });
        if (overflow) throw CountOverflow{};
        if (!full) {
          accepted = shared_acc.load(), used = shared_used.load();
          break;
        }
        want *= 2;  // the forecast was short: redo the step with a larger table
      }
      if (add_overflow(total_count, accepted)) throw CountOverflow{};
      if (keep) {
        std::vector<Key> keys;
        keys.reserve(used);
        for (const Entry& e : nxt)
          if (e.key != kEmpty) keys.push_back(e.get());
        tbb::parallel_sort(keys.begin(), keys.end());
        kept_bytes_ += keys.size() * sizeof(Key);
        if (kept_bytes_ + (cur.size() + nxt.size()) * sizeof(Entry) > lim_.memory)
          throw LimitError(fmt::format("the frontier dp: its tables outgrow the memory budget ({})",
                                       format_size(lim_.memory)));
        layers_.push_back(std::move(keys));
      }
      ratio[v] = static_cast<double>(used) / static_cast<double>(cur_size);
      cur.swap(nxt);
      cur_size = used;
      stats.states += used;
      stats.widest = std::max<std::uint64_t>(stats.widest, used);
      stats.table_bytes = std::max<std::uint64_t>(stats.table_bytes, (cur.size() + nxt.size()) * sizeof(Entry));
      if (lim_.progress) lim_.progress->update("counting: vertex {} of {}, {} frontier states", v + 1, n, used);
    }
    stats.count = to_mpz(total_count);
    return stats;
  }

  FrontierStats run_local(bool keep) {
    FrontierStats stats;
    Count total_count = 0;
    stats.frontier = plan_.width;
    using Map = CountMap<Key, Count>;
    using Layer = std::vector<std::pair<Key, Count>, HugeAlloc<std::pair<Key, Count>>>;
    constexpr int kParts = 64;  // states are split by hash so the per-thread tables merge in parallel
    Layer layer{{Key(0), Count(1)}}, next;
    std::atomic<std::uint64_t> bytes{0};  // hash tables
    tbb::task_arena arena(static_cast<int>(std::max(1u, lim_.threads)));
    // Per-thread tables, kept from step to step (reset when a thread first works in a step).
    struct Local {
      std::vector<Map> parts;
      int step = -1;
    };
    tbb::enumerable_thread_specific<Local> locals([&] {
      Local l{std::vector<Map>(kParts)};
      for (auto& x : l.parts) x.setup(&bytes, lim_.memory);
      return l;
    });
    double growth = 1.0;
    const int n = static_cast<int>(plan_.steps.size());
    for (int v = 0; v < n; ++v) {
      if (lim_.deadline) lim_.deadline->check();
      const Step& st = plan_.steps[v];
      const auto expected = static_cast<std::size_t>(static_cast<double>(layer.size()) * growth / kParts);
      tbb::enumerable_thread_specific<Count> accepted(0);
      std::atomic<bool> overflow{false};
      arena.execute([&] {
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, layer.size(), 2048), [&](const auto& range) {
          if (lim_.deadline && lim_.deadline->expired()) throw LimitError("time limit reached (--timeout)");
          Local& local = locals.local();
          if (local.step != v) {
            for (auto& m : local.parts) m.reset(expected);
            local.step = v;
          }
          auto& map = local.parts;
          Count& acc = accepted.local();
          bool over = false;
          // The table lookups miss the cache: each is prefetched and done kRing adds later.
          constexpr unsigned kRing = 16;
          struct Pending {
            Key key;
            std::uint64_t hash;
            Count count;
          };
          Pending ring[kRing];
          unsigned head = 0, pending = 0;
          auto flush_one = [&] {
            const Pending& e = ring[(head - pending) % kRing];
            map[e.hash >> 58].add(e.key, e.hash, e.count);
            --pending;
          };
          for (std::size_t i = range.begin(); i < range.end(); ++i) {
            const Count c = layer[i].second;
            expand(
                st, layer[i].first,
                [&](unsigned, Key key) {
                  if (pending == kRing) flush_one();
                  const std::uint64_t h = mix(key);
                  map[h >> 58].prefetch(h);
                  ring[head++ % kRing] = {key, h, c};
                  ++pending;
                },
                [&](unsigned) { over |= add_overflow(acc, c); });
          }
          while (pending) flush_one();
          if (over) overflow = true;
        });
        // Merge part by part into the largest table of each part, then copy out.
        std::vector<Map*> big(kParts, nullptr);
        tbb::parallel_for(0, kParts, [&](int p) {
          for (auto& l : locals)
            if (l.step == v && (!big[p] || l.parts[p].size() > big[p]->size())) big[p] = &l.parts[p];
          if (!big[p]) return;
          for (auto& l : locals)
            if (l.step == v && &l.parts[p] != big[p]) l.parts[p].for_each([&](Key key, Count c) { big[p]->add(key, c); });
          if (big[p]->overflow()) overflow = true;
        });
        std::vector<std::size_t> offset(kParts + 1, 0);
        for (int p = 0; p < kParts; ++p) offset[p + 1] = offset[p] + (big[p] ? big[p]->size() : 0);
        const std::uint64_t need = bytes.load() + (layer.size() + offset[kParts]) * sizeof(layer[0]);
        if (need > lim_.memory)
          throw LimitError(fmt::format("the frontier dp: its tables outgrow the memory budget ({})",
                                       format_size(lim_.memory)));
        next.resize(offset[kParts]);
        tbb::parallel_for(0, kParts, [&](int p) {
          if (!big[p]) return;
          std::size_t at = offset[p];
          big[p]->for_each([&](Key key, Count c) { next[at++] = {key, c}; });
        });
      });
      if (overflow) throw CountOverflow{};
      for (Count a : accepted)
        if (add_overflow(total_count, a)) throw CountOverflow{};
      if (keep) {
        tbb::parallel_sort(next.begin(), next.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
        std::vector<Key> keys(next.size());
        for (std::size_t i = 0; i < next.size(); ++i) keys[i] = next[i].first;
        kept_bytes_ += keys.size() * sizeof(Key);
        if (kept_bytes_ + next.size() * sizeof(next[0]) > lim_.memory)
          throw LimitError(fmt::format("the frontier dp: its tables outgrow the memory budget ({})",
                                       format_size(lim_.memory)));
        layers_.push_back(std::move(keys));
      }
      if (!layer.empty() && !next.empty())
        growth = std::clamp(static_cast<double>(next.size()) / static_cast<double>(layer.size()), 0.5, 4.0);
      layer.swap(next);
      next.clear();
      stats.states += layer.size();
      stats.widest = std::max<std::uint64_t>(stats.widest, layer.size());
      stats.table_bytes = std::max<std::uint64_t>(stats.table_bytes, bytes.load() + (layer.capacity() + next.capacity()) * sizeof(layer[0]));
      if (lim_.progress) lim_.progress->update("counting: vertex {} of {}, {} frontier states", v + 1, n, layer.size());
    }
    stats.count = to_mpz(total_count);
    return stats;
  }

  // After run(true) with a non-zero count: the chosen edges of one solution.
  std::vector<std::pair<int, int>> rebuild() const {
    const int n = static_cast<int>(plan_.steps.size());
    // alive[v][i]: state i after step v can still be completed.
    std::vector<std::vector<char>> alive(n);
    tbb::task_arena arena(static_cast<int>(std::max(1u, lim_.threads)));
    for (int v = n - 1; v >= 1; --v) {
      const Step& st = plan_.steps[v];
      const auto& from = layers_[v - 1];
      auto& al = alive[v - 1];
      al.assign(from.size(), 0);
      arena.execute([&] {
        tbb::parallel_for(std::size_t{0}, from.size(), [&](std::size_t i) {
          bool good = false;
          expand(
              st, from[i],
              [&](unsigned, Key key) {
                if (good) return;
                const auto& to = layers_[v];
                auto it = std::lower_bound(to.begin(), to.end(), key);
                if (it != to.end() && *it == key && alive[v][it - to.begin()]) good = true;
              },
              [&](unsigned) { good = true; });
          al[i] = good;
        });
      });
    }
    std::vector<std::pair<int, int>> edges;
    Key cur = 0;
    for (int v = 0; v < n; ++v) {
      const Step& st = plan_.steps[v];
      bool chosen = false;
      unsigned pick = 0;
      Key pick_key = 0;
      expand(
          st, cur,
          [&](unsigned mask, Key key) {
            if (chosen) return;
            const auto& to = layers_[v];
            auto it = std::lower_bound(to.begin(), to.end(), key);
            if (it != to.end() && *it == key && alive[v][it - to.begin()]) chosen = true, pick = mask, pick_key = key;
          },
          [&](unsigned mask) {
            if (!chosen) chosen = true, pick = mask;
          });
      if (!chosen) throw std::logic_error("frontier DP: no live successor while rebuilding a solution");
      for (std::size_t j = 0; j < st.back.size(); ++j)
        if ((pick >> j) & 1u) edges.emplace_back(st.prev[st.back[j]], v);
      cur = pick_key;
    }
    return edges;
  }

 private:
  const Plan& plan_;
  const FrontierOptions& o_;
  const search::Limits& lim_;  // threads, memory (the tables), deadline, progress
  std::vector<std::vector<Key>> layers_;  // layers_[v] = sorted states after step v
  std::uint64_t kept_bytes_ = 0;
};

std::vector<int> walk(int n, const std::vector<std::pair<int, int>>& edges, bool closed, int start) {
  std::vector<std::vector<int>> g(n);
  for (auto [a, b] : edges) g[a].push_back(b), g[b].push_back(a);
  if (start < 0) {
    start = 0;
    if (!closed)
      for (int v = 0; v < n; ++v)
        if (g[v].size() == 1) {
          start = v;
          break;
        }
  }
  std::vector<int> path{start};
  int prev = -1, cur = start;
  while (static_cast<int>(path.size()) < n) {
    int nxt = -1;
    for (int w : g[cur])
      if (w != prev) {
        nxt = w;
        break;
      }
    if (nxt < 0) break;
    path.push_back(nxt);
    prev = cur, cur = nxt;
  }
  return path;
}

void check_width(const Plan& p) {
  if (p.width > kMaxFrontier)
    throw InputError(fmt::format("the frontier of this graph has {} vertices; the counting tables handle at most {}",
                                 p.width, kMaxFrontier));
}

}  // namespace

int frontier_width(const AdjacencyGraph& adj) { return make_plan(adj, false, -1).width; }

template <class Key>
FrontierStats count_with(const Plan& plan, const FrontierOptions& o, const search::Limits& lim) {
  try {
    return FrontierDp<Key, std::uint64_t>(plan, o, lim).run(false);
  } catch (const CountOverflow&) {
  }
  try {
    return FrontierDp<Key, u128>(plan, o, lim).run(false);
  } catch (const CountOverflow&) {
  }
  try {
    return FrontierDp<Key, Wide<8>>(plan, o, lim).run(false);
  } catch (const CountOverflow&) {
  }
  try {
    return FrontierDp<Key, Wide<32>>(plan, o, lim).run(false);
  } catch (const CountOverflow&) {
  }
  throw LimitError("counting: the partial counts exceed 2048 bits");
}

FrontierStats count_hamiltonian(const AdjacencyGraph& adj, const FrontierOptions& o, const search::Limits& limits) {
  const int n = static_cast<int>(adj.size());
  FrontierStats stats;
  if (n <= 1) {
    if (n == 1 && !o.closed) stats.count = 1;
    return stats;
  }
  Plan plan = make_plan(adj, o.closed, o.closed ? -1 : o.endpoint);
  check_width(plan);
  if (plan.impossible) return stats;
  if (plan.width <= 16) return count_with<std::uint64_t>(plan, o, limits);
  return count_with<u128>(plan, o, limits);
}

std::optional<std::vector<int>> find_hamiltonian(const AdjacencyGraph& adj, const FrontierOptions& o,
                                                 const search::Limits& limits, FrontierStats* stats) {
  const int n = static_cast<int>(adj.size());
  if (n <= 1) {
    if (stats) *stats = {};
    if (n == 1 && !o.closed) return std::vector<int>{0};
    return std::nullopt;
  }
  Plan plan = make_plan(adj, o.closed, o.closed ? -1 : o.endpoint);
  check_width(plan);
  if (plan.impossible) {
    if (stats) *stats = {};
    return std::nullopt;
  }
  // Only existence matters here: saturating counts.
  auto go = [&](auto dp) -> std::optional<std::vector<int>> {
    FrontierStats s = dp.run(true);
    if (stats) *stats = s;
    if (s.count == 0) return std::nullopt;
    return walk(n, dp.rebuild(), o.closed, o.endpoint);
  };
  if (plan.width <= 16) return go(FrontierDp<std::uint64_t, Saturating>(plan, o, limits));
  return go(FrontierDp<u128, Saturating>(plan, o, limits));
}

}  // namespace tansaku::graph
