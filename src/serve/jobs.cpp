// The work queue's implementation: jobs' states, progress lines and snapshots, and the pool's
// workers, submission, lookup and cancellation.
#include "serve/jobs.h"

#include <algorithm>

#include <fmt/format.h>

#include "tansaku/puzzles/registry.h"

namespace tansaku::serve {

namespace {
constexpr std::size_t kKeep = 256;  // finished jobs remembered for polling
const char* state_name(Job::State s) {
  return s == Job::State::Queued ? "queued" : s == Job::State::Running ? "running" : "done";
}
}  // namespace

void Job::line(const std::string& text) {
  std::lock_guard lock(m);
  progress = text;
}

json Job::snapshot() const {
  std::lock_guard lock(m);
  json j = {{"id", id}, {"command", command == kShow ? "show" : command == kSolve ? "solve" : "explore"},
            {"state", state_name(state)}};
  j["seconds"] = state == State::Done ? seconds : state == State::Running ? since.seconds() : 0.0;
  if (!progress.empty()) j["progress"] = progress;
  if (cancel.load()) j["cancelled"] = true;
  if (state == State::Done) {
    j["status"] = status;
    json r = json::parse(body, nullptr, false);
    if (status != 200) j["error"] = r.is_object() && r.contains("error") ? r["error"] : json(body);
    // A stopped solve's object (its complete: false) is a result too: what was proved.
    if (status == 200 || (r.is_object() && r.contains("complete"))) j["result"] = std::move(r);
    if (!drawing.is_null()) j["drawing"] = drawing;
  }
  return j;
}

void Job::wait() {
  std::unique_lock lock(m);
  cv.wait(lock, [&] { return state == State::Done; });
}

Pool::Pool(unsigned workers, std::size_t queue, std::function<void(Job&)> run)
    : run_(std::move(run)), capacity_(workers + queue) {
  for (unsigned i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
}

Pool::~Pool() { stop(); }

bool Pool::submit(const std::shared_ptr<Job>& job, bool keep) {
  {
    std::lock_guard lock(m_);
    if (stopping_ || queue_.size() + running_.size() >= capacity_) return false;
    job->id = std::to_string(next_id_++);
    job->since = Stopwatch();
    queue_.push_back(job);
    if (keep) jobs_[job->id] = job;
  }
  cv_.notify_one();
  return true;
}

std::shared_ptr<Job> Pool::find(const std::string& id) const {
  std::lock_guard lock(m_);
  auto it = jobs_.find(id);
  return it == jobs_.end() ? nullptr : it->second;
}

void Pool::forget(const std::string& id) {
  std::lock_guard lock(m_);
  jobs_.erase(id);
}

void Pool::cancel_all() {
  std::lock_guard lock(m_);
  for (auto& j : queue_) j->cancel = true;
  for (auto& j : running_) j->cancel = true;
  for (auto& [id, j] : jobs_) j->cancel = true;
}

void Pool::stop() {
  {
    std::lock_guard lock(m_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
    for (auto& j : queue_) j->cancel = true;
    for (auto& j : running_) j->cancel = true;
    for (auto& [id, j] : jobs_) j->cancel = true;
  }
  cv_.notify_all();
  for (auto& t : threads_) t.join();
  threads_.clear();
}

void Pool::work() {
  for (;;) {
    std::shared_ptr<Job> job;
    {
      std::unique_lock lock(m_);
      cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) {  // stopping, nothing left (queued jobs run cancelled)
        // A family may leave state in the thread (a library's per-thread environment):
        // a worker frees its own (Family::thread_cleanup).
        lock.unlock();
        for (const auto& f : families())
          if (f.thread_cleanup) f.thread_cleanup();
        return;
      }
      job = std::move(queue_.front());
      queue_.pop_front();
      running_.push_back(job);
    }
    {
      std::lock_guard lock(job->m);
      job->state = Job::State::Running;
      job->since = Stopwatch();
    }
    run_(*job);  // fills status, body, drawing; never throws
    {
      std::lock_guard lock(job->m);
      job->seconds = job->since.seconds();
      job->state = Job::State::Done;
    }
    job->cv.notify_all();
    std::lock_guard lock(m_);
    running_.erase(std::find(running_.begin(), running_.end(), job));
    if (jobs_.count(job->id)) {
      finished_.push_back(job->id);
      while (finished_.size() > kKeep) {
        jobs_.erase(finished_.front());
        finished_.pop_front();
      }
    }
  }
}

}  // namespace tansaku::serve
