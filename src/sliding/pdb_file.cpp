// Pattern-database files: a fixed little header (what the table covers, sizes, a checksum)
// followed by one zstd frame of the 4-bit entries. Written to a temporary name and renamed,
// so a reader never sees half a file; read through a memory map of the compressed bytes.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>
#include <zstd.h>

#include "sliding/pdb.h"
#include "tansaku/core/error.h"

namespace tansaku::sliding::pdb {
namespace {

constexpr char kMagic[8] = {'T', 'S', 'K', 'P', 'D', 'B', '1', '\n'};
constexpr std::uint32_t kVersion = 1;
constexpr std::uint32_t kEncoding = 1;  // 4 bits: (distance - manhattan) / 2, clamped at 15

struct Header {
  TableInfo info;
  std::uint64_t entries = 0, raw_bytes = 0, checksum = 0;
  std::int32_t max_distance = -1;
  std::size_t size = 0;  // bytes of header in the file
};

std::uint64_t checksum(const std::uint8_t* p, std::size_t n) {
  std::uint64_t h = 0xcbf29ce484222325ull, w;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::memcpy(&w, p + i, 8);
    h = (h ^ w) * 0x100000001b3ull;
    h ^= h >> 29;
  }
  for (; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

template <class T>
void put(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}
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
  if (!get(p, end, h.entries) || !get(p, end, h.raw_bytes) || !get(p, end, h.checksum) || !get(p, end, h.max_distance))
    throw bad("short header");
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

}  // namespace

void save_table(const Table& t, const std::filesystem::path& file, unsigned threads) {
  const TableInfo& info = t.info();
  std::string head(kMagic, sizeof kMagic);
  put(head, kVersion);
  put(head, kEncoding);
  put(head, static_cast<std::uint32_t>(info.rows));
  put(head, static_cast<std::uint32_t>(info.cols));
  put(head, static_cast<std::uint32_t>(info.blank));
  put(head, static_cast<std::uint32_t>(info.k()));
  for (auto c : info.cells) put(head, c);
  put(head, info.entries());
  put(head, info.bytes());
  put(head, checksum(t.data(), info.bytes()));
  put(head, static_cast<std::int32_t>(t.max_distance));

  if (!file.parent_path().empty()) std::filesystem::create_directories(file.parent_path());
  const std::filesystem::path tmp = file.string() + fmt::format(".tmp{}", ::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(fmt::format("cannot write {}", tmp.string()));
    out.write(head.data(), static_cast<std::streamsize>(head.size()));
    ZSTD_CCtx* cctx = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 9);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_nbWorkers, static_cast<int>(threads > 1 ? threads : 0));
    ZSTD_CCtx_setPledgedSrcSize(cctx, info.bytes());
    std::vector<char> buf(ZSTD_CStreamOutSize());
    ZSTD_inBuffer in{t.data(), info.bytes(), 0};
    std::size_t left;
    do {
      ZSTD_outBuffer o{buf.data(), buf.size(), 0};
      left = ZSTD_compressStream2(cctx, &o, &in, ZSTD_e_end);
      if (ZSTD_isError(left)) {
        ZSTD_freeCCtx(cctx);
        throw std::runtime_error(fmt::format("zstd: {}", ZSTD_getErrorName(left)));
      }
      out.write(buf.data(), static_cast<std::streamsize>(o.pos));
    } while (left != 0);
    ZSTD_freeCCtx(cctx);
    out.flush();
    if (!out) throw InputError(fmt::format("cannot write {} (disk full?)", tmp.string()));
  }
  std::filesystem::rename(tmp, file);
}

TableInfo read_table_info(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(fmt::format("cannot open pattern database {}", file.string()));
  std::vector<std::uint8_t> buf(256);
  in.read(reinterpret_cast<char*>(buf.data()), static_cast<std::streamsize>(buf.size()));
  buf.resize(static_cast<std::size_t>(in.gcount()));
  return parse_header(buf.data(), buf.size(), file.string()).info;
}

std::shared_ptr<Table> load_table(const std::filesystem::path& file) {
  Mapped m(file);
  Header h = parse_header(m.data(), m.size, file.string());
  auto data = std::make_unique_for_overwrite<std::uint8_t[]>(h.raw_bytes);
  const std::size_t got = ZSTD_decompress(data.get(), h.raw_bytes, m.data() + h.size, m.size - h.size);
  if (ZSTD_isError(got) || got != h.raw_bytes)
    throw InputError(fmt::format("{}: corrupt pattern database ({})", file.string(),
                                 ZSTD_isError(got) ? ZSTD_getErrorName(got) : "short data"));
  if (checksum(data.get(), h.raw_bytes) != h.checksum)
    throw InputError(fmt::format("{}: corrupt pattern database (checksum)", file.string()));
  auto t = std::make_shared<Table>(h.info, std::move(data));
  t->origin = "disk " + file.string();
  t->max_distance = h.max_distance;
  return t;
}

}  // namespace tansaku::sliding::pdb
