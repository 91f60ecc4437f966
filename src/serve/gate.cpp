// The connection gate of `tansaku serve` (gate.h).
#include "serve/gate.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>

#include <fmt/format.h>

#include "serve/api.h"

namespace tansaku::serve {

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

int millis(double seconds) { return seconds <= 0 ? 0 : static_cast<int>(std::min(seconds * 1000 + 1, 3.6e6)); }

// Where a request header ends in `buf` (after its blank line), or npos.
std::size_t header_end(const std::string& buf) {
  const std::size_t crlf = buf.find("\r\n\r\n"), lf = buf.find("\n\n");
  if (crlf == std::string::npos && lf == std::string::npos) return std::string::npos;
  return std::min(crlf == std::string::npos ? std::string::npos : crlf + 4,
                  lf == std::string::npos ? std::string::npos : lf + 2);
}

// What the waiting thread still needs of a request in `buf` whose header ends at `end`: the
// body too when its Content-Length is small (gate.h: a stalled body then holds no thread);
// a larger, chunked or "Expect: 100-continue" body is read by the worker. Returns the bytes of
// header and body together that make the request complete.
std::size_t request_bytes(const std::string& buf, std::size_t end, std::size_t body_in_gate) {
  std::string h = buf.substr(0, end);
  for (auto& ch : h) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (h.find("\nexpect:") != std::string::npos || h.find("\ntransfer-encoding:") != std::string::npos) return end;
  const std::size_t at = h.find("\ncontent-length:");
  if (at == std::string::npos) return end;
  std::size_t i = at + 16, length = 0, digits = 0;
  while (i < h.size() && (h[i] == ' ' || h[i] == '\t')) ++i;
  for (; i < h.size() && h[i] >= '0' && h[i] <= '9' && digits < 12; ++i, ++digits) length = length * 10 + (h[i] - '0');
  if (digits == 0 || length > body_in_gate) return end;  // httplib answers a malformed or large one
  return end + length;
}

// Whether a request header's Content-Length lines are each one number of bytes and, when
// there are several, the same number (RFC 9112 6.3: anything else is refused; httplib took
// the first of two different ones, and waited out the body deadline for "-5").
bool content_length_sound(const std::string& buf, std::size_t end) {
  std::string h = buf.substr(0, end);
  for (auto& ch : h) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  std::string first;
  for (std::size_t at = h.find("\ncontent-length:"); at != std::string::npos;
       at = h.find("\ncontent-length:", at + 1)) {
    std::size_t i = at + 16;
    const std::size_t eol = std::min(h.find('\n', i), h.size());
    std::string v = h.substr(i, eol - i);
    while (!v.empty() && (v.back() == '\r' || v.back() == ' ' || v.back() == '\t')) v.pop_back();
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.erase(0, 1);
    if (v.empty() || v.size() > 18 || v.find_first_not_of("0123456789") != std::string::npos) return false;
    if (!first.empty() && v != first) return false;
    first = v;
  }
  return true;
}

// A reply written without waiting (the socket's buffer takes a few hundred bytes), then the
// connection closed: what is unread of the request is drained first so that the close sends
// the reply and a FIN rather than a reset.
void reply_and_close(int fd, int status, const char* reason, const std::string& message, int exit_code) {
  char sink[4096];
  for (int i = 0; i < 16 && ::recv(fd, sink, sizeof sink, MSG_DONTWAIT) > 0; ++i) {}
  const std::string body = error_body(message, exit_code);
  const std::string head = fmt::format(
      "HTTP/1.1 {} {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n{}\r\n", status,
      reason, body.size(), status == 503 ? "Retry-After: 1\r\n" : "");
  const std::string all = head + body;
  (void)!::send(fd, all.data(), all.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
  ::shutdown(fd, SHUT_WR);
  ::close(fd);
}

// The socket of a request being answered: the bytes the waiting thread already read come
// first; reads must finish by a deadline, each write within the write timeout.
thread_local bool cut_off = false;

class GateStream : public httplib::Stream {
 public:
  // max_bytes: what may be read of this request at most (0: no cap; past it reads fail and
  // body_cut_off() says so).
  GateStream(int fd, std::string buf, double read_deadline, double write_seconds, std::size_t max_bytes)
      : fd_(fd), buf_(std::move(buf)), deadline_(read_deadline), write_seconds_(write_seconds), max_(max_bytes) {
    cut_off = false;
  }

  bool is_readable() const override { return pos_ < buf_.size() || wait(POLLIN, deadline_ - now()); }
  bool is_writable() const override { return wait(POLLOUT, write_seconds_); }

  ssize_t read(char* ptr, std::size_t size) override {
    if (pos_ == buf_.size() && !fill()) return -1;
    std::size_t n = std::min(size, buf_.size() - pos_);
    if (max_) {
      if (read_ >= max_) return cut_off = true, -1;
      n = std::min(n, max_ - read_);
      read_ += n;
    }
    std::memcpy(ptr, buf_.data() + pos_, n);
    pos_ += n;
    return static_cast<ssize_t>(n);
  }
  ssize_t write(const char* ptr, std::size_t size) override {
    note_reply(ptr, size);
    const double until = now() + write_seconds_;
    for (;;) {
      if (!wait(POLLOUT, until - now())) return -1;
      const ssize_t n = ::send(fd_, ptr, size, MSG_DONTWAIT | MSG_NOSIGNAL);
      if (n >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) return n;
    }
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override { address(true, ip, port); }
  void get_local_ip_and_port(std::string& ip, int& port) const override { address(false, ip, port); }
  socket_t socket() const override { return fd_; }

  // The bytes read past the request answered (the start of the next one), if any.
  std::string rest() const { return buf_.substr(pos_); }
  bool at_end() const { return eof_; }
  // The reply said "Connection: close" (a handler may say so: the request's body was left unread).
  bool reply_closes() const { return closes_; }

 private:
  bool wait(short events, double seconds) const {
    pollfd p{fd_, events, 0};
    for (;;) {
      const int r = ::poll(&p, 1, millis(seconds));
      if (r < 0 && errno == EINTR) continue;
      return r > 0 && (p.revents & (events | POLLHUP)) != 0;
    }
  }
  // Reads what has arrived (at most 16 KiB) once it is there, by the deadline.
  bool fill() {
    if (eof_ || !wait(POLLIN, deadline_ - now())) return false;
    buf_.clear();
    pos_ = 0;
    buf_.resize(16384);
    ssize_t n;
    do n = ::recv(fd_, buf_.data(), buf_.size(), MSG_DONTWAIT);
    while (n < 0 && errno == EINTR);
    buf_.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    if (n == 0) eof_ = true;
    return n > 0;
  }
  // Keeps the reply's header (the first writes up to its blank line) to look for "Connection: close".
  void note_reply(const char* ptr, std::size_t size) {
    if (head_done_) return;
    if (size) head_.append(ptr, std::min<std::size_t>(size, 65536));
    const std::size_t end = head_.find("\r\n\r\n");
    if (end == std::string::npos && head_.size() < 65536) return;
    if (head_.starts_with("HTTP/1.1 1") && end != std::string::npos) {  // "100 Continue": the reply follows
      head_.erase(0, end + 4);
      return note_reply(nullptr, 0);
    }
    head_done_ = true;
    std::string h = head_.substr(0, end);
    for (auto& ch : h) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    closes_ = h.find("\r\nconnection: close") != std::string::npos;
  }
  void address(bool remote, std::string& ip, int& port) const {
    sockaddr_storage a{};
    socklen_t len = sizeof a;
    const int r = remote ? ::getpeername(fd_, reinterpret_cast<sockaddr*>(&a), &len)
                         : ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    if (r != 0) return;
    char host[NI_MAXHOST], serv[NI_MAXSERV];
    if (::getnameinfo(reinterpret_cast<sockaddr*>(&a), len, host, sizeof host, serv, sizeof serv,
                      NI_NUMERICHOST | NI_NUMERICSERV) == 0)
      ip = host, port = std::atoi(serv);
  }

  int fd_;
  std::string buf_;
  std::size_t pos_ = 0;
  double deadline_, write_seconds_;
  std::size_t max_ = 0, read_ = 0;
  bool eof_ = false;
  std::string head_;
  bool head_done_ = false, closes_ = false;
};

}  // namespace

// httplib's task queue: each task admits one new connection (process_and_close_socket) and
// returns at once, so it runs on the accept thread; httplib's shutdown stops the gate.
class GatedServer::Queue : public httplib::TaskQueue {
 public:
  explicit Queue(GatedServer& s) : s_(s) {}
  void enqueue(std::function<void()> fn) override { fn(); }
  void shutdown() override { s_.stop_all(); }

 private:
  GatedServer& s_;
};

GatedServer::GatedServer(const GateLimits& limits) : lim_(limits) {
  lim_.threads = std::max<std::size_t>(1, lim_.threads);
  new_task_queue = [this] { return new Queue(*this); };
}

GatedServer::~GatedServer() {
  stop_all();
  for (int fd : wake_)
    if (fd >= 0) ::close(fd);
}

std::size_t GatedServer::open_connections() const {
  std::lock_guard lock(m_);
  return open_;
}

void GatedServer::start() {
  // Under m_.
  if (started_) return;
  started_ = true;
  if (::pipe2(wake_, O_CLOEXEC | O_NONBLOCK) != 0) wake_[0] = wake_[1] = -1;
  waiter_ = std::thread([this] { wait_loop(); });
  for (std::size_t i = 0; i < lim_.threads; ++i) workers_.emplace_back([this] { work_loop(); });
}

bool GatedServer::process_and_close_socket(socket_t fd) {
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);  // replies are written in pieces
  {
    std::unique_lock lock(m_);
    if (!stopping_ && open_ < lim_.connections) {
      start();
      ++open_;
      incoming_.push_back(Conn{fd, {}, now(), true});
      lock.unlock();
      wake();
      return true;
    }
  }
  reply_and_close(fd, 503, "Service Unavailable",
                  fmt::format("busy: {} connections open (the most this server keeps); try again", lim_.connections),
                  3);
  return true;
}

void GatedServer::wake() {
  if (wake_[1] >= 0) (void)!::write(wake_[1], "x", 1);
}

void GatedServer::finish(int fd) {
  ::shutdown(fd, SHUT_RDWR);
  ::close(fd);
  std::lock_guard lock(m_);
  --open_;
}

void GatedServer::to_waiting(Conn c) {
  {
    std::lock_guard lock(m_);
    incoming_.push_back(std::move(c));
  }
  wake();
}

void GatedServer::wait_loop() {
  std::vector<Conn> waiting;
  std::vector<pollfd> fds;
  char chunk[4096];
  for (;;) {
    {
      std::lock_guard lock(m_);
      if (stopping_) break;
      while (!incoming_.empty()) waiting.push_back(std::move(incoming_.front())), incoming_.pop_front();
    }
    // Settle each connection: a complete header goes to the workers, a late one is closed.
    const double t = now();
    double next = t + 3600;
    std::vector<Conn> keep, go;
    for (auto& c : waiting) {
      const std::size_t end = header_end(c.buf);
      if (end != std::string::npos && c.body_from == 0) {
        if (!content_length_sound(c.buf, end)) {
          reply_and_close(c.fd, 400, "Bad Request", "the request's Content-Length is not one number of bytes", 2);
          std::lock_guard lock(m_);
          --open_;
          continue;
        }
        c.body_from = t;  // the header is in: the body's deadline starts
        c.need = request_bytes(c.buf, end, lim_.body_in_gate);
      }
      const double limit = c.body_from > 0             ? c.body_from + lim_.body_seconds
                           : c.buf.empty() && !c.fresh ? c.start + lim_.idle_seconds
                                                       : c.start + lim_.header_seconds;
      if (end != std::string::npos && c.buf.size() >= c.need) {
        go.push_back(std::move(c));
      } else if (end == std::string::npos && c.buf.size() >= lim_.header_bytes) {
        reply_and_close(c.fd, 431, "Request Header Fields Too Large",
                        fmt::format("the request header is longer than {} bytes", lim_.header_bytes), 2);
        std::lock_guard lock(m_);
        --open_;
      } else if (t >= limit) {
        if (c.buf.empty()) finish(c.fd);  // nothing asked: closed quietly
        else {
          reply_and_close(c.fd, 408, "Request Timeout",
                          c.body_from > 0
                              ? fmt::format("the request body did not arrive within {} s", lim_.body_seconds)
                              : fmt::format("the request header did not arrive within {} s", lim_.header_seconds),
                          2);
          std::lock_guard lock(m_);
          --open_;
        }
      } else {
        next = std::min(next, limit);
        keep.push_back(std::move(c));
      }
    }
    waiting = std::move(keep);
    if (!go.empty()) {
      {
        std::lock_guard lock(m_);
        for (auto& c : go) ready_.push_back(std::move(c));
      }
      ready_cv_.notify_all();
    }
    // Wait for bytes on any of them, a new connection (the pipe) or the next deadline.
    fds.clear();
    fds.push_back(pollfd{wake_[0], POLLIN, 0});
    for (const auto& c : waiting) fds.push_back(pollfd{c.fd, POLLIN, 0});
    const int r = ::poll(fds.data(), fds.size(), std::min(millis(next - now()), 500));
    if (r < 0) continue;
    if (fds[0].revents)
      while (::read(wake_[0], chunk, sizeof chunk) > 0) {}
    for (std::size_t i = 1; i < fds.size(); ++i) {
      if (!fds[i].revents) continue;
      Conn& c = waiting[i - 1];
      const std::size_t want = c.body_from > 0 ? c.need : lim_.header_bytes + 1;
      const std::size_t room = want > c.buf.size() ? want - c.buf.size() : 1;
      const ssize_t n = ::recv(c.fd, chunk, std::min(sizeof chunk, room), MSG_DONTWAIT);
      if (n > 0) {
        if (c.buf.empty() && !c.fresh) c.start = now();  // the next request begins: its header deadline
        c.buf.append(chunk, static_cast<std::size_t>(n));
      } else if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
        finish(c.fd);  // the client went away
        c.fd = -1;
      }
    }
    waiting.erase(std::remove_if(waiting.begin(), waiting.end(), [](const Conn& c) { return c.fd < 0; }),
                  waiting.end());
  }
  for (auto& c : waiting) finish(c.fd);
}

void GatedServer::work_loop() {
  for (;;) {
    Conn c;
    {
      std::unique_lock lock(m_);
      ready_cv_.wait(lock, [&] { return stopping_ || !ready_.empty(); });
      if (ready_.empty()) return;  // stopping
      c = std::move(ready_.front());
      ready_.pop_front();
    }
    serve(std::move(c));
  }
}

void GatedServer::serve(Conn c) {
  bool stopping;
  {
    std::lock_guard lock(m_);
    stopping = stopping_;
  }
  const std::size_t cap = lim_.body_bytes ? lim_.header_bytes + 2 * lim_.body_bytes + 65536 : 0;
  GateStream strm(c.fd, std::move(c.buf), now() + lim_.body_seconds, lim_.write_seconds, cap);
  bool closed = false;
  const bool ok = process_request(strm, /*close_connection=*/stopping, closed, [](httplib::Request&) {});
  // (a body cut off leaves the rest of it unread: the connection cannot carry another request)
  if (!ok || closed || stopping || strm.at_end() || strm.reply_closes() || cut_off) return finish(c.fd);
  to_waiting(Conn{c.fd, strm.rest(), now(), false});
}

bool body_cut_off() { return cut_off; }

void GatedServer::stop_all() {
  {
    std::lock_guard lock(m_);
    if (stopping_) return;
    stopping_ = true;
  }
  wake();
  ready_cv_.notify_all();
  if (waiter_.joinable()) waiter_.join();
  for (auto& w : workers_)
    if (w.joinable()) w.join();
  // Connections handed back or ready but not served.
  std::deque<Conn> left;
  {
    std::lock_guard lock(m_);
    left.swap(incoming_);
    for (auto& c : ready_) left.push_back(std::move(c));
    ready_.clear();
  }
  for (auto& c : left) finish(c.fd);
}

}  // namespace tansaku::serve
