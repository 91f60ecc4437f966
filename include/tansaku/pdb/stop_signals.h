// `pdb build` stops on SIGINT and SIGTERM as on its deadline, so that a long build saves its
// partial state (pdb/checkpoint.h) before it ends; a second signal ends the process at once.
// One object while a build runs: it installs the handlers, and puts them back when it goes.
#pragma once
#include <csignal>
#include <string>

#include "tansaku/core/deadline.h"

namespace tansaku::pdb {

class StopSignals {
 public:
  // `deadline` (outliving this object) expires as soon as a signal comes.
  explicit StopSignals(Deadline& deadline);
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  // Whether a signal came (a LimitError then says "stopped by a signal").
  static bool signalled();

 private:
  using SigAction = struct sigaction;
  SigAction old_int_{}, old_term_{};
};

// The message of a build stopped by `e` (the deadline or a signal), naming the partial build
// kept in `partial` when there is one (`saved`).
std::string stopped_message(const std::string& why, bool saved, const std::string& partial);

}  // namespace tansaku::pdb
