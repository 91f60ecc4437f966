// Piece tables on disk (see piece_file.h).
#include "perm/piece_file.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <type_traits>

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <cerrno>

#include "tansaku/core/background_task.h"
#include "tansaku/core/cache_dir.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/memory_error.h"
#include "tansaku/pdb/table_file.h"

namespace tansaku::perm {
namespace {

using json = nlohmann::ordered_json;
using pdb::Checksum;
constexpr char kMagic[] = "TSKPERMPDB1\n";  // files of earlier versions (still read)
constexpr const char* kPieceKind = "perm-piece";
constexpr const char* kPatternKind = "perm-pattern";
constexpr const char* kEncoding = "2-bit-mod-3";
constexpr const char* kEncoding4 = "4-bit-distance";  // pattern tables of exact values (pattern_table.h)
constexpr std::size_t kChunk = std::size_t{1} << 20;
constexpr std::size_t kPage = 4096;
// Cells from this size on are copied into memory of transparent huge pages in the
// background (the search starts on the file's mapping): a search probes them at random, and
// with 4 KiB pages nearly every probe of a table of gigabytes is a TLB miss and a page walk
// (perf: most of a cube search's time); the copy costs a read from the page cache, and when
// memory is fragmented the kernel's compaction (seconds), which the search does not wait for.
std::atomic<std::uint64_t> huge_from{std::uint64_t{64} << 20};
constexpr std::size_t kHugePage = std::size_t{2} << 20;
// A file that the page cache and a copy in huge pages could not hold together (its mapping's
// pages beside the copy would push each other out: the search then reads the disk at random)
// is read once instead (set_read_once_above).
std::atomic<std::uint64_t> read_once_bound{~std::uint64_t{0}};
bool read_once(std::uint64_t file_bytes) {
  const std::uint64_t b = read_once_bound.load(std::memory_order_relaxed);
  return b == ~std::uint64_t{0} ? file_bytes > available_memory() / 2 : file_bytes > b;
}
// `len` bytes of fd from byte `from` into dst (all of them, or false); nothing when len is 0.
bool read_at(int fd, char* dst, std::uint64_t len, off_t from) {
  while (len > 0) {
    const ssize_t got = ::pread(fd, dst, static_cast<std::size_t>(len), from);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    dst += got, len -= static_cast<std::uint64_t>(got), from += got;
  }
  return true;
}
// Drops the page cache of a part of a file read once (advice only: nothing to do on failure).
void drop_cached(int fd, std::uint64_t from, std::uint64_t len) {
  (void)::posix_fadvise(fd, static_cast<off_t>(from), static_cast<off_t>(len), POSIX_FADV_DONTNEED);
}

// An anonymous mapping of `bytes` starting on a huge page boundary (so that every whole
// 2 MiB of it can be one huge page), unmapped by PagesDeleter{bytes}; marked for huge pages.
void* aligned_anonymous(std::size_t bytes, bool huge) {
  void* raw = ::mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto base = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t at = (base + kHugePage - 1) / kHugePage * kHugePage;
  if (at > base) ::munmap(raw, at - base);
  const std::uintptr_t end = base + bytes + kHugePage, mine = (at + bytes + kPage - 1) / kPage * kPage;
  if (end > mine) ::munmap(reinterpret_cast<void*>(mine), end - mine);
#ifdef MADV_HUGEPAGE
  if (huge) ::madvise(reinterpret_cast<void*>(at), bytes, MADV_HUGEPAGE);
#endif
  return reinterpret_cast<void*>(at);
}

struct FileCloser {
  void operator()(std::FILE* f) const {
    if (f) std::fclose(f);
  }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

struct Fnv {
  std::uint64_t h = 1469598103934665603ull;
  void add(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) h = (h ^ ((v >> (8 * i)) & 0xff)) * 1099511628211ull;
  }
};

std::string safe(const std::string& s) {
  std::string o;
  for (char c : s) o += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '_';
  return o.empty() ? "x" : o.substr(0, 40);
}

std::string table_hint(const std::filesystem::path& file) {
  return fmt::format("`tansaku pdb remove {}` deletes it (`tansaku pdb build` makes it again)",
                     printable(file.filename().string()));
}

// The header of a file of the table format (pdb/table_file.h) as a file of the earlier
// layout has it (the sections' checksums as "checksum", "class_checksum",
// "sym_move_checksum"; "cells": "raw"); the stream is left at the cells.
json read_table_format_header(std::FILE* f, const std::filesystem::path& file, const std::string& name) {
  const pdb::TableReader r(file, table_hint(file));
  const pdb::TableHeader& th = r.header();
  const bool four = th.kind == kPatternKind && th.encoding == kEncoding4;
  if ((th.kind != kPieceKind && th.kind != kPatternKind) || (th.encoding != kEncoding && !four) || !th.info.is_object())
    throw InputError(r.refusal("not a perm piece or pattern table"));
  json h = th.info;
  h["cell_bits"] = four ? 4 : 2;
  std::uint64_t cells_at = 0;
  bool cells = false;
  for (const auto& sec : r.json()["sections"]) {
    const std::string n = sec.value("name", ""), sum = sec.value("checksum", "");
    if (sec.value("storage", "") != "raw") throw InputError(r.refusal("a perm table's section not stored raw"));
    if (n == "cells") cells = true, cells_at = sec.value("offset", std::uint64_t{0}), h["checksum"] = sum;
    else if (n == "classes") h["class_checksum"] = sum;
    else if (n == "sym_moves") h["sym_move_checksum"] = sum;
  }
  if (!cells || !h.contains("entries") || !h.contains("key") || !(h.contains("pieces") || h.contains("pattern")))
    throw InputError(r.refusal("not a perm piece or pattern table"));
  h["cells"] = "raw";
  if (std::fseek(f, static_cast<long>(cells_at), SEEK_SET) != 0) throw InputError(fmt::format("{}: truncated", name));
  return h;
}

// The header of an open file; the stream is left at the cells (or their compressed data,
// in files of an earlier version).
json read_header(std::FILE* f, const std::filesystem::path& file, const std::string& name) {
  if (pdb::is_table_file(file)) return read_table_format_header(f, file, name);
  // Files of earlier versions: magic, a JSON line (padded to a page boundary when the cells
  // are raw), the cells raw or compressed.
  auto bad = [&](const char* why) { return InputError(fmt::format("{}: not a tansaku piece table ({})", name, why)); };
  char magic[sizeof kMagic - 1];
  if (std::fread(magic, 1, sizeof magic, f) != sizeof magic || std::memcmp(magic, kMagic, sizeof magic) != 0)
    throw bad("bad magic");
  std::string line;
  for (int c; (c = std::fgetc(f)) != EOF && c != '\n';) {
    line += static_cast<char>(c);
    if (line.size() > 65536) throw bad("header too long");
  }
  json h = json::parse(line, nullptr, false);
  if (!h.is_object() || !h.contains("entries") || !h.contains("key") ||
      !(h.contains("pieces") || h.contains("pattern")))
    throw bad("bad header");
  return h;
}

File open_table(const std::filesystem::path& file) {
  const std::string path = allowed_file(file.string(), "piece table");
  (void)regular_file_size(file.string(), "piece table", UINT64_MAX);  // a FIFO would block fopen
  File f(std::fopen(path.c_str(), "rb"));
  if (!f) throw InputError(fmt::format("piece table '{}': cannot open", printable(file.string())));
  return f;
}

// The cells as they are in memory, from a page boundary: loading maps them, no read and no
// decompression (the 3x3x3's 554 MB pattern decompressed in about 0.6 s, most of a short
// solve). A table reduced by symmetry (pattern_reduction.h) has its class table after the
// cells, from the next page boundary (padded to 8 bytes), then its sym-move table likewise
// (files of an earlier version have no sym-move table: it is built at load). The table file
// format places its sections so, and files of the earlier layout have them so too.
std::uint64_t round_page(std::uint64_t n) { return (n + kPage - 1) / kPage * kPage; }
std::uint64_t class_bytes(std::uint64_t values) { return (values * 4 + 7) / 8 * 8; }
// The bytes after the cells (from their last page boundary) of a file with these tables.
std::uint64_t tail_bytes(std::uint64_t class_values, std::uint64_t sym_move_values) {
  if (!class_values) return 0;
  return sym_move_values ? round_page(class_bytes(class_values)) + class_bytes(sym_move_values) : class_bytes(class_values);
}

// 32-bit words as a section of whole 8-byte words: the table's own memory when it is an
// even count (no copy of gigabytes while the file is written), else a copy padded by a zero.
struct Words32 {
  std::vector<std::uint64_t> padded;
  const void* data;
  std::uint64_t bytes;
  explicit Words32(const ClassTable& t) : data(t.words), bytes(class_bytes(t.size)) {
    if (t.size % 2 == 0) return;
    padded.assign(bytes / 8, 0);
    std::memcpy(padded.data(), t.words, t.size * 4);
    data = padded.data();
  }
};

// A table file's content hash: found by what the distances depend on, the instance's key
// and what the table keeps (`keeps`: the header's "pieces" or "pattern"); 4-bit cells have
// a hash of their own.
std::string content_of(const std::string& key, const json& keeps, int bits) {
  pdb::ContentHash content;
  content.add(std::string_view(key)).add(std::string_view(keeps.dump()));
  if (bits == 4) content.add(std::string_view(kEncoding4));
  return content.hex();
}

std::string key_text(std::uint64_t key) { return fmt::format("{:016x}", key); }

json pieces_json(const PieceSpec& spec) {
  json pieces = json::array();
  for (int l : spec.labels) pieces.push_back(l + 1);
  return pieces;
}

// bits 4: exact values in 4-bit cells (a pattern table's), found by a content hash of its own.
void save_cells(json h, const TwoBitTable& cells, const std::filesystem::path& file,
                const ClassTable* classes = nullptr, const ClassTable* sym_moves = nullptr, int bits = 2) {
  std::vector<Words32> extra;
  if (classes) {
    extra.emplace_back(*classes);
    h["class_values"] = classes->size;
    if (sym_moves) {
      extra.emplace_back(*sym_moves);
      h["sym_move_values"] = sym_moves->size;
    }
  }
  const pdb::TableHeader th{h.contains("pattern") ? kPatternKind : kPieceKind,
                            content_of(h.value("key", ""), h.contains("pattern") ? h["pattern"] : h["pieces"], bits),
                            bits == 4 ? kEncoding4 : kEncoding, h.value("entries", std::uint64_t{0}), h};
  std::vector<pdb::SectionData> sections{
      {"cells", const_cast<TwoBitTable&>(cells).data(), cells.bytes(), pdb::Storage::raw}};
  const char* names[] = {"classes", "sym_moves"};
  for (std::size_t i = 0; i < extra.size(); ++i)
    sections.push_back({names[i], extra[i].data, extra[i].bytes, pdb::Storage::raw});
  pdb::write_table_file(file, th, sections);
}

// The `total` bytes at `words`, summed in `parts` contiguous parts of whole `step`s, one
// thread each: piece(pos, len) first puts each step in place (reads it, or nothing for a
// mapping), then its words are summed; the parts' sums are joined in order and checked
// against `checksum` (InputError naming `name`). Part 0 reports progress (`report` throws
// once the deadline passes); the others stop there too.
template <class Report, class Piece>
void sum_in_parts(const std::uint64_t* words, std::uint64_t total, std::uint64_t step, std::size_t parts,
                  const search::Limits& lim, Report& report, const std::string& name, const std::string& checksum,
                  Piece&& piece) {
  const std::uint64_t per = ((total + step - 1) / step + parts - 1) / parts * step;
  std::vector<Checksum> sums(parts);
  std::vector<std::exception_ptr> errors(parts);
  auto part = [&](std::size_t k) {
    try {
      const std::uint64_t lo = std::min(total, per * k), hi = std::min(total, lo + per);
      for (std::uint64_t pos = lo; pos < hi; pos += step) {
        if (k == 0) report(pos * parts);
        else if (lim.deadline && lim.deadline->expired()) return;  // part 0 reports it
        const std::uint64_t len = std::min(step, hi - pos);
        piece(pos, len);
        sums[k].add(words + pos / 8, static_cast<std::size_t>(len / 8));
      }
    } catch (...) {
      errors[k] = std::current_exception();
    }
  };
  {
    std::vector<std::jthread> pool;
    for (std::size_t k = 1; k < parts; ++k) pool.emplace_back(part, k);
    part(0);
  }
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
  if (lim.deadline && lim.deadline->expired()) throw LimitError("time limit reached (--timeout) loading a table");
  Checksum sum;
  for (const Checksum& c : sums) sum.join(c);
  if (sum.text() != checksum) throw InputError(fmt::format("{}: corrupt (checksum)", name));
}

// The cells of an open file (the stream at the cells), `entries` of them: raw (with their
// checksum), or compressed by zstd (files of earlier versions). for_search: big raw cells are
// also copied into huge pages in the background (not for a check alone).
std::unique_ptr<TwoBitTable> load_cells(std::FILE* f, std::uint64_t entries, const std::filesystem::path& file,
                                        const std::string& name, bool raw, const std::string& checksum,
                                        const search::Limits& lim, std::uint64_t tail = 0, bool for_search = true) {
  require_memory(TwoBitTable::bytes_for(entries), lim.memory, "a table");
  const std::uint64_t total = TwoBitTable::bytes_for(entries);
  auto report = [&](std::uint64_t done) {
    if (lim.deadline && lim.deadline->expired()) throw LimitError("time limit reached (--timeout) loading a table");
    if (lim.progress)
      lim.progress->update("loading {}: {}%", file.filename().string(), done * 100 / std::max<std::uint64_t>(1, total));
  };
  if (raw) {  // the cells as written, from a page boundary, then nothing: mapped
    const long at = std::ftell(f);
    struct stat st {};
    if (at < 0 || at % static_cast<long>(kPage) != 0 || ::fstat(::fileno(f), &st) != 0)
      throw InputError(fmt::format("{}: cells not at a page boundary", name));
    const auto size = static_cast<std::uint64_t>(st.st_size) - static_cast<std::uint64_t>(at);
    const std::uint64_t expect = tail ? round_page(total) + tail : total;
    if (size < expect) throw InputError(fmt::format("{}: truncated", name));
    if (size > expect) throw InputError(fmt::format("{}: longer than its table", name));
    const bool huge = total >= huge_from.load(std::memory_order_relaxed);
    if (huge && for_search && read_once(static_cast<std::uint64_t>(st.st_size))) {
      // Read once into memory of huge pages, one contiguous part per thread, summed as read:
      // by direct reads where the file system allows them (the disk writes into the table's
      // memory; no page cache), else read through the page cache, each piece dropped once read.
      const auto bytes = static_cast<std::size_t>(total);
      void* copy = nullptr;
      try {
        copy = aligned_anonymous(bytes, true);
      } catch (const std::bad_alloc&) {
        throw MemoryRefused(fmt::format("{}: no memory for its {} of cells", name, format_size(total)));
      }
      std::unique_ptr<std::uint64_t[], PagesDeleter> mine(static_cast<std::uint64_t*>(copy), PagesDeleter{bytes});
      const int fd = ::fileno(f);
      struct Direct {  // the file opened for direct reads, or -1
        int fd;
        ~Direct() {
          if (fd >= 0) ::close(fd);
        }
      } const opened{::open(file.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC)};
      const int direct = opened.fd;
      constexpr std::uint64_t kRead = std::uint64_t{8} << 20;
      const std::size_t parts = std::clamp<std::size_t>(lim.threads, 1, 4);
      char* dst = reinterpret_cast<char*>(mine.get());
      sum_in_parts(mine.get(), total, kRead, parts, lim, report, name, checksum,
                   [&](std::uint64_t pos, std::uint64_t len) {
                     const off_t from = at + static_cast<off_t>(pos);
                     // Direct reads take whole pages: a last piece's tail is read through the cache.
                     const std::uint64_t whole = direct >= 0 ? len / kPage * kPage : 0;
                     if (!read_at(direct, dst + pos, whole, from) ||
                         !read_at(fd, dst + pos + whole, len - whole, from + static_cast<off_t>(whole)))
                       throw InputError(fmt::format("{}: truncated", name));
                     if (whole < len) drop_cached(fd, static_cast<std::uint64_t>(from) + whole, len - whole);
                   });
      return std::make_unique<TwoBitTable>(entries, mine.release(), bytes);
    }
    // Mapped from the file (page cache, no copy) and summed, one contiguous part per thread,
    // the parts' sums joined in order.
    void* p = ::mmap(nullptr, static_cast<std::size_t>(total), PROT_READ, MAP_PRIVATE | MAP_POPULATE, ::fileno(f), at);
    if (p == MAP_FAILED) throw InputError(fmt::format("{}: cannot map ({})", name, std::strerror(errno)));
    auto table =
        std::make_unique<TwoBitTable>(entries, static_cast<std::uint64_t*>(p), static_cast<std::size_t>(total));
    const std::size_t parts = huge ? std::clamp<std::size_t>(lim.threads, 1, 4) : 1;
    sum_in_parts(static_cast<const std::uint64_t*>(p), total, kChunk, parts, lim, report, name, checksum,
                 [](std::uint64_t, std::uint64_t) {});
    if (huge && for_search) {
      // The search starts on the mapping (4 KiB pages) while a thread copies the cells into
      // memory of huge pages (where the kernel may first have to compact memory: seconds,
      // but not the search's) and hands it to the table. The copy is checked again (the
      // file could change under the mapping meanwhile).
      const int fd = ::dup(::fileno(f));
      if (fd < 0) throw InputError(fmt::format("{}: cannot open ({})", name, std::strerror(errno)));
      TwoBitTable* t = table.get();
      const std::string want = checksum;
      table->attach(std::make_shared<BackgroundTask>([t, p, fd, at, total, want](const std::atomic<bool>& stop) {
        const auto bytes = static_cast<std::size_t>(total);
        void* copy = nullptr;
        try {
          copy = aligned_anonymous(bytes, true);
        } catch (const std::bad_alloc&) {  // no room for a copy: the search stays on the mapping
          ::close(fd);
          return;
        }
        std::unique_ptr<std::uint64_t[], PagesDeleter> mine(static_cast<std::uint64_t*>(copy), PagesDeleter{bytes});
        Checksum again;
        bool ok = true;
        for (std::uint64_t pos = 0; ok && pos < total && !stop.load(std::memory_order_relaxed); pos += kChunk) {
          const std::size_t len = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, total - pos));
          ok = ::pread(fd, reinterpret_cast<char*>(mine.get()) + pos, len, at + static_cast<off_t>(pos)) == static_cast<ssize_t>(len);
          again.add(mine.get() + pos / 8, len / 8);
        }
        ::close(fd);
        if (!ok || stop.load(std::memory_order_relaxed) || again.text() != want) return;  // the mapping stays
        t->adopt(mine.release(), bytes);
        // The mapping's pages leave the process (a lookup that still reads there faults its
        // page back in from the file: the same values).
        ::madvise(p, bytes, MADV_DONTNEED);
      }));
    }
    return table;
  }
  if (tail) throw InputError(fmt::format("{}: a reduced table not stored raw", name));
  auto table = std::make_unique<TwoBitTable>(entries);
  char* dst = reinterpret_cast<char*>(table->data());
  std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> dc(ZSTD_createDCtx(), ZSTD_freeDCtx);
  std::vector<char> in(ZSTD_DStreamInSize());
  ZSTD_outBuffer o{dst, static_cast<std::size_t>(total), 0};
  std::size_t r = 1;
  while (r != 0) {
    report(o.pos);
    const std::size_t got = std::fread(in.data(), 1, in.size(), f);
    if (got == 0) throw InputError(fmt::format("{}: truncated", name));
    ZSTD_inBuffer ib{in.data(), got, 0};
    while (ib.pos < ib.size) {
      r = ZSTD_decompressStream(dc.get(), &o, &ib);
      if (ZSTD_isError(r)) throw InputError(fmt::format("{}: corrupt ({})", name, ZSTD_getErrorName(r)));
      if (r == 0) break;
      if (o.pos == o.size && ib.pos < ib.size) throw InputError(fmt::format("{}: longer than its table", name));
    }
  }
  if (o.pos != total) throw InputError(fmt::format("{}: shorter than its table", name));
  return table;
}

// A table file of this instance, open at its cells.
struct Opened {
  File f;
  std::string name;
  json h;
  std::uint64_t tail = 0;  // a reduced table's class and sym-move tables after the cells: their bytes
  // The table of `dom` (its size checked against the header) with the file's cells.
  template <class Table, class Domain>
  std::unique_ptr<Table> finish(std::unique_ptr<Domain> dom, const std::filesystem::path& file,
                                const search::Limits& lim) {
    if (h.value("entries", std::uint64_t{0}) != dom->size()) throw InputError(fmt::format("{}: wrong size", name));
    const int bits = h.value("cell_bits", 2);
    auto cells = load_cells(f.get(), dom->size() * static_cast<std::uint64_t>(bits / 2), file, name,
                            h.value("cells", "") == "raw", h.value("checksum", ""), lim, tail);
    if constexpr (std::is_same_v<Table, PatternTable>) {
      return std::make_unique<Table>(std::move(dom), std::move(cells), h.value("max_distance", 0), bits);
    } else {
      if (bits != 2) throw InputError(fmt::format("{}: a piece table of 4-bit cells", name));
      return std::make_unique<Table>(std::move(dom), std::move(cells), h.value("max_distance", 0));
    }
  }
};

}  // namespace

void set_huge_copy_from(std::uint64_t bytes) { huge_from.store(bytes, std::memory_order_relaxed); }
void set_read_once_above(std::uint64_t bytes) { read_once_bound.store(bytes, std::memory_order_relaxed); }

std::uint64_t instance_key(const Definition& d, const MoveSet& ms, const Position& goal) {
  Fnv f;
  f.add(static_cast<std::uint64_t>(d.positions));
  for (const auto& s : d.sets) f.add(static_cast<std::uint64_t>(s.size) << 8 | static_cast<std::uint64_t>(s.omod));
  f.add(ms.gens.size());
  for (const auto& g : ms.gens)
    for (int i = 0; i < d.positions; ++i)
      f.add(std::uint64_t{g.p.perm[static_cast<std::size_t>(i)]} << 8 | g.p.twist[static_cast<std::size_t>(i)]);
  for (int i = 0; i < d.positions; ++i)
    f.add(std::uint64_t{goal.lab[static_cast<std::size_t>(i)]} << 8 | goal.ori[static_cast<std::size_t>(i)]);
  return f.h;
}

std::string instance_prefix(const Definition& d, const MoveSet& ms, const Position& goal) {
  return fmt::format("perm-{}-{:016x}-", safe(d.name), instance_key(d, ms, goal));
}

std::string table_file_name(const Definition& d, const MoveSet& ms, const Position& goal, const PieceSpec& spec) {
  std::string pieces;
  for (int l : spec.labels) {
    if (!pieces.empty()) pieces += '.';
    pieces += std::to_string(l + 1);
  }
  return fmt::format("{}{}-{}.ptab", instance_prefix(d, ms, goal),
                     safe(d.sets[static_cast<std::size_t>(spec.set)].name), pieces);
}

namespace {

Opened open_instance_table(const std::filesystem::path& file, const Definition& d, const MoveSet& ms,
                           const Position& goal) {
  Opened o{open_table(file), printable(file.string()), {}};
  o.h = read_header(o.f.get(), file, o.name);
  if (o.h.value("key", "") != fmt::format("{:016x}", instance_key(d, ms, goal)))
    throw InputError(fmt::format("{}: a table of another puzzle, move set or goal", o.name));
  return o;
}

}  // namespace

json read_table_header(const std::filesystem::path& file) {
  File f = open_table(file);
  return read_header(f.get(), file, file.string());
}

void save_piece_table(const PieceTable& t, const std::string& puzzle, std::uint64_t key, const std::string& set_name,
                      const std::filesystem::path& file) {
  const PieceDomain& dom = t.domain();
  const json h = {{"key", key_text(key)},
                  {"puzzle", puzzle},
                  {"set", dom.spec().set + 1},
                  {"set_name", set_name},
                  {"pieces", pieces_json(dom.spec())},
                  {"orientations", dom.orientations()},
                  {"entries", dom.size()},
                  {"bytes", t.bytes()},
                  {"max_distance", t.max_distance()}};
  save_cells(h, t.mod3(), file);
}

std::unique_ptr<PieceTable> load_piece_table(const std::filesystem::path& file, const Definition& d,
                                             const MoveSet& ms, const Position& goal, const search::Limits& lim) {
  Opened o = open_instance_table(file, d, ms, goal);
  if (!o.h.contains("pieces")) throw InputError(fmt::format("{}: not a piece table", o.name));
  PieceSpec spec;
  spec.set = o.h.value("set", 0) - 1;
  for (const auto& l : o.h["pieces"]) spec.labels.push_back(l.get<int>() - 1);
  return o.finish<PieceTable>(std::make_unique<PieceDomain>(d, ms, goal, spec), file, lim);
}

pdb::BuildIdentity piece_identity(std::uint64_t key, const PieceSpec& spec) {
  return {kPieceKind, content_of(key_text(key), pieces_json(spec), 2), ""};
}

pdb::BuildIdentity pattern_identity(const Definition& d, std::uint64_t key, const PatternSpec& spec, int bits) {
  return {kPatternKind, content_of(key_text(key), pattern_json(d, spec), bits), ""};
}

bool is_table_file_name(const std::string& name) { return name.ends_with(".ptab") || name.ends_with(".ptab.zst"); }

std::string pattern_file_name(const Definition& d, const MoveSet& ms, const Position& goal, const PatternSpec& spec,
                              int bits) {
  return fmt::format("{}pattern-{}{}.ptab", instance_prefix(d, ms, goal), safe(spec.name), bits == 4 ? "-exact" : "");
}

void save_pattern_table(const PatternTable& t, const Definition& d, std::uint64_t key,
                        const std::filesystem::path& file, const std::string& symmetries,
                        const std::vector<std::string>& replaces) {
  const PatternDomain& dom = t.domain();
  json h = {{"key", key_text(key)},  {"puzzle", "perm:" + d.name}, {"pattern", pattern_json(d, dom.spec())},
            {"entries", dom.size()}, {"bytes", t.bytes()},         {"max_distance", t.max_distance()}};
  if (!replaces.empty()) h["replaces"] = replaces;
  if (const PatternReduction* red = dom.reduction()) {
    const ClassTable ct = red->class_table(), mt = red->sym_move_table();
    json hr = h;
    hr["bytes"] = t.bytes() + class_bytes(ct.size) + class_bytes(mt.size);  // what a solve holds
    if (!symmetries.empty()) hr["symmetries"] = symmetries;
    save_cells(hr, t.cells(), file, &ct, &mt, t.bits());
  } else {
    save_cells(h, t.cells(), file, nullptr, nullptr, t.bits());
  }
}

namespace {

// `values` 32-bit words of file `o` at byte `from`, read into memory of huge pages and
// checked against the header's `checksum_key`; `what` names them in the progress line, and
// the deadline stops the reading (LimitError).
ClassTable read_words(Opened& o, off_t from, std::uint64_t values, const char* checksum_key, bool once,
                      const search::Limits& lim, const char* what) {
  const std::uint64_t bytes = class_bytes(values);
  void* p = aligned_anonymous(static_cast<std::size_t>(bytes), true);
  std::unique_ptr<void, PagesDeleter> mine(p, PagesDeleter{static_cast<std::size_t>(bytes)});
  for (std::uint64_t pos = 0; pos < bytes; pos += kChunk) {
    if (lim.deadline && lim.deadline->expired()) throw LimitError("time limit reached (--timeout) loading a table");
    if (lim.progress)
      lim.progress->update("loading {}: {} {}%", std::filesystem::path(o.name).filename().string(), what,
                           pos * 100 / bytes);
    const std::size_t len = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, bytes - pos));
    if (::pread(::fileno(o.f.get()), static_cast<char*>(p) + pos, len, from + static_cast<off_t>(pos)) != static_cast<ssize_t>(len))
      throw InputError(fmt::format("{}: truncated", o.name));
    if (once) drop_cached(::fileno(o.f.get()), static_cast<std::uint64_t>(from) + pos, len);
  }
  Checksum sum;
  sum.add(static_cast<const std::uint64_t*>(p), static_cast<std::size_t>(bytes / 8));
  if (sum.text() != o.h.value(checksum_key, "")) throw InputError(fmt::format("{}: corrupt (checksum)", o.name));
  std::shared_ptr<const void> owner(mine.release(), PagesDeleter{static_cast<std::size_t>(bytes)});
  return ClassTable{static_cast<const std::uint32_t*>(p), values, std::move(owner)};
}

// The class table and the sym-move table (none in files of an earlier version) of a reduced
// pattern's file `o` (open at its cells), read and checked. Read into huge pages like big
// cells (huge_from): a search reads a sym-move row per node and lookup. (Their 2 MiB pages
// are few: the kernel finds them at once, unlike the gigabytes of cells.)
std::pair<ClassTable, ClassTable> read_reduction_tables(Opened& o, const search::Limits& lim) {
  const std::uint64_t values = o.h.value("class_values", std::uint64_t{0});
  const std::uint64_t moves = o.h.value("sym_move_values", std::uint64_t{0});
  if (values == 0 || o.h.value("cells", "") != "raw") throw InputError(fmt::format("{}: a reduced table without its classes", o.name));
  const long at = std::ftell(o.f.get());
  const std::uint64_t cells = TwoBitTable::bytes_for(o.h.value("entries", std::uint64_t{0}) *
                                                     static_cast<std::uint64_t>(o.h.value("cell_bits", 2) / 2));
  struct stat st {};
  if (at < 0 || ::fstat(::fileno(o.f.get()), &st) != 0 ||
      static_cast<std::uint64_t>(st.st_size) != static_cast<std::uint64_t>(at) + round_page(cells) + tail_bytes(values, moves))
    throw InputError(fmt::format("{}: truncated", o.name));
  const auto from = static_cast<off_t>(static_cast<std::uint64_t>(at) + round_page(cells));
  std::pair<ClassTable, ClassTable> out;
  const bool once = read_once(static_cast<std::uint64_t>(st.st_size));
  out.first = read_words(o, from, values, "class_checksum", once, lim, "class table");
  if (moves)
    out.second = read_words(o, from + static_cast<off_t>(round_page(class_bytes(values))), moves, "sym_move_checksum",
                            once, lim, "sym-move table");
  o.tail = tail_bytes(values, moves);
  return out;
}

}  // namespace

std::unique_ptr<PatternTable> load_pattern_table(const std::filesystem::path& file, const Definition& d,
                                                 const MoveSet& ms, const Position& goal, const search::Limits& lim) {
  Opened o = open_instance_table(file, d, ms, goal);
  if (!o.h.contains("pattern")) throw InputError(fmt::format("{}: not a pattern table", o.name));
  const PatternSpec spec = pattern_from_json(d, o.h["pattern"]);
  if (!spec.reduced)
    return o.finish<PatternTable>(
        std::make_unique<PatternDomain>(d, ms, goal, spec, lim.threads, nullptr, nullptr, nullptr, true), file, lim);
  const auto [ct, mt] = read_reduction_tables(o, lim);
  return o.finish<PatternTable>(
      std::make_unique<PatternDomain>(d, ms, goal, spec, lim.threads, &lim, &ct, mt.words ? &mt : nullptr), file, lim);
}

void verify_table_file(const std::filesystem::path& file, const search::Limits& lim) {
  Opened o{open_table(file), printable(file.string()), {}};
  o.h = read_header(o.f.get(), file, o.name);
  search::Limits l = lim;
  l.progress = nullptr;
  if (o.h.value("class_values", std::uint64_t{0}) > 0) (void)read_reduction_tables(o, l);  // checked as read
  (void)load_cells(o.f.get(),
                   o.h.value("entries", std::uint64_t{0}) * static_cast<std::uint64_t>(o.h.value("cell_bits", 2) / 2),
                   file, o.name, o.h.value("cells", "") == "raw", o.h.value("checksum", ""), l, o.tail, false);
}

namespace {

// The tables kept loaded (hold_loaded_tables), by file.
struct Kept {
  std::uint64_t size = 0;
  std::filesystem::file_time_type mtime;
  std::shared_ptr<PieceTable> piece;
  std::shared_ptr<PatternTable> pattern;
};
std::mutex kept_mutex;
int keeping = 0;  // the handles alive
std::map<std::filesystem::path, Kept> kept;

// A file's size and modification time (nullopt: gone).
std::optional<std::pair<std::uint64_t, std::filesystem::file_time_type>> stamp(const std::filesystem::path& f) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(f, ec);
  if (ec) return std::nullopt;
  const auto mtime = std::filesystem::last_write_time(f, ec);
  if (ec) return std::nullopt;
  return std::make_pair(static_cast<std::uint64_t>(size), mtime);
}

}  // namespace

std::shared_ptr<void> hold_loaded_tables() {
  struct Hold {
    Hold() {
      const std::lock_guard<std::mutex> g(kept_mutex);
      ++keeping;
    }
    ~Hold() {
      std::map<std::filesystem::path, Kept> gone;  // freed outside the lock
      const std::lock_guard<std::mutex> g(kept_mutex);
      if (--keeping == 0) gone.swap(kept);
    }
  };
  return std::make_shared<Hold>();
}

CachedTables load_cached_tables(const Definition& d, const MoveSet& ms, const Position& goal, std::uint64_t budget,
                                const search::Limits& lim) {
  CachedTables out;
  const std::filesystem::path dir = table_cache_dir();
  if (!file_allowed(dir.string())) return out;
  const std::string prefix = instance_prefix(d, ms, goal);
  std::vector<std::pair<std::uint64_t, std::filesystem::path>> found;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return out;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string n = e.path().filename().string();
    if (n.rfind(prefix, 0) != 0 || !is_table_file_name(n)) continue;
    try {
      const json h = read_table_header(e.path());
      found.emplace_back(h.value("bytes", std::uint64_t{0}), e.path());
    } catch (const InputError& err) {  // a file of this instance, damaged or truncated: said
      out.left_out.push_back(err.what());
    }
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  // Largest first while they fit; a table whose pieces a chosen one holds too (the same
  // set) adds nothing and is left out (edges 1-7 beside edges 1-8).
  std::uint64_t used = 0;
  std::vector<std::filesystem::path> chosen;
  std::vector<std::uint64_t> chosen_bytes;
  std::vector<std::pair<int, std::vector<int>>> held;
  std::vector<std::string> patterns_held, patterns_replaced;
  for (const auto& [bytes, path] : found) {
    if (used + bytes > budget) continue;
    std::pair<int, std::vector<int>> mine;
    try {
      const json h = read_table_header(path);
      if (h.contains("pattern")) {  // a pattern holds no other table's pieces (a namesake: the same)
        const std::string pname = h["pattern"].value("name", "");
        if (std::find(patterns_held.begin(), patterns_held.end(), pname) != patterns_held.end()) continue;
        // A chosen pattern stands in for this one (a larger, stronger replacement), or this
        // one for a chosen one: one pattern of each chain.
        std::vector<std::string> replaces;
        if (h.contains("replaces") && h["replaces"].is_array())
          for (const auto& r : h["replaces"])
            if (r.is_string()) replaces.push_back(r.get<std::string>());
        auto listed_in = [](const std::vector<std::string>& v, const std::string& x) {
          return std::find(v.begin(), v.end(), x) != v.end();
        };
        if (listed_in(patterns_replaced, pname) ||
            std::any_of(replaces.begin(), replaces.end(),
                        [&](const std::string& r) { return listed_in(patterns_held, r); }))
          continue;
        patterns_held.push_back(pname);
        patterns_replaced.insert(patterns_replaced.end(), replaces.begin(), replaces.end());
        chosen.push_back(path);
        chosen_bytes.push_back(bytes);
        used += bytes;
        continue;
      }
      mine.first = h.value("set", 0);
      for (const auto& l : h["pieces"]) mine.second.push_back(l.get<int>());
    } catch (const std::exception&) {
      continue;
    }
    std::sort(mine.second.begin(), mine.second.end());
    bool covered = false;
    for (const auto& [set, pieces] : held)
      covered = covered || (set == mine.first && std::includes(pieces.begin(), pieces.end(), mine.second.begin(), mine.second.end()));
    if (covered) continue;
    held.push_back(mine);
    chosen.push_back(path);
    chosen_bytes.push_back(bytes);
    used += bytes;
  }
  // Loaded side by side (each file on its own thread, at most lim.threads at once; the
  // first reports progress), kept in the order chosen; those kept loaded from an earlier
  // solve of this process (hold_loaded_tables) are taken as they are.
  std::vector<std::shared_ptr<PieceTable>> loaded(chosen.size());
  std::vector<std::shared_ptr<PatternTable>> patterns(chosen.size());
  std::vector<std::exception_ptr> errors(chosen.size());
  std::vector<std::string> why(chosen.size());
  std::vector<char> read(chosen.size(), 0);  // loaded from its file here
  std::vector<std::optional<std::pair<std::uint64_t, std::filesystem::file_time_type>>> stamps(chosen.size());
  bool keep = false;
  {
    const std::lock_guard<std::mutex> g(kept_mutex);
    keep = keeping > 0;
    if (keep) {
      std::map<std::filesystem::path, Kept> still;
      for (std::size_t i = 0; i < chosen.size(); ++i) {
        stamps[i] = stamp(chosen[i]);
        const auto it = kept.find(chosen[i]);
        if (it == kept.end() || !stamps[i] || it->second.size != stamps[i]->first ||
            it->second.mtime != stamps[i]->second)
          continue;
        loaded[i] = it->second.piece;
        patterns[i] = it->second.pattern;
        still.insert(*it);
      }
      kept = std::move(still);  // the others go once no solve holds them
    }
  }
  std::atomic<std::size_t> next{0};
  auto work = [&](bool first) {
    search::Limits l = lim;
    if (!first) l.progress = nullptr;
    for (std::size_t i; (i = next.fetch_add(1)) < chosen.size();) {
      if (loaded[i] || patterns[i]) continue;
      try {
        if (read_table_header(chosen[i]).contains("pattern"))
          patterns[i] = load_pattern_table(chosen[i], d, ms, goal, l);
        else loaded[i] = load_piece_table(chosen[i], d, ms, goal, l);
        read[i] = 1;
      } catch (const InputError& e) {
        // Not a table of this instance after all (another version, damaged): left out, said.
        why[i] = e.what();
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  {
    std::vector<std::thread> pool;
    const std::size_t threads = std::min<std::size_t>(std::max(1u, lim.threads), chosen.size());
    for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(work, false);
    work(true);
    for (auto& t : pool) t.join();
  }
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
  if (keep) {
    const std::lock_guard<std::mutex> g(kept_mutex);
    if (keeping > 0)
      for (std::size_t i = 0; i < chosen.size(); ++i)
        if ((loaded[i] || patterns[i]) && stamps[i])
          kept[chosen[i]] = Kept{stamps[i]->first, stamps[i]->second, loaded[i], patterns[i]};
  }
  for (std::size_t i = 0; i < chosen.size(); ++i)
    if (read[i]) out.read_bytes += chosen_bytes[i];
  for (auto& t : loaded)
    if (t) out.pieces.push_back(std::move(t));
  for (auto& t : patterns)
    if (t) out.patterns.push_back(std::move(t));
  for (const auto& w : why)
    if (!w.empty()) out.left_out.push_back(w);
  return out;
}

}  // namespace tansaku::perm
