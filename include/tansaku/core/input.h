// The one way tansaku reads a file (board files, DIMACS graphs, --batch files, @FILE
// arguments, pattern databases): regular files only (a directory, a device such as
// /dev/zero, a FIFO are refused before a byte is read), a size limit tied to --memory, the
// deadline checked while reading, text that is UTF-8 without control characters, and the
// process's file policy (which files may be opened at all: `tansaku serve` reads only its
// own data). It also holds the helpers that make untrusted bytes safe to print in a
// one-line message.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tansaku/core/deadline.h"

namespace tansaku {

// No file is read whole beyond this, whatever the budget.
inline constexpr std::uint64_t kMaxFileBytes = std::uint64_t{1} << 30;

// The largest file read whole under memory budget `memory` (0: the default budget): a
// quarter of the budget (the parsed form needs room too), at most kMaxFileBytes.
std::uint64_t max_file_bytes(std::uint64_t memory);

// The directory of the shipped data files (boards, puzzle definitions, graphs: <dir>/<family>/),
// found once per process (core/data_dir.cpp): $TANSAKU_DATA_DIR when set; else relative to
// the program or Python module holding this code: share/tansaku/ of its install prefix, the
// `data` folder of its package (a wheel), or the source tree's data/ linked into a build tree.
std::string shipped_data_dir();

// Which files read_file, read_text_file and regular_file_size may open, for the whole
// process. The default (the command line) is any file. restrict_files() limits them to the
// files under `roots` (symbolic links resolved, so "data/../x" or a link out of a root is
// outside); any other is refused with InputError("WHAT 'PATH': <refusal>") before it is
// opened, whether or not it exists. `tansaku serve` sets it once, before its threads start
// (a web request must not read the server's disk; serve --allow-files keeps the default).
void restrict_files(const std::vector<std::string>& roots, std::string refusal);
// `path` when the policy allows reading it (the path to open: its canonical form under a
// restriction); InputError naming `what` and the path otherwise. read_file and friends call
// it; code that probes a path before reading it (exists, is_regular_file) should call it first.
std::string allowed_file(const std::string& path, std::string_view what);
// Whether the policy allows reading `path` (no exception): for code that reads an argument
// as a file only when it is one, and otherwise as text or a name, so that a path outside the
// policy is taken as text whether or not it exists.
bool file_allowed(const std::string& path);
// Whether a name exists at `path` and the policy allows reading it, never throwing: for code
// that chooses between a file and a name before it reads. A symbolic link counts even when it
// dangles or loops, so that reading it (read_file) reports the problem as bad input rather
// than the name being taken for something else. std::filesystem::exists throws on a link
// loop: use this instead.
bool path_present(const std::string& path);

// Checks that `path` names a regular file of at most `limit` bytes (and that the file
// policy allows it) and returns its size; reads none of it. Throws InputError("WHAT 'PATH': is a directory") and the like.
std::uint64_t regular_file_size(const std::string& path, std::string_view what, std::uint64_t limit);

// Reads a whole file: regular files only, at most max_file_bytes(memory) bytes (checked
// before reading and while reading), the deadline polled between chunks (LimitError). The
// bytes are returned as they are.
std::string read_file(const std::string& path, std::string_view what, std::uint64_t memory, const Deadline* deadline);

// read_file, then the text must be UTF-8 with no control characters other than tab, CR,
// LF, FF and VT: InputError("WHAT 'PATH' line L column C: ...") otherwise.
std::string read_text_file(const std::string& path, std::string_view what, std::uint64_t memory,
                           const Deadline* deadline);

// Text given in place of a file, for the calling thread while this object lives (`tansaku
// serve`'s pasted puzzles: a request's own board, graph or definition, read by the same
// parsers under the same limits as a file, and no file opened). A read of exactly `name`
// (read_file, read_text_file, regular_file_size) gets `text`; path_present and file_allowed
// say yes to it, whatever the file policy. `name` is a plain file name (no '/').
class PastedFile {
 public:
  PastedFile(std::string name, std::string text);
  ~PastedFile();
  PastedFile(const PastedFile&) = delete;
  PastedFile& operator=(const PastedFile&) = delete;
  const std::string& name() const { return name_; }
  const std::string& text() const { return text_; }

 private:
  std::string name_, text_;
  const PastedFile* outer_;
};
// Whether `path` is the text pasted on this thread (code that probes with std::filesystem).
bool pasted_file(const std::string& path);

// Whether `text` is well-formed UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF).
bool valid_utf8(std::string_view text);
// Byte offset of the first byte that is not well-formed UTF-8, or text.size().
std::size_t utf8_prefix(std::string_view text);

// `text` without a leading UTF-8 byte-order mark (EF BB BF), which every text format accepts
// (read_text_file drops it; parsers given text directly call this).
std::string_view without_bom(std::string_view text);

// `text` made safe for a one-line message: control characters (NUL, ESC, newlines, DEL...)
// and bytes that are not UTF-8 become \xNN (\t \n \r as such), C1 controls and invisible
// format characters (U+FEFF byte-order mark, zero-width spaces, U+2028/9) \uNNNN; at most `max` bytes of the
// input are shown, then "...".
std::string printable(std::string_view text, std::size_t max = 200);
// The character starting at byte i of `text` as its bytes: the whole UTF-8 sequence a lead
// byte announces (as far as `text` holds it), else the one byte. For messages naming the
// character at a place ("unexpected character 'Ä'", not '\xc3').
std::string_view char_at(std::string_view text, std::size_t i);

}  // namespace tansaku
