#include "matrix/matrix_spec.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>

#include "core/file_text.h"
#include "core/project_paths.h"
#include "core/tool_error.h"
#include "core/torch_version.h"

namespace abicheck {
namespace {

[[noreturn]] void fail(const std::filesystem::path& file, const std::string& problem) {
  throw ToolError(fmt::format("{}: {}", file.string(), problem));
}

std::vector<std::string> string_list(const std::filesystem::path& file, const toml::node_view<const toml::node>& node,
                                     const std::string& key) {
  std::vector<std::string> values;
  if (!node) return values;
  const auto* array = node.as_array();
  if (array == nullptr) fail(file, fmt::format("'{}' must be a list of strings", key));
  for (const auto& element : *array) {
    auto text = element.value<std::string>();
    if (!text) fail(file, fmt::format("'{}' must be a list of strings", key));
    values.push_back(*text);
  }
  return values;
}

// A version list may also be one of the words that stand for "everything".
std::vector<std::string> version_list(const std::filesystem::path& file, const toml::node_view<const toml::node>& node,
                                      const std::string& key, const std::string& everything) {
  if (auto word = node.value<std::string>()) {
    if (*word != everything) fail(file, fmt::format("'{}' must be \"{}\" or a list of versions", key, everything));
    return {};
  }
  auto values = string_list(file, node, key);
  for (const auto& value : values) {
    if (value != "newest" && value != "oldest" && !TorchVersion::try_parse(value)) {
      fail(file, fmt::format("'{}': '{}' is not a torch version", key, value));
    }
  }
  return values;
}

Backend parse_backend(const std::filesystem::path& file, const std::string& name) {
  if (name == "cpu") return Backend::Cpu;
  if (name == "cuda") return Backend::Cuda;
  if (name == "rocm") return Backend::Rocm;
  fail(file, fmt::format("unknown backend '{}' (expected cpu, cuda or rocm)", name));
}

SuiteSpec parse_suite(const std::filesystem::path& file, const toml::table& table) {
  SuiteSpec suite;
  auto node = toml::node_view<const toml::node>(table);
  auto name = node["name"].value<std::string>();
  auto sources = node["sources"].value<std::string>();
  if (!name || !sources) fail(file, "every [[suite]] needs 'name' and 'sources'");
  suite.name = *name;
  suite.sources =
      std::filesystem::path(*sources).is_absolute() ? std::filesystem::path(*sources) : project_root() / *sources;
  if (!std::filesystem::is_directory(suite.sources)) {
    fail(file, fmt::format("suite '{}': sources '{}' is not a directory", suite.name, suite.sources.string()));
  }
  std::string api = node["api"].value_or(std::string("stable"));
  if (api != "stable" && api != "unstable")
    fail(file, fmt::format("suite '{}': api must be stable or unstable", suite.name));
  suite.api = api == "stable" ? ExtensionApi::Stable : ExtensionApi::Unstable;
  auto backends = string_list(file, node["backends"], "backends");
  if (backends.empty()) backends = {"cpu"};
  for (const auto& backend : backends) suite.backends.push_back(parse_backend(file, backend));
  suite.builds = version_list(file, node["builds"], "builds", "all");
  if (suite.builds.empty() && !node["builds"].is_string()) {
    fail(file, fmt::format("suite '{}': 'builds' must be \"all\" or list at least one version", suite.name));
  }
  suite.targets = version_list(file, node["targets"], "targets", "up-to-build");
  suite.runtimes = version_list(file, node["runtimes"], "runtimes", "all");
  if (suite.api == ExtensionApi::Unstable && !suite.targets.empty()) {
    fail(file, fmt::format("suite '{}': an unstable-API extension has no target version", suite.name));
  }
  return suite;
}

}  // namespace

std::string backend_name(Backend backend) {
  switch (backend) {
    case Backend::Cpu: return "cpu";
    case Backend::Cuda: return "cuda";
    case Backend::Rocm: return "rocm";
  }
  return "?";
}

MatrixSpec load_matrix_spec(const std::filesystem::path& file) {
  toml::table document;
  try {
    document = toml::parse(read_file_text(file), file.string());
  } catch (const toml::parse_error& error) {
    fail(file, fmt::format("line {}: {}", error.source().begin.line, error.description()));
  }
  MatrixSpec spec;
  spec.file = file;
  auto root = toml::node_view<const toml::node>(document);
  spec.cell_timeout_s = root["cell_timeout_s"].value_or(spec.cell_timeout_s);
  spec.build_timeout_s = root["build_timeout_s"].value_or(spec.build_timeout_s);
  spec.cell_memory_mb = root["cell_memory_mb"].value_or(spec.cell_memory_mb);
  spec.build_memory_mb = root["build_memory_mb"].value_or(spec.build_memory_mb);
  if (spec.cell_timeout_s <= 0 || spec.build_timeout_s <= 0) fail(file, "timeouts must be positive");
  spec.cuda_arches = string_list(file, root["cuda"]["arches"], "cuda.arches");
  spec.rocm_arches = string_list(file, root["rocm"]["arches"], "rocm.arches");
  const auto* suites = document["suite"].as_array();
  if (suites == nullptr || suites->empty()) fail(file, "no [[suite]] defined");
  for (const auto& element : *suites) {
    const auto* table = element.as_table();
    if (table == nullptr) fail(file, "[[suite]] must be a table");
    spec.suites.push_back(parse_suite(file, *table));
  }
  for (const auto& suite : spec.suites) {
    bool has_cuda = std::ranges::find(suite.backends, Backend::Cuda) != suite.backends.end();
    bool has_rocm = std::ranges::find(suite.backends, Backend::Rocm) != suite.backends.end();
    if (has_cuda && spec.cuda_arches.empty()) fail(file, "a cuda backend needs [cuda] arches");
    if (has_rocm && spec.rocm_arches.empty()) fail(file, "a rocm backend needs [rocm] arches");
  }
  return spec;
}

}  // namespace abicheck
