// Pattern-database files, in the table file format (tansaku/pdb/table_file.h: kind
// "sliding-pdb", the board and the group in `info`, the 4-bit entries as one section of zstd
// frames of 16 MiB, decompressed on every thread). Files of the earlier layout (a small binary
// header and frame index, then the frames) still load.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <atomic>
#include <system_error>

#include <fmt/format.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <zstd.h>

#include "sliding/pdb.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/pdb/table_file.h"

namespace tansaku::sliding::pdb {
namespace {

// The earlier layout (still read).
constexpr char kMagic[8] = {'T', 'S', 'K', 'P', 'D', 'B', '1', '\n'};
constexpr std::uint32_t kVersion = 2;
constexpr std::uint32_t kEncoding = 1;  // 4 bits: (distance - manhattan) / 2, clamped at 15

constexpr std::uint32_t kFrameLog2 = 24;  // 16 MiB of entries per zstd frame

struct Header {
  TableInfo info;
  std::uint64_t entries = 0, raw_bytes = 0;
  std::int32_t max_distance = -1;
  std::vector<std::uint64_t> frame_bytes;  // compressed size of each frame
  std::size_t size = 0;                    // bytes of header in the file
};

std::uint64_t frames_for(std::uint64_t raw) { return (raw + (std::uint64_t{1} << kFrameLog2) - 1) >> kFrameLog2; }

template <class T>
bool get(const std::uint8_t*& p, const std::uint8_t* end, T& v) {
  if (static_cast<std::size_t>(end - p) < sizeof v) return false;
  std::memcpy(&v, p, sizeof v);
  p += sizeof v;
  return true;
}

Header parse_header(const std::uint8_t* data, std::size_t n, const std::string& name) {
  auto bad = [&](const char* why) { return InputError(fmt::format("{}: not a tansaku pattern database ({})", name, why)); };
  const std::uint8_t *p = data, *end = data + n;
  if (n < sizeof kMagic || std::memcmp(p, kMagic, sizeof kMagic) != 0) throw bad("bad magic");
  p += sizeof kMagic;
  Header h;
  std::uint32_t version = 0, encoding = 0, rows = 0, cols = 0, blank = 0, k = 0;
  if (!get(p, end, version) || !get(p, end, encoding) || !get(p, end, rows) || !get(p, end, cols) ||
      !get(p, end, blank) || !get(p, end, k))
    throw bad("short header");
  if (version != kVersion) throw bad("unknown version");
  if (encoding != kEncoding) throw bad("unknown encoding");
  if (rows < 2 || cols < 2 || rows * cols > 64 || blank >= rows * cols || k < 1 || k >= rows * cols ||
      k > static_cast<std::uint32_t>(KPermRanker::kMaxPieces))
    throw bad("bad board");
  h.info.rows = static_cast<int>(rows);
  h.info.cols = static_cast<int>(cols);
  h.info.blank = static_cast<int>(blank);
  h.info.cells.resize(k);
  for (auto& c : h.info.cells)
    if (!get(p, end, c) || c >= rows * cols || c == blank) throw bad("bad group");
  std::uint32_t frame_log2 = 0, frames = 0;
  if (!get(p, end, h.entries) || !get(p, end, h.raw_bytes) || !get(p, end, h.max_distance) || !get(p, end, frame_log2) ||
      !get(p, end, frames))
    throw bad("short header");
  if (frame_log2 != kFrameLog2 || frames != frames_for(h.raw_bytes)) throw bad("bad frame index");
  h.frame_bytes.resize(frames);
  for (auto& b : h.frame_bytes)
    if (!get(p, end, b)) throw bad("short frame index");
  try {
    if (h.entries != h.info.entries() || h.raw_bytes != h.info.bytes()) throw bad("sizes do not match the group");
  } catch (const std::invalid_argument&) {
    throw bad("group too large");
  }
  h.size = static_cast<std::size_t>(p - data);
  return h;
}

struct Mapped {
  void* addr = MAP_FAILED;
  std::size_t size = 0;
  explicit Mapped(const std::filesystem::path& file) {
    regular_file_size(file.string(), "pattern database", UINT64_MAX);  // no directory, device or FIFO
    int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw InputError(fmt::format("cannot open pattern database {}: {}", file.string(), std::strerror(errno)));
    struct stat st {};
    if (::fstat(fd, &st) == 0 && st.st_size > 0) {
      size = static_cast<std::size_t>(st.st_size);
      addr = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    }
    ::close(fd);
    if (addr == MAP_FAILED) throw InputError(fmt::format("cannot map pattern database {}", file.string()));
    ::madvise(addr, size, MADV_SEQUENTIAL);
  }
  ~Mapped() {
    if (addr != MAP_FAILED) ::munmap(addr, size);
  }
  Mapped(const Mapped&) = delete;
  Mapped& operator=(const Mapped&) = delete;
  const std::uint8_t* data() const { return static_cast<const std::uint8_t*>(addr); }
};

constexpr const char* kKind = "sliding-pdb";
constexpr const char* kEncodingName = "4-bit-excess-over-manhattan";

std::string hint(const std::filesystem::path& file) {
  return fmt::format("`tansaku pdb remove {}` deletes it (`tansaku pdb build` makes it again)",
                     printable(file.filename().string()));
}

// The board and group of a file of the table format, checked as the earlier header was.
TableInfo info_of(const tansaku::pdb::TableReader& r) {
  const tansaku::pdb::TableHeader& h = r.header();
  auto bad = [&](const char* why) {
    return InputError(r.refusal(fmt::format("not a sliding pattern database ({})", why)));
  };
  if (h.kind != kKind) throw bad("another kind of table");
  if (h.encoding != kEncodingName) throw bad("unknown encoding");
  TableInfo info;
  try {
    info.rows = h.info.at("rows").get<int>();
    info.cols = h.info.at("cols").get<int>();
    info.blank = h.info.at("blank").get<int>();
    for (const auto& c : h.info.at("cells")) info.cells.push_back(c.get<std::uint8_t>());
  } catch (const nlohmann::json::exception&) {
    throw bad("bad header");
  }
  const int n = info.rows * info.cols;
  if (info.rows < 2 || info.cols < 2 || n > 64 || info.blank < 0 || info.blank >= n || info.k() < 1 || info.k() >= n ||
      info.k() > KPermRanker::kMaxPieces)
    throw bad("bad board");
  for (auto c : info.cells)
    if (c >= n || c == info.blank) throw bad("bad group");
  try {
    if (h.entries != info.entries() || !r.has("cells")) throw bad("sizes do not match the group");
  } catch (const std::invalid_argument&) {
    throw bad("group too large");
  }
  return info;
}

}  // namespace

std::string content_hash(const TableInfo& info) {
  tansaku::pdb::ContentHash content;
  content.add(std::string_view(kKind))
      .add(static_cast<std::uint64_t>(info.rows))
      .add(static_cast<std::uint64_t>(info.cols));
  content.add(static_cast<std::uint64_t>(info.blank)).add_bytes(info.cells.data(), info.cells.size());
  return content.hex();
}

std::string table_kind_name() { return kKind; }

void save_table(const Table& t, const std::filesystem::path& file, unsigned threads) {
  const TableInfo& info = t.info();
  nlohmann::ordered_json cells = nlohmann::ordered_json::array();
  for (auto c : info.cells) cells.push_back(c);
  const tansaku::pdb::TableHeader h{kKind, content_hash(info), kEncodingName, info.entries(),
                                    nlohmann::ordered_json{{"rows", info.rows},
                                                           {"cols", info.cols},
                                                           {"blank", info.blank},
                                                           {"cells", cells},
                                                           {"max_distance", t.max_distance}}};
  const tansaku::pdb::SectionData section{"cells", t.data(), info.bytes(), tansaku::pdb::Storage::zstd};
  tansaku::pdb::write_table_file(file, h, std::span<const tansaku::pdb::SectionData>(&section, 1), threads);
}

TableInfo read_table_info(const std::filesystem::path& file) {
  if (tansaku::pdb::is_table_file(file)) {
    const tansaku::pdb::TableReader r(file, hint(file));
    return info_of(r);
  }
  regular_file_size(file.string(), "pattern database", UINT64_MAX);  // a FIFO would block the read below
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(fmt::format("cannot open pattern database {}", file.string()));
  std::vector<std::uint8_t> buf(1 << 16);  // the header and its frame index fit easily
  in.read(reinterpret_cast<char*>(buf.data()), static_cast<std::streamsize>(buf.size()));
  buf.resize(static_cast<std::size_t>(in.gcount()));
  return parse_header(buf.data(), buf.size(), file.string()).info;
}

std::shared_ptr<Table> load_table(const std::filesystem::path& file, unsigned threads) {
  if (tansaku::pdb::is_table_file(file)) {
    const tansaku::pdb::TableReader r(file, hint(file));
    TableInfo info = info_of(r);
    auto data = make_huge<std::uint8_t>(info.bytes());
    r.section_into("cells", data.get(), threads);
    auto t = std::make_shared<Table>(std::move(info), std::move(data));
    t->origin = "disk " + file.string();
    t->max_distance = r.header().info.value("max_distance", -1);
    return t;
  }
  // A file of the earlier layout.
  Mapped m(file);
  Header h = parse_header(m.data(), m.size, file.string());
  std::vector<std::uint64_t> offset(h.frame_bytes.size() + 1, h.size);
  for (std::size_t i = 0; i < h.frame_bytes.size(); ++i) offset[i + 1] = offset[i] + h.frame_bytes[i];
  if (offset.back() != m.size) throw InputError(fmt::format("{}: truncated or padded pattern database", file.string()));
  auto data = make_huge<std::uint8_t>(h.raw_bytes);
  std::atomic<bool> bad{false};
  tbb::task_arena arena(static_cast<int>(std::max(1u, threads)));
  arena.execute([&] {
    tbb::parallel_for(std::size_t{0}, h.frame_bytes.size(), [&](std::size_t i) {
      const std::uint64_t lo = std::uint64_t{i} << kFrameLog2;
      const std::uint64_t n = std::min(h.raw_bytes - lo, std::uint64_t{1} << kFrameLog2);
      const std::size_t got = ZSTD_decompress(data.get() + lo, n, m.data() + offset[i], h.frame_bytes[i]);
      if (ZSTD_isError(got) || got != n) bad = true;  // includes a content checksum mismatch
    });
  });
  if (bad) throw InputError(fmt::format("{}: corrupt pattern database", file.string()));
  auto t = std::make_shared<Table>(h.info, std::move(data));
  t->origin = "disk " + file.string();
  t->max_distance = h.max_distance;
  return t;
}

}  // namespace tansaku::sliding::pdb
