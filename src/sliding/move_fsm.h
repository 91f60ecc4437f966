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
// unbounded grid (search::find_redundant_words) and compiles them into the automaton of
// tansaku/search/move_pruning.h over the four blank directions: a search keeps one
// automaton state per node and drops a move whose transition is dead. Depth 2 yields
// exactly the four inverse pairs (UD, DU, LR, RL), i.e. the usual "never undo the last move".
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tansaku/search/limits.h"
#include "tansaku/search/move_pruning.h"

namespace tansaku::sliding {

// Sliding's words and where its automata are kept; the automaton itself is the engine's.
struct MoveFsm {
  // Directions of the blank, in the order of the shortlex tie-break.
  enum Dir : int { kUp = 0, kLeft = 1, kRight = 2, kDown = 3 };
  static constexpr std::int32_t kDead = search::MoveAutomaton::kDead;
  static constexpr std::int32_t kStart = search::MoveAutomaton::kStart;
  static constexpr int kMaxDepth = 24;

  // The automaton of the redundant strings of length <= depth (2..kMaxDepth), or of a
  // smaller depth when the enumeration would take more than lim.memory bytes (the deepest
  // complete length: its depth() says which). Honours lim's deadline (LimitError) and shows
  // its progress line.
  static search::MoveAutomaton build(int depth, const search::Limits& lim = {});

  // One shared automaton per depth, built in memory on first use (thread-safe; small depths).
  static const search::MoveAutomaton& of_depth(int depth);
  // The same through the cache directory `dir`: read from its file there, else built within
  // lim and written there when dir is writable (under the depth reached, if it fell short).
  static const search::MoveAutomaton& cached(int depth, const std::filesystem::path& dir, const search::Limits& lim);
  static std::string file_name(int depth);  // sliding-moves-14.fsm.zst
  // The words of a whole, intact cache file of that depth, else nothing.
  static std::optional<std::vector<search::MoveWord>> read(const std::filesystem::path& file, int depth) {
    return search::MoveAutomaton::read(file, 4, depth);
  }
};

}  // namespace tansaku::sliding
