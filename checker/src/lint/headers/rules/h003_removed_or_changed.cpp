#include <fmt/format.h>

#include <set>

#include "lint/headers/header_rule_support.h"
#include "lint/headers/header_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{
    "H003", "removed-or-changed", LintSeverity::Error,
    "A declaration of the previous release disappears or changes its signature.",
    "Restore the declaration as the previous release had it; add changed versions under new names."};

// Reports what `reference` declared that the candidate lost or changed, once per declaration
// (`reported` carries the keys already reported against another reference).
void compare_with(const HeaderLintInput& input, const ShimInventory& reference, const LintRule& rule,
                  DiagnosticSink& sink, std::set<DeclarationKey>& reported) {
  // The same pairing of releases as the diff's (inventory/declaration_pairing.h).
  DeclarationPairing pairing = pair_declarations(reference, input.candidate, is_targeted);
  for (const ShimDeclaration* old : pairing.removed) {
    if (!reported.insert(key_of(*old)).second) continue;
    sink.report(rule, position_of(input, *old),
                fmt::format("{} of {} ({}:{} there) is gone at every target: an extension built with a "
                            "TORCH_TARGET_VERSION that uses it does not compile against these headers",
                            describe(*old), reference.release.to_string(), old->header, old->line),
                Consequence::DoesNotCompile);
  }
  for (const auto& [old, now] : pairing.kept) {
    if (old->kind == DeclarationKind::Macro || same_signature(*old, *now)) continue;
    if (!reported.insert(key_of(*old)).second) continue;
    sink.report(
        rule, position_of(input, *now),
        fmt::format("{} changed its signature since {}: '{}' became '{}'", describe(*old),
                    reference.release.to_string(), normal_signature(old->signature), normal_signature(now->signature)));
  }
}

// Against the release's own committed baseline first (what this release shipped: a declaration it
// added and then lost is a break too), then against the release before.
void check(const HeaderLintInput& input, const LintRule& rule, DiagnosticSink& sink) {
  std::set<DeclarationKey> reported;
  if (input.shipped) compare_with(input, *input.shipped, rule, sink, reported);
  if (!input.earlier.empty()) compare_with(input, input.earlier.back(), rule, sink, reported);
}

}  // namespace

HeaderRule removed_or_changed_rule() { return {kRule, check}; }

}  // namespace abicheck
