#include "diff/baseline_source.h"

#include <algorithm>
#include <fmt/format.h>

#include "core/project_paths.h"
#include "core/tool_error.h"
#include "store/release_store.h"

namespace abicheck {
namespace {

ReleaseBaseline build_or_fail(const ResolvedRelease& release, const std::string& spec) {
  BaselineBuild build = build_baseline(release.include_dir, release.lib_dir);
  for (const auto& problem : build.problems) {
    // Exports are compared by the diff itself; a function missing from the ABI model means the
    // model cannot be trusted for anything.
    if (problem.problem.starts_with("missing from the ABI model")) {
      throw ToolError(fmt::format("{}: {} is {}", spec, problem.name, problem.problem));
    }
  }
  return std::move(build.baseline);
}

}  // namespace

ReleaseBaseline obtain_baseline(const std::string& spec, const std::filesystem::path& store_root) {
  std::filesystem::path path(spec);
  if (std::filesystem::is_regular_file(path / kInventoryFile)) return load_baseline(path);
  if (!std::filesystem::exists(path)) {
    if (auto version = TorchVersion::try_parse(spec)) {
      std::filesystem::path committed = project_root() / "shim_decls" / version->to_string();
      if (std::filesystem::is_regular_file(committed / kInventoryFile)) return load_baseline(committed);
    }
  }
  return build_or_fail(ReleaseStore::open(store_root).resolve(spec), spec);
}

std::vector<std::filesystem::path> committed_baselines(const std::filesystem::path& directory) {
  std::vector<std::pair<TorchVersion, std::filesystem::path>> found;
  if (std::filesystem::is_directory(directory)) {
    for (const auto& entry : std::filesystem::directory_iterator(directory)) {
      auto version = TorchVersion::try_parse(entry.path().filename().string());
      if (version && std::filesystem::is_regular_file(entry.path() / kInventoryFile)) found.emplace_back(*version, entry.path());
    }
  }
  std::ranges::sort(found);
  std::vector<std::filesystem::path> paths;
  for (auto& [version, path] : found) paths.push_back(std::move(path));
  return paths;
}

}  // namespace abicheck
