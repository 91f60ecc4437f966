// MoveFsm: enumerate the move strings level by level (shortlex order) on an unbounded grid,
// find the redundant ones by their effect, compile them into an Aho-Corasick automaton; keep
// the words in the cache directory (a header, then one zstd frame with its checksum).
#include "sliding/move_fsm.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>

#include <fmt/format.h>
#include <zstd.h>

#include "tansaku/core/error.h"
#include "tansaku/core/input.h"

namespace tansaku::sliding {
namespace {

// The Aho-Corasick automaton of `words` (letters 0..3, none a substring of another): state 0
// is the empty suffix; a move that completes a word leads to MoveFsm::kDead.
std::vector<std::int32_t> compile(const std::vector<std::string>& words) {
  using Row = std::array<std::int32_t, 4>;
  std::vector<Row> child(1, Row{-1, -1, -1, -1});
  std::vector<char> dead(1, 0);
  for (const std::string& w : words) {
    std::size_t q = 0;
    for (char c : w) {
      const auto a = static_cast<std::size_t>(c);
      if (child[q][a] < 0) {
        child[q][a] = static_cast<std::int32_t>(child.size());
        child.push_back(Row{-1, -1, -1, -1});
        dead.push_back(0);
      }
      q = static_cast<std::size_t>(child[q][a]);
    }
    dead[q] = 1;
  }
  // Failure links breadth first; go[q][a]: the longest suffix of q·a that is a trie node.
  const std::size_t n = child.size();
  std::vector<Row> go(n);
  std::vector<std::size_t> fail(n, 0), order{0};
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::size_t q = order[i];
    if (q != 0 && dead[fail[q]]) dead[q] = 1;
    for (std::size_t a = 0; a < 4; ++a) {
      const std::int32_t via = q == 0 ? 0 : go[fail[q]][a];
      if (child[q][a] >= 0) {
        const auto c = static_cast<std::size_t>(child[q][a]);
        fail[c] = static_cast<std::size_t>(via);
        go[q][a] = child[q][a];
        order.push_back(c);
      } else {
        go[q][a] = via;
      }
    }
  }
  // The live states numbered in order (the root stays 0); moves into dead ones: kDead.
  std::vector<std::int32_t> id(n, MoveFsm::kDead);
  std::int32_t live = 0;
  for (std::size_t q = 0; q < n; ++q)
    if (!dead[q]) id[q] = live++;
  std::vector<std::int32_t> delta(static_cast<std::size_t>(live) * 4, MoveFsm::kDead);
  for (std::size_t q = 0; q < n; ++q)
    if (!dead[q])
      for (std::size_t a = 0; a < 4; ++a) delta[static_cast<std::size_t>(id[q]) * 4 + a] = id[static_cast<std::size_t>(go[q][a])];
  return delta;
}

// The strings of one length, depth first in lexicographic order, pruned by the automaton of
// the redundant words found at the shorter lengths. Each string's effect is hashed as it is
// built (XOR over cells of a key of the item standing there when it moved; the blank is the
// item of the origin); a table keeps (hash, string) of every string kept so far. A string
// whose hash is in the table is replayed, with the earlier one, to compare the effects and
// footprints exactly: a hash never decides alone.
class Finder {
 public:
  Finder(int depth, const search::Limits& lim) : depth_(depth), w_(2 * depth + 3), origin_((w_ / 2) * w_ + w_ / 2), lim_(lim) {
    step_ = {-w_, -1, 1, w_};  // MoveFsm::kUp, kLeft, kRight, kDown
    item_.resize(static_cast<std::size_t>(w_ * w_));
    for (std::size_t c = 0; c < item_.size(); ++c) item_[c] = static_cast<std::uint16_t>(c);
    scratch_ = item_;
    slots_.assign(std::size_t{1} << 16, Slot{});
  }

  // The words of every length up to the depth reached (the last length whose strings all fit
  // the memory budget), and that depth.
  std::pair<std::vector<std::string>, int> run() {
    insert(0, code(0, 0));  // the empty string: the identity, footprint {origin}
    for (level_ = 1; level_ <= depth_; ++level_) {
      const std::size_t before = words_.size();
      fsm_ = compile(words_);
      blank_ = origin_;
      try {
        dfs(0, 0, 0, 0);
      } catch (const Full&) {
        words_.resize(before);
        return {std::move(words_), level_ - 1};
      }
    }
    return {std::move(words_), depth_};
  }

 private:
  struct Slot {
    std::uint64_t hash = 0, code = kEmpty;
  };
  struct Full {};  // the table would outgrow the memory budget
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
  static std::uint64_t code(int length, std::uint64_t packed) { return (static_cast<std::uint64_t>(length) << 56) | packed; }
  static std::uint64_t key(int cell, int item) {
    if (cell == item) return 0;
    std::uint64_t z = (static_cast<std::uint64_t>(cell) << 20 | static_cast<std::uint64_t>(item)) + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  void dfs(int l, std::uint64_t packed, std::int32_t q, std::uint64_t hash) {
    if (l == level_) {
      leaf(packed, hash);
      return;
    }
    for (int d = 0; d < 4; ++d) {
      const std::int32_t next = fsm_[static_cast<std::size_t>(q) * 4 + static_cast<std::size_t>(d)];
      if (next == MoveFsm::kDead) continue;
      const int from = blank_, to = blank_ + step_[static_cast<std::size_t>(d)];
      auto& a = item_[static_cast<std::size_t>(from)];
      auto& b = item_[static_cast<std::size_t>(to)];
      std::uint64_t h = hash ^ key(from, a) ^ key(to, b);
      std::swap(a, b);
      h ^= key(from, a) ^ key(to, b);
      blank_ = to;
      dfs(l + 1, (packed << 2) | static_cast<std::uint64_t>(d), next, h);
      blank_ = from;
      std::swap(a, b);
    }
  }

  void leaf(std::uint64_t packed, std::uint64_t hash) {
    if ((++leaves_ & 0xffff) == 0) {
      if (lim_.deadline && lim_.deadline->expired()) throw LimitError("time limit reached (--timeout)");
      if (lim_.progress)
        lim_.progress->update("redundant move strings: length {} of {}, {} found", level_, depth_, words_.size());
    }
    const std::uint64_t s = code(level_, packed);
    bool replayed = false;
    std::vector<std::uint16_t> effect, footprint, e2, f2;
    for (std::size_t i = hash & mask(); slots_[i].code != kEmpty; i = (i + 1) & mask()) {
      if (slots_[i].hash != hash) continue;
      if (!replayed) replay(s, effect, footprint), replayed = true;
      replay(slots_[i].code, e2, f2);
      if (e2 == effect && std::includes(footprint.begin(), footprint.end(), f2.begin(), f2.end())) {
        std::string word;
        for (int i2 = level_ - 1; i2 >= 0; --i2) word.push_back(static_cast<char>((packed >> (2 * i2)) & 3));
        words_.push_back(std::move(word));
        return;
      }
    }
    insert(hash, s);
  }

  std::size_t mask() const { return slots_.size() - 1; }
  void insert(std::uint64_t hash, std::uint64_t s) {
    if (2 * (++used_) > slots_.size()) {
      if (3 * slots_.size() * sizeof(Slot) > lim_.memory) throw Full{};  // the old table and the new one
      std::vector<Slot> old(slots_.size() * 2);
      old.swap(slots_);
      for (const Slot& x : old)
        if (x.code != kEmpty) place(x);
    }
    place(Slot{hash, s});
  }
  void place(const Slot& x) {
    std::size_t i = x.hash & mask();
    while (slots_[i].code != kEmpty) i = (i + 1) & mask();
    slots_[i] = x;
  }

  // The exact effect (the blank's cell, then (cell, item) for every moved item, by cell) and
  // the sorted footprint of the string `s`, played on the scratch grid.
  void replay(std::uint64_t s, std::vector<std::uint16_t>& effect, std::vector<std::uint16_t>& footprint) {
    const int length = static_cast<int>(s >> 56);
    int blank = origin_;
    footprint.assign(1, static_cast<std::uint16_t>(origin_));
    for (int i = length - 1; i >= 0; --i) {
      const int to = blank + step_[(s >> (2 * i)) & 3];
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

  int depth_, w_, origin_, level_ = 0, blank_ = 0;
  std::array<int, 4> step_{};
  std::vector<std::uint16_t> item_, scratch_;  // cell -> the item there (named by its first cell)
  std::vector<std::int32_t> fsm_;
  const search::Limits& lim_;
  std::vector<Slot> slots_;
  std::size_t used_ = 0;
  std::uint64_t leaves_ = 0;
  std::vector<std::string> words_;
};

constexpr char kMagic[8] = {'T', 'S', 'K', 'F', 'S', 'M', '1', '\n'};
constexpr std::uint32_t kVersion = 1;

template <class T>
void put(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

}  // namespace

// The words, a length byte then the letters each.
bool MoveFsm::write(const std::filesystem::path& file) const {
  const MoveFsm& f = *this;
  std::string raw;
  for (const std::string& w : f.words()) raw += static_cast<char>(w.size()) + w;
  std::string packed(ZSTD_compressBound(raw.size()), '\0');
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 19);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
  const std::size_t got = ZSTD_compress2(cctx, packed.data(), packed.size(), raw.data(), raw.size());
  ZSTD_freeCCtx(cctx);
  if (ZSTD_isError(got)) return false;
  packed.resize(got);
  std::string head(kMagic, sizeof kMagic);
  put(head, kVersion);
  put(head, static_cast<std::uint32_t>(f.depth()));
  put(head, static_cast<std::uint64_t>(f.words().size()));
  put(head, static_cast<std::uint64_t>(raw.size()));
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  const std::filesystem::path tmp = file.string() + fmt::format(".tmp{}", ::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(head.data(), static_cast<std::streamsize>(head.size()));
    out.write(packed.data(), static_cast<std::streamsize>(packed.size()));
    out.flush();
    if (!out) {
      std::filesystem::remove(tmp, ec);
      return false;
    }
  }
  std::filesystem::rename(tmp, file, ec);
  if (ec) std::filesystem::remove(tmp, ec);
  return !ec;
}

std::optional<std::vector<std::string>> MoveFsm::read(const std::filesystem::path& file, int depth) {
  // Through the checked input path (core/input.h): a FIFO or a link loop in the cache is no table.
  std::string data;
  try {
    data = read_file(file.string(), "move table", 0, nullptr);
  } catch (const InputError&) {
    return std::nullopt;
  }
  constexpr std::size_t kHead = sizeof kMagic + 4 + 4 + 8 + 8;
  if (data.size() < kHead || std::memcmp(data.data(), kMagic, sizeof kMagic) != 0) return std::nullopt;
  std::uint32_t version = 0, d = 0;
  std::uint64_t count = 0, raw_size = 0;
  const char* p = data.data() + sizeof kMagic;
  std::memcpy(&version, p, 4);
  std::memcpy(&d, p + 4, 4);
  std::memcpy(&count, p + 8, 8);
  std::memcpy(&raw_size, p + 16, 8);
  if (version != kVersion || static_cast<int>(d) != depth || raw_size > (std::uint64_t{1} << 32)) return std::nullopt;
  std::string raw(raw_size, '\0');
  const std::size_t got = ZSTD_decompress(raw.data(), raw.size(), data.data() + kHead, data.size() - kHead);
  if (ZSTD_isError(got) || got != raw_size) return std::nullopt;  // includes a checksum mismatch
  std::vector<std::string> words;
  for (std::size_t i = 0; i < raw.size();) {
    const auto len = static_cast<std::size_t>(static_cast<unsigned char>(raw[i]));
    if (len < 2 || len > static_cast<std::size_t>(depth) || i + 1 + len > raw.size()) return std::nullopt;
    std::string w = raw.substr(i + 1, len);
    for (char c : w)
      if (c < 0 || c > 3) return std::nullopt;
    words.push_back(std::move(w));
    i += 1 + len;
  }
  if (words.size() != count) return std::nullopt;
  return words;
}

MoveFsm::MoveFsm(int depth, const search::Limits& lim) {
  if (depth < 2 || depth > kMaxDepth) throw std::invalid_argument("MoveFsm: depth out of range");
  auto [words, reached] = Finder(depth, lim).run();
  depth_ = reached;
  words_ = std::move(words);
  delta_ = compile(words_);
}

MoveFsm::MoveFsm(int depth, const std::vector<std::string>& words) : depth_(depth), words_(words), delta_(compile(words)) {}

std::string MoveFsm::file_name(int depth) { return fmt::format("sliding-moves-{}.fsm.zst", depth); }

namespace {
// Every automaton handed out lives as long as the process: a search may hold one while
// another thread asks for more.
std::mutex cache_mutex;
std::vector<std::unique_ptr<const MoveFsm>> kept;
std::map<int, const MoveFsm*> complete;  // by depth

const MoveFsm& keep(std::unique_ptr<const MoveFsm> f) {
  kept.push_back(std::move(f));
  if (!complete.count(kept.back()->depth())) complete[kept.back()->depth()] = kept.back().get();
  return *kept.back();
}
}  // namespace

const MoveFsm& MoveFsm::of_depth(int depth) {
  std::lock_guard lock(cache_mutex);
  if (auto it = complete.find(depth); it != complete.end()) return *it->second;
  return keep(std::make_unique<const MoveFsm>(depth));
}

const MoveFsm& MoveFsm::cached(int depth, const std::filesystem::path& dir, const search::Limits& lim) {
  std::lock_guard lock(cache_mutex);
  if (auto it = complete.find(depth); it != complete.end()) return *it->second;
  const std::filesystem::path file = dir / file_name(depth);
  if (auto words = read(file, depth)) return keep(std::make_unique<const MoveFsm>(depth, *words));
  auto built = std::make_unique<const MoveFsm>(depth, lim);
  (void)built->write(dir / file_name(built->depth()));  // a read-only cache: build again next time
  return keep(std::move(built));
}

}  // namespace tansaku::sliding
