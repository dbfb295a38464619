#pragma once

#include <cstdlib>
#include <optional>
#include <string>

#include "core/suppression_file.h"

namespace abicheck::testing {

// Fixes "today" for suppression expiry (TORCH_ABI_CHECK_TODAY) in this process and the CLI runs it
// starts, and restores what was there before when it goes out of scope.
class ScopedToday {
 public:
  explicit ScopedToday(const std::string& day) {
    if (const char* before = std::getenv(kTodayVariable)) previous_ = before;
    ::setenv(kTodayVariable, day.c_str(), 1);
  }
  ~ScopedToday() {
    if (previous_) ::setenv(kTodayVariable, previous_->c_str(), 1);
    else ::unsetenv(kTodayVariable);
  }
  ScopedToday(const ScopedToday&) = delete;
  ScopedToday& operator=(const ScopedToday&) = delete;

 private:
  std::optional<std::string> previous_;
};

}  // namespace abicheck::testing
