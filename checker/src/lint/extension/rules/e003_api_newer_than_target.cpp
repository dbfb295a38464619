#include <fmt/format.h>

#include "lint/extension/extension_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{
    "E003", "api-newer-than-target", LintSeverity::Error,
    "A translation unit uses a stable API that is newer than its target.",
    "Raise TORCH_TARGET_VERSION to the release that introduced the API, or do without it at this target."};

// The declaration of B's stable surface that a name refers to: "torch_foo", or the last
// component of a qualified C++ name.
const ShimDeclaration* find_declaration(const ShimInventory& inventory, const std::string& name) {
  const ShimDeclaration* newest = nullptr;
  for (const auto& declaration : inventory.declarations) {
    std::string_view declared = declaration.name;
    if (auto colons = declared.rfind("::"); colons != std::string_view::npos) declared.remove_prefix(colons + 2);
    if (declared == name && (!newest || declaration.since < newest->since)) newest = &declaration;
  }
  return newest;
}

// Compiled at its target against B's headers, a use of something newer than the target is an
// "undeclared" error; the inventory says which release brought it.
void check(const ExtensionFacts& facts, const ExtensionLintContext& context, const LintRule& rule,
           DiagnosticSink& sink) {
  if (!context.build_inventory) return;
  for (const auto& unit : facts.units) {
    auto target = unit_target(unit);
    if (!target) continue;
    for (const auto& error : unit.errors) {
      if (error.missing_name.empty()) continue;
      const ShimDeclaration* declaration = find_declaration(*context.build_inventory, error.missing_name);
      if (!declaration || declaration->since <= *target) continue;
      sink.report(
          rule, error.where,
          fmt::format("'{}' was introduced in torch {}, newer than the target {} ({} declares it)", error.missing_name,
                      declaration->since.to_string(), target->to_string(), declaration->header));
    }
  }
}

}  // namespace

ExtensionRule api_newer_than_target_rule() { return {kRule, check}; }

}  // namespace abicheck
