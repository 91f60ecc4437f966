// Hash tables of positions for the layered engine:
//  - ConcurrentTable<V>: open addressing, keys are nonzero bitboards claimed by CAS, values
//    merged under a per-slot spin lock (no lock when V is empty); grown between rounds by
//    the caller, never during inserts;
//  - LayerIndex: a read-only key -> index map over a finished (sorted) layer.
#pragma once
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "peg/board.h"

namespace tansaku::peg {

inline std::uint64_t mix64(std::uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

struct NoValue {};

template <class V>
class ConcurrentTable {
  static constexpr bool kHasValue = !std::is_same_v<V, NoValue>;

 public:
  ConcurrentTable(std::size_t capacity, const V& identity) : identity_(identity) { allocate(round_up(capacity)); }

  std::size_t capacity() const { return mask_ + 1; }
  std::size_t size() const { return size_.load(std::memory_order_relaxed); }
  static std::size_t bytes_per_slot() { return sizeof(Bits) + (kHasValue ? sizeof(V) + 1 : 0); }
  std::size_t bytes() const { return capacity() * bytes_per_slot(); }
  // Bytes after growing so that `extra` more keys fit (0 when no growth is needed).
  std::size_t bytes_to_fit(std::size_t extra) const {
    std::size_t need = size() + extra;
    if (need * 4 <= capacity() * 3) return 0;
    return round_up(need * 2) * bytes_per_slot();
  }
  // Grows (single-threaded, between rounds) so that `extra` more keys fit at load <= 3/4.
  void reserve(std::size_t extra) {
    std::size_t need = size() + extra;
    if (need * 4 <= capacity() * 3) return;
    auto old_keys = std::move(keys_);
    auto old_vals = std::move(vals_);
    const std::size_t old_cap = capacity();
    allocate(round_up(need * 2));
    size_ = 0;
    for (std::size_t i = 0; i < old_cap; ++i) {
      Bits k = old_keys[i].load(std::memory_order_relaxed);
      if (!k) continue;
      std::size_t s = place(k);
      if constexpr (kHasValue) vals_[s] = old_vals[i];
    }
  }

  // Inserts key; merge(slot_value, fresh) runs under the slot's lock.
  template <class Merge>
  void insert(Bits key, Merge&& merge) {
    std::size_t s = mix64(key) & mask_;
    while (true) {
      Bits k = keys_[s].load(std::memory_order_acquire);
      if (k == key) break;
      if (k == 0) {
        Bits expected = 0;
        if (keys_[s].compare_exchange_strong(expected, key, std::memory_order_acq_rel)) {
          size_.fetch_add(1, std::memory_order_relaxed);
          break;
        }
        if (expected == key) break;
      }
      s = (s + 1) & mask_;
    }
    if constexpr (kHasValue) {
      while (locks_[s].exchange(1, std::memory_order_acquire)) {
      }
      merge(vals_[s]);
      locks_[s].store(0, std::memory_order_release);
    }
  }

  // Calls f(key, value) for every entry (single-threaded).
  template <class F>
  void for_each(F&& f) const {
    for (std::size_t i = 0; i < capacity(); ++i) {
      Bits k = keys_[i].load(std::memory_order_relaxed);
      if (!k) continue;
      if constexpr (kHasValue) f(k, vals_[i]);
      else f(k, identity_);
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
    keys_.reset(new std::atomic<Bits>[cap]);
    for (std::size_t i = 0; i < cap; ++i) keys_[i].store(0, std::memory_order_relaxed);
    if constexpr (kHasValue) {
      vals_.reset(new V[cap]);
      for (std::size_t i = 0; i < cap; ++i) vals_[i] = identity_;
      locks_.reset(new std::atomic<std::uint8_t>[cap]);
      for (std::size_t i = 0; i < cap; ++i) locks_[i].store(0, std::memory_order_relaxed);
    }
  }
  std::size_t place(Bits key) {
    std::size_t s = mix64(key) & mask_;
    while (keys_[s].load(std::memory_order_relaxed)) s = (s + 1) & mask_;
    keys_[s].store(key, std::memory_order_relaxed);
    size_.fetch_add(1, std::memory_order_relaxed);
    return s;
  }

  V identity_;
  std::size_t mask_ = 0;
  std::atomic<std::size_t> size_{0};
  std::unique_ptr<std::atomic<Bits>[]> keys_;
  std::unique_ptr<V[]> vals_;
  std::unique_ptr<std::atomic<std::uint8_t>[]> locks_;
};

// key -> position in a layer's sorted key array.
class LayerIndex {
 public:
  explicit LayerIndex(const std::vector<Bits>& keys) : keys_(keys) {
    std::size_t cap = 1024;
    while (cap < keys.size() * 2) cap *= 2;
    mask_ = cap - 1;
    slots_.assign(cap, kEmpty);
    for (std::size_t i = 0; i < keys.size(); ++i) {
      std::size_t s = mix64(keys[i]) & mask_;
      while (slots_[s] != kEmpty) s = (s + 1) & mask_;
      slots_[s] = static_cast<std::uint32_t>(i);
    }
  }
  static std::size_t bytes_for(std::size_t n) {
    std::size_t cap = 1024;
    while (cap < n * 2) cap *= 2;
    return cap * sizeof(std::uint32_t);
  }
  // Index of key, or -1.
  std::int64_t find(Bits key) const {
    std::size_t s = mix64(key) & mask_;
    while (slots_[s] != kEmpty) {
      if (keys_[slots_[s]] == key) return slots_[s];
      s = (s + 1) & mask_;
    }
    return -1;
  }

 private:
  static constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;
  const std::vector<Bits>& keys_;
  std::size_t mask_ = 0;
  std::vector<std::uint32_t> slots_;
};

}  // namespace tansaku::peg
