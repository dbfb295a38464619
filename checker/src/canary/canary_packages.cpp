#include "canary/canary_packages.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "core/atomic_file.h"
#include "core/file_text.h"
#include "core/process.h"
#include "core/project_paths.h"
#include "core/scoped_temp_dir.h"
#include "core/tool_error.h"

namespace abicheck {
namespace {

using nlohmann::json;

std::string_view source_name(PackageSource source) {
  switch (source) {
    case PackageSource::Index: return "index";
    case PackageSource::Wheel: return "wheel";
    case PackageSource::Directory: return "directory";
  }
  return "index";
}

}  // namespace

std::optional<TorchVersion> pinned_torch_release(const std::vector<std::string>& requires_torch) {
  // "torch==2.9.1", "torch (==2.9.1)": the exact pin a torch-pinned package writes.
  static const std::regex pin(R"(==\s*([0-9]+\.[0-9]+(\.[0-9]+)?)(\s|\)|$|\+|,))");
  for (const auto& requirement : requires_torch) {
    std::smatch match;
    if (std::regex_search(requirement, match, pin)) return TorchVersion::try_parse(match[1].str());
  }
  return std::nullopt;
}

PreparedPackages prepare_canary_packages(const CanarySpec& spec, const std::filesystem::path& cache_dir) {
  ScopedTempDir work("canary-fetch");
  json request = {{"packages", json::array()},
                  {"index_url", spec.index_url ? json(*spec.index_url) : json()},
                  {"find_links", spec.find_links ? json(spec.find_links->string()) : json()}};
  for (const auto& package : spec.packages) {
    request["packages"].push_back({{"key", package.name},
                                   {"source", source_name(package.source)},
                                   {"spec", package.location},
                                   {"sha256", package.sha256}});
  }
  write_file_atomically(work.path() / "request.json", request.dump());
  std::filesystem::create_directories(cache_dir);
  ProcessResult run =
      run_process({.argv = {host_python(), (project_root() / "matrix" / "canary_fetch.py").string(), "--cache",
                            cache_dir.string(), "--request", (work.path() / "request.json").string(), "--result",
                            (work.path() / "result.json").string()},
                   .timeout = std::chrono::minutes(60)});
  if (!run.succeeded()) {
    throw ToolError(fmt::format("matrix/canary_fetch.py failed ({}): {}", run.describe(), run.tail(3)));
  }
  json result = json::parse(read_file_text(work.path() / "result.json"));
  PreparedPackages prepared;
  for (const auto& problem : result["problems"]) {
    prepared.problems.push_back({problem["key"].get<std::string>(), problem["problem"].get<std::string>()});
  }
  for (const auto& package_spec : spec.packages) {
    for (const auto& facts : result["packages"]) {
      if (facts["key"] != package_spec.name) continue;
      CanaryPackage package{.spec = package_spec,
                            .distribution = facts["name"].get<std::string>(),
                            .version = facts["version"].get<std::string>(),
                            .wheel = facts["wheel"].get<std::string>(),
                            .sha256 = facts["sha256"].get<std::string>(),
                            .unpacked = facts["unpacked"].get<std::string>(),
                            .modules = facts["modules"].get<std::vector<std::string>>(),
                            .requires_torch = facts["requires_torch"].get<std::vector<std::string>>(),
                            .dependencies = facts["dependencies"]["directory"].get<std::string>(),
                            .missing_dependencies = facts["dependencies"].value("missing", std::vector<std::string>())};
      package.pinned_torch = pinned_torch_release(package.requires_torch);
      prepared.packages.push_back(std::move(package));
    }
  }
  return prepared;
}

}  // namespace abicheck
