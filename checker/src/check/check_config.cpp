#include "check/check_config.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include "core/file_text.h"
#include "core/tool_error.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const fs::path& file, const std::string& problem) {
  throw ToolError(fmt::format("{}: {}", file.string(), problem));
}

toml::table parse_toml(const fs::path& file) {
  try {
    return toml::parse(read_file_text(file), file.string());
  } catch (const toml::parse_error& error) {
    fail(file, fmt::format("line {}: {}", error.source().begin.line, error.description()));
  }
}

std::vector<std::string> smoke_command(const fs::path& file, const toml::node& node) {
  if (auto line = node.value<std::string>()) {
    if (line->empty()) fail(file, "'smoke' is empty");
    return {"/bin/sh", "-c", *line};
  }
  const auto* array = node.as_array();
  if (array == nullptr || array->empty()) fail(file, "'smoke' must be a command line or a non-empty list of strings");
  std::vector<std::string> argv;
  for (const auto& element : *array) {
    auto word = element.value<std::string>();
    if (!word) fail(file, "'smoke' must be a command line or a non-empty list of strings");
    argv.push_back(*word);
  }
  return argv;
}

int positive_seconds(const fs::path& file, const toml::node& node, const std::string& key) {
  auto value = node.value<std::int64_t>();
  if (!value || *value <= 0 || *value > 86400)
    fail(file, fmt::format("'{}' must be a whole number of seconds (1 to 86400)", key));
  return static_cast<int>(*value);
}

CheckConfig read_table(const fs::path& file, const toml::table& table) {
  CheckConfig config;
  config.file = file;
  for (const auto& [key, node] : table) {
    const std::string name(key.str());
    if (name == "target") {
      auto text = node.value<std::string>();
      if (!text) fail(file, "'target' must be a version string such as \"2.13\"");
      auto version = TorchVersion::try_parse(*text);
      if (!version) fail(file, fmt::format("'target': '{}' is not a torch version", *text));
      config.target = version->minor_release();
    } else if (name == "build") {
      auto text = node.value<std::string>();
      if (text == "cmake") config.build = ProjectBuildKind::CMake;
      else if (text == "setuptools") config.build = ProjectBuildKind::Setuptools;
      else if (text != "auto") fail(file, "'build' must be \"cmake\", \"setuptools\" or \"auto\"");
    } else if (name == "smoke") {
      config.smoke = smoke_command(file, node);
    } else if (name == "timeout_s") {
      config.timeout_s = positive_seconds(file, node, name);
    } else if (name == "build_timeout_s") {
      config.build_timeout_s = positive_seconds(file, node, name);
    } else {
      fail(file, fmt::format("unknown key '{}' (expected target, build, smoke, timeout_s, build_timeout_s)", name));
    }
  }
  return config;
}

}  // namespace

CheckConfig load_check_config(const fs::path& project, const std::optional<fs::path>& config_file) {
  if (config_file) {
    if (!fs::is_regular_file(*config_file)) fail(*config_file, "no such file");
    return read_table(*config_file, parse_toml(*config_file));
  }
  fs::path pyproject = project / "pyproject.toml";
  if (!fs::is_regular_file(pyproject)) return {};
  toml::table document = parse_toml(pyproject);
  const toml::node* section = document["tool"]["torch-abi-check"].node();
  if (section == nullptr) return {};
  const auto* table = section->as_table();
  if (table == nullptr) fail(pyproject, "[tool.torch-abi-check] must be a table");
  return read_table(pyproject, *table);
}

std::optional<ProjectBuildKind> detect_build_kind(const fs::path& project, const CheckConfig& config) {
  if (config.build) return config.build;
  return find_project_build_kind(project);
}

}  // namespace abicheck
