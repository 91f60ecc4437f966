// The one way tansaku writes a file (--svg, --html). The file is opened (created when it does
// not exist) before any work, so a path that cannot be written is refused up front (exit 2);
// its content is replaced only once the result is verified; if the work fails, a file this
// run created is removed again and an existing one is left as it was. "-" is stdout.
#pragma once
#include <stdexcept>
#include <string>
#include <string_view>

namespace tansaku {

// A write that failed after the work (a full disk): exit 4, like a failed write to stdout.
struct WriteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class OutputFile {
 public:
  OutputFile() = default;
  // Throws InputError("cannot write --WHAT file 'PATH': reason").
  OutputFile(const std::string& path, std::string_view what);
  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&& other) noexcept;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();

  bool active() const { return fd_ >= 0 || stdout_; }
  bool is_stdout() const { return stdout_; }
  const std::string& path() const { return path_; }
  // Replaces the content and closes the file (stdout: writes and flushes). Throws WriteError.
  void write(std::string_view content);

 private:
  void abandon();
  std::string path_, what_;
  int fd_ = -1;
  bool stdout_ = false, created_ = false, regular_ = false;
};

}  // namespace tansaku
