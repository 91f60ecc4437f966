// `tansaku serve`'s work queue: a fixed pool of workers and a bounded queue of jobs. A job is
// one show / solve / explore request; it runs under its own deadline (which a cancel flag
// expires) and reports its progress lines and its result as the HTTP reply it will become.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tansaku/core/deadline.h"
#include "tansaku/core/progress.h"
#include "tansaku/puzzles/puzzle.h"

namespace tansaku::serve {

struct Job final : ProgressSink {
  enum class State { Queued, Running, Done };
  std::string id;
  unsigned command = kSolve;
  std::string puzzle;  // the name as given
  Options options;
  bool draw = false;  // also draw the result (frames) for the app
  std::vector<std::string> states;  // show + draw: positions to draw besides the board
  std::optional<std::string> play;  // show: the position to play from (POST /api/play)
  // A puzzle pasted by the user: the file name its puzzle names ("family:NAME") and the text
  // read in its place (core/input.h PastedFile); no paste when `paste_name` is "".
  std::string paste_name, paste_text;
  std::atomic<bool> cancel{false};

  // Everything below is guarded by `m`.
  mutable std::mutex m;
  std::condition_variable cv;
  State state = State::Queued;
  std::string progress;  // the last progress line
  Stopwatch since;       // since the job was queued; reset when it starts
  double seconds = 0;    // run time once done
  double work = 0;       // seconds inside the family's code (Server-Timing)
  int status = 0;        // HTTP status of the result
  std::string body;      // the result: the CLI's JSON object, or {"error": ...}
  json drawing;          // {"frames": [...], "labels": [...]} when `draw`

  void line(const std::string& text) override;
  json snapshot() const;  // GET /api/job/ID
  void wait();
};

class Pool {
 public:
  // `workers` threads; at most `queue` jobs wait beyond those running.
  Pool(unsigned workers, std::size_t queue, std::function<void(Job&)> run);
  ~Pool();
  // Queues the job (giving it an id), or returns false when the pool is full.
  bool submit(const std::shared_ptr<Job>& job, bool keep);
  std::shared_ptr<Job> find(const std::string& id) const;
  void forget(const std::string& id);
  void cancel_all();
  void stop();  // cancels everything and joins the workers

 private:
  void work();
  std::function<void(Job&)> run_;
  std::size_t capacity_;
  mutable std::mutex m_;
  std::condition_variable cv_;
  std::deque<std::shared_ptr<Job>> queue_;
  std::vector<std::shared_ptr<Job>> running_;        // kept or not: cancel_all reaches them
  bool stopping_ = false;
  std::uint64_t next_id_ = 1;
  std::map<std::string, std::shared_ptr<Job>> jobs_;  // kept for GET /api/job/ID
  std::deque<std::string> finished_;                  // oldest first, pruned beyond kKeep
  std::vector<std::thread> threads_;
};

}  // namespace tansaku::serve
