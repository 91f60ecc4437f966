// The one table file format (see tansaku/pdb/table_file.h): writing to a temporary name and
// renaming, reading the header before anything else, mapping raw sections, decompressing
// zstd frames on threads, checking every section's checksum, and placing a big section a
// search reads at random in memory of huge pages (read once, or copied beside the mapping).
#include "tansaku/pdb/table_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <system_error>
#include <thread>

#include <fmt/format.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <zstd.h>

#include "tansaku/core/background_task.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/memory_error.h"
#include "tansaku/core/zeroed_pages.h"

namespace tansaku::pdb {
namespace {

using json = nlohmann::ordered_json;

constexpr char kMagic[8] = {'T', 'S', 'K', 'T', 'A', 'B', 'L', 'E'};
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kPrefix = 24;  // magic, version, header length, header hash
constexpr std::uint64_t kPage = 4096;
constexpr std::uint64_t kFrame = std::uint64_t{16} << 20;  // raw bytes per zstd frame
constexpr std::uint32_t kMaxHeader = 16u << 20;
constexpr std::uint64_t kPart = std::uint64_t{64} << 20;  // bytes per thread when summing
constexpr char kEarlier[3] = {'T', 'S', 'K'};             // every tansaku table file's first bytes

std::uint64_t round_page(std::uint64_t n) { return (n + kPage - 1) / kPage * kPage; }

template <class T>
void put(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

// The checksum of bytes, in parts of kPart on `threads` threads, joined in order.
std::string sum_bytes(const std::uint8_t* data, std::uint64_t bytes, unsigned threads) {
  const std::uint64_t words = bytes / 8, parts = std::max<std::uint64_t>(1, (bytes + kPart - 1) / kPart);
  std::vector<Checksum> sums(parts);
  auto part = [&](std::uint64_t k) {
    const std::uint64_t lo = k * (kPart / 8), hi = std::min(words, lo + kPart / 8);
    if (lo < hi) {
      // The words may be unaligned only in memory we did not allocate; ours and mappings are.
      sums[k].add(reinterpret_cast<const std::uint64_t*>(data) + lo, static_cast<std::size_t>(hi - lo));
    }
  };
  if (parts == 1 || threads <= 1) {
    for (std::uint64_t k = 0; k < parts; ++k) part(k);
  } else {
    tbb::task_arena arena(static_cast<int>(threads));
    arena.execute([&] { tbb::parallel_for(std::uint64_t{0}, parts, part); });
  }
  Checksum all;
  for (const auto& s : sums) all.join(s);
  if (bytes % 8) {
    std::uint64_t last = 0;
    std::memcpy(&last, data + words * 8, static_cast<std::size_t>(bytes % 8));
    all.add(&last, 1);
  }
  return all.text();
}

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

bool read_at(int fd, void* to, std::size_t n, std::uint64_t at) {
  auto* p = static_cast<char*>(to);
  while (n > 0) {
    const ssize_t got = ::pread(fd, p, n, static_cast<off_t>(at));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    p += got, n -= static_cast<std::size_t>(got), at += static_cast<std::uint64_t>(got);
  }
  return true;
}

bool write_all(int fd, const void* from, std::uint64_t n) {
  const auto* p = static_cast<const char*>(from);
  while (n > 0) {
    const ssize_t got = ::write(fd, p, static_cast<std::size_t>(std::min<std::uint64_t>(n, std::uint64_t{1} << 30)));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    p += got, n -= static_cast<std::uint64_t>(got);
  }
  return true;
}

bool all_zero(const std::uint8_t* p, std::uint64_t n) {
  std::uint64_t acc = 0;
  for (std::uint64_t i = 0; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    acc |= w;
    if ((i & 4095) == 4088 && acc) return false;
  }
  for (std::uint64_t i = n & ~std::uint64_t{7}; i < n; ++i) acc |= p[i];
  return acc == 0;
}

// Writes `n` bytes at the file's position, leaving a hole where a block of 64 KiB is all
// zeros (a partial build's first layers are mostly zeros); a reader sees zeros there all
// the same. The caller sets the file's length at the end (a hole may end it).
bool write_sparse(int fd, const void* from, std::uint64_t n) {
  constexpr std::uint64_t kBlock = std::uint64_t{64} << 10;
  const auto* p = static_cast<const std::uint8_t*>(from);
  auto block = [&](std::uint64_t at) { return std::min(kBlock, n - at); };
  for (std::uint64_t at = 0; at < n;) {
    std::uint64_t end = at;
    while (end < n && !all_zero(p + end, block(end))) end += block(end);
    if (end > at && !write_all(fd, p + at, end - at)) return false;
    at = end;
    while (end < n && all_zero(p + end, block(end))) end += block(end);
    if (end > at && ::lseek(fd, static_cast<off_t>(end - at), SEEK_CUR) < 0) return false;
    at = end;
  }
  return true;
}

struct SectionInfo {
  std::string name;
  Storage storage = Storage::raw;
  std::uint64_t offset = 0, bytes = 0, stored = 0;
  std::vector<std::uint64_t> frames;  // zstd: each frame's compressed bytes
  std::string checksum;
};

// Loading a section for a search (TableReader::load). A search probes a big table at random,
// and with 4 KiB pages nearly every probe of a table of gigabytes is a TLB miss and a page
// walk (perf: most of a big search's time): big sections go into memory of transparent huge
// pages. Mapped first and copied there in the background, the copy costs a read from the
// page cache, and when memory is fragmented the kernel's compaction (seconds), which the
// search does not wait for; a file that the page cache and a copy could not hold together
// (its mapping's pages beside the copy would push each other out: the search then reads the
// disk at random) is read once instead.
constexpr std::uint64_t kHugePage = std::uint64_t{2} << 20;
constexpr std::uint64_t kChunk = std::uint64_t{1} << 20;  // bytes summed or copied between checks of the deadline
constexpr std::uint64_t kRead = std::uint64_t{8} << 20;   // bytes read at once into memory of huge pages
std::atomic<std::uint64_t> huge_from{std::uint64_t{64} << 20};
std::atomic<std::uint64_t> read_once_bound{~std::uint64_t{0}};

bool read_once(std::uint64_t file_bytes) {
  const std::uint64_t b = read_once_bound.load(std::memory_order_relaxed);
  return b == ~std::uint64_t{0} ? file_bytes > available_memory() / 2 : file_bytes > b;
}

// Drops the page cache of a part of a file read once (advice only: nothing to do on failure).
void drop_cached(int fd, std::uint64_t from, std::uint64_t len) {
  (void)::posix_fadvise(fd, static_cast<off_t>(from), static_cast<off_t>(len), POSIX_FADV_DONTNEED);
}

// An anonymous mapping of `bytes` starting on a huge page boundary (so that every whole
// 2 MiB of it can be one huge page), unmapped by PagesDeleter{bytes}; marked for huge pages.
// std::bad_alloc when there is no room.
std::uint8_t* aligned_anonymous(std::uint64_t n) {
  const auto bytes = static_cast<std::size_t>(n);
  void* raw =
      ::mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto base = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t at = (base + kHugePage - 1) / kHugePage * kHugePage;
  if (at > base) ::munmap(raw, at - base);
  const std::uintptr_t end = base + bytes + kHugePage, mine = (at + bytes + kPage - 1) / kPage * kPage;
  if (end > mine) ::munmap(reinterpret_cast<void*>(mine), end - mine);
#ifdef MADV_HUGEPAGE
  ::madvise(reinterpret_cast<void*>(at), bytes, MADV_HUGEPAGE);
#endif
  return reinterpret_cast<std::uint8_t*>(at);
}

// The checksum of the `total` bytes at `data`, summed in `parts` contiguous parts of whole
// `step`s, one thread each: piece(pos, len) first puts each step in place (reads it, or
// nothing for a mapping), then its words are summed; the parts' sums are joined in order.
// Part 0 reports progress (`report` throws once the deadline passes); the others stop there
// too, and LimitError follows.
template <class Report, class Piece>
Checksum sum_in_parts(const std::uint8_t* data, std::uint64_t total, std::uint64_t step, std::size_t parts,
                      const search::Limits& lim, Report& report, Piece&& piece) {
  const std::uint64_t per = ((total + step - 1) / step + parts - 1) / parts * step;
  const auto* words = reinterpret_cast<const std::uint64_t*>(data);
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
  Checksum all;
  for (const Checksum& c : sums) all.join(c);
  if (total % 8) {  // the last word padded with zeros, as sum_bytes has it
    std::uint64_t last = 0;
    std::memcpy(&last, data + total / 8 * 8, static_cast<std::size_t>(total % 8));
    all.add(&last, 1);
  }
  return all;
}

}  // namespace

ContentHash& ContentHash::add_bytes(const void* data, std::size_t n) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return *this;
}
ContentHash& ContentHash::add(std::uint64_t v) {
  for (int i = 0; i < 8; ++i) h = (h ^ ((v >> (8 * i)) & 0xff)) * 1099511628211ull;
  return *this;
}
ContentHash& ContentHash::add(std::string_view s) {
  add(static_cast<std::uint64_t>(s.size()));
  return add_bytes(s.data(), s.size());
}
std::string ContentHash::hex() const { return fmt::format("{:016x}", h); }

void Checksum::add(const std::uint64_t* w, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) a += w[i], b += a;
  n += count;
}
void Checksum::join(const Checksum& next) {
  b += next.b + a * next.n;  // each of next's prefix sums grows by a
  a += next.a;
  n += next.n;
}
std::string Checksum::text() const { return fmt::format("{:016x}{:016x}", a, b); }

std::string checksum_of(const void* data, std::uint64_t bytes) {
  return sum_bytes(static_cast<const std::uint8_t*>(data), bytes, 1);
}

void write_table_file(const std::filesystem::path& file, const TableHeader& header,
                      std::span<const SectionData> sections, unsigned threads) {
  const std::string name = printable(file.string());
  // Compressed sections first (frames on threads), then every section's place.
  std::vector<SectionInfo> info(sections.size());
  std::vector<std::vector<std::string>> packed(sections.size());
  tbb::task_arena arena(static_cast<int>(std::max(1u, threads)));
  for (std::size_t s = 0; s < sections.size(); ++s) {
    const SectionData& sd = sections[s];
    SectionInfo& si = info[s];
    si.name = sd.name;
    si.storage = sd.storage;
    si.bytes = sd.bytes;
    si.checksum = sum_bytes(static_cast<const std::uint8_t*>(sd.data), sd.bytes, threads);
    if (sd.storage == Storage::raw) {
      si.stored = sd.bytes;
      continue;
    }
    const std::uint64_t frames = (sd.bytes + kFrame - 1) / kFrame;
    packed[s].resize(frames);
    std::atomic<bool> failed{false};
    arena.execute([&] {
      tbb::parallel_for(std::uint64_t{0}, frames, [&](std::uint64_t i) {
        const std::uint64_t lo = i * kFrame, n = std::min(sd.bytes - lo, kFrame);
        std::string& out = packed[s][i];
        out.resize(ZSTD_compressBound(static_cast<std::size_t>(n)));
        std::unique_ptr<ZSTD_CCtx, std::size_t (*)(ZSTD_CCtx*)> cctx(ZSTD_createCCtx(), ZSTD_freeCCtx);
        ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, 9);
        ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, 1);
        const std::size_t got =
            ZSTD_compress2(cctx.get(), out.data(), out.size(), static_cast<const std::uint8_t*>(sd.data) + lo,
                           static_cast<std::size_t>(n));
        if (ZSTD_isError(got)) failed = true;
        else out.resize(got);
      });
    });
    if (failed) throw std::runtime_error(fmt::format("{}: zstd could not compress section {}", name, sd.name));
    for (const auto& f : packed[s]) si.frames.push_back(f.size()), si.stored += f.size();
  }
  // The header's own size moves the sections: placed again until it no longer grows.
  std::string text;
  for (std::uint64_t head_bytes = kPage;;) {
    std::uint64_t at = head_bytes;
    json secs = json::array();
    for (auto& si : info) {
      si.offset = at;
      json j = {{"name", si.name},     {"storage", si.storage == Storage::raw ? "raw" : "zstd"},
                {"offset", si.offset}, {"bytes", si.bytes},
                {"stored", si.stored}, {"checksum", si.checksum}};
      if (si.storage == Storage::zstd) j["frame_bytes"] = kFrame, j["frames"] = si.frames;
      secs.push_back(std::move(j));
      at = round_page(at + si.stored);
    }
    const json h = {{"format", "tansaku table"},
                    {"version", kVersion},
                    {"kind", header.kind},
                    {"content", header.content},
                    {"encoding", header.encoding},
                    {"entries", header.entries},
                    {"info", header.info},
                    {"sections", secs},
                    {"file_bytes", info.empty() ? head_bytes : info.back().offset + info.back().stored}};
    text = h.dump();
    const std::uint64_t need = round_page(kPrefix + text.size());
    if (need <= head_bytes) break;
    head_bytes = need;
  }
  std::string head(kMagic, sizeof kMagic);
  put(head, kVersion);
  put(head, static_cast<std::uint32_t>(text.size()));
  put(head, ContentHash{}.add_bytes(text.data(), text.size()).h);
  head += text;
  head.resize(static_cast<std::size_t>(info.empty() ? round_page(head.size()) : info.front().offset), '\0');

  std::error_code ec;
  if (!file.parent_path().empty()) {
    std::filesystem::create_directories(file.parent_path(), ec);
    if (ec)
      throw InputError(
          fmt::format("cannot create the directory {}: {}", printable(file.parent_path().string()), ec.message()));
  }
  static std::atomic<unsigned> serial{0};
  const std::filesystem::path tmp = file.string() + fmt::format(".tmp{}-{}", ::getpid(), serial.fetch_add(1));
  Fd out;
  out.fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (out.fd < 0) throw InputError(fmt::format("cannot write {}: {}", printable(tmp.string()), std::strerror(errno)));
  bool ok = write_all(out.fd, head.data(), head.size());
  std::uint64_t written = head.size();
  const std::string zeros(kPage, '\0');
  for (std::size_t s = 0; ok && s < info.size(); ++s) {
    ok = write_all(out.fd, zeros.data(), info[s].offset - written);
    if (info[s].storage == Storage::raw) ok = ok && write_sparse(out.fd, sections[s].data, sections[s].bytes);
    else
      for (const auto& f : packed[s]) ok = ok && write_all(out.fd, f.data(), f.size());
    written = info[s].offset + info[s].stored;
  }
  ok = ok && ::ftruncate(out.fd, static_cast<off_t>(written)) == 0;  // a hole may end the file
  ok = ok && ::fsync(out.fd) == 0;
  const int err = errno;
  ok = ::close(out.fd) == 0 && ok;
  out.fd = -1;
  if (!ok) {
    std::filesystem::remove(tmp, ec);
    throw InputError(fmt::format("cannot write {}: {}", name, std::strerror(err ? err : EIO)));
  }
  std::filesystem::rename(tmp, file, ec);
  if (ec) {
    std::error_code ec2;
    std::filesystem::remove(tmp, ec2);
    throw InputError(fmt::format("cannot write {}: {}", name, ec.message()));
  }
}

struct TableReader::Impl {
  std::filesystem::path file;
  std::string name, hint;
  Fd fd;
  std::uint64_t size = 0, memory = 0;
  std::vector<SectionInfo> sections;
};

std::string TableReader::refusal(std::string_view why) const {
  return fmt::format("{}: {}; {}", impl_->name, why, impl_->hint);
}

TableReader::TableReader(const std::filesystem::path& file, std::string hint, std::uint64_t memory)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.file = file;
  m.name = printable(file.string());
  m.hint = hint.empty() ? fmt::format("`tansaku pdb remove {}` deletes it", printable(file.filename().string()))
                        : std::move(hint);
  auto bad = [&](std::string_view why) { return InputError(refusal(why)); };
  m.size = regular_file_size(file.string(), "table file", UINT64_MAX);  // no directory or FIFO
  m.fd.fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (m.fd.fd < 0) throw bad(fmt::format("cannot open ({})", std::strerror(errno)));
  struct stat st {};
  if (::fstat(m.fd.fd, &st) != 0) throw bad("cannot read it");
  m.size = static_cast<std::uint64_t>(st.st_size);
  char prefix[kPrefix];
  const std::size_t head = static_cast<std::size_t>(std::min<std::uint64_t>(m.size, kPrefix));
  if (!read_at(m.fd.fd, prefix, head, 0) || head == 0) throw bad("not a tansaku table file");
  if (head >= sizeof kMagic && std::memcmp(prefix, kEarlier, sizeof kEarlier) == 0 &&
      std::memcmp(prefix, kMagic, sizeof kMagic) != 0)
    throw bad("a table file of an earlier version of tansaku, no longer read");
  if (std::memcmp(prefix, kMagic, std::min(head, sizeof kMagic)) != 0) throw bad("not a tansaku table file");
  if (head < kPrefix) throw bad(fmt::format("truncated table file ({} bytes)", m.size));
  std::uint32_t version = 0, length = 0;
  std::uint64_t hash = 0;
  std::memcpy(&version, prefix + 8, 4);
  std::memcpy(&length, prefix + 12, 4);
  std::memcpy(&hash, prefix + 16, 8);
  if (version != kVersion)
    throw bad(fmt::format("a table file of another version ({}; this one reads {})", version, kVersion));
  if (length > kMaxHeader || kPrefix + length > m.size) throw bad("truncated table file (in its header)");
  std::string text(length, '\0');
  if (!read_at(m.fd.fd, text.data(), length, kPrefix)) throw bad("truncated table file (in its header)");
  if (ContentHash{}.add_bytes(text.data(), text.size()).h != hash)
    throw bad("damaged table file (its header's checksum)");
  json_ = json::parse(text, nullptr, false);
  try {
    if (!json_.is_object() || json_.value("format", "") != "tansaku table") throw bad("damaged table file (header)");
    header_.kind = json_.at("kind").get<std::string>();
    header_.content = json_.at("content").get<std::string>();
    header_.encoding = json_.at("encoding").get<std::string>();
    header_.entries = json_.at("entries").get<std::uint64_t>();
    header_.info = json_.at("info");
    std::uint64_t end = round_page(kPrefix + length);
    for (const auto& j : json_.at("sections")) {
      SectionInfo si;
      si.name = j.at("name").get<std::string>();
      const std::string storage = j.at("storage").get<std::string>();
      if (storage != "raw" && storage != "zstd") throw bad(fmt::format("section {} stored as '{}'", si.name, storage));
      si.storage = storage == "raw" ? Storage::raw : Storage::zstd;
      si.offset = j.at("offset").get<std::uint64_t>();
      si.bytes = j.at("bytes").get<std::uint64_t>();
      si.stored = j.at("stored").get<std::uint64_t>();
      si.checksum = j.at("checksum").get<std::string>();
      if (si.offset % kPage || si.offset < end || si.stored > (UINT64_MAX >> 2) || si.bytes > (UINT64_MAX >> 2))
        throw bad("damaged table file (its sections' places)");
      if (si.storage == Storage::raw && si.stored != si.bytes) throw bad("damaged table file (its sections' sizes)");
      if (si.storage == Storage::zstd) {
        if (j.at("frame_bytes").get<std::uint64_t>() != kFrame) throw bad("damaged table file (its frame size)");
        si.frames = j.at("frames").get<std::vector<std::uint64_t>>();
        std::uint64_t sum = 0;
        for (auto f : si.frames) sum += std::min(f, si.stored + 1);
        if (sum != si.stored || si.frames.size() != (si.bytes + kFrame - 1) / kFrame)
          throw bad("damaged table file (its frame index)");
      }
      end = si.offset + si.stored;
      m.memory += si.bytes;
      m.sections.push_back(std::move(si));
    }
    const std::uint64_t want = json_.at("file_bytes").get<std::uint64_t>();
    if (want != (m.sections.empty() ? round_page(kPrefix + length) : end)) throw bad("damaged table file (its size)");
    if (m.size < want) throw bad(fmt::format("truncated table file ({} bytes of {})", m.size, want));
    if (m.size > want) throw bad(fmt::format("table file longer than it says ({} bytes, not {})", m.size, want));
  } catch (const nlohmann::json::exception&) {
    throw bad("damaged table file (header)");
  }
  require_memory(m.memory, memory, fmt::format("the table {}", m.name));
}

TableReader::TableReader(TableReader&&) noexcept = default;
TableReader::~TableReader() = default;

std::uint64_t TableReader::memory_bytes() const { return impl_->memory; }
std::uint64_t TableReader::file_bytes() const { return impl_->size; }

bool TableReader::has(std::string_view section) const {
  for (const auto& s : impl_->sections)
    if (s.name == section) return true;
  return false;
}

namespace {

const SectionInfo& find_section(const std::vector<SectionInfo>& all, std::string_view name, const TableReader& r) {
  for (const auto& s : all)
    if (s.name == name) return s;
  throw InputError(r.refusal(fmt::format("no section '{}' in the table file", name)));
}

}  // namespace

std::uint64_t TableReader::section_bytes(std::string_view name) const {
  return find_section(impl_->sections, name, *this).bytes;
}

Bytes TableReader::section(std::string_view name, unsigned threads, bool check) const {
  const Impl& m = *impl_;
  const SectionInfo& si = find_section(m.sections, name, *this);
  Bytes out;
  out.size = si.bytes;
  if (si.bytes == 0) {
    if (si.checksum != Checksum{}.text())
      throw InputError(refusal(fmt::format("damaged table file (section {})", name)));
    return out;
  }
  if (si.storage == Storage::raw) {
    void* p = ::mmap(nullptr, static_cast<std::size_t>(si.stored), PROT_READ, MAP_PRIVATE | (check ? MAP_POPULATE : 0),
                     m.fd.fd, static_cast<off_t>(si.offset));
    if (p == MAP_FAILED) throw InputError(refusal(fmt::format("cannot map it ({})", std::strerror(errno))));
    out.owner = std::shared_ptr<const void>(p, PagesDeleter{static_cast<std::size_t>(si.stored)});
    out.data = static_cast<const std::uint8_t*>(p);
    if (check && sum_bytes(out.data, out.size, threads) != si.checksum)
      throw InputError(refusal(fmt::format("damaged table file (the checksum of section {})", name)));
    return out;
  }
  auto mem = zeroed_array<std::uint8_t>(static_cast<std::size_t>(si.bytes));
  section_into(name, mem.get(), threads, check);
  out.data = mem.get();
  out.owner = std::shared_ptr<const void>(mem.release(), PagesDeleter{static_cast<std::size_t>(si.bytes)});
  return out;
}

void TableReader::section_into(std::string_view name, void* to, unsigned threads, bool check) const {
  const Impl& m = *impl_;
  const SectionInfo& si = find_section(m.sections, name, *this);
  auto* dst = static_cast<std::uint8_t*>(to);
  if (si.storage == Storage::raw) {
    if (si.bytes && !read_at(m.fd.fd, dst, static_cast<std::size_t>(si.bytes), si.offset))
      throw InputError(refusal(fmt::format("truncated table file (section {})", name)));
  } else if (si.bytes) {
    void* p = ::mmap(nullptr, static_cast<std::size_t>(si.stored), PROT_READ, MAP_PRIVATE, m.fd.fd,
                     static_cast<off_t>(si.offset));
    if (p == MAP_FAILED) throw InputError(refusal(fmt::format("cannot map it ({})", std::strerror(errno))));
    const std::unique_ptr<void, PagesDeleter> packed(p, PagesDeleter{static_cast<std::size_t>(si.stored)});
    ::madvise(p, static_cast<std::size_t>(si.stored), MADV_SEQUENTIAL);
    std::vector<std::uint64_t> at(si.frames.size() + 1, 0);
    for (std::size_t i = 0; i < si.frames.size(); ++i) at[i + 1] = at[i] + si.frames[i];
    std::atomic<bool> failed{false};
    auto frame = [&](std::size_t i) {
      const std::uint64_t lo = i * kFrame, n = std::min(si.bytes - lo, kFrame);
      const std::size_t got =
          ZSTD_decompress(dst + lo, static_cast<std::size_t>(n), static_cast<const std::uint8_t*>(p) + at[i],
                          static_cast<std::size_t>(si.frames[i]));
      if (ZSTD_isError(got) || got != n) failed = true;  // includes zstd's own checksum
    };
    tbb::task_arena arena(static_cast<int>(std::max(1u, threads)));
    arena.execute([&] { tbb::parallel_for(std::size_t{0}, si.frames.size(), frame); });
    if (failed) throw InputError(refusal(fmt::format("damaged table file (section {} does not decompress)", name)));
  }
  if (check && sum_bytes(dst, si.bytes, threads) != si.checksum)
    throw InputError(refusal(fmt::format("damaged table file (the checksum of section {})", name)));
}

LoadedSection TableReader::load(std::string_view name, const search::Limits& lim, Placement placement,
                                std::string_view label) const {
  const Impl& m = *impl_;
  const SectionInfo& si = find_section(m.sections, name, *this);
  require_memory(si.bytes, lim.memory, "a table");
  const std::string file = m.file.filename().string(), what = label.empty() ? "" : std::string(label) + " ";
  auto report = [&](std::uint64_t done) {
    if (lim.deadline && lim.deadline->expired()) throw LimitError("time limit reached (--timeout) loading a table");
    if (lim.progress)
      lim.progress->update("loading {}: {}{}%", file, what, done * 100 / std::max<std::uint64_t>(1, si.bytes));
  };
  auto damaged = [&] {
    return InputError(refusal(fmt::format("damaged table file (the checksum of section {})", name)));
  };
  auto own = [&] {
    try {
      return std::unique_ptr<std::uint8_t[], PagesDeleter>(aligned_anonymous(si.bytes),
                                                           PagesDeleter{static_cast<std::size_t>(si.bytes)});
    } catch (const std::bad_alloc&) {
      throw MemoryRefused(fmt::format("{}: no memory for its {} of section {}", m.name, format_size(si.bytes), name));
    }
  };
  LoadedSection out;
  out.bytes = si.bytes;
  if (si.bytes == 0) {
    if (si.checksum != Checksum{}.text()) throw damaged();
    return out;
  }
  const std::size_t threads = std::clamp<std::size_t>(lim.threads, 1, 4);
  if (si.storage == Storage::zstd) {  // decompressed on every thread, then checked
    report(0);
    out.memory = own();
    section_into(name, out.memory.get(), static_cast<unsigned>(std::max(1u, lim.threads)), true);
    return out;
  }
  const bool huge = si.bytes >= huge_from.load(std::memory_order_relaxed);
  const bool once = read_once(m.size);
  if (placement == Placement::huge_pages || (placement == Placement::search && huge && once)) {
    // Read into memory of huge pages, one contiguous part per thread, summed as read; a file
    // read once by direct reads where the file system allows them (the disk writes into the
    // table's memory; no page cache), else through the page cache, each piece dropped once
    // read.
    out.memory = own();
    struct Direct {  // the file opened for direct reads, or -1
      int fd;
      ~Direct() {
        if (fd >= 0) ::close(fd);
      }
    } const opened{once ? ::open(m.file.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC) : -1};
    std::uint8_t* dst = out.memory.get();
    const Checksum sum =
        sum_in_parts(dst, si.bytes, kRead, threads, lim, report, [&](std::uint64_t pos, std::uint64_t len) {
          const std::uint64_t from = si.offset + pos;
          // Direct reads take whole pages: a last piece's tail is read through the cache.
          const std::uint64_t whole = opened.fd >= 0 ? len / kPage * kPage : 0;
          if (!read_at(opened.fd, dst + pos, static_cast<std::size_t>(whole), from) ||
              !read_at(m.fd.fd, dst + pos + whole, static_cast<std::size_t>(len - whole), from + whole))
            throw InputError(refusal(fmt::format("truncated table file (section {})", name)));
          if (once && whole < len) drop_cached(m.fd.fd, from + whole, len - whole);
        });
    if (sum.text() != si.checksum) throw damaged();
    return out;
  }
  // Mapped from the file (page cache, no copy) and summed, one contiguous part per thread
  // when big, the parts' sums joined in order.
  const auto bytes = static_cast<std::size_t>(si.bytes);
  void* p = ::mmap(nullptr, bytes, PROT_READ, MAP_PRIVATE | MAP_POPULATE, m.fd.fd, static_cast<off_t>(si.offset));
  if (p == MAP_FAILED) throw InputError(refusal(fmt::format("cannot map it ({})", std::strerror(errno))));
  out.memory = std::unique_ptr<std::uint8_t[], PagesDeleter>(static_cast<std::uint8_t*>(p), PagesDeleter{bytes});
  out.mapped = true;
  const Checksum sum = sum_in_parts(out.memory.get(), si.bytes, kChunk, huge ? threads : 1, lim, report,
                                    [](std::uint64_t, std::uint64_t) {});
  if (sum.text() != si.checksum) throw damaged();
  if (placement != Placement::search || !huge) return out;
  // The caller starts on the mapping (4 KiB pages) while a thread copies the section into
  // memory of huge pages and hands it over; the copy is checked again (the file could change
  // under the mapping meanwhile).
  auto fd = std::make_shared<Fd>();
  fd->fd = ::dup(m.fd.fd);
  if (fd->fd < 0) throw InputError(refusal(fmt::format("cannot open ({})", std::strerror(errno))));
  out.upgrade = [fd, p, at = si.offset, total = si.bytes,
                 want = si.checksum](std::function<void(void*, std::size_t)> adopt) -> std::shared_ptr<void> {
    return std::make_shared<BackgroundTask>(
        [fd, p, at, total, want, adopt = std::move(adopt)](const std::atomic<bool>& stop) {
          const auto n = static_cast<std::size_t>(total);
          std::unique_ptr<std::uint8_t[], PagesDeleter> mine;
          try {
            mine = std::unique_ptr<std::uint8_t[], PagesDeleter>(aligned_anonymous(total), PagesDeleter{n});
          } catch (const std::bad_alloc&) {  // no room for a copy: the caller stays on the mapping
            return;
          }
          // Summed as read, a chunk at a time.
          Checksum again;
          bool ok = true;
          for (std::uint64_t pos = 0; ok && pos < total && !stop.load(std::memory_order_relaxed); pos += kChunk) {
            const std::uint64_t len = std::min(kChunk, total - pos);
            ok = read_at(fd->fd, mine.get() + pos, static_cast<std::size_t>(len), at + pos);
            again.add(reinterpret_cast<const std::uint64_t*>(mine.get() + pos), static_cast<std::size_t>(len / 8));
          }
          if (ok && total % 8) {
            std::uint64_t last = 0;
            std::memcpy(&last, mine.get() + total / 8 * 8, static_cast<std::size_t>(total % 8));
            again.add(&last, 1);
          }
          if (!ok || stop.load(std::memory_order_relaxed) || again.text() != want) return;
          adopt(mine.release(), n);
          // The mapping's pages leave the process (a lookup that still reads there faults its
          // page back in from the file: the same bytes).
          ::madvise(p, n, MADV_DONTNEED);
        });
  };
  return out;
}

void TableReader::verify(unsigned threads) const {
  for (const auto& s : impl_->sections) (void)section(s.name, threads, true);
}

void set_huge_copy_from(std::uint64_t bytes) { huge_from.store(bytes, std::memory_order_relaxed); }
void set_read_once_above(std::uint64_t bytes) { read_once_bound.store(bytes, std::memory_order_relaxed); }

bool is_table_file(const std::filesystem::path& file) {
  Fd fd;
  fd.fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  char magic[sizeof kMagic];
  struct stat st {};
  return fd.fd >= 0 && ::fstat(fd.fd, &st) == 0 && S_ISREG(st.st_mode) && read_at(fd.fd, magic, sizeof magic, 0) &&
         std::memcmp(magic, kMagic, sizeof magic) == 0;
}

}  // namespace tansaku::pdb
