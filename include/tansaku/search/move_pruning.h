// Move-sequence pruning for depth-first searches. IDA* keeps nothing it has seen, so it walks
// every path to a position again; many of those paths hold a move string that another,
// earlier string does as well (two moves that commute, played in the other order; a loop
// that ends where it began). A string is *redundant* when an earlier one in shortlex
// order (shorter, or as long and first letter by letter in the order of the moves) has the
// same effect and may stand wherever it stands. The least optimal path holds no redundant
// string, so a search that never plays one still finds an optimal solution.
//
// Here, generic over a domain with k moves (letters 0..k-1):
// - MoveAutomaton: the Aho-Corasick automaton of a set of forbidden words. A search keeps one
//   int32 state per node, starts at kStart, and drops a move whose transition is kDead.
// - find_redundant_words: every minimal redundant string up to a length, by enumerating
//   the strings level by level in shortlex order (pruned by the words found at the shorter
//   lengths), hashing each string's effect and comparing exactly when a hash repeats. The
//   domain says what a string does (MoveEffects below); its memory is bounded (it stops at
//   the last length that fits), it honours a deadline and shows its progress.
// - the words' cache file (a header and one zstd frame with its checksum), and one automaton
//   per name kept for the process.
// The families say which strings stand for which: their generators live with them.
#pragma once
#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tansaku/core/error.h"
#include "tansaku/search/limits.h"

namespace tansaku::search {

// A move string: letters 0..k-1 (char16_t: up to 65536 moves).
using MoveWord = std::u16string;

class MoveAutomaton {
 public:
  static constexpr std::int32_t kDead = -1;
  static constexpr std::int32_t kStart = 0;

  // The automaton of `words` over `letters` moves (every letter below `letters`), recorded as
  // complete up to `depth` (the longest redundant strings looked for; words may be shorter).
  // No word may hold another. States are numbered in breadth-first order of the words' trie,
  // the dead ones left out, so equal word lists give equal automata.
  MoveAutomaton(int letters, int depth, std::vector<MoveWord> words);
  // Allows every string.
  explicit MoveAutomaton(int letters) : MoveAutomaton(letters, 0, {}) {}

  // The state after move m from state q, or kDead when m ends a word.
  std::int32_t next(std::int32_t q, int m) const {
    return delta_[static_cast<std::size_t>(q) * static_cast<std::size_t>(letters_) + static_cast<std::size_t>(m)];
  }
  // Asks for state q's row ahead of its first next(q, ...): a deep automaton (the 5x5
  // board's at 16 moves: 7.4 MB) does not stay in the near caches, and a search knows a
  // child's state well before it expands the child.
  void prefetch(std::int32_t q) const {
    if (q >= 0) __builtin_prefetch(delta_.data() + static_cast<std::size_t>(q) * static_cast<std::size_t>(letters_));
  }
  int letters() const { return letters_; }
  int depth() const { return depth_; }
  const std::vector<MoveWord>& words() const { return words_; }
  std::size_t states() const { return delta_.size() / static_cast<std::size_t>(std::max(letters_, 1)); }
  std::size_t bytes() const { return delta_.size() * sizeof(std::int32_t); }
  // The number of strings of each length 0..n that hold no word (saturating at 2^64 - 1).
  std::vector<std::uint64_t> accepted(int n) const;

  // The cache file: write() goes through a temporary name (false when the directory cannot
  // take it); read() gives the words of a whole, intact file recorded at `depth` whose letters
  // are all below `letters`, else nothing (a damaged or other file: build again).
  bool write(const std::filesystem::path& file) const;
  static std::optional<std::vector<MoveWord>> read(const std::filesystem::path& file, int letters, int depth);
  // What a cache file says of itself, for `pdb list` and `pdb verify`: its depth and number
  // of words (the header), and with `whole` the words read to the end and checked (lengths,
  // count, zstd's checksum). InputError saying what is wrong when the file is not one.
  struct FileSummary {
    int depth = 0;
    std::uint64_t words = 0;
  };
  static FileSummary summarize(const std::filesystem::path& file, bool whole);

  // One automaton per key for the life of the process (thread-safe): the first call builds it
  // (`build`), later ones return the same object. With a file: read from it when it holds the
  // words at `depth`, else built and written there (a read-only directory: built each time).
  // The automaton built may stop short of `depth` (a memory budget): it is then written under
  // the file name `name_for(depth reached)` and kept as that depth's (and, with `as_asked`,
  // as `depth`'s too: the key then names the budget).
  static const MoveAutomaton& kept(const std::string& key, int letters, int depth,
                                   const std::function<MoveAutomaton()>& build,
                                   const std::function<std::filesystem::path(int depth)>& name_for = {},
                                   bool as_asked = false);

 private:
  int letters_ = 0, depth_ = 0;
  std::vector<MoveWord> words_;
  std::vector<std::int32_t> delta_;
};

// What a domain's move strings do, for find_redundant_words. The enumeration plays strings
// letter by letter on one current string:
//   letters()          the number of moves k;
//   push(a), pop()     play move a after the current string / take the last one back;
//   hash()             a hash of the current string's effect (equal effects: equal hashes;
//                      its high bits are used first);
//   replaces(t, s)     exactly: the earlier string t does what s does, wherever s can be
//                      played (the hash only chooses which pairs to compare).
template <class E>
concept MoveEffects = requires(E& e, const E& ce, int a, const MoveWord& w) {
  { ce.letters() } -> std::convertible_to<int>;
  e.push(a);
  e.pop();
  { ce.hash() } -> std::convertible_to<std::uint64_t>;
  { e.replaces(w, w) } -> std::convertible_to<bool>;
};

namespace detail {

// The strings kept so far by find_redundant_words, one 64-bit slot each: the string packed
// (a leading 1 bit, then `bits` per letter, first letter highest) below a tag of its hash's
// high bits; open addressing, linear probing, home slot from the hash's highest bits. 8
// bytes a string (sized ahead of each length for every string it may keep: no growth within
// a length; when it grows, rebuilt from its own tags when the old and new tables fit, else
// filled again by the caller).
class PackedStrings {
 public:
  PackedStrings(int letters, int depth);
  int bits() const { return bits_; }  // per letter
  // The longest string that packs with a tag of at least 8 bits.
  static int max_depth(int letters);
  // The bytes of a table for `strings` strings.
  static std::uint64_t bytes_for(std::uint64_t strings);
  std::uint64_t pack(const MoveWord& w) const;
  MoveWord unpack(std::uint64_t code) const;
  // Makes room for `strings` strings in all (kept ones included). false: the table would take
  // more than `memory` bytes. Sets *refill when the kept strings are gone and must be
  // inserted again (the old table and the new one did not fit together).
  bool reserve(std::uint64_t strings, std::uint64_t memory, bool* refill);
  std::uint64_t size() const { return used_; }
  std::uint64_t bytes() const { return slots_.size() * sizeof(std::uint64_t); }
  // Each kept code whose tag matches `hash`'s, until f returns true (then: true).
  template <class F>
  bool any_match(std::uint64_t hash, F&& f) const {
    const std::uint64_t tag = hash >> (64 - tag_bits_);
    for (std::size_t i = home(hash);; i = (i + 1) & mask_) {
      const std::uint64_t s = slots_[i];
      if (s == 0) return false;
      if ((s >> code_bits_) == tag && f(s & code_mask_)) return true;
    }
  }
  void insert(std::uint64_t hash, std::uint64_t code);

 private:
  std::size_t home(std::uint64_t hash) const { return static_cast<std::size_t>(hash >> (64 - table_bits_)); }
  int bits_, code_bits_, tag_bits_, table_bits_ = 0;
  std::uint64_t code_mask_;
  std::size_t mask_ = 0;
  std::uint64_t used_ = 0;
  std::vector<std::uint64_t> slots_;
};

// During the enumeration: LimitError at the deadline; the progress line.
void check_enumeration(const Limits& lim, int level, int depth, std::size_t words);

}  // namespace detail

// Every minimal redundant string of length at most `depth` (a string whose own substrings
// are not redundant), in the order found (by length, then letter by letter), and the depth
// reached: `depth`, or the last length whose strings all fit `lim.memory` (at least 1, or 0
// when even one length does not fit). Throws LimitError at the deadline.
struct RedundantWords {
  std::vector<MoveWord> words;
  int depth = 0;
};

namespace detail {

template <MoveEffects E>
class WordFinder {
 public:
  WordFinder(E& e, int depth, const Limits& lim)
      : e_(e),
        k_(e.letters()),
        depth_(std::min(depth, PackedStrings::max_depth(e.letters()))),
        lim_(lim),
        kept_(k_, std::max(depth_, 1)) {}

  RedundantWords run() {
    RedundantWords out;
    bool refill = false;
    if (!kept_.reserve(1, lim_.memory, &refill)) return out;
    kept_.insert(e_.hash(), 1);  // the empty string
    for (level_ = 1; level_ <= depth_; ++level_) {
      const MoveAutomaton fsm(k_, level_ - 1, out.words);
      // Room for every string this length may keep (those the words found so far allow).
      if (!kept_.reserve(kept_.size() + fsm.accepted(level_).back(), lim_.memory, &refill)) break;
      if (refill) {  // the strings kept so far are exactly those fsm allows up to level_ - 1
        const int at = level_;
        for (level_ = 0; level_ < at; ++level_)
          dfs(fsm, 0, 1, MoveAutomaton::kStart, [&](std::uint64_t h, std::uint64_t c) { kept_.insert(h, c); });
        level_ = at;
      }
      dfs(fsm, 0, 1, MoveAutomaton::kStart, [&](std::uint64_t h, std::uint64_t c) {
        bool unpacked = false;
        const bool redundant = kept_.any_match(h, [&](std::uint64_t earlier) {
          if (!unpacked) s_ = kept_.unpack(c), unpacked = true;
          return e_.replaces(kept_.unpack(earlier), s_);
        });
        if (redundant) out.words.push_back(s_);  // unpacked: some earlier string matched
        else kept_.insert(h, c);
      });
      found_ = out.words.size();
      out.depth = level_;
    }
    return out;
  }

 private:
  // Depth first along fsm from state q (the string so far packed in `code`) to the strings
  // of length level_, in order: leaf(hash, code) at each.
  template <class Leaf>
  void dfs(const MoveAutomaton& fsm, int l, std::uint64_t code, std::int32_t q, Leaf&& leaf) {
    if (l == level_) {
      if ((++leaves_ & 0xffff) == 0) check_enumeration(lim_, level_, depth_, found_);
      leaf(e_.hash(), code);
      return;
    }
    for (int a = 0; a < k_; ++a) {
      const std::int32_t r = fsm.next(q, a);
      if (r == MoveAutomaton::kDead) continue;
      e_.push(a);
      dfs(fsm, l + 1, (code << kept_.bits()) | static_cast<std::uint64_t>(a), r, leaf);
      e_.pop();
    }
  }

  E& e_;
  int k_, depth_;
  const Limits& lim_;
  PackedStrings kept_;
  int level_ = 0;
  std::uint64_t leaves_ = 0;
  std::size_t found_ = 0;
  MoveWord s_;
};

}  // namespace detail

template <MoveEffects E>
RedundantWords find_redundant_words(E& e, int depth, const Limits& lim = {}) {
  return detail::WordFinder<E>(e, depth, lim).run();
}

}  // namespace tansaku::search
