// Hash tables of positions for the layered engine:
//  - ConcurrentTable<V>: open addressing over one array of slots (key, value, lock), so an
//    insert touches one cache line; keys are nonzero bitboards claimed by CAS, values merged
//    under the slot's spin lock (no value, no lock for plain sets). It is grown between
//    rounds by the caller, never during inserts. `prefetch` lets callers hide the miss.
//    Slots start as zero bytes, so a value type's identity must be all zeros.
//  - KeyMap<V>: a read-only key -> value map over a finished layer, same layout.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "peg/board.h"
#include "tansaku/core/bits.h"
#include "tansaku/core/zeroed_pages.h"

namespace tansaku::peg {

using bits::mix64;

struct NoValue {
  static void merge(NoValue&, const NoValue&) {}
};

namespace detail {
template <class V, bool = std::is_same_v<V, NoValue>>
struct Slot {
  std::atomic<Bits> key;
  std::atomic<std::uint8_t> lock;
  V value;
};
template <class V>
struct Slot<V, true> {
  std::atomic<Bits> key;
};
}  // namespace detail

template <class V>
class ConcurrentTable {
  static constexpr bool kHasValue = !std::is_same_v<V, NoValue>;
  using Slot = detail::Slot<V>;

 public:
  explicit ConcurrentTable(std::size_t capacity) { allocate(round_up(capacity)); }

  std::size_t capacity() const { return mask_ + 1; }
  std::size_t size() const { return size_.load(std::memory_order_relaxed); }
  std::size_t bytes() const { return capacity() * sizeof(Slot); }
  // Bytes of the table after growing so that `extra` more keys fit (0: no growth needed).
  std::size_t bytes_to_fit(std::size_t extra) const {
    const std::size_t need = size() + extra;
    if (need * 4 <= capacity() * 3) return 0;
    return round_up(need * 2) * sizeof(Slot);
  }
  // Grows (single-threaded, between rounds) so that `extra` more keys fit at load <= 3/4.
  void reserve(std::size_t extra) {
    const std::size_t need = size() + extra;
    if (need * 4 <= capacity() * 3) return;
    auto old = std::move(slots_);
    const std::size_t old_cap = capacity();
    allocate(round_up(need * 2));
    for (std::size_t i = 0; i < old_cap; ++i) {
      const Bits k = old[i].key.load(std::memory_order_relaxed);
      if (!k) continue;
      std::size_t s = mix64(k) & mask_;
      while (slots_[s].key.load(std::memory_order_relaxed)) s = (s + 1) & mask_;
      slots_[s].key.store(k, std::memory_order_relaxed);
      if constexpr (kHasValue) slots_[s].value = old[i].value;
      size_.fetch_add(1, std::memory_order_relaxed);
    }
  }

  std::size_t home(Bits key) const { return mix64(key) & mask_; }
  void prefetch(std::size_t slot) const { __builtin_prefetch(&slots_[slot], 1, 1); }

  // Inserts key (whose home slot is `s`), merging `v` into its value.
  void insert(Bits key, std::size_t s, const V& v) {
    while (true) {
      const Bits k = slots_[s].key.load(std::memory_order_acquire);
      if (k == key) break;
      if (k == 0) {
        Bits expected = 0;
        if (slots_[s].key.compare_exchange_strong(expected, key, std::memory_order_acq_rel)) {
          size_.fetch_add(1, std::memory_order_relaxed);
          break;
        }
        if (expected == key) break;
      }
      s = (s + 1) & mask_;
    }
    if constexpr (kHasValue) {
      auto& lock = slots_[s].lock;
      while (lock.exchange(1, std::memory_order_acquire)) {
      }
      V::merge(slots_[s].value, v);
      lock.store(0, std::memory_order_release);
    }
  }

  // Calls f(key, value) for every entry (single-threaded).
  template <class F>
  void for_each(F&& f) const {
    for (std::size_t i = 0; i < capacity(); ++i) {
      const Bits k = slots_[i].key.load(std::memory_order_relaxed);
      if (!k) continue;
      if constexpr (kHasValue) f(k, slots_[i].value);
      else f(k, NoValue{});
    }
  }

 private:
  static std::size_t round_up(std::size_t c) {
    std::size_t p = 1024;
    while (p < c) p *= 2;
    return p;
  }
  void allocate(std::size_t cap) {
    mask_ = cap - 1;
    size_ = 0;
    slots_ = zeroed_array<Slot>(cap);  // all-zero bytes: empty keys, free locks, values' identity
  }

  std::size_t mask_ = 0;
  std::atomic<std::size_t> size_{0};
  ZeroedArray<Slot> slots_;
};

// A read-only map from a finished layer's keys to values.
template <class V>
class KeyMap {
 public:
  // value(i) is the value of keys[i].
  template <class ValueOf>
  KeyMap(const std::vector<Bits>& keys, ValueOf&& value) {
    std::size_t cap = 1024;
    while (cap < keys.size() * 2) cap *= 2;
    mask_ = cap - 1;
    slots_.assign(cap, Entry{0, V{}});
    for (std::size_t i = 0; i < keys.size(); ++i) {
      std::size_t s = home(keys[i]);
      while (slots_[s].key) s = (s + 1) & mask_;
      slots_[s] = {keys[i], value(i)};
    }
  }
  static std::size_t bytes_for(std::size_t n) {
    std::size_t cap = 1024;
    while (cap < n * 2) cap *= 2;
    return cap * sizeof(Entry);
  }
  std::size_t home(Bits key) const { return mix64(key) & mask_; }
  void prefetch(std::size_t slot) const { __builtin_prefetch(&slots_[slot], 0, 1); }
  // The value of key (found from its home slot), or `missing`.
  V get(Bits key, std::size_t s, V missing) const {
    while (slots_[s].key) {
      if (slots_[s].key == key) return slots_[s].value;
      s = (s + 1) & mask_;
    }
    return missing;
  }

 private:
  struct Entry {
    Bits key;
    V value;
  };
  std::size_t mask_ = 0;
  std::vector<Entry> slots_;
};

}  // namespace tansaku::peg
