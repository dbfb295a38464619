#include "lint/headers/header_lint_input.h"

#include <algorithm>

#include "baseline/abi_probe.h"
#include "baseline/release_baseline.h"
#include "baseline/release_history.h"

namespace abicheck {

namespace fs = std::filesystem;

namespace {

// The inventory's parses skip inline bodies; an extension that includes the headers compiles them.
// So the tree is compiled once as such an extension would be (compile_stable_headers, about a
// second for a release's tree): a body that no longer compiles (a member an inline function uses
// removed, a wrapper passing a retyped handle) is a compile failure of the tree like the parses'
// own, H007's to report. Not where the parses already failed without a target: the compile fails
// there too, and the parses' error is the one to report.
void add_compile_failure_of_inline_bodies(const fs::path& include_dir, ShimInventory& candidate) {
  if (std::ranges::any_of(candidate.compile_failures, [](const HeaderCompileFailure& f) { return !f.target; })) return;
  if (auto failure = compile_stable_headers(include_dir)) {
    candidate.compile_failures.push_back(std::move(*failure));
    sort_compile_failures(candidate.compile_failures);
  }
}

}  // namespace

HeaderLintInput gather_header_lint_input(const fs::path& include_dir, ShimInventory candidate,
                                         const fs::path& baselines, const ReleaseHeaderLocator& headers_of_release) {
  HeaderLintInput input;
  input.include_dir = fs::absolute(include_dir).lexically_normal();
  input.candidate = std::move(candidate);
  add_compile_failure_of_inline_bodies(input.include_dir, input.candidate);
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
