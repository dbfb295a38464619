#include "diff/baseline_source.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/tool_error.h"
#include "store/release_store.h"

namespace abicheck {
namespace {

ReleaseBaseline build_or_fail(const ResolvedRelease& release, const std::string& spec) {
  // Headers that do not compile are the diff's finding (headers-do-not-compile), not a failure of
  // the tool: it compares what it still can.
  BaselineBuild build = build_baseline(release.include_dir, release.lib_dir, {.untargeted_errors_as_notes = true});
  // Exports are compared by the diff itself. A function missing from the ABI model is one a build
  // without a target does not see although some target does (the probe is built without a target):
  // the headers hide it from every extension that sets none, which is the finding, and the model
  // cannot be trusted for anything else, so the side is compared without it.
  for (const auto& problem : build.problems) {
    if (!problem.problem.starts_with("missing from the ABI model")) continue;
    const ShimDeclaration* declaration = build.baseline.inventory.find(problem.name);
    build.baseline.inventory.compile_failures.push_back(
        {std::nullopt, "no TORCH_TARGET_VERSION",
         fmt::format("{}:{}: '{}' is declared at target {} but not without a target",
                     declaration ? declaration->header : spec, declaration ? declaration->line : 0, problem.name,
                     declaration ? declaration->since.to_string() : "?")});
    build.baseline.abixml.clear();
  }
  sort_compile_failures(build.baseline.inventory.compile_failures);
  std::optional<std::filesystem::path> python;
  if (release.installed) python = release.installed->python;
  build.baseline.operators = release_operator_schemas(python, release.lib_dir);
  return std::move(build.baseline);
}

}  // namespace

ReleaseBaseline obtain_baseline(const std::string& spec, const std::filesystem::path& store_root,
                                const ReleaseHistory& history) {
  std::filesystem::path path(spec);
  if (std::filesystem::is_regular_file(path / kInventoryFile)) return load_baseline(path);
  if (!std::filesystem::exists(path)) {
    if (auto version = TorchVersion::try_parse(spec)) {
      if (auto committed = history.find(*version)) return load_baseline(*committed);
    }
  }
  return build_or_fail(ReleaseStore::open(store_root).resolve(spec), spec);
}

}  // namespace abicheck
