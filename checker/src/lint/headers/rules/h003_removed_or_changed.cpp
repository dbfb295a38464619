#include <fmt/format.h>

#include "lint/headers/header_rule_support.h"
#include "lint/headers/header_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{"H003", "removed-or-changed", LintSeverity::Error,
                         "A declaration of the previous release disappears or changes its signature."};

void check(const HeaderLintInput& input, const LintRule& rule, DiagnosticSink& sink) {
  if (input.earlier.empty()) return;
  const ShimInventory& previous = input.earlier.back();
  // The same pairing of releases as the diff's (inventory/declaration_pairing.h).
  DeclarationPairing pairing = pair_declarations(previous, input.candidate, is_targeted);
  for (const ShimDeclaration* old : pairing.removed) {
    sink.report(rule, position_of(input, *old),
                fmt::format("{} of {} ({}:{} there) is gone at every target", describe(*old),
                            previous.release.to_string(), old->header, old->line));
  }
  for (const auto& [old, now] : pairing.kept) {
    if (old->kind == DeclarationKind::Macro || normal_signature(now->signature) == normal_signature(old->signature)) {
      continue;
    }
    sink.report(
        rule, position_of(input, *now),
        fmt::format("{} changed its signature since {}: '{}' became '{}'", describe(*old), previous.release.to_string(),
                    normal_signature(old->signature), normal_signature(now->signature)));
  }
}

}  // namespace

HeaderRule removed_or_changed_rule() { return {kRule, check}; }

}  // namespace abicheck
