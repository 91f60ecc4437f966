// Duplicate-path pruning for depth-first search on a grid of sliding tiles (the idea of
// Taylor & Korf, "Pruning duplicate nodes in depth-first search", AAAI-93). IDA* does not
// store what it has seen, so every path to a position is searched again: on the 5x5 board
// the tree below a node grows by 2.37 a level once the inverse of the last move is dropped,
// while the positions grow by less. A move string s is *redundant* when another string t
// that is no longer, earlier in shortlex order (length, then the letters U < L < R < D), and
// that visits only cells s visits, has the same effect (the same blank cell, the same tiles
// moved the same way): wherever s can be played, t can, and a path holding s is never the
// shortlex-least of its length to its end. The least optimal path holds no redundant string,
// so a search that never plays one still finds an optimal solution; fewer nodes on the way.
//
// MoveFsm enumerates every minimal redundant string of length at most `depth` on an
// unbounded grid and compiles them into an Aho-Corasick automaton over the four blank
// directions: a search keeps one automaton state per node and drops a move whose transition
// is dead. Depth 2 yields exactly the four inverse pairs (UD, DU, LR, RL), i.e. the usual
// "never undo the last move".
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "tansaku/search/limits.h"

namespace tansaku::sliding {

class MoveFsm {
 public:
  // Directions of the blank, in the order of the shortlex tie-break.
  enum Dir : int { kUp = 0, kLeft = 1, kRight = 2, kDown = 3 };
  static constexpr std::int32_t kDead = -1;
  static constexpr std::int32_t kStart = 0;
  static constexpr int kMaxDepth = 24;

  // The automaton of the redundant strings of length <= depth (2..kMaxDepth), or of a
  // smaller depth when the enumeration would take more than lim.memory bytes (the deepest
  // complete length: depth() says which). Honours lim's deadline (LimitError) and shows
  // its progress line.
  explicit MoveFsm(int depth, const search::Limits& lim = {});
  // From its words (the file's content): words() and depth() as given.
  MoveFsm(int depth, const std::vector<std::string>& words);

  // One shared automaton per depth, built in memory on first use (thread-safe; small depths).
  static const MoveFsm& of_depth(int depth);
  // The same through the cache directory `dir`: read from its file there, else built within
  // lim and written there when dir is writable (under the depth reached, if it fell short).
  static const MoveFsm& cached(int depth, const std::filesystem::path& dir, const search::Limits& lim);
  static std::string file_name(int depth);  // sliding-moves-14.fsm.zst
  // The cache file: write() goes through a temporary name (false when the directory cannot
  // take it); read() gives the words of a whole, intact file of that depth, else nothing.
  bool write(const std::filesystem::path& file) const;
  static std::optional<std::vector<std::string>> read(const std::filesystem::path& file, int depth);

  // The state after `dir` from state q, or kDead when that move ends a redundant string.
  std::int32_t next(std::int32_t q, int dir) const { return delta_[static_cast<std::size_t>(q) * 4 + static_cast<std::size_t>(dir)]; }

  int depth() const { return depth_; }
  const std::vector<std::string>& words() const { return words_; }  // minimal redundant strings, letters 0..3
  std::size_t states() const { return delta_.size() / 4; }

 private:
  int depth_;
  std::vector<std::string> words_;
  std::vector<std::int32_t> delta_;
};

}  // namespace tansaku::sliding
