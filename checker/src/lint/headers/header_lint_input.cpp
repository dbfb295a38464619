#include "lint/headers/header_lint_input.h"

#include "baseline/release_baseline.h"
#include "baseline/release_history.h"

namespace abicheck {

namespace fs = std::filesystem;

HeaderLintInput gather_header_lint_input(const fs::path& include_dir, ShimInventory candidate,
                                         const fs::path& baselines, const ReleaseHeaderLocator& headers_of_release) {
  HeaderLintInput input;
  input.include_dir = fs::absolute(include_dir).lexically_normal();
  input.candidate = std::move(candidate);
  ReleaseHistory history = ReleaseHistory::open(baselines);
  input.earlier = history.inventories_before(input.candidate.release.minor_release());
  if (auto own = history.find(input.candidate.release.minor_release())) {
    input.shipped = load_inventory(*own / kInventoryFile);
  }
  input.wrapper_uses = collect_wrapper_shim_uses(input.include_dir, input.candidate.release);
  input.moved_in = find_moved_declarations(input, headers_of_release);
  return input;
}

}  // namespace abicheck
