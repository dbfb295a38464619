#include "check/package_check.h"

#include <fmt/format.h>

#include "audit/pt2_package.h"
#include "audit/shim_catalog.h"
#include "baseline/release_history.h"
#include "core/tool_error.h"

namespace abicheck {

namespace fs = std::filesystem;

bool is_package_check_input(const fs::path& path) {
  std::error_code error;
  return path.extension() == ".pt2" && !fs::is_directory(path, error);
}

PackageCheckResult run_package_check(const ReleaseStore& store, const PackageCheckRequest& request) {
  PackageCheckResult result;
  result.package = fs::absolute(request.package).lexically_normal();
  require_loadable_pt2(request.package);
  std::vector<StoredRelease> releases = store.releases();
  if (releases.empty()) throw ToolError("no torch release in the store: `torch-abi-check store install`");

  ShimCatalog catalog = ShimCatalog::load_directory(request.baselines);
  OperatorHistory operators = ReleaseHistory::open(request.baselines).operator_schemas();
  result.audit = audit_paths({result.package}, catalog, {.releases = releases, .operators = &operators});
  if (result.audit.pt2_packages.empty()) {
    // Not a zip at all: bad input, as for `audit`.
    std::string problem = result.audit.failures.empty() ? "not a .pt2 package" : result.audit.failures.front().problem;
    throw ToolError(fmt::format("{}: {}", request.package.string(), problem));
  }
  result.min_torch = result.audit.pt2_packages.front().min_torch_to_load;
  for (const auto& release : releases) {
    if (!result.min_torch || release.version.minor_release() >= *result.min_torch) {
      result.runtimes.push_back(release.version);
    }
  }
  if (request.progress) {
    request.progress(fmt::format("audit: needs torch {}; loading under {} stored release{}",
                                 result.min_torch ? result.min_torch->to_string() + " or later" : "(unknown)",
                                 result.runtimes.size(), result.runtimes.size() == 1 ? "" : "s"));
  }
  result.loads = run_aoti(catalog, {.cache_dir = request.work_dir / "aoti",
                                    .fresh = request.fresh,
                                    .jobs = request.jobs,
                                    .releases = releases,
                                    .packages = {result.package},
                                    .from_minimum = true,
                                    .cpp_loader = true,
                                    .progress = [&request](int, int, const std::string& line) {
                                      if (request.progress) request.progress(line);
                                    }});
  return result;
}

}  // namespace abicheck
