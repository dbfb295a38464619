#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/process.h"

namespace abicheck::testing {

// Debian's chromium, or empty when it is not installed (ci/setup.sh installs it).
std::filesystem::path find_chromium();

// Runs headless chromium with a private profile and a laptop-sized window; `--dump-dom URL` puts the
// DOM after the page's scripts ran on stdout.
ProcessResult run_chromium(const std::filesystem::path& chromium, const std::filesystem::path& profile,
                           const std::vector<std::string>& arguments);

}  // namespace abicheck::testing
