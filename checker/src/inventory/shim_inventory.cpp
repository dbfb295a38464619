#include "inventory/shim_inventory.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/tool_error.h"

namespace abicheck {
namespace {

constexpr std::array<std::pair<DeclarationKind, std::string_view>, 6> kKindNames{{
    {DeclarationKind::Function, "function"},
    {DeclarationKind::Struct, "struct"},
    {DeclarationKind::Enum, "enum"},
    {DeclarationKind::EnumConstant, "enum_constant"},
    {DeclarationKind::Typedef, "typedef"},
    {DeclarationKind::Macro, "macro"},
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
    declarations.push_back(std::move(item));
  }
  nlohmann::ordered_json document = {
      {"release", inventory.release.to_string()}, {"declarations", declarations}, {"notes", inventory.notes}};
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
      inventory.declarations.push_back(std::move(d));
    }
    if (document.contains("notes")) inventory.notes = document.at("notes").get<std::vector<std::string>>();
    return inventory;
  } catch (const nlohmann::json::exception& error) {
    throw ToolError(fmt::format("{}: not a valid inventory: {}", path.string(), error.what()));
  } catch (const ToolError& error) {
    throw ToolError(fmt::format("{}: not a valid inventory: {}", path.string(), error.what()));
  }
}

}  // namespace abicheck
