// The connection gate of `tansaku serve`: cpp-httplib (Debian 12 ships 0.11.4) gives each
// accepted connection a thread of its pool until the connection closes, so sockets that never
// finish a request (a slow or stalled client, or hundreds of idle ones) would hold every
// thread and starve normal clients. GatedServer keeps httplib's parsing, routing and replies
// but takes the connections over: one thread waits on every connection at once (poll) until
// its request header is complete (and a small body: the API's JSON), each within a deadline;
// only then a worker thread reads the rest (a large body, within its own deadline) and answers
// through httplib; a kept-alive connection goes back to the waiting thread between requests. The number of open
// connections is bounded: those beyond the bound are answered 503 at once and closed.
#pragma once
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <httplib.h>

namespace tansaku::serve {

struct GateLimits {
  std::size_t connections = 1024;    // open connections at most; beyond: 503 at once
  std::size_t threads = 8;           // requests read and answered at once
  double header_seconds = 10;        // a request's header must be complete within this
  double body_seconds = 20;          // its body within this once the header is in
  std::size_t body_in_gate = 49152;  // a body this small is awaited without a thread
  double idle_seconds = 2;           // a kept-alive connection with no next request is closed
  double write_seconds = 10;         // a reply must be taken by the client within this (each write)
  std::size_t header_bytes = 16384;  // a longer header is answered 431
  // The largest body (serve --body; 0: none). A body with a Content-Length above it is
  // answered 413 by httplib; a chunked one is cut off once the bytes read for it pass twice
  // this and 64 KiB (its chunk framing included), and answered 413 too.
  std::size_t body_bytes = 0;
};

// Whether the request this thread answers last had its body cut off at GateLimits::body_bytes
// (its reply, from the error handler, is then 413).
bool body_cut_off();

class GatedServer : public httplib::Server {
 public:
  explicit GatedServer(const GateLimits& limits);
  ~GatedServer() override;
  GatedServer(const GatedServer&) = delete;
  GatedServer& operator=(const GatedServer&) = delete;

  // Connections open now (waiting for a request or being answered).
  std::size_t open_connections() const;

  struct Conn {
    int fd = -1;
    std::string buf;       // bytes read and not yet parsed (the header, and what followed it)
    double start = 0;      // when it began waiting (steady clock, seconds)
    bool fresh = true;     // no request answered on it yet
    double body_from = 0;  // when its header was complete (0: not yet)
    std::size_t need = 0;  // the bytes that complete the request (header and small body)
  };

 private:
  class Queue;
  // httplib's accept loop hands each new connection to the task queue, whose task calls
  // this: run at once on the accept thread (Queue), it admits the connection without blocking.
  bool process_and_close_socket(socket_t sock) override;
  void start();             // the waiting and worker threads (on the first connection)
  void stop_all();          // httplib's accept loop ended
  void wait_loop();         // the waiting thread
  void work_loop();         // a worker thread
  void serve(Conn c);       // one request on a worker
  void to_waiting(Conn c);  // a connection waits (again) for a request
  void finish(int fd);      // closes a connection and forgets it
  void wake();

  GateLimits lim_;
  mutable std::mutex m_;
  std::condition_variable ready_cv_;
  std::deque<Conn> incoming_;  // to the waiting thread
  std::deque<Conn> ready_;     // a complete header: to the workers
  std::size_t open_ = 0;
  bool stopping_ = false, started_ = false;
  int wake_[2] = {-1, -1};  // a pipe that wakes the waiting thread
  std::thread waiter_;
  std::vector<std::thread> workers_;
};

}  // namespace tansaku::serve
