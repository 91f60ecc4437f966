// MoveAutomaton (tansaku/search/move_pruning.h): the words compiled into an Aho-Corasick
// automaton, counted, kept in the cache directory (a header, then one zstd frame with its
// checksum) and kept for the process; the packed table of find_redundant_words.
#include "tansaku/search/move_pruning.h"

#include <unistd.h>

#include <bit>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>
#include <zstd.h>

#include "tansaku/core/error.h"
#include "tansaku/core/input.h"

namespace tansaku::search {
namespace {

// The Aho-Corasick automaton of `words` (none a substring of another) over k letters: state 0
// is the empty suffix; a move that completes a word leads to kDead. The trie's nodes are
// numbered as the words are inserted, the failure links found breadth first, and the live
// nodes renumbered in the trie's order.
std::vector<std::int32_t> compile(int letters, const std::vector<MoveWord>& words) {
  const auto k = static_cast<std::size_t>(letters);
  std::vector<std::int32_t> child(k, -1);  // [node * k + letter]
  std::vector<char> dead(1, 0);
  for (const MoveWord& w : words) {
    std::size_t q = 0;
    for (char16_t c : w) {
      const auto a = static_cast<std::size_t>(c);
      if (a >= k) throw std::invalid_argument("MoveAutomaton: a letter out of range");
      if (child[q * k + a] < 0) {
        child[q * k + a] = static_cast<std::int32_t>(dead.size());
        child.resize(child.size() + k, -1);
        dead.push_back(0);
      }
      q = static_cast<std::size_t>(child[q * k + a]);
    }
    dead[q] = 1;
  }
  // go[q * k + a]: the longest suffix of q·a that is a trie node (built in place of child).
  const std::size_t n = dead.size();
  std::vector<std::int32_t>& go = child;
  std::vector<std::size_t> fail(n, 0), order{0};
  order.reserve(n);
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::size_t q = order[i];
    if (q != 0 && dead[fail[q]]) dead[q] = 1;
    for (std::size_t a = 0; a < k; ++a) {
      const std::int32_t via = q == 0 ? 0 : go[fail[q] * k + a];
      if (go[q * k + a] >= 0) {
        const auto c = static_cast<std::size_t>(go[q * k + a]);
        fail[c] = static_cast<std::size_t>(via);
        order.push_back(c);
      } else {
        go[q * k + a] = via;
      }
    }
  }
  std::vector<std::int32_t> id(n, MoveAutomaton::kDead);
  std::int32_t live = 0;
  for (std::size_t q = 0; q < n; ++q)
    if (!dead[q]) id[q] = live++;
  std::vector<std::int32_t> delta(static_cast<std::size_t>(live) * k, MoveAutomaton::kDead);
  for (std::size_t q = 0; q < n; ++q)
    if (!dead[q])
      for (std::size_t a = 0; a < k; ++a)
        delta[static_cast<std::size_t>(id[q]) * k + a] = id[static_cast<std::size_t>(go[q * k + a])];
  return delta;
}

// Version 1: letters as bytes (at most 256 moves); version 2: as 16-bit little-endian.
constexpr char kMagic[8] = {'T', 'S', 'K', 'F', 'S', 'M', '1', '\n'};

// The header after the magic: version, depth, number of words, size of the words unpacked.
constexpr std::size_t kHead = sizeof kMagic + 4 + 4 + 8 + 8;
struct Header {
  std::uint32_t version = 0, depth = 0;
  std::uint64_t count = 0, raw_size = 0;
};
bool has_magic(const std::string& data) {
  return data.size() >= kHead && std::memcmp(data.data(), kMagic, sizeof kMagic) == 0;
}
Header header_of(const std::string& data) {  // has_magic(data) first
  Header h;
  const char* p = data.data() + sizeof kMagic;
  std::memcpy(&h.version, p, 4);
  std::memcpy(&h.depth, p + 4, 4);
  std::memcpy(&h.count, p + 8, 8);
  std::memcpy(&h.raw_size, p + 16, 8);
  return h;
}

template <class T>
void put(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

}  // namespace

MoveAutomaton::MoveAutomaton(int letters, int depth, std::vector<MoveWord> words)
    : letters_(letters), depth_(depth), words_(std::move(words)) {
  if (letters < 1 || letters > 65536) throw std::invalid_argument("MoveAutomaton: letters out of range");
  delta_ = compile(letters_, words_);
}

std::vector<std::uint64_t> MoveAutomaton::accepted(int n) const {
  std::vector<std::uint64_t> out(static_cast<std::size_t>(n) + 1, 0);
  std::vector<std::uint64_t> at(states(), 0), next(states(), 0);
  at[kStart] = 1;
  constexpr std::uint64_t kMax = ~std::uint64_t{0};
  auto add = [](std::uint64_t a, std::uint64_t b) { return a > kMax - b ? kMax : a + b; };
  for (int l = 0;; ++l) {
    for (std::uint64_t c : at) out[static_cast<std::size_t>(l)] = add(out[static_cast<std::size_t>(l)], c);
    if (l == n) break;
    std::fill(next.begin(), next.end(), 0);
    for (std::size_t q = 0; q < at.size(); ++q) {
      if (!at[q]) continue;
      for (int a = 0; a < letters_; ++a) {
        const std::int32_t r = this->next(static_cast<std::int32_t>(q), a);
        if (r != kDead) next[static_cast<std::size_t>(r)] = add(next[static_cast<std::size_t>(r)], at[q]);
      }
    }
    at.swap(next);
  }
  return out;
}

// The words, a length byte then the letters each.
bool MoveAutomaton::write(const std::filesystem::path& file) const {
  const bool wide = letters_ > 256;
  std::string raw;
  for (const MoveWord& w : words_) {
    raw += static_cast<char>(w.size());
    for (char16_t c : w) {
      raw += static_cast<char>(c & 0xff);
      if (wide) raw += static_cast<char>(c >> 8);
    }
  }
  std::string packed(ZSTD_compressBound(raw.size()), '\0');
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 19);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
  const std::size_t got = ZSTD_compress2(cctx, packed.data(), packed.size(), raw.data(), raw.size());
  ZSTD_freeCCtx(cctx);
  if (ZSTD_isError(got)) return false;
  packed.resize(got);
  std::string head(kMagic, sizeof kMagic);
  put(head, static_cast<std::uint32_t>(wide ? 2 : 1));
  put(head, static_cast<std::uint32_t>(depth_));
  put(head, static_cast<std::uint64_t>(words_.size()));
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

MoveAutomaton::FileSummary MoveAutomaton::summarize(const std::filesystem::path& file, bool whole) {
  const std::string data = read_file(file.string(), "move table", 0, nullptr);
  auto bad = [&](const char* why) { return InputError(fmt::format("{}: {}", file.string(), why)); };
  if (!has_magic(data)) throw bad("not a table of redundant move strings");
  const auto [version, d, count, raw_size] = header_of(data);
  if ((version != 1 && version != 2) || d < 1 || d > 255 || raw_size > (std::uint64_t{1} << 32))
    throw bad("damaged header");
  if (whole) {
    std::string raw(raw_size, '\0');
    const std::size_t got = ZSTD_decompress(raw.data(), raw.size(), data.data() + kHead, data.size() - kHead);
    if (ZSTD_isError(got) || got != raw_size) throw bad("damaged (its words do not decompress to their size)");
    std::uint64_t words = 0;
    for (std::size_t i = 0; i < raw.size(); ++words) {
      const auto len = static_cast<std::size_t>(static_cast<unsigned char>(raw[i]));
      if (len < 1 || len > d) throw bad("damaged (a word longer than the depth)");
      i += 1 + len * version;
      if (i > raw.size()) throw bad("damaged (a word cut short)");
    }
    if (words != count) throw bad("damaged (fewer or more words than its header says)");
  }
  return FileSummary{static_cast<int>(d), count};
}

std::optional<std::vector<MoveWord>> MoveAutomaton::read(const std::filesystem::path& file, int letters, int depth) {
  // Through the checked input path (core/input.h): a FIFO or a link loop in the cache is no file.
  std::string data;
  try {
    data = read_file(file.string(), "move table", 0, nullptr);
  } catch (const InputError&) {
    return std::nullopt;
  }
  if (!has_magic(data)) return std::nullopt;
  const auto [version, d, count, raw_size] = header_of(data);
  if ((version != 1 && version != 2) || static_cast<int>(d) != depth || raw_size > (std::uint64_t{1} << 32))
    return std::nullopt;
  const std::size_t width = version;
  std::string raw(raw_size, '\0');
  const std::size_t got = ZSTD_decompress(raw.data(), raw.size(), data.data() + kHead, data.size() - kHead);
  if (ZSTD_isError(got) || got != raw_size) return std::nullopt;  // includes a checksum mismatch
  std::vector<MoveWord> words;
  for (std::size_t i = 0; i < raw.size();) {
    const auto len = static_cast<std::size_t>(static_cast<unsigned char>(raw[i]));
    if (len < 1 || len > static_cast<std::size_t>(depth) || i + 1 + len * width > raw.size()) return std::nullopt;
    MoveWord w;
    for (std::size_t j = 0; j < len; ++j) {
      const auto* b = reinterpret_cast<const unsigned char*>(raw.data() + i + 1 + j * width);
      const unsigned c = width == 1 ? b[0] : b[0] | (static_cast<unsigned>(b[1]) << 8);
      if (c >= static_cast<unsigned>(letters)) return std::nullopt;
      w.push_back(static_cast<char16_t>(c));
    }
    words.push_back(std::move(w));
    i += 1 + len * width;
  }
  if (words.size() != count) return std::nullopt;
  return words;
}

namespace {
// Every automaton handed out lives as long as the process: a search may hold one while
// another thread asks for more.
std::mutex kept_mutex;
std::vector<std::unique_ptr<const MoveAutomaton>> kept_all;
std::map<std::pair<std::string, int>, const MoveAutomaton*> kept_by;  // (key, depth)

const MoveAutomaton& keep(const std::string& key, std::unique_ptr<const MoveAutomaton> f) {
  kept_all.push_back(std::move(f));
  kept_by.emplace(std::pair{key, kept_all.back()->depth()}, kept_all.back().get());
  return *kept_all.back();
}
}  // namespace

const MoveAutomaton& MoveAutomaton::kept(const std::string& key, int letters, int depth,
                                         const std::function<MoveAutomaton()>& build,
                                         const std::function<std::filesystem::path(int depth)>& name_for,
                                         bool as_asked) {
  std::lock_guard lock(kept_mutex);
  if (auto it = kept_by.find({key, depth}); it != kept_by.end()) return *it->second;
  if (name_for)
    if (auto words = read(name_for(depth), letters, depth))
      return keep(key, std::make_unique<const MoveAutomaton>(letters, depth, std::move(*words)));
  auto built = std::make_unique<const MoveAutomaton>(build());
  if (name_for) (void)built->write(name_for(built->depth()));  // a read-only cache: build again next time
  const MoveAutomaton& k = keep(key, std::move(built));
  if (as_asked) kept_by.emplace(std::pair{key, depth}, &k);
  return k;
}

namespace detail {

PackedStrings::PackedStrings(int letters, int depth)
    : bits_(std::max(1, static_cast<int>(std::bit_width(static_cast<unsigned>(letters - 1))))),
      code_bits_(depth * bits_ + 1),
      tag_bits_(64 - code_bits_),
      code_mask_(code_bits_ >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << code_bits_) - 1) {
  if (depth < 1 || depth > max_depth(letters)) throw std::invalid_argument("PackedStrings: depth out of range");
}

int PackedStrings::max_depth(int letters) {
  const int bits = std::max(1, static_cast<int>(std::bit_width(static_cast<unsigned>(letters - 1))));
  return (64 - 8 - 1) / bits;
}

std::uint64_t PackedStrings::pack(const MoveWord& w) const {
  std::uint64_t code = 1;
  for (char16_t c : w) code = (code << bits_) | c;
  return code;
}

MoveWord PackedStrings::unpack(std::uint64_t code) const {
  const int length = (std::bit_width(code) - 1) / bits_;
  MoveWord w(static_cast<std::size_t>(length), u'\0');
  const std::uint64_t letter = (std::uint64_t{1} << bits_) - 1;
  for (int i = length - 1; i >= 0; --i, code >>= bits_)
    w[static_cast<std::size_t>(i)] = static_cast<char16_t>(code & letter);
  return w;
}

namespace {
// The table's size for `strings` strings: at most three quarters full.
int table_bits(std::uint64_t strings) {
  int bits = 4;
  while (bits < 62 && (std::uint64_t{1} << bits) / 4 * 3 < strings) ++bits;
  return bits;
}
}  // namespace

std::uint64_t PackedStrings::bytes_for(std::uint64_t strings) {
  const int bits = table_bits(strings);
  return bits >= 62 ? ~std::uint64_t{0} : std::uint64_t{8} << bits;
}

bool PackedStrings::reserve(std::uint64_t strings, std::uint64_t memory, bool* refill) {
  *refill = false;
  const int bits = table_bits(strings);
  if (bits <= table_bits_) return true;
  if (bits >= 62 || (std::uint64_t{8} << bits) > memory) return false;
  const std::uint64_t both = (std::uint64_t{8} << bits) + bytes();
  std::vector<std::uint64_t> old;
  if (bits <= tag_bits_ && both <= memory) {
    old.swap(slots_);
  } else {
    std::vector<std::uint64_t>().swap(slots_);  // give the memory back first
    *refill = used_ > 0;
  }
  slots_.assign(std::size_t{1} << bits, 0);
  table_bits_ = bits;
  mask_ = slots_.size() - 1;
  used_ = 0;
  for (const std::uint64_t s : old) {  // the home slot from the tag: the hash's high bits
    if (!s) continue;
    std::size_t i = static_cast<std::size_t>((s >> code_bits_) >> (tag_bits_ - table_bits_));
    while (slots_[i]) i = (i + 1) & mask_;
    slots_[i] = s;
    ++used_;
  }
  return true;
}

void PackedStrings::insert(std::uint64_t hash, std::uint64_t code) {
  std::size_t i = home(hash);
  while (slots_[i]) i = (i + 1) & mask_;
  slots_[i] = ((hash >> (64 - tag_bits_)) << code_bits_) | code;
  ++used_;
}

void check_enumeration(const Limits& lim, int level, int depth, std::size_t words) {
  if (lim.deadline && lim.deadline->expired()) throw LimitError("time limit reached (--timeout)");
  if (lim.progress) lim.progress->update("redundant move strings: length {} of {}, {} found", level, depth, words);
}

}  // namespace detail
}  // namespace tansaku::search
