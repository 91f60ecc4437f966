// MoveFsm: what a string of blank moves does on an unbounded grid (the effect and the cells
// it visits), for the engine's enumeration of redundant strings (search/move_pruning.h); the
// automata kept per depth, in memory or in the cache directory.
#include "sliding/move_fsm.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

namespace tansaku::sliding {
namespace {

// The move strings of the blank on a grid wide enough for `depth` moves from its middle.
// Each string's effect is hashed as it is built (XOR over cells of a key of the item standing
// there when it moved; the blank is the item of the origin). replaces() replays both strings
// on a scratch grid and compares the effects and footprints exactly.
class GridEffects {
 public:
  explicit GridEffects(int depth) : w_(2 * depth + 3), origin_((w_ / 2) * w_ + w_ / 2), blank_(origin_) {
    step_ = {-w_, -1, 1, w_};  // MoveFsm::kUp, kLeft, kRight, kDown
    item_.resize(static_cast<std::size_t>(w_ * w_));
    for (std::size_t c = 0; c < item_.size(); ++c) item_[c] = static_cast<std::uint16_t>(c);
    scratch_ = item_;
    hash_.push_back(0);
  }
  int letters() const { return 4; }
  std::uint64_t hash() const { return hash_.back(); }
  void push(int d) {
    const int from = blank_, to = blank_ + step_[static_cast<std::size_t>(d)];
    auto& a = item_[static_cast<std::size_t>(from)];
    auto& b = item_[static_cast<std::size_t>(to)];
    std::uint64_t h = hash_.back() ^ key(from, a) ^ key(to, b);
    std::swap(a, b);
    h ^= key(from, a) ^ key(to, b);
    hash_.push_back(h);
    played_.push_back(d);
    blank_ = to;
  }
  void pop() {
    const int to = blank_, from = to - step_[static_cast<std::size_t>(played_.back())];
    std::swap(item_[static_cast<std::size_t>(from)], item_[static_cast<std::size_t>(to)]);
    blank_ = from;
    played_.pop_back();
    hash_.pop_back();
  }
  // t does what s does and visits no cell s does not visit.
  bool replaces(const search::MoveWord& t, const search::MoveWord& s) {
    if (s != last_) {
      replay(s, effect_, footprint_);
      last_ = s;
    }
    replay(t, e2_, f2_);
    return e2_ == effect_ && std::includes(footprint_.begin(), footprint_.end(), f2_.begin(), f2_.end());
  }

 private:
  static std::uint64_t key(int cell, int item) {
    if (cell == item) return 0;
    std::uint64_t z =
        (static_cast<std::uint64_t>(cell) << 20 | static_cast<std::uint64_t>(item)) + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // The exact effect (the blank's cell, then (cell, item) for every moved item, by cell) and
  // the sorted footprint of the string s, played on the scratch grid.
  void replay(const search::MoveWord& s, std::vector<std::uint16_t>& effect, std::vector<std::uint16_t>& footprint) {
    int blank = origin_;
    footprint.assign(1, static_cast<std::uint16_t>(origin_));
    for (char16_t d : s) {
      const int to = blank + step_[d];
      std::swap(scratch_[static_cast<std::size_t>(blank)], scratch_[static_cast<std::size_t>(to)]);
      blank = to;
      footprint.push_back(static_cast<std::uint16_t>(to));
    }
    std::sort(footprint.begin(), footprint.end());
    footprint.erase(std::unique(footprint.begin(), footprint.end()), footprint.end());
    effect.assign(1, static_cast<std::uint16_t>(blank));
    for (auto c : footprint)
      if (scratch_[c] != c) effect.insert(effect.end(), {c, scratch_[c]});
    for (auto c : footprint) scratch_[c] = c;
  }

  int w_, origin_, blank_;
  std::array<int, 4> step_{};
  std::vector<std::uint16_t> item_, scratch_;  // cell -> the item there (named by its first cell)
  std::vector<std::uint64_t> hash_;            // per length of the current string
  std::vector<int> played_;
  search::MoveWord last_{u'\xffff'};
  std::vector<std::uint16_t> effect_, footprint_, e2_, f2_;
};

const char* const kKey = "sliding-moves";

}  // namespace

search::MoveAutomaton MoveFsm::build(int depth, const search::Limits& lim) {
  if (depth < 2 || depth > kMaxDepth) throw std::invalid_argument("MoveFsm: depth out of range");
  GridEffects e(depth);
  auto found = search::find_redundant_words(e, depth, lim);
  return search::MoveAutomaton(4, found.depth, std::move(found.words));
}

std::string MoveFsm::file_name(int depth) { return fmt::format("sliding-moves-{}.fsm.zst", depth); }

const search::MoveAutomaton& MoveFsm::of_depth(int depth) {
  return search::MoveAutomaton::kept(kKey, 4, depth, [&] { return build(depth); });
}

const search::MoveAutomaton& MoveFsm::cached(int depth, const std::filesystem::path& dir, const search::Limits& lim) {
  return search::MoveAutomaton::kept(
      kKey, 4, depth, [&] { return build(depth, lim); }, [&](int d) { return dir / file_name(d); });
}

}  // namespace tansaku::sliding
