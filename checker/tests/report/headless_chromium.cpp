#include "report/headless_chromium.h"

namespace abicheck::testing {

namespace fs = std::filesystem;

fs::path find_chromium() {
  for (const char* candidate : {"/usr/bin/chromium", "/usr/bin/chromium-browser"}) {
    if (fs::exists(candidate)) return candidate;
  }
  return {};
}

ProcessResult run_chromium(const fs::path& chromium, const fs::path& profile,
                           const std::vector<std::string>& arguments) {
  std::vector<std::string> argv = {
      chromium.string(),       "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + profile.string(),
      "--window-size=1366,900"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  // Without a D-Bus session chromium logs errors but works; the DOM goes to stdout either way.
  return run_process({.argv = argv, .timeout = std::chrono::minutes(2)});
}

}  // namespace abicheck::testing
