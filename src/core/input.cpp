// Reading files safely: regular files only, size limits from --memory, the file policy set by
// the front end, UTF-8 validation, and the escaping of untrusted text for messages.
#include "tansaku/core/input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"

namespace tansaku {
namespace {

constexpr std::size_t kChunk = std::size_t{1} << 20;  // bytes read between two deadline checks

// Length of the well-formed UTF-8 sequence starting at s[i], or 0.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c == 0xE0) n = 3, lo = 0xA0;
  else if (c >= 0xE1 && c <= 0xEC) n = 3;
  else if (c == 0xED) n = 3, hi = 0x9F;  // no surrogates
  else if (c >= 0xEE && c <= 0xEF) n = 3;
  else if (c == 0xF0) n = 4, lo = 0x90;
  else if (c >= 0xF1 && c <= 0xF3) n = 4;
  else if (c == 0xF4) n = 4, hi = 0x8F;  // nothing above U+10FFFF
  else return 0;
  if (i + n > s.size()) return 0;
  if (b(i + 1) < lo || b(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (b(i + k) < 0x80 || b(i + k) > 0xBF) return 0;
  return n;
}

bool allowed_control(unsigned char c) { return c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// The kind of a non-regular file, for the message.
const char* kind_of(mode_t m) {
  if (S_ISDIR(m)) return "is a directory";
  if (S_ISFIFO(m)) return "is a pipe (FIFO)";
  if (S_ISCHR(m)) return "is a character device";
  if (S_ISBLK(m)) return "is a block device";
  if (S_ISSOCK(m)) return "is a socket";
  return "is not a regular file";
}

std::string too_big(std::string_view what, const std::string& path, std::uint64_t limit) {
  return fmt::format("{} '{}' is larger than {}: files are read whole, and at most a quarter of the memory budget "
                     "(--memory), {} at most, is spent on one",
                     what, printable(path), format_size(limit), format_size(kMaxFileBytes));
}

// The process's file policy (restrict_files): null = any file.
struct Policy {
  std::vector<std::string> roots;  // canonical directories, no trailing '/' (but "/")
  std::string refusal;
};
std::atomic<const Policy*> g_policy{nullptr};

// `path` absolute, its symbolic links resolved as far as it exists, "." and ".." removed;
// "" when that fails.
std::string canonical(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path abs = std::filesystem::absolute(path, ec);
  if (ec) return "";
  const std::filesystem::path p = std::filesystem::weakly_canonical(abs, ec);
  return ec ? "" : p.lexically_normal().string();
}

bool under(const std::string& path, const std::string& root) {
  if (root == "/") return path.starts_with("/");
  return path == root || (path.starts_with(root) && path[root.size()] == '/');
}

thread_local const PastedFile* t_pasted = nullptr;

// The text pasted for `path` on this thread, or nullptr.
const PastedFile* pasted(const std::string& path) { return t_pasted && t_pasted->name() == path ? t_pasted : nullptr; }

// Opens `path` without blocking (a FIFO with no writer would block a plain open) and
// checks it is a regular file of at most `limit` bytes.
int open_regular(const std::string& path, std::string_view what, std::uint64_t limit, std::uint64_t* size) {
  const std::string open_path = allowed_file(path, what);
  Fd f;
  f.fd = ::open(open_path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (f.fd < 0) throw InputError(fmt::format("cannot read {} '{}': {}", what, printable(path), std::strerror(errno)));
  struct stat st {};
  if (::fstat(f.fd, &st) != 0)
    throw InputError(fmt::format("cannot read {} '{}': {}", what, printable(path), std::strerror(errno)));
  if (!S_ISREG(st.st_mode)) throw InputError(fmt::format("{} '{}' {}: give a regular file", what, printable(path), kind_of(st.st_mode)));
  if (static_cast<std::uint64_t>(st.st_size) > limit) throw InputError(too_big(what, path, limit));
  *size = static_cast<std::uint64_t>(st.st_size);
  const int fd = f.fd;
  f.fd = -1;
  return fd;
}

}  // namespace

PastedFile::PastedFile(std::string name, std::string text)
    : name_(std::move(name)), text_(std::move(text)), outer_(t_pasted) {
  t_pasted = this;
}
PastedFile::~PastedFile() { t_pasted = outer_; }
bool pasted_file(const std::string& path) { return pasted(path) != nullptr; }

void restrict_files(const std::vector<std::string>& roots, std::string refusal) {
  auto* p = new Policy{{}, std::move(refusal)};  // kept for the process's life: readers hold no lock
  for (const auto& r : roots) {
    std::string c = canonical(r);
    if (c.size() > 1 && c.back() == '/') c.pop_back();
    if (!c.empty()) p->roots.push_back(std::move(c));
  }
  g_policy.store(p, std::memory_order_release);
}

std::string allowed_file(const std::string& path, std::string_view what) {
  const Policy* p = g_policy.load(std::memory_order_acquire);
  if (!p || pasted(path)) return path;
  if (file_allowed(path)) return canonical(path);
  throw InputError(fmt::format("{} '{}': {}", what, printable(path), p->refusal));
}

bool file_allowed(const std::string& path) {
  const Policy* p = g_policy.load(std::memory_order_acquire);
  if (!p || pasted(path)) return true;
  const std::string c = canonical(path);
  if (!c.empty())
    for (const auto& r : p->roots)
      if (under(c, r)) return true;
  return false;
}

bool path_present(const std::string& path) {
  if (pasted(path)) return true;
  if (path.empty() || !file_allowed(path)) return false;
  std::error_code ec;
  const auto st = std::filesystem::symlink_status(path, ec);
  return !ec && std::filesystem::exists(st);
}

std::uint64_t max_file_bytes(std::uint64_t memory) {
  if (memory == 0) memory = default_memory_budget();
  return std::min(memory / 4, kMaxFileBytes);
}

std::uint64_t regular_file_size(const std::string& path, std::string_view what, std::uint64_t limit) {
  if (const PastedFile* p = pasted(path)) {
    if (p->text().size() > limit) throw InputError(too_big(what, path, limit));
    return p->text().size();
  }
  std::uint64_t size = 0;
  Fd f;
  f.fd = open_regular(path, what, limit, &size);
  return size;
}

std::string read_file(const std::string& path, std::string_view what, std::uint64_t memory, const Deadline* deadline) {
  const std::uint64_t limit = max_file_bytes(memory);
  if (const PastedFile* p = pasted(path)) {
    if (p->text().size() > limit) throw InputError(too_big(what, path, limit));
    return p->text();
  }
  std::uint64_t size = 0;
  Fd f;
  f.fd = open_regular(path, what, limit, &size);
  std::string data;
  data.reserve(static_cast<std::size_t>(size));
  std::string chunk(kChunk, '\0');
  for (;;) {
    if (deadline) deadline->check();
    const ssize_t got = ::read(f.fd, chunk.data(), chunk.size());
    if (got < 0) {
      if (errno == EINTR) continue;
      throw InputError(fmt::format("cannot read {} '{}': {}", what, printable(path), std::strerror(errno)));
    }
    if (got == 0) break;
    // A file that grows while it is read (or reports size 0, as /proc does) is still bounded.
    if (data.size() + static_cast<std::uint64_t>(got) > limit) throw InputError(too_big(what, path, limit));
    data.append(chunk.data(), static_cast<std::size_t>(got));
  }
  return data;
}

std::string read_text_file(const std::string& path, std::string_view what, std::uint64_t memory,
                           const Deadline* deadline) {
  std::string text = read_file(path, what, memory, deadline);
  if (without_bom(text).size() != text.size()) text.erase(0, 3);
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t n = utf8_length(text, i);
    const bool control = (c < 0x20 && !allowed_control(c)) || c == 0x7F ||
                         (n == 2 && c == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0);  // C1 controls
    if (n == 0 || control)
      throw InputError(fmt::format("{} '{}' line {} column {}: {} {} (a text file in UTF-8 was expected)", what,
                                   printable(path), line, column, n == 0 ? "byte" : "control character",
                                   printable(text.substr(i, n ? n : 1))));
    if (c == '\n') ++line, column = 1;
    else ++column;
    i += n;
  }
  return text;
}

std::size_t utf8_prefix(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t n = utf8_length(text, i);
    if (n == 0) return i;
    i += n;
  }
  return i;
}

bool valid_utf8(std::string_view text) { return utf8_prefix(text) == text.size(); }

std::string_view without_bom(std::string_view text) {
  if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  return text;
}

namespace {
// An invisible format character (3-byte UTF-8): U+200B..U+200F, U+2028..U+202E, U+2060..U+2064, U+FEFF.
unsigned invisible(std::string_view text, std::size_t i) {
  if (i + 3 > text.size()) return 0;
  const auto a = static_cast<unsigned char>(text[i]), b = static_cast<unsigned char>(text[i + 1]),
             c = static_cast<unsigned char>(text[i + 2]);
  if (a != 0xE2 && a != 0xEF) return 0;
  const unsigned cp = ((a & 0x0Fu) << 12) | ((b & 0x3Fu) << 6) | (c & 0x3Fu);
  if ((cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2060 && cp <= 0x2064) || cp == 0xFEFF)
    return cp;
  return 0;
}
}  // namespace

std::string_view char_at(std::string_view text, std::size_t i) {
  if (i >= text.size()) return {};
  const auto b = static_cast<unsigned char>(text[i]);
  std::size_t n = b >= 0xF0 && b < 0xF8 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
  if (b >= 0xF8) n = 1;
  std::size_t k = 1;
  while (k < n && i + k < text.size() && (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80) ++k;
  return text.substr(i, k == n ? n : 1);
}

std::string printable(std::string_view text, std::size_t max) {
  std::string out;
  const std::size_t end = std::min(text.size(), max);
  for (std::size_t i = 0; i < end;) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t n = utf8_length(text, i);
    if (c == '\t') out += "\\t";
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (n == 0 || c < 0x20 || c == 0x7F) out += fmt::format("\\x{:02x}", c);
    else if (n == 2 && c == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0)
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(text[i + 1]));  // C1 control (CSI...)
    else if (i + n > end) break;  // a character cut by the limit
    else if (n == 3 && invisible(text, i)) out += fmt::format("\\u{:04x}", invisible(text, i));
    else out.append(text.substr(i, n));
    i += n ? n : 1;
  }
  if (text.size() > max) out += "...";
  return out;
}

}  // namespace tansaku
