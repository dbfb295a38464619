#include "core/log_progress.h"

#include <fmt/format.h>

#include <cstdio>

namespace abicheck {

LogProgress::~LogProgress() {
  {
    std::lock_guard lock(mutex_);
    finished_ = true;
  }
  wake_.notify_all();
  if (heartbeat_.joinable()) heartbeat_.join();
}

void LogProgress::update(int done, int total, const std::string& line) {
  std::lock_guard lock(mutex_);
  if (finished_) return;
  done_ = done;
  total_ = total;
  line_ = line;
  if (!heartbeat_.joinable()) {
    print_locked(line);
    heartbeat_ = std::thread([this] { beat(); });
    return;
  }
  finished_ = total > 0 && done >= total;
  if (finished_) wake_.notify_all();
  if (finished_ || Clock::now() - last_printed_ >= minimum_gap_) print_locked(line);
}

void LogProgress::print_locked(std::string_view what) {
  auto seconds = std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - started_).count();
  std::string count = total_ > 0 ? fmt::format("[{}/{}] ", done_, total_) : fmt::format("[{}] ", done_);
  fmt::print(out_, "{}: {}{} s: {}\n", label_, count, seconds, what);
  std::fflush(out_);
  last_printed_ = Clock::now();
}

void LogProgress::beat() {
  std::unique_lock lock(mutex_);
  while (!finished_) {
    wake_.wait_until(lock, last_printed_ + heartbeat_interval_, [this] { return finished_; });
    if (!finished_ && Clock::now() - last_printed_ >= heartbeat_interval_) {
      print_locked(fmt::format("working (last: {})", line_));
    }
  }
}

}  // namespace abicheck
