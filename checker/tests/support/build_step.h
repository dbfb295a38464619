#pragma once

#include <fmt/format.h>

#include <chrono>
#include <string>
#include <vector>

#include "core/process.h"

namespace abicheck::testing {

// One step of a test's fixture build (a compiler, a zip): runs only while `failure` is empty, and on
// failure records which program failed and what it said, so the test reports the first broken step.
inline void run_build_step(const std::vector<std::string>& argv, std::string& failure) {
  if (!failure.empty()) return;
  ProcessResult result = run_process({.argv = argv, .timeout = std::chrono::minutes(2)});
  if (!result.succeeded()) failure = fmt::format("{} failed: {}", argv.front(), result.output);
}

}  // namespace abicheck::testing
