#include "inventory/shim_inventory.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <tuple>

#include "core/tool_error.h"

namespace abicheck {
namespace {

constexpr std::array<std::pair<DeclarationKind, std::string_view>, 7> kKindNames{{
    {DeclarationKind::Function, "function"},
    {DeclarationKind::Struct, "struct"},
    {DeclarationKind::Enum, "enum"},
    {DeclarationKind::EnumConstant, "enum_constant"},
    {DeclarationKind::Typedef, "typedef"},
    {DeclarationKind::Macro, "macro"},
    {DeclarationKind::Method, "method"},
}};

}  // namespace

std::string_view to_string(DeclarationKind kind) {
  for (const auto& [value, name] : kKindNames) {
    if (value == kind) return name;
  }
  return "unknown";
}

std::optional<DeclarationKind> declaration_kind_from_string(std::string_view text) {
  for (const auto& [value, name] : kKindNames) {
    if (name == text) return value;
  }
  return std::nullopt;
}

std::string compile_error_identity(std::string_view error) {
  // "file:line: message": the line is the first ":<digits>:" after the file name.
  static const std::regex located(R"(^([^:]+):\d+(?::\d+)?: (.*)$)");
  std::string text(error);
  std::smatch match;
  if (std::regex_match(text, match, located)) return match[1].str() + ": " + match[2].str();
  return text;
}

std::string NewCompileError::message() const {
  std::size_t separator = error.find(": ");
  return separator == std::string::npos ? error : error.substr(separator + 2);
}

std::string NewCompileError::configurations() const {
  std::vector<std::string> names;
  for (const auto& target : targets) names.push_back(target ? "target " + target->to_string() : "no target");
  return fmt::format("{}", fmt::join(names, ", "));
}

void sort_compile_failures(std::vector<HeaderCompileFailure>& failures) {
  std::ranges::stable_sort(failures, [](const HeaderCompileFailure& a, const HeaderCompileFailure& b) {
    return std::tie(a.target, a.configuration) < std::tie(b.target, b.configuration);
  });
}

std::vector<NewCompileError> new_compile_errors(const ShimInventory& inventory, const std::set<std::string>& known) {
  static const std::regex located(R"(^([^:]+):(\d+):)");
  std::map<std::pair<std::string, int>, NewCompileError> by_place;
  std::set<std::pair<std::optional<TorchVersion>, std::string>> configurations_seen;
  for (const auto& failure : inventory.compile_failures) {  // sorted: the untargeted and oldest first
    if (known.contains(compile_error_identity(failure.error))) continue;
    if (!configurations_seen.insert({failure.target, failure.configuration}).second) continue;
    std::smatch match;
    std::pair<std::string, int> place{failure.error, 0};
    if (std::regex_search(failure.error, match, located)) place = {match[1].str(), std::stoi(match[2].str())};
    auto [it, inserted] = by_place.try_emplace(place, NewCompileError{place.first, place.second, failure.error, {}});
    it->second.targets.insert(failure.target);
  }
  std::vector<NewCompileError> errors;
  for (auto& [place, error] : by_place) errors.push_back(std::move(error));
  return errors;
}

std::set<std::string> ShimInventory::compile_error_identities() const {
  std::set<std::string> identities;
  for (const auto& failure : compile_failures) identities.insert(compile_error_identity(failure.error));
  // A note is "<context>: <error>"; the context has no colon.
  for (const auto& note : notes) {
    if (auto colon = note.find(": "); colon != std::string::npos) {
      identities.insert(compile_error_identity(std::string_view(note).substr(colon + 2)));
    }
  }
  return identities;
}

const ShimDeclaration* ShimInventory::find(std::string_view name, DeclarationKind kind) const {
  auto it =
      std::ranges::find_if(declarations, [&](const ShimDeclaration& d) { return d.name == name && d.kind == kind; });
  return it == declarations.end() ? nullptr : &*it;
}

void ShimInventory::sort() {
  std::ranges::sort(declarations, [](const ShimDeclaration& a, const ShimDeclaration& b) {
    return std::tie(a.name, a.kind, a.backend, a.header, a.line) <
           std::tie(b.name, b.kind, b.backend, b.header, b.line);
  });
}

std::string inventory_to_json(const ShimInventory& inventory) {
  nlohmann::ordered_json declarations = nlohmann::ordered_json::array();
  for (const auto& d : inventory.declarations) {
    nlohmann::ordered_json item = {
        {"name", d.name}, {"kind", to_string(d.kind)}, {"signature", d.signature},    {"header", d.header},
        {"line", d.line}, {"backend", d.backend},      {"since", d.since.to_string()}};
    if (!d.abi_type.empty()) item["abi_type"] = d.abi_type;
    if (d.default_arguments > 0) item["default_arguments"] = d.default_arguments;
    if (d.is_explicit) item["explicit"] = true;
    declarations.push_back(std::move(item));
  }
  nlohmann::ordered_json document = {{"release", inventory.release.to_string()}, {"declarations", declarations}};
  if (!inventory.headers.empty()) document["headers"] = inventory.headers;
  document["notes"] = inventory.notes;
  if (!inventory.compile_failures.empty()) {
    nlohmann::ordered_json failures = nlohmann::ordered_json::array();
    for (const auto& f : inventory.compile_failures) {
      failures.push_back({{"target", f.target ? nlohmann::ordered_json(f.target->to_string()) : nullptr},
                          {"configuration", f.configuration},
                          {"error", f.error}});
    }
    document["compile_failures"] = std::move(failures);
  }
  return document.dump(1) + "\n";
}

ShimInventory load_inventory(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw ToolError(fmt::format("{}: cannot be read", path.string()));
  try {
    auto document = nlohmann::json::parse(in);
    ShimInventory inventory;
    inventory.release = TorchVersion::parse(document.at("release").get<std::string>());
    for (const auto& item : document.at("declarations")) {
      ShimDeclaration d;
      d.name = item.at("name").get<std::string>();
      auto kind = declaration_kind_from_string(item.at("kind").get<std::string>());
      if (!kind) throw ToolError(fmt::format("unknown declaration kind '{}'", item.at("kind").get<std::string>()));
      d.kind = *kind;
      d.signature = item.at("signature").get<std::string>();
      d.header = item.at("header").get<std::string>();
      d.line = item.at("line").get<int>();
      d.backend = item.at("backend").get<std::string>();
      d.since = TorchVersion::parse(item.at("since").get<std::string>());
      if (item.contains("abi_type")) d.abi_type = item.at("abi_type").get<std::string>();
      if (item.contains("default_arguments")) d.default_arguments = item.at("default_arguments").get<int>();
      if (item.contains("explicit")) d.is_explicit = item.at("explicit").get<bool>();
      inventory.declarations.push_back(std::move(d));
    }
    if (document.contains("headers")) inventory.headers = document.at("headers").get<std::vector<std::string>>();
    if (document.contains("notes")) inventory.notes = document.at("notes").get<std::vector<std::string>>();
    if (document.contains("compile_failures")) {
      for (const auto& item : document.at("compile_failures")) {
        const auto& target = item.at("target");
        inventory.compile_failures.push_back(
            {target.is_null() ? std::nullopt : std::optional(TorchVersion::parse(target.get<std::string>())),
             item.at("configuration").get<std::string>(), item.at("error").get<std::string>()});
      }
    }
    return inventory;
  } catch (const nlohmann::json::exception& error) {
    throw ToolError(fmt::format("{}: not a valid inventory: {}", path.string(), error.what()));
  } catch (const ToolError& error) {
    throw ToolError(fmt::format("{}: not a valid inventory: {}", path.string(), error.what()));
  }
}

}  // namespace abicheck
