#include "canary/canary_spec.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <set>

#include "core/file_text.h"
#include "core/project_paths.h"
#include "core/tool_error.h"

namespace abicheck {
namespace {

const std::set<std::string> kPackageKeys = {"requirement", "wheel",           "directory", "why",
                                            "smoke",       "smoke_needs_gpu", "name",      "sha256"};
const std::set<std::string> kTopKeys = {"package", "timeout_s", "index_url", "find_links"};

std::string where(const std::filesystem::path& file, const toml::node& node) {
  return fmt::format("{}:{}", file.string(), node.source().begin.line);
}

// "xformers==0.0.35", "torchvision-0.24.1" (a wheel's name and version), a directory's name: two
// versions of one package are two rows.
std::string name_of(const CanaryPackageSpec& package) {
  if (package.source == PackageSource::Index) {
    std::string name = package.location;
    std::erase(name, ' ');
    return name;
  }
  std::filesystem::path path(package.location);
  if (package.source == PackageSource::Wheel) {
    std::string file = path.filename().string();
    auto second_dash = file.find('-', file.find('-') + 1);
    return file.substr(0, second_dash);
  }
  return path.filename().empty() ? path.parent_path().filename().string() : path.filename().string();
}

CanaryPackageSpec parse_package(const std::filesystem::path& file, const toml::table& table) {
  for (const auto& [key, value] : table) {
    if (!kPackageKeys.contains(std::string(key.str()))) {
      throw ToolError(
          fmt::format("{}: unknown key '{}' in [[package]] (known: requirement, wheel, directory, "
                      "why, smoke, smoke_needs_gpu, name, sha256)",
                      where(file, value), key.str()));
    }
  }
  CanaryPackageSpec package;
  int sources = 0;
  for (auto [key, source] : {std::pair{"requirement", PackageSource::Index}, std::pair{"wheel", PackageSource::Wheel},
                             std::pair{"directory", PackageSource::Directory}}) {
    if (auto value = table[key].value<std::string>()) {
      ++sources;
      package.source = source;
      package.location = *value;
      if (source != PackageSource::Index && std::filesystem::path(*value).is_relative()) {
        package.location = (file.parent_path() / *value).lexically_normal().string();
      }
    }
  }
  if (sources != 1) {
    throw ToolError(
        fmt::format("{}: a [[package]] needs exactly one of requirement, wheel or directory", where(file, table)));
  }
  package.why = table["why"].value_or(std::string());
  if (package.why.empty()) {
    throw ToolError(fmt::format("{}: [[package]] {}: 'why' is required (what this package proves)", where(file, table),
                                package.location));
  }
  package.smoke = table["smoke"].value_or(std::string());
  package.smoke_needs_gpu = table["smoke_needs_gpu"].value_or(false);
  package.name = table["name"].value_or(name_of(package));
  package.sha256 = table["sha256"].value_or(std::string());
  if (!package.sha256.empty() &&
      (package.sha256.size() != 64 || package.sha256.find_first_not_of("0123456789abcdef") != std::string::npos)) {
    throw ToolError(
        fmt::format("{}: [[package]] {}: sha256 must be 64 lowercase hex digits", where(file, table), package.name));
  }
  return package;
}

}  // namespace

CanarySpec load_canary_spec(const std::filesystem::path& path) {
  toml::table document;
  try {
    document = toml::parse(read_file_text(path), path.string());
  } catch (const toml::parse_error& error) {
    throw ToolError(fmt::format("{}:{}: {}", path.string(), error.source().begin.line, error.description()));
  }
  CanarySpec spec{.path = path};
  for (const auto& [key, value] : document) {
    if (!kTopKeys.contains(std::string(key.str()))) {
      throw ToolError(fmt::format("{}: unknown key '{}' (known: package, timeout_s, index_url, find_links)",
                                  where(path, value), key.str()));
    }
  }
  if (auto timeout = document["timeout_s"].value<double>()) {
    if (*timeout <= 0) throw ToolError(fmt::format("{}: timeout_s must be positive", path.string()));
    spec.timeout_s = *timeout;
  }
  if (auto index = document["index_url"].value<std::string>()) spec.index_url = *index;
  if (auto links = document["find_links"].value<std::string>()) {
    spec.find_links = (path.parent_path() / *links).lexically_normal();
  }
  const toml::array* packages = document["package"].as_array();
  if (packages == nullptr || packages->empty()) {
    throw ToolError(fmt::format("{}: no [[package]] entries", path.string()));
  }
  for (const auto& node : *packages) {
    const toml::table* table = node.as_table();
    if (table == nullptr) throw ToolError(fmt::format("{}: 'package' must be [[package]] tables", where(path, node)));
    CanaryPackageSpec package = parse_package(path, *table);
    if (std::ranges::any_of(spec.packages, [&](const auto& other) { return other.name == package.name; })) {
      throw ToolError(
          fmt::format("{}: two packages named '{}' (give one a distinct `name`)", where(path, node), package.name));
    }
    spec.packages.push_back(std::move(package));
  }
  return spec;
}

std::filesystem::path default_canary_spec() { return project_root() / "matrix" / "canary.toml"; }

}  // namespace abicheck
