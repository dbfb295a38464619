#include <fmt/format.h>

#include "baseline/release_history.h"
#include "inventory/runtime_dependency.h"
#include "lint/headers/header_rule_support.h"
#include "lint/headers/header_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{
    "H001", "guard-too-weak", LintSeverity::Error,
    "A declaration that an extension depends on at run time is visible at a target older than the first release "
    "that shipped it.",
    "Guard the declaration with the release that first shipped it."};

// Judged by what an extension that uses the declaration at its guard's target depends on at run time
// (inventory/runtime_dependency.h): a shim it imports, or an enumerator a wrapper passes to libtorch. Header-only
// code visible before it shipped is new API for older targets and loads there (probed on the real releases:
// bench/HISTORY.md), as PyTorch's own review rules allow a wrapper guarded at the oldest release that supports it.
void check(const HeaderLintInput& input, const LintRule& rule, DiagnosticSink& sink) {
  auto first = first_shipped_releases(input.earlier);
  for (const auto& d : input.candidate.declarations) {
    if (!is_targeted(d) || is_unguarded_macro(d)) continue;
    auto shipped = first.find(key_of(d));
    if (shipped == first.end() || d.since >= shipped->second || input.moved_in.contains(key_of(d))) continue;
    DeclarationDependency dependency = runtime_dependency(input.candidate, d, first);
    if (dependency.kind == RuntimeDependency::None || dependency.from >= shipped->second) continue;
    sink.report(
        rule, position_of(input, d),
        fmt::format("{} is visible at target {} but first shipped in {}: {} (missing or too weak guard)", describe(d),
                    d.since.to_string(), shipped->second.to_string(), consequence_of(dependency, d)),
        consequence_kind(dependency));
  }
}

}  // namespace

HeaderRule guard_too_weak_rule() { return {kRule, check}; }

}  // namespace abicheck
