#include <fmt/format.h>

#include "inventory/runtime_dependency.h"
#include "lint/extension/extension_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{
    "E003", "api-newer-than-target", LintSeverity::Error,
    "A translation unit uses a stable API that is newer than its target.",
    "Raise TORCH_TARGET_VERSION to the release that introduced the API, or do without it at this target."};

// Compiled at its target against B's headers, a use of something newer than the target is an
// "undeclared" error, or, for a newer overload of a name the target has, a call no overload fits;
// B's inventory says which release brought the declaration it can mean (the oldest of those). A shim
// B's headers do not guard compiles, and does not load on the target's torch.
void check(const ExtensionFacts& facts, const ExtensionLintContext& context, const LintRule& rule,
           DiagnosticSink& sink) {
  if (!context.build_inventory) return;
  std::vector<DeclarationName> names;
  for (const auto& declaration : context.build_inventory->declarations)
    names.push_back(declaration_name(declaration.name));
  for (const auto& unit : facts.units) {
    auto target = unit_target(unit);
    if (!target) continue;
    for (const auto& error : unit.errors) {
      const MissingDeclaration& missing = error.missing;
      if (missing.name.empty()) continue;
      // The oldest declaration the error can mean; for a call no overload fits, the oldest newer than
      // the target (an older one is visible there and did not fit).
      const ShimDeclaration* meant = nullptr;
      const DeclarationName* meant_name = nullptr;
      for (std::size_t i = 0; i < names.size(); ++i) {
        const ShimDeclaration& declaration = context.build_inventory->declarations[i];
        if (!may_mean(missing, names[i]) || (missing.overload_missing && declaration.since <= *target)) continue;
        if (!meant || declaration.since < meant->since) {
          meant = &declaration;
          meant_name = &names[i];
        }
      }
      if (!meant || meant->since <= *target) continue;
      std::string message =
          missing.overload_missing
              ? fmt::format(
                    "the overload '{}' was introduced in torch {}, newer than the target {} ({} declares "
                    "it); no overload of '{}' that the target has takes this call's arguments",
                    meant->name, meant->since.to_string(), target->to_string(), meant->header, meant_name->qualified())
              : fmt::format("'{}' was introduced in torch {}, newer than the target {} ({} declares it)",
                            meant_name->qualified(), meant->since.to_string(), target->to_string(), meant->header);
      sink.report(rule, error.where, message, Consequence::DoesNotCompile);
    }
    // A shim that B's headers declare at the target without a guard compiles there, and torch T lacks it
    // when no release up to T declared it (the history's first, at any target).
    for (const auto& reference : unit.shim_references) {
      const ShimDeclaration* shim = context.build_inventory->find(reference.shim);
      auto first = context.released_names.find({reference.shim, DeclarationKind::Function});
      if (!shim || shim->kind != DeclarationKind::Function || first == context.released_names.end() ||
          first->second <= *target) {
        continue;
      }
      DeclarationDependency imported{RuntimeDependency::ExportedSymbol, *target, {}};
      sink.report(rule, reference.where,
                  fmt::format("'{}' was introduced in torch {}, newer than the target {}, and torch {}'s headers "
                              "declare it at the target without a guard: {}",
                              reference.shim, first->second.to_string(), target->to_string(),
                              context.build_torch.to_string(), consequence_of(imported, *shim)),
                  consequence_kind(imported));
    }
  }
}

}  // namespace

ExtensionRule api_newer_than_target_rule() { return {kRule, check}; }

}  // namespace abicheck
