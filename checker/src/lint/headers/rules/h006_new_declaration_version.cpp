#include <fmt/format.h>

#include <map>
#include <string>

#include "baseline/release_history.h"
#include "inventory/runtime_dependency.h"
#include "lint/headers/header_rule_support.h"
#include "lint/headers/header_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{"H006", "new-declaration-version", LintSeverity::Error,
                         "A new declaration is guarded where extensions that use it break: newer than the tree, or "
                         "older while they depend on it at run time.",
                         "Guard the new declaration with this tree's release."};

// What the guard costs: guarded older than the tree, the declaration is a break only where an extension that
// uses it depends on it at run time (a shim it imports, an enumerator a wrapper passes on: runtime_dependency);
// header-only code guarded at the oldest release that supports it is what PyTorch's review rules ask for.
// Guarded newer, an extension targeting the tree's own release cannot use what that release ships.
struct Cost {
  std::string words;
  Consequence consequence = Consequence::Unstated;
};

Cost cost_of(const HeaderLintInput& input, const ShimDeclaration& d, TorchVersion own,
             const std::map<DeclarationKey, TorchVersion>& first) {
  if (d.since > own) {
    return {fmt::format("an extension targeting {} that uses it does not compile, though torch {} ships it",
                        own.to_string(), own.to_string()),
            Consequence::DoesNotCompile};
  }
  DeclarationDependency dependency = runtime_dependency(input.candidate, d, first);
  if (dependency.kind == RuntimeDependency::None || dependency.from >= own) return {};
  return {consequence_of(dependency, d), consequence_kind(dependency)};
}

void check(const HeaderLintInput& input, const LintRule& rule, DiagnosticSink& sink) {
  auto first = first_shipped_releases(input.earlier);
  TorchVersion own = input.candidate.release.minor_release();
  for (const auto& d : input.candidate.declarations) {
    if (!is_targeted(d) || is_unguarded_macro(d) || first.contains(key_of(d)) || d.since == own ||
        input.moved_in.contains(key_of(d))) {
      continue;
    }
    Cost cost = cost_of(input, d, own, first);
    if (cost.words.empty()) continue;
    sink.report(rule, position_of(input, d),
                fmt::format("{} is new in {} but its guard says {}: {} (#if TORCH_FEATURE_VERSION >= "
                            "TORCH_VERSION_{}_{}_0)",
                            describe(d), own.to_string(), d.since.to_string(), cost.words, own.major, own.minor),
                cost.consequence);
  }
}

}  // namespace

HeaderRule new_declaration_version_rule() { return {kRule, check}; }

}  // namespace abicheck
