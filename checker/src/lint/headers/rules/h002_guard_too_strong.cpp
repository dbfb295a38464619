#include <fmt/format.h>

#include "baseline/release_history.h"
#include "lint/headers/header_rule_support.h"
#include "lint/headers/header_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{"H002", "guard-too-strong", LintSeverity::Error,
                         "A declaration's guard is newer than the first release that shipped it.",
                         "Lower the guard to the release that first shipped the declaration."};

void check(const HeaderLintInput& input, const LintRule& rule, DiagnosticSink& sink) {
  auto first = first_shipped_releases(input.earlier);
  for (const auto& d : input.candidate.declarations) {
    if (!is_targeted(d)) continue;
    auto shipped = first.find(key_of(d));
    if (shipped == first.end() || d.since <= shipped->second) continue;
    sink.report(
        rule, position_of(input, d),
        fmt::format("{} is guarded at {} but shipped in {}: extensions that already target {} lose it", describe(d),
                    d.since.to_string(), shipped->second.to_string(), shipped->second.to_string()));
  }
}

}  // namespace

HeaderRule guard_too_strong_rule() { return {kRule, check}; }

}  // namespace abicheck
