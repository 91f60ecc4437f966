// OutputFile: the target opened (created when absent) and checked before the work, rewritten only
// with the verified result, and removed on failure when this run created it.
#include "cli/output_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/core/input.h"

namespace tansaku {

OutputFile::OutputFile(const std::string& path, std::string_view what) : path_(path), what_(what) {
  if (path.empty()) throw InputError(fmt::format("--{} needs a file name (or - for stdout)", what));
  if (path == "-") {
    stdout_ = true;
    return;
  }
  auto refuse = [&](const char* reason) {
    return InputError(fmt::format("cannot write --{} file '{}': {}", what, printable(path), reason));
  };
  // Created here when absent (and then removed if the work fails); an existing file is kept
  // as it is until the result is written. O_NONBLOCK: a FIFO without a reader is refused, not waited on.
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NONBLOCK, 0644);
  if (fd_ >= 0) created_ = true;
  else if (errno == EEXIST) fd_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd_ < 0) throw refuse(std::strerror(errno));
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    const int e = errno;
    abandon();
    throw refuse(std::strerror(e));
  }
  regular_ = S_ISREG(st.st_mode);
  if (!regular_ && !S_ISCHR(st.st_mode)) {  // /dev/null is fine; a FIFO or a socket is not
    abandon();
    throw refuse("not a regular file");
  }
  const int flags = ::fcntl(fd_, F_GETFL);
  if (flags >= 0) (void)::fcntl(fd_, F_SETFL, flags & ~O_NONBLOCK);
}

OutputFile::OutputFile(OutputFile&& other) noexcept { *this = std::move(other); }

OutputFile& OutputFile::operator=(OutputFile&& other) noexcept {
  if (this != &other) {
    abandon();
    path_ = std::move(other.path_);
    what_ = std::move(other.what_);
    fd_ = std::exchange(other.fd_, -1);
    stdout_ = std::exchange(other.stdout_, false);
    created_ = other.created_;
    regular_ = other.regular_;
  }
  return *this;
}

OutputFile::~OutputFile() { abandon(); }

void OutputFile::abandon() {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
    if (created_) ::unlink(path_.c_str());
  }
  stdout_ = false;
}

void OutputFile::write(std::string_view content) {
  if (stdout_) {
    if (std::fwrite(content.data(), 1, content.size(), stdout) != content.size() || std::fflush(stdout) != 0)
      throw WriteError(fmt::format("cannot write --{} to stdout: {}", what_, std::strerror(errno)));
    stdout_ = false;
    return;
  }
  if (fd_ < 0) throw WriteError(fmt::format("--{} file '{}' is not open", what_, printable(path_)));
  auto fail = [&]() {
    const int e = errno;
    abandon();
    return WriteError(fmt::format("cannot write --{} file '{}': {}", what_, printable(path_), std::strerror(e)));
  };
  if (regular_ && (::ftruncate(fd_, 0) != 0 || ::lseek(fd_, 0, SEEK_SET) != 0)) throw fail();
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd_, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw fail();
    }
    done += static_cast<std::size_t>(n);
  }
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) {
    fd_ = -1;
    const int e = errno;
    if (created_) ::unlink(path_.c_str());
    throw WriteError(fmt::format("cannot write --{} file '{}': {}", what_, printable(path_), std::strerror(e)));
  }
}

}  // namespace tansaku
