#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

namespace abicheck {

// Progress for a log that is no terminal (a CI job's): plain lines, never rewritten. From the first
// update to the last step (done == total), a step's line is printed when at least `minimum_gap` has
// passed since the last line, and a heartbeat repeats where the work stands every `heartbeat` while
// no step ends: a log never goes quiet longer, however long one build takes. 25 s, so that a loaded
// machine's late wake-up still keeps the promise of a line at least every 30 s.
class LogProgress {
 public:
  explicit LogProgress(std::string label, std::FILE* out = stderr,
                       std::chrono::milliseconds minimum_gap = std::chrono::seconds(10),
                       std::chrono::milliseconds heartbeat = std::chrono::seconds(25))
      : label_(std::move(label)), out_(out), minimum_gap_(minimum_gap), heartbeat_interval_(heartbeat) {}
  ~LogProgress();
  LogProgress(const LogProgress&) = delete;
  LogProgress& operator=(const LogProgress&) = delete;

  // `done` of `total` steps have ended (0 of N: the work starts; total 0: not known, the work ends
  // with this object); `line` says what ended last.
  void update(int done, int total, const std::string& line);

 private:
  using Clock = std::chrono::steady_clock;
  void print_locked(std::string_view what);
  void beat();

  const std::string label_;
  std::FILE* const out_;
  const std::chrono::milliseconds minimum_gap_;
  const std::chrono::milliseconds heartbeat_interval_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool finished_ = false;
  // The clock starts with the object, not with its first line: a caller whose first line ends a
  // long step (check's lint) shows that step's time.
  const Clock::time_point started_ = Clock::now();
  Clock::time_point last_printed_;
  int done_ = 0;
  int total_ = 0;
  std::string line_;
  std::thread heartbeat_;  // from the first update
};

}  // namespace abicheck
