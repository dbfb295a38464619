#include "inventory/runtime_dependency.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string_view>

namespace abicheck {
namespace {

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':'; }

// Whether a method's parameter list (the part of its inventory name from the first '(') names `type` as a
// whole qualified name: "std::optional<c10::ScalarType>" names c10::ScalarType, "c10::ScalarTypeX" does not.
bool takes_parameter_of(const ShimDeclaration& method, std::string_view type) {
  std::string_view name = method.name;
  std::size_t open = name.find('(');
  if (open == std::string_view::npos) return false;
  std::string_view parameters = name.substr(open);
  for (std::size_t at = parameters.find(type); at != std::string_view::npos; at = parameters.find(type, at + 1)) {
    std::size_t end = at + type.size();
    if (!is_name_char(parameters[at - 1]) && (end == parameters.size() || !is_name_char(parameters[end]))) return true;
  }
  return false;
}

}  // namespace

DeclarationDependency runtime_dependency(const ShimInventory& inventory, const ShimDeclaration& declaration,
                                         const std::map<DeclarationKey, TorchVersion>& first_shipped) {
  // Every Function of the inventory is a C shim declared by the headers and defined by libtorch.
  if (declaration.kind == DeclarationKind::Function) return {RuntimeDependency::ExportedSymbol, declaration.since, {}};
  if (declaration.kind != DeclarationKind::EnumConstant) return {};
  std::size_t scope = declaration.name.rfind("::");
  if (scope == std::string::npos) return {};
  std::string enum_name = declaration.name.substr(0, scope);
  auto shipped = [&](const DeclarationKey& key) {
    auto found = first_shipped.find(key);
    return found == first_shipped.end() ? inventory.release.minor_release() : found->second;
  };
  if (shipped(key_of(declaration)) <= shipped(DeclarationKey{enum_name, DeclarationKind::Enum})) return {};
  // The carrier with the oldest guard, the first of those in the inventory's order (the same one every run).
  const ShimDeclaration* carrier = nullptr;
  for (const auto& d : inventory.declarations) {
    if (d.kind == DeclarationKind::Method && d.backend.empty() && (!carrier || d.since < carrier->since) &&
        takes_parameter_of(d, enum_name)) {
      carrier = &d;
    }
  }
  if (!carrier) return {};
  return {RuntimeDependency::ValueCrossesShim, std::max(declaration.since, carrier->since), carrier->name};
}

std::string consequence_of(const DeclarationDependency& dependency, const ShimDeclaration& declaration) {
  std::string release = dependency.from.to_string();
  switch (dependency.kind) {
    case RuntimeDependency::ExportedSymbol:
      return fmt::format(
          "an extension targeting {} that uses it compiles, and does not load on torch {}: undefined "
          "symbol {}",
          release, release, declaration.name);
    case RuntimeDependency::ValueCrossesShim:
      return fmt::format(
          "an extension targeting {} that uses it compiles, and fails at call time on torch {} when {} "
          "passes it on (a value torch {} did not ship)",
          release, release, dependency.carrier, release);
    case RuntimeDependency::None: break;
  }
  return {};
}

}  // namespace abicheck
