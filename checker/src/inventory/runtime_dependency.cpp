#include "inventory/runtime_dependency.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string_view>

#include "inventory/declaration_name.h"

namespace abicheck {
namespace {

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':'; }

// Whether a parameter type names `type` as a whole qualified name: "std::optional<c10::ScalarType>"
// names c10::ScalarType, "c10::ScalarTypeX" does not.
bool names_type(std::string_view parameter, std::string_view type) {
  for (std::size_t at = parameter.find(type); at != std::string_view::npos; at = parameter.find(type, at + 1)) {
    std::size_t end = at + type.size();
    bool starts = at == 0 || !is_name_char(parameter[at - 1]);
    if (starts && (end == parameter.size() || !is_name_char(parameter[end]))) return true;
  }
  return false;
}

// Whether one of a method's parameters is of `type`, or holds one.
bool takes_parameter_of(const ShimDeclaration& method, std::string_view type) {
  return std::ranges::any_of(declaration_name(method.name).parameter_types,
                             [&](const std::string& parameter) { return names_type(parameter, type); });
}

}  // namespace

DeclarationDependency runtime_dependency(const ShimInventory& inventory, const ShimDeclaration& declaration,
                                         const std::map<DeclarationKey, TorchVersion>& first_shipped) {
  // Every Function of the inventory is a C shim declared by the headers and defined by libtorch.
  if (declaration.kind == DeclarationKind::Function) return {RuntimeDependency::ExportedSymbol, declaration.since, {}};
  if (declaration.kind != DeclarationKind::EnumConstant) return {};
  std::string enum_name = declaration_name(declaration.name).scope;
  if (enum_name.empty()) return {};
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

Consequence consequence_kind(const DeclarationDependency& dependency) {
  switch (dependency.kind) {
    case RuntimeDependency::ExportedSymbol: return Consequence::DoesNotLoad;
    case RuntimeDependency::ValueCrossesShim: return Consequence::FailsAtCallTime;
    case RuntimeDependency::None: break;
  }
  return Consequence::Unstated;
}

}  // namespace abicheck
