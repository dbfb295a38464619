#include "lint/headers/header_lint_input.h"

#include <algorithm>

namespace abicheck {

namespace fs = std::filesystem;

HeaderLintInput gather_header_lint_input(const fs::path& include_dir, ShimInventory candidate,
                                         const fs::path& baselines, const ReleaseHeaderLocator& headers_of_release) {
  HeaderLintInput input;
  input.include_dir = fs::absolute(include_dir).lexically_normal();
  input.candidate = std::move(candidate);
  std::error_code error;
  if (fs::is_directory(baselines, error)) {
    for (const auto& entry : fs::directory_iterator(baselines, error)) {
      auto release = TorchVersion::try_parse(entry.path().filename().string());
      fs::path file = entry.path() / "inventory.json";
      if (release && *release < input.candidate.release.minor_release() && fs::is_regular_file(file)) {
        input.earlier.push_back(load_inventory(file));
      }
    }
  }
  std::ranges::sort(input.earlier, {}, &ShimInventory::release);
  input.wrapper_uses = collect_wrapper_shim_uses(input.include_dir, input.candidate.release);
  input.moved_in = find_moved_declarations(input, headers_of_release);
  return input;
}

}  // namespace abicheck
