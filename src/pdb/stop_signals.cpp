// SIGINT and SIGTERM stopping a table build (see tansaku/pdb/stop_signals.h).
#include "tansaku/pdb/stop_signals.h"

#include <signal.h>

#include <atomic>
#include <string>

#include <fmt/format.h>

namespace tansaku::pdb {
namespace {

std::atomic<bool> g_signalled{false};
static_assert(std::atomic<bool>::is_always_lock_free);
extern "C" void on_stop_signal(int) { g_signalled.store(true, std::memory_order_relaxed); }

}  // namespace

StopSignals::StopSignals(Deadline& deadline) {
  g_signalled = false;
  deadline.cancel_on(&g_signalled);
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;
  ::sigaction(SIGINT, &sa, &old_int_);
  ::sigaction(SIGTERM, &sa, &old_term_);
}

StopSignals::~StopSignals() {
  ::sigaction(SIGINT, &old_int_, nullptr);
  ::sigaction(SIGTERM, &old_term_, nullptr);
}

bool StopSignals::signalled() { return g_signalled.load(); }

std::string stopped_message(const std::string& why, bool saved, const std::string& partial) {
  const std::string what = StopSignals::signalled() ? "stopped by a signal" : why;
  if (!saved) return what;
  return fmt::format("{}; the partial build is kept in {}: the same `tansaku pdb build` again goes on from it", what,
                     partial);
}

}  // namespace tansaku::pdb
